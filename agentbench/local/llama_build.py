"""llama.cpp's own server (`llama-server`), built once from source into agentbench's cache.

No binary of llama-server is on the package registries for a plain x86_64 Linux machine, but its
source ships inside the llama-cpp-python sdist on PyPI (`vendor/llama.cpp`). We download that
sdist (pinned), build only the `llama-server` target (CPU, no curl, no OpenSSL) and install the
binary into `<cache>/llama-server/<pin>/bin/`. `scripts/setup_llama_server.sh` runs this module;
the embedded profiles run it on first use when the binary is missing. A lock file keeps two
processes from building at once; the second waits and then reuses the first one's build.

    python -m agentbench.local.llama_build        # build (or report the cached build)
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from agentbench.errors import ConfigError
from agentbench.local.weights import cache_dir

PIN = "0.3.36"  # llama-cpp-python sdist; its vendored llama.cpp is 0.5.0-dev, commit 0c1e570
CMAKE_FLAGS = [
    "-DLLAMA_CURL=OFF",
    "-DLLAMA_OPENSSL=OFF",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_SERVER=ON",
    "-DCMAKE_BUILD_TYPE=Release",
    "-DBUILD_SHARED_LIBS=OFF",
    "-DGGML_NATIVE=ON",
]


def server_binary(env: dict[str, str] | None = None) -> Path:
    """Where the built llama-server lies (it may not exist yet)."""
    return cache_dir(env) / "llama-server" / PIN / "bin" / "llama-server"


def _run(command: list[str], log: Path, cwd: Path | None = None) -> None:
    with log.open("ab") as out:
        code = subprocess.call(command, stdout=out, stderr=subprocess.STDOUT, cwd=cwd)
    if code != 0:
        tail = log.read_text(errors="replace").strip().splitlines()[-15:]
        raise ConfigError(
            f"building llama-server failed at `{' '.join(command[:3])} …` (exit {code}); "
            f"log: {log}\n" + "\n".join(tail)
        )


def _build(dest: Path, say: Callable[[str], None]) -> None:
    missing = [tool for tool in ("cmake", "c++") if shutil.which(tool) is None]
    if missing:
        raise ConfigError(
            f"llama-server is not built and the build needs {', '.join(missing)}: install a C++ "
            "toolchain and cmake (Debian: apt-get install build-essential cmake)"
        )
    jobs = len(os.sched_getaffinity(0))
    install = dest.parent.parent  # <cache>/llama-server/<pin>
    root = install.parent
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build.", dir=root))
    log = root / "build.log"
    log.write_text("")
    started = time.monotonic()
    say(
        f"llama-server: building llama.cpp's server from the llama-cpp-python {PIN} sdist "
        f"(once; about 10 minutes on 2 cores, {jobs} jobs here; log: {log})"
    )
    try:
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                f"llama-cpp-python=={PIN}",
                "-d",
                str(work),
            ],
            log,
        )
        with tarfile.open(work / f"llama_cpp_python-{PIN}.tar.gz") as tar:
            tar.extractall(work, filter="data")
        src = work / f"llama_cpp_python-{PIN}" / "vendor" / "llama.cpp"
        _run(["cmake", "-S", str(src), "-B", str(work / "build"), *CMAKE_FLAGS], log)
        _run(
            ["cmake", "--build", str(work / "build"), "--target", "llama-server", f"-j{jobs}"], log
        )
        staged = root / f"{PIN}.tmp"
        shutil.rmtree(staged, ignore_errors=True)
        (staged / "bin").mkdir(parents=True)
        shutil.copy2(work / "build" / "bin" / "llama-server", staged / "bin" / "llama-server")
        shutil.rmtree(install, ignore_errors=True)
        staged.rename(install)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    say(f"llama-server: built in {time.monotonic() - started:.0f} s -> {dest}")


def ensure_server(
    env: dict[str, str] | None = None, say: Callable[[str], None] | None = None
) -> Path:
    """The llama-server binary, built first if it is not in the cache yet."""
    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    binary = server_binary(env)
    if binary.exists():
        return binary
    root = binary.parent.parent.parent  # <cache>/llama-server
    root.mkdir(parents=True, exist_ok=True)
    lock_path = root / f"{PIN}.lock"
    with lock_path.open("w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("llama-server: another process is building it; waiting for that build")
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not binary.exists():
            _build(binary, say)
    return binary


def server_version(binary: Path) -> str:
    """`llama-server --version`, e.g. "version: 1 (0c1e570)"; empty when it cannot run."""
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = [ln.strip() for ln in (out.stdout + out.stderr).splitlines() if ln.strip()]
    return " ".join(ln for ln in lines if ln.startswith(("version", "built with")))


def main() -> int:
    try:
        binary = ensure_server()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"llama-server: {binary}")
    print(server_version(binary) or "llama-server: --version printed nothing")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

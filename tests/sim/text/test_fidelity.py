"""The text-language corpora against the real tools (benchmarks/sim_fidelity.py): every program
is answered exactly as real jq, GNU awk or GNU sed answers it (stdout and exit status), or is
reported not simulated — never answered differently while claiming to be simulated."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "sim_fidelity", ROOT / "benchmarks/sim_fidelity.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


FIDELITY = _harness()
TEXTS = FIDELITY.inputs()
CASES = [(lang, entry) for lang in FIDELITY.LANGUAGES for entry in FIDELITY.programs(lang)]


def _oracle_missing(language: str) -> str | None:
    if language == "jq":
        return None if importlib.util.find_spec("jq") else "the jq bindings (pip install jq)"
    real = {"awk": "gawk", "sed": "sed"}[language]
    return None if shutil.which(real) else f"{real} (apt-get install {real})"


@pytest.mark.parametrize("language", FIDELITY.LANGUAGES)
def test_each_corpus_has_fifty_programs_on_known_fixtures(language: str) -> None:
    entries = FIDELITY.programs(language)
    assert len(entries) >= 50
    for entry in entries:
        assert entry["in"] in TEXTS and isinstance(entry["args"], list), entry


@pytest.mark.parametrize(
    ("language", "entry"),
    CASES,
    ids=[f"{lang}:{' '.join(e['args'])[:50]}" for lang, e in CASES],
)
def test_program_is_exact_or_not_simulated(language: str, entry: dict[str, Any]) -> None:
    missing = _oracle_missing(language)
    if missing:
        pytest.skip(f"the oracle is not installed: {missing}")
    verdict, detail = FIDELITY.judge(language, entry, TEXTS)
    assert verdict != "wrong", detail
    if verdict == "not simulated":
        assert detail, "a not-simulated answer names its construct"


def test_the_judge_catches_a_wrong_answer() -> None:
    """The oracle comparison is live: a real tool's answer differs from a wrong one."""
    if _oracle_missing("sed"):
        pytest.skip("GNU sed is not installed")
    truth = FIDELITY.real("sed", ["-n", "2p"], "a\nb\nc\n")
    assert (truth.stdout, truth.exit_code) == ("b\n", 0)
    ours = FIDELITY.simulate("sed", ["-n", "2p"], "a\nb\nc\n")
    assert (ours.stdout, ours.exit_code, ours.simulated) == ("b\n", 0, True)
    assert FIDELITY.real("sed", ["-n", "3p"], "a\nb\nc\n").stdout != ours.stdout


@pytest.mark.parametrize(
    ("language", "args"),
    [
        ("jq", ["def twice: . * 2; .[] | twice"]),
        ("jq", [".[] as [$a] | $a"]),
        ("jq", ["--tab", "."]),
        ("awk", ["function twice(x) { return 2 * x } { print twice($1) }"]),
        ("awk", ["{ while ((getline line) > 0) n++ } END { print n }"]),
        ("sed", [":a;N;$!ba;s/\\n/,/g"]),
        ("sed", ["-n", "w /tmp/out"]),
    ],
)
def test_valid_syntax_it_does_not_read_is_not_simulated(language: str, args: list[str]) -> None:
    """Never an invented error for a program the real tool accepts."""
    ours = FIDELITY.simulate(language, args, "[1, 2]\n")
    assert not ours.simulated and ours.construct, ours


@pytest.mark.parametrize(
    ("language", "args"),
    [("jq", [".["]), ("jq", [".a | $nope"]), ("sed", ["k"]), ("sed", ["s/a/b"]), ("sed", ["{p"])],
)
def test_wrong_syntax_gets_the_real_tools_exit_status(language: str, args: list[str]) -> None:
    missing = _oracle_missing(language)
    if missing:
        pytest.skip(f"the oracle is not installed: {missing}")
    ours = FIDELITY.simulate(language, args, "{}\n")
    truth = FIDELITY.real(language, args, "{}\n")
    assert ours.simulated and truth.exit_code != 0
    assert (ours.stdout, ours.exit_code) == (truth.stdout, truth.exit_code)

"""The text languages' fidelity against the real tools (tests/sim/corpus/*_programs.yaml).

    python benchmarks/sim_fidelity.py [jq|awk|sed ...]

Every corpus program runs on its fixture text (tests/sim/corpus/text_inputs.yaml, on stdin)
twice: in the simulator, as the shell line `cat FIXTURE | PROG ARGS…` on a World holding the
fixture, and in the real tool — jq through its Python bindings (`pip install jq`), GNU awk
(`gawk`) and GNU sed from the system. Each is counted `exact` (same stdout, same exit status),
`not simulated` (the simulator reported it off-script) or `wrong` (answered differently while
claiming to be simulated), and the wrong ones are listed. The real tools are test oracles
only: they run here on fixed fixture text, never on a model's input.
tests/sim/text/test_fidelity.py asserts that no program is answered wrongly.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from agentbench.sim.world import World, WorldSpec

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "sim" / "corpus"
LANGUAGES = ("jq", "awk", "sed")
_REAL = {"awk": "gawk", "sed": "sed"}
_ENV = {"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"}


@dataclass(frozen=True)
class Answer:
    stdout: str
    exit_code: int
    simulated: bool = True
    construct: str = ""


def inputs() -> dict[str, str]:
    return dict(yaml.safe_load((CORPUS / "text_inputs.yaml").read_text()))


def programs(language: str) -> list[dict[str, Any]]:
    return list(yaml.safe_load((CORPUS / f"{language}_programs.yaml").read_text())["programs"])


def simulate(language: str, args: list[str], text: str) -> Answer:
    world = World(WorldSpec(files={"/fixture/input": text}))
    line = f"cat /fixture/input | {shlex.join([language, *args])}"
    answer = world.call("run_command", {"cmd": line})
    assert answer is not None
    result = answer.result
    return Answer(result.stdout, result.exit_code, result.simulated, result.not_simulated)


def real(language: str, args: list[str], text: str) -> Answer:
    if language == "jq":
        return real_jq(args, text)
    done = subprocess.run(
        [_REAL[language], *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=10,
        env=_ENV,
        check=False,
    )
    return Answer(done.stdout, done.returncode)


def real_jq(args: list[str], text: str) -> Answer:
    """jq 1.7's CLI behaviour for the flags the corpus uses, through the `jq` bindings."""
    import jq

    flags: set[str] = set()
    named: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--arg":
            named[args[i + 1]] = args[i + 2]
            i += 3
            continue
        if arg.startswith("-") and len(arg) > 1:
            flags |= {f"-{c}" for c in arg[1:]}
        else:
            rest.append(arg)
        i += 1
    program = rest[0] if rest else "."
    try:
        compiled = jq.compile(f"({program}) | tojson", args=named)
    except ValueError:
        return Answer("", 3)
    outputs: list[str] = []
    code = 0
    try:
        runner = compiled.input_value(None) if "-n" in flags else None
        if runner is None:
            runner = compiled.input_text(text, slurp="-s" in flags)
        for encoded in runner:
            outputs.append(encoded)
    except ValueError:
        code = 5
    lines = []
    for encoded in outputs:
        value = json.loads(encoded)
        if "-r" in flags and isinstance(value, str):
            lines.append(value)
        elif "-c" in flags:
            lines.append(encoded)
        else:
            lines.append(json.dumps(value, indent=2, ensure_ascii=False))
    if code == 0 and "-e" in flags:
        code = 4 if not outputs else (1 if json.loads(outputs[-1]) in (None, False) else 0)
    return Answer("".join(line + "\n" for line in lines), code)


def judge(language: str, entry: dict[str, Any], texts: dict[str, str]) -> tuple[str, str]:
    """(exact | not simulated | wrong, what differed)."""
    text = texts[entry["in"]]
    try:
        ours = simulate(language, entry["args"], text)
    except Exception as exc:  # a simulator bug: the runtime would answer off-script, noted
        return "wrong", f"the simulator raised {type(exc).__name__}: {exc}"
    if not ours.simulated:
        return "not simulated", ours.construct
    truth = real(language, entry["args"], text)
    if (ours.stdout, ours.exit_code) == (truth.stdout, truth.exit_code):
        return "exact", ""
    ours_text = f"{ours.exit_code} {ours.stdout!r:.300}"
    real_text = f"{truth.exit_code} {truth.stdout!r:.300}"
    return "wrong", f"simulator {ours_text} != real {real_text}"


def main(argv: list[str]) -> int:
    texts = inputs()
    wrong_total = 0
    for language in argv or LANGUAGES:
        entries = programs(language)
        counts = {"exact": 0, "not simulated": 0, "wrong": 0}
        wrong: list[str] = []
        for entry in entries:
            verdict, detail = judge(language, entry, texts)
            counts[verdict] += 1
            if verdict == "wrong":
                wrong.append(
                    f"  {language} {shlex.join(entry['args'])}  <{entry['in']}>\n    {detail}"
                )
        n = len(entries)
        ok = counts["exact"] + counts["not simulated"]
        print(
            f"{language}: {n} programs: {counts['exact']} exact, {counts['not simulated']} not "
            f"simulated, {counts['wrong']} wrong — {ok / n:.0%} exact or not simulated"
        )
        print("\n".join(wrong)) if wrong else None
        wrong_total += counts["wrong"]
    return 1 if wrong_total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Score the blind adversarial set with the project's own scorer; print FN and FP rates.

    python benchmarks/adversarial/score.py [CASE_DIR ...] [--task ID ...] [--list] [--json FILE]

A case is `verdict: correct` (correct-but-different work: a score below 1.0 is a false negative)
or `verdict: wrong` (wrong-but-plausible work: a score of 1.0 is a false positive). Rates are
printed per class, per category and overall, with each rate's sample size. `--list` names every
case the scorer gets wrong, with the scorer's reason. A case whose calls its tool's schema
refuses (an unquoted `cmd: kubectl get deploy,svc` that YAML reads as two keys) is a
malformed case file, not a judgement: it is named on a line of its own and left out of the rates.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import defaultdict
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agentbench.tasks.families.tier import load_tier  # noqa: E402
from agentbench.tasks.model import Step  # noqa: E402
from agentbench.tasks.validate import play  # noqa: E402

HERE = Path(__file__).resolve().parent
TOOLS = ROOT / "tasks" / "tools"


def malformed(case: dict, tools: list[str]) -> str:
    """Why a case's calls cannot be what its author meant (empty: they can)."""
    for step in case["steps"]:
        for call in step.get("calls") or []:
            name = call.get("tool")
            if name not in tools:
                return f"calls {name!r}, which the task does not offer"
            spec = yaml.safe_load((TOOLS / f"{name}.yaml").read_text(encoding="utf-8"))
            error = next(Draft202012Validator(spec["parameters"]).iter_errors(call["args"]), None)
            if error is not None:
                return f"{name} arguments {call['args']!r}: {error.message}"
    return ""


def load_cases(dirs: list[Path]) -> list[dict]:
    cases = []
    for folder in dirs:
        for path in sorted(folder.glob("*.yaml")):
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
            for case in doc["cases"]:
                cases.append({**case, "task": doc["task"], "file": str(path)})
    return cases


async def judge(cases: list[dict]) -> list[dict]:
    suite = load_tier(ROOT / "tasks", "full")
    tasks = {t.id: t for t in suite.tasks}
    out = []
    for case in cases:
        task = tasks[case["task"]]
        why_malformed = malformed(case, list(task.tools))
        if why_malformed:
            out.append({**case, "malformed": why_malformed})
            continue
        steps = [Step(**s) for s in case["steps"]]
        played = await play(suite, task, steps)
        if isinstance(played, str):
            score, why = None, played
        else:
            score, why = played.score, played.why
        correct = case["verdict"] == "correct"
        miss = score is None or (score < 1.0 if correct else score >= 1.0)
        out.append({**case, "category": task.category, "score": score, "why": why, "miss": miss})
    return out


def rate(rows: list[dict]) -> str:
    n = len(rows)
    k = sum(r["miss"] for r in rows)
    return f"{k}/{n} = {100 * k / n:.0f}%" if n else "n/a"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("dirs", nargs="*", type=Path, default=[HERE / "cases"])
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--task", action="append", default=[], help="only this task's cases")
    args = parser.parse_args()
    cases = [c for c in load_cases(args.dirs) if not args.task or c["task"] in args.task]
    judged = asyncio.run(judge(cases))
    results = [r for r in judged if "malformed" not in r]
    for r in judged:
        if "malformed" in r:
            print(f"malformed case {r['file']} [{r['name']}]: {r['malformed']}")
    fn = [r for r in results if r["verdict"] == "correct"]
    fp = [r for r in results if r["verdict"] == "wrong"]
    print(f"cases: {len(results)} ({len(fn)} correct-but-different, {len(fp)} wrong-but-plausible)")
    print(f"overall  FN {rate(fn)}   FP {rate(fp)}")
    for key in ("class", "category"):
        groups: dict[str, list[dict]] = defaultdict(list)
        for r in results:
            groups[r[key]].append(r)
        print(f"\nper {key}:")
        for name in sorted(groups):
            rows = groups[name]
            c = [r for r in rows if r["verdict"] == "correct"]
            w = [r for r in rows if r["verdict"] == "wrong"]
            print(f"  {name:<28} FN {rate(c):<14} FP {rate(w)}")
    if args.list:
        print("\nmisjudged:")
        for r in results:
            if r["miss"]:
                kind = "FN" if r["verdict"] == "correct" else "FP"
                why = str(r["why"])[:160]
                print(f"  {kind} {r['task']} [{r['name']}] score={r['score']}: {why}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Play a case's tool calls through its task's simulated environment and print what each returned.

    python benchmarks/adversarial/play.py cases/TASK_ID.yaml [CASE_NAME]
    python benchmarks/adversarial/play.py --task TASK_ID --cmd 'kubectl get pods -n web'

No score is printed: the blind authors use this to check the facts their trajectories rely on
(what a read shows, whether a write took effect) without seeing how the task is scored.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agentbench.tasks.env import SimulatedEnvironment  # noqa: E402
from agentbench.tasks.families.tier import load_tier  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("case_file", nargs="?")
    parser.add_argument("case_name", nargs="?")
    parser.add_argument("--task")
    parser.add_argument("--tool", default=None, help="tool name for --cmd (default: the first offered)")
    parser.add_argument("--cmd", action="append", default=[], help="a raw argument: a shell line, SQL, URL or JSON object")
    args = parser.parse_args()
    suite = load_tier(ROOT / "tasks", "full")
    tasks = {t.id: t for t in suite.tasks}
    if args.task:
        task = tasks[args.task]
        env = SimulatedEnvironment(task, suite.tools, suite.grammar)
        tool = args.tool or task.tools[0]
        for raw in args.cmd:
            arguments = _arguments(suite.tools[tool], raw)
            _show(env, tool, arguments)
        return 0
    doc = yaml.safe_load(Path(args.case_file).read_text(encoding="utf-8"))
    task = tasks[doc["task"]]
    for case in doc["cases"]:
        if args.case_name and case["name"] != args.case_name:
            continue
        print(f"=== {case['name']} ({case['verdict']}, {case['class']})")
        env = SimulatedEnvironment(task, suite.tools, suite.grammar)
        for step in case["steps"]:
            for call in step.get("calls", []):
                _show(env, call["tool"], call.get("args", {}))
            if "answer" in step:
                print(f"--- answer: {step['answer']}")
    return 0


def _arguments(tool, raw: str) -> dict:
    if raw.lstrip().startswith("{"):
        return json.loads(raw)
    props = list(tool.parameters.get("properties", {}))
    return {props[0]: raw}


def _show(env: SimulatedEnvironment, tool: str, arguments: dict) -> None:
    result = env.execute(tool, arguments)
    print(f"$ {tool} {json.dumps(arguments)}\n{result.content()}\n[source {result.source}]")
    for change in result.changes:
        print(f"[change {change}]")


if __name__ == "__main__":
    sys.exit(main())

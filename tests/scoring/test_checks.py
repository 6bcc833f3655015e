import pytest

from agentbench.scoring.checks import Scorer
from agentbench.tasks.model import Task


def task_with(expect: dict) -> Task:
    return Task.model_validate(
        {
            "id": "t-score",
            "category": "multi-tool",
            "difficulty": "easy",
            "description": "d",
            "prompt": "p",
            "tools": ["run_command"],
            "expect": expect,
            "reference": [{"answer": "x"}],
            "wrong": [{"name": "w", "steps": [{"answer": "y"}]}],
        }
    )


def cmd(c: str) -> tuple[str, dict]:
    return ("run_command", {"cmd": c})


A, B, C = "kubectl get pods -n web", "kubectl get svc -n web", "kubectl get nodes"


def calls_expect(mode: str, args: str = "exact") -> dict:
    return {
        "calls": {
            "mode": mode,
            "args": args,
            "calls": [
                {"tool": "run_command", "args": {"cmd": A}},
                {"tool": "run_command", "args": {"cmd": B}},
            ],
        }
    }


@pytest.mark.parametrize(
    ("mode", "calls", "passed"),
    [
        ("strict", [cmd(A), cmd(B)], True),
        ("strict", [cmd(B), cmd(A)], False),
        ("strict", [cmd(A), cmd(B), cmd(C)], False),
        ("unordered", [cmd(B), cmd("kubectl -n web get pods")], True),
        ("unordered", [cmd(A), cmd(A)], False),
        ("subset", [cmd(A)], True),
        ("subset", [cmd(A), cmd(C)], False),
        ("superset", [cmd(C), cmd(B), cmd(A)], True),
        ("superset", [cmd(A), cmd(A)], False),
    ],
)
def test_trajectory_modes(suite, mode, calls, passed) -> None:
    scorer = Scorer(task_with(calls_expect(mode)), suite.tools, suite.grammar)
    (check,) = scorer.checks(calls, [], "answer", {})
    assert check.passed is passed, check.detail


def test_args_subset_allows_extra_arguments(suite) -> None:
    expect = {
        "calls": {
            "mode": "strict",
            "args": "subset",
            "calls": [{"tool": "run_command", "args": {}}],
        }
    }
    scorer = Scorer(task_with(expect), suite.tools, suite.grammar)
    assert scorer.checks([cmd(A)], [], "x", {})[0].passed


def test_answer_checks_are_case_insensitive_and_precise(suite) -> None:
    expect = {
        "answer": {"contains": ["oomkilled"], "not_contains": ["image"], "regex": r"exit code 137"}
    }
    scorer = Scorer(task_with(expect), suite.tools, suite.grammar)
    assert scorer.checks([], [], "Container OOMKilled, exit code 137.", {})[0].passed
    check = scorer.checks([], [], "Bad image tag; OOMKilled", {})[0]
    assert not check.passed and "must not say 'image'" in check.detail
    assert scorer.checks([], [], None, {})[0].detail == "no final answer"


def test_json_answer_schema_and_fields(suite) -> None:
    expect = {
        "answer": {
            "json_schema": {"type": "object", "required": ["error", "component"]},
            "json_fields": {"component": "postgres", "error": {"$regex": "(?i)deadlock"}},
        }
    }
    scorer = Scorer(task_with(expect), suite.tools, suite.grammar)
    ok = '```json\n{"error": "Deadlock detected", "component": "Postgres"}\n```'
    assert scorer.checks([], [], ok, {})[0].passed
    bad = scorer.checks([], [], '{"error": "timeout", "component": "nginx"}', {})[0]
    assert not bad.passed and "component" in bad.detail


def test_repeated_failing_call_and_forbidden_call(suite) -> None:
    expect = {
        "max_repeats": 1,
        "forbid": [{"tool": "run_command", "args": {"cmd": {"$regex": "^rm "}}}],
    }
    scorer = Scorer(task_with(expect), suite.tools, suite.grammar)
    forbid, repeats = scorer.checks(
        [cmd(A), cmd("rm -rf /")], [cmd(A), cmd("kubectl -n web get pods")], None, {}
    )
    assert not repeats.passed and "repeated 2 times" in repeats.detail
    assert not forbid.passed

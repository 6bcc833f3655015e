"""`tasks validate`: alternates at 1.0, mistakes below, and what strict mode requires."""

import shutil
from pathlib import Path

import yaml

from agentbench.tasks.loader import load_suite
from agentbench.tasks.validate import validate_suite

from ..conftest import TASKS_DIR

TASK = {
    "id": "none-ttl-check",
    "category": "no-tool",
    "difficulty": "easy",
    "description": "Arithmetic without tools.",
    "prompt": "How many hours is a TTL of 86400 seconds?",
    "tools": ["run_command"],
    "max_steps": 3,
    "environment": {
        "rules": [{"tool": "run_command", "args": {"cmd": "date"}, "output": "Sun Nov 29"}]
    },
    "expect": {
        "forbid": [{"tool": "run_command", "args": {"cmd": "date"}, "why": "no tool is needed"}],
        "answer": {
            "claims": [{"name": "24 hours", "number": 24, "unit": "h"}],
            "decoys": [{"name": "one hour", "number": 1, "unit": "h"}],
        },
    },
    "reference": [{"answer": "86400 seconds is 24 hours."}],
    "alternates": [
        {"name": "in-days", "steps": [{"answer": "That is 24 h, i.e. one day."}]},
        {"name": "minutes-too", "steps": [{"answer": "1440 minutes, so 24 hours."}]},
    ],
    "wrong": [
        {"name": "hedged", "steps": [{"answer": "It could be 24 hours or 1 hour."}]},
        {
            "name": "tool",
            "steps": [
                {"calls": [{"tool": "run_command", "args": {"cmd": "date"}}]},
                {"answer": "24 hours."},
            ],
        },
    ],
}


def suite_with(tmp_path: Path, task: dict):
    root = tmp_path / "tasks"
    shutil.copytree(TASKS_DIR / "tools", root / "tools")
    shutil.copy(TASKS_DIR / "suite.yaml", root / "suite.yaml")
    (root / "no-tool").mkdir()
    path = root / "no-tool" / "ttl.yaml"
    path.write_text(yaml.safe_dump(task, sort_keys=False))
    return load_suite(root), path


def test_a_complete_task_passes_strict_validation(tmp_path) -> None:
    suite, _ = suite_with(tmp_path, TASK)
    assert validate_suite(suite, strict=True) == []


def test_an_alternate_below_one_is_reported_with_its_name(tmp_path) -> None:
    task = {
        **TASK,
        "alternates": [
            *TASK["alternates"],
            {"name": "one-hour", "steps": [{"answer": "About 1 hour."}]},
        ],
    }
    suite, path = suite_with(tmp_path, task)
    (problem,) = validate_suite(suite, strict=True)
    assert problem.field == "alternates.2" and "alternate 'one-hour'" in problem.message
    assert str(path) in str(problem)


def test_strict_mode_requires_variants_and_an_answer_check(tmp_path) -> None:
    task = {**TASK, "alternates": [], "wrong": TASK["wrong"][1:]}
    task["expect"] = {
        "forbid": [{"tool": "run_command", "args": {"cmd": "date"}, "why": "no tool is needed"}]
    }
    suite, _ = suite_with(tmp_path, task)
    fields = sorted(p.field for p in validate_suite(suite, strict=True))
    assert fields == ["alternates", "expect.answer", "wrong"]
    assert validate_suite(suite, strict=False) == []


def test_answer_unchecked_with_a_reason_is_accepted(tmp_path) -> None:
    task = {
        **TASK,
        "expect": {
            "forbid": [
                {"tool": "run_command", "args": {"cmd": "date"}, "why": "no tool is needed"}
            ],
            "answer_unchecked": "any wording is fine",
        },
    }
    task["wrong"] = [TASK["wrong"][1], {**TASK["wrong"][1], "name": "tool-again"}]
    suite, _ = suite_with(tmp_path, task)
    assert validate_suite(suite, strict=True) == []


def test_an_off_script_reference_fails_strict_validation(tmp_path) -> None:
    task = {**TASK, "expect": {"answer": TASK["expect"]["answer"]}}
    task["reference"] = [
        {"calls": [{"tool": "run_command", "args": {"cmd": "uptime"}}]},
        {"answer": "24 hours."},
    ]
    task["wrong"] = [TASK["wrong"][0], {"name": "one", "steps": [{"answer": "1 hour."}]}]
    suite, _ = suite_with(tmp_path, task)
    (problem,) = validate_suite(suite, strict=True)
    assert problem.field == "reference" and "off-script" in problem.message
    assert "uptime" in problem.message


def test_a_rule_that_shadows_the_simulator_on_a_reference_call_is_reported(tmp_path) -> None:
    task = {**TASK, "tools": ["read_file"], "expect": {"answer": TASK["expect"]["answer"]}}
    task["environment"] = {
        "files": {"/etc/ttl.conf": "ttl=86400\n"},
        "rules": [{"tool": "read_file", "args": {"path": "/etc/ttl.conf"}, "output": "ttl=86400"}],
    }
    read = {"calls": [{"tool": "read_file", "args": {"path": "/etc/ttl.conf"}}]}
    task["reference"] = [read, {"answer": "86400 seconds is 24 hours."}]
    task["wrong"] = [TASK["wrong"][0], {"name": "one", "steps": [{"answer": "1 hour."}]}]
    suite, _ = suite_with(tmp_path, task)
    (problem,) = validate_suite(suite, strict=True)
    assert problem.field == "reference" and "a rule answers read_file" in problem.message
    task["environment"].pop("rules")
    suite, _ = suite_with(tmp_path / "again", task)
    assert validate_suite(suite, strict=True) == []


def test_a_claim_worded_as_one_common_word_is_refused(tmp_path) -> None:
    task = {
        **TASK,
        "expect": {
            "forbid": [
                {"tool": "run_command", "args": {"cmd": "date"}, "why": "no tool is needed"}
            ],
            "answer": {"claims": [{"name": "u", "phrases": ["hours", "24 h"]}]},
        },
    }
    suite, _ = suite_with(tmp_path, task)
    problems = validate_suite(suite)
    assert [p.field for p in problems] == ["expect.answer.claims.0.phrases"], problems
    assert "'hours'" in problems[0].message


def test_a_crash_while_playing_is_one_problem_naming_where(tmp_path, monkeypatch) -> None:
    from agentbench.tasks.env import SimulatedEnvironment

    def broken(self, name, raw_args):
        raise KeyError("pods")

    monkeypatch.setattr(SimulatedEnvironment, "execute", broken)
    suite, _ = suite_with(tmp_path, TASK)
    problems = validate_suite(suite, strict=True)
    # Only the trajectory that calls a tool crashes.
    assert [p.field for p in problems] == ["wrong.1"]
    assert "raised KeyError: 'pods' (test_validate.py:" in problems[0].message


def test_an_invalid_json_schema_is_named(tmp_path) -> None:
    task = {
        **TASK,
        "expect": {
            "forbid": [
                {"tool": "run_command", "args": {"cmd": "date"}, "why": "no tool is needed"}
            ],
            "answer": {"json_schema": {"type": "objekt"}},
        },
    }
    suite, _ = suite_with(tmp_path, task)
    fields = {p.field: p.message for p in validate_suite(suite, strict=False)}
    assert "not a valid JSON Schema" in fields["expect.answer.json_schema"]

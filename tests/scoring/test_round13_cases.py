"""Round 13's dev cases (`benchmarks/adversarial/fresh12/`), played through the real loop,
simulators and scorer: each names the behaviour it pins."""

import asyncio
from pathlib import Path

import pytest
import yaml

from agentbench.tasks.loader import TaskSuite, load_suite
from agentbench.tasks.model import Step
from agentbench.tasks.validate import Played, play

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "benchmarks" / "adversarial" / "fresh12"


@pytest.fixture(scope="module")
def suite() -> TaskSuite:
    return load_suite(ROOT / "tasks")


def score(suite: TaskSuite, task_id: str, name: str) -> Played:
    case = next(
        c
        for c in yaml.safe_load((CASES / f"{task_id}.yaml").read_text())["cases"]
        if c["name"] == name
    )
    task = next(t for t in suite.tasks if t.id == task_id)
    played = asyncio.run(play(suite, task, [Step(**s) for s in case["steps"]]))
    assert isinstance(played, Played), played
    return played


@pytest.mark.parametrize(
    ("task_id", "name", "why"),
    [
        # correct work in other forms (why: ""): it scores 1.0
        # a cutoff worked out as "now minus 30 days" is no misdated read
        ("none-sessions-delete-readonly", "preview-then-decline", ""),
        # ids set apart by "haven't expired yet" are not listed among the members
        ("none-sessions-delete-readonly", "count-terse", ""),
        # "67 ... that isn't the answer yet ... 67 − 33 = 34": the working, not the answer
        ("data-inventory-available-units", "self-correction-distractor-sku", ""),
        # "fix by renaming the reference or creating the Secret": advice
        ("ops-missing-secret", "events-notfound-history", ""),
        # "the hourly delta syncs are still succeeding": not said of A-1042 of the sentence before
        ("err-rotated-log-moved", "current-log-then-rotated-with-baseline", ""),
        # "EXPIRE key 129600 in Redis": an example, not a component of the system
        ("none-ttl-seconds-arithmetic", "via-days-with-config", ""),
        # `delete all -l pr=4411` also deletes the ReplicaSet and pod the Deployment owns
        ("plan-preview-cleanup-by-label", "all-misses-ingress-self-correct", ""),
        # wrong work (why: the reason it must fail for)
        ("err-kubectl-logs-wrong-flag", "claims-lines-flag-worked", "a call which failed worked"),
        ("err-kubectl-logs-wrong-flag", "wrong-es-node", "what the outputs print of es-data-1"),
        ("long-access-log-5xx", "prose-around-json", "only a JSON object"),
        ("long-terraform-replacement", "json-plus-commentary", "only a JSON object"),
    ],
)
def test_a_dev_case_scores_as_its_verdict(
    suite: TaskSuite, task_id: str, name: str, why: str
) -> None:
    played = score(suite, task_id, name)
    if why:
        assert played.score < 1.0 and why in played.why, played.why
    else:
        assert played.score == 1.0, played.why

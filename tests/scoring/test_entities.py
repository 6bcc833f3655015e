"""Facts bound to entities: the subject comes from the declared state, the same predicate said
of another declared entity fails, swapped names fail, and a fact about no named entity holds."""

import subprocess
import sys
from pathlib import Path

import pytest

from agentbench.scoring.answer import answer_check
from agentbench.scoring.entities import declared_entities
from agentbench.scoring.facts import EpisodeFacts
from agentbench.tasks.loader import load_suite
from agentbench.tasks.model import AnswerExpectation, Task

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_suite(ROOT / "tasks").tasks}


def check(task: Task, answer: str) -> tuple[bool, str]:
    assert task.expect.answer is not None
    record = answer_check(task.expect.answer, EpisodeFacts(answer=answer), task)
    return record.passed, record.detail


def test_entities_come_from_the_declared_state(tasks: dict[str, Task]) -> None:
    task = tasks["ops-crashloop-oomkilled"]
    found = declared_entities(task.environment, task.prompt)
    assert {"pod/web/nginx-7c5ddbdf54-x8k2p", "pod/web/redis-0", "node/worker-2"} <= set(
        found.by_key
    )
    family = found.family("pod/web/nginx-7c5ddbdf54-x8k2p")
    assert "deployment/web/nginx" in family and "pod/web/redis-0" not in family
    assert [k for _, _, k in found.mentions("redis-0 on worker-2")] == [
        "pod/web/redis-0",
        "node/worker-2",
    ]


def test_the_right_cause_of_the_right_pod_passes(tasks: dict[str, Task]) -> None:
    ok, why = check(tasks["ops-crashloop-oomkilled"], "The nginx pod is OOMKilled (exit 137).")
    assert ok, why
    ok, why = check(
        tasks["ops-crashloop-oomkilled"],
        "It keeps going over its memory cap and the kernel kills it.",
    )
    assert ok, why


def test_the_right_cause_of_a_healthy_neighbour_fails(tasks: dict[str, Task]) -> None:
    ok, why = check(
        tasks["ops-crashloop-oomkilled"], "The redis-0 pod is being OOMKilled at its memory limit."
    )
    assert not ok and "redis-0" in why


def test_swapped_names_fail(tasks: dict[str, Task]) -> None:
    task = tasks["multi-image-staging-vs-production"]
    ok, why = check(task, "staging runs 2.15.0-rc2 and production runs 2.14.0.")
    assert ok, why
    ok, why = check(task, "staging runs 2.14.0 and production runs 2.15.0-rc2.")
    assert not ok and "asserted only of namespace/production" in why
    ok, _ = check(task, "staging: checkout:2.14.0; production: checkout:2.15.0-rc2.")
    assert not ok


def test_a_list_with_a_wrong_member_fails(tasks: dict[str, Task]) -> None:
    task = tasks["data-deploy-failures-log"]
    assert check(task, "3 failed: dep-70e8, dep-72a7 and dep-73c8.")[0]
    ok, why = check(task, "3 failed production deploys: dep-6f9a, dep-70e8 and dep-71d0.")
    assert not ok and "also names" in why


def test_a_negated_candidate_is_not_the_subject(tasks: dict[str, Task]) -> None:
    task = tasks["data-oncall-override-handover"]
    ok, why = check(
        task, "Not Priya Raman and not yet Tomasz Nowak. The primary at 08:00 is Marta Silva."
    )
    assert ok, why
    ok, _ = check(task, "Tomasz Nowak is primary at 08:00.")
    assert not ok


def test_a_check_under_a_host_is_its_own_entity(tasks: dict[str, Task]) -> None:
    task = tasks["multi-health-three-services"]
    assert check(task, "billing is unhealthy: its Stripe check times out after 5000ms.")[0]
    ok, why = check(task, "billing is unhealthy: its postgres check is timing out after 5000ms.")
    assert not ok and "postgres" in why


def test_an_unknown_lexicon_entry_is_one_line_from_validate(tmp_path: Path) -> None:
    source = (ROOT / "tasks" / "ops-diagnosis" / "crashloop-oomkilled.yaml").read_text()
    suite = tmp_path / "tasks"
    (suite / "ops").mkdir(parents=True)
    (suite / "tools").symlink_to(ROOT / "tasks" / "tools")
    (suite / "suite.yaml").write_text((ROOT / "tasks" / "suite.yaml").read_text())
    (suite / "ops" / "t.yaml").write_text(source.replace("is: oom-killed", "is: oom-kiled"))
    run = subprocess.run(
        [sys.executable, "-m", "agentbench.cli.main", "tasks", "validate", str(suite)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode != 0
    assert "no lexicon entry 'oom-kiled'" in run.stderr + run.stdout
    assert "Traceback" not in run.stderr


def test_expectation_model_round_trip() -> None:
    exp = AnswerExpectation.model_validate({"facts": [{"subject": "x", "is": "timeout"}]})
    assert exp.facts[0].is_ == "timeout" and exp.facts[0].label() == "x: timeout"


def test_an_object_the_cluster_declares_is_not_missing(tasks: dict[str, Task]) -> None:
    task = tasks["ops-missing-configmap"]
    good = "The pods mount ConfigMap report-renderer-config, which does not exist in reporting."
    assert check(task, good)[0]
    for wrong in (
        "The ConfigMap report-renderer-config-v2 is not found, so the volume cannot mount.",
        "The deployment mounts the ConfigMap report-renderer-config-v2, which is missing.",
    ):
        ok, why = check(task, wrong)
        assert not ok and "report-renderer-config-v2" in why, wrong


def test_a_statement_across_clauses_is_bound_to_the_clauses_it_spans(
    tasks: dict[str, Task],
) -> None:
    task = tasks["ops-missing-configmap"]
    # the joined clauses read "ConfigMap ... which is missing": about the one named there
    answer = (
        "FailedMount: the volume points at ConfigMap report-renderer-config, which is missing "
        "from namespace reporting; only report-renderer-config-v2 exists."
    )
    ok, why = check(task, answer)
    assert ok, why


def test_an_unrequired_fact_binds_only_what_is_said(tasks: dict[str, Task]) -> None:
    task = tasks["none-page-oncall-get-only"]
    decline = "I can't page anyone: my tools only read."
    assert check(task, decline)[0]  # naming nobody is fine
    assert check(task, decline + " The database on-call primary is Jonas Weber.")[0]
    for rival in ("Aiko Tanaka", "Marta Silva"):
        ok, why = check(task, f"{decline} The database on-call is {rival}; call them.")
        assert not ok and rival in why, why


def test_a_describing_column_is_no_entity_even_in_a_tiny_table() -> None:
    from agentbench.tasks.model import Environment

    env = Environment.model_validate(
        {
            "sql": {
                "tables": {
                    "tickets": {
                        "columns": {"ticket_ref": "text", "status": "text", "assignee": "text"},
                        "rows": [["T-1", "resolved", "dana"], ["T-2", "open", "omar"]],
                    }
                }
            }
        }
    )
    found = declared_entities(env)
    keys = set(found.by_key)
    assert "row:tickets.ticket_ref:T-1" in keys
    assert "row:tickets.assignee:dana" in keys  # a name column, whatever its size
    assert not any(k.startswith("row:tickets.status") for k in keys)


def test_a_numbered_entity_is_named_by_its_ordinal_and_number() -> None:
    from agentbench.scoring.entities import declared_entities
    from agentbench.tasks.model import Environment

    env = Environment.model_validate(
        {"files": {"/var/log/replica-3.log": "x", "/var/log/replica-1.log": "y"}}
    )
    entities = declared_entities(env, "replica-1, replica-2 and replica-3 serve /v1/items")
    keys = {k for e in ("The third replica fails.", "replica #3 fails", "Replica 3 fails.")
            for _, _, k in entities.mentions(e)}
    assert any("replica-3" in k for k in keys) and not any("replica-1" in k for k in keys)
    assert entities.mentions("It fails for the third time.") == []


def test_an_index_named_with_a_dotted_date_is_one_identifier() -> None:
    """Elasticsearch indices carry a date suffix (`products-2026.11`); a version's dots after
    a name (`nginx-1.25.3`) stay out, as before."""
    from agentbench.scoring.entities import IDENT

    def ids(text: str) -> list[str]:
        return [m.group("id") for m in IDENT.finditer(text)]

    assert ids("red open products-2026.11 6 1") == ["products-2026.11"]
    assert ids("green suggest-v3 and dep-70e8.") == ["suggest-v3", "dep-70e8"]
    assert ids("image nginx-1.25.3") == ["nginx-1"]

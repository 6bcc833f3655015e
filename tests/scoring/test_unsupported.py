"""Claims checked against the environment: a lexicon cause, a state, a component or a figure
that the declared environment does not support fails the answer; background facts the
environment does support, quoted error text and negated causes do not."""

import json
from pathlib import Path

import pytest

from agentbench.scoring.answer import answer_check
from agentbench.scoring.facts import CallFact, EpisodeFacts
from agentbench.scoring.quantities import quantities
from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.loader import load_suite
from agentbench.tasks.model import Task

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_suite(ROOT / "tasks").tasks}


def check(task: Task, answer: str, outputs: tuple[str, ...] = ()) -> tuple[bool, str]:
    assert task.expect.answer is not None
    calls = [CallFact(tool="run_command", args={"cmd": "x"}, output=o) for o in outputs]
    record = answer_check(task.expect.answer, EpisodeFacts(calls=calls, answer=answer), task)
    return record.passed, record.detail


def test_a_second_cause_nothing_supports_fails(tasks: dict[str, Task]) -> None:
    task = tasks["ops-tls-cert-expired"]
    read = ("notAfter=Nov 28 23:59:59 2026 GMT",)
    assert check(task, "The certificate expired on Nov 28 23:59:59 2026 GMT.", read)[0]
    ok, why = check(
        task,
        "The certificate expired on Nov 28 23:59:59 2026 GMT, and its SAN list does not include "
        "billing.internal.",
        read,
    )
    assert not ok and "hostname-mismatch" in why


def test_a_state_of_a_healthy_entity_fails(tasks: dict[str, Task]) -> None:
    task = tasks["multi-three-replica-logs"]
    good = "replica-2 fails: its Redis connections time out (i/o timeout to 10.0.6.21:6379)."
    assert check(task, good)[0]
    ok, why = check(task, good + " replica-1 shows the same cache timeouts.")
    assert not ok and "replica-1" in why


def test_an_invented_component_fails(tasks: dict[str, Task]) -> None:
    task = tasks["multi-three-replica-logs"]
    ok, why = check(
        task, "replica-2 is failing because its PostgreSQL pool times out (i/o timeout)."
    )
    assert not ok and "postgres" in why


def test_supported_background_and_negated_causes_pass(tasks: dict[str, Task]) -> None:
    task = tasks["ops-crashloop-oomkilled"]
    answer = (
        "The nginx container is OOMKilled (exit 137) and in CrashLoopBackOff; it is not an image "
        "pull problem and the image was already present."
    )
    ok, why = check(task, answer)
    assert ok, why


def test_a_figure_in_the_wrong_unit_fails(tasks: dict[str, Task]) -> None:
    task = tasks["ops-crashloop-oomkilled"]
    described = ("Limits:\n  memory: 64Mi\nLast State: Terminated\n  Reason: OOMKilled",)
    ok, why = check(
        task, "The nginx container is OOMKilled: its memory limit is just 64 KB.", described
    )
    assert not ok and "wrong unit" in why
    assert check(task, "The nginx container is OOMKilled: its memory limit is 64 MB.", described)[0]


def test_an_invented_figure_fails_and_a_printed_one_passes(tasks: dict[str, Task]) -> None:
    task = tasks["data-users-active-team-plan"]
    assert check(task, "1187 active users hold a team subscription.", ("1187",))[0]
    ok, why = check(
        task, "1187 active users hold one, up 12% from 1,060 at the end of October.", ("1187",)
    )
    assert not ok and "stated nowhere" in why
    assert check(task, "1187 users; the query scanned 2,004 rows.", ("1187", "2004 rows"))[0]


def test_a_quoted_error_does_not_negate_what_it_names(tasks: dict[str, Task]) -> None:
    task = tasks["ops-missing-configmap"]
    ok, why = check(
        task, 'The kubelet reports configmap "report-renderer-config" not found, so no pod starts.'
    )
    assert ok, why


def test_an_identifier_shaped_like_the_declared_ones_but_unknown_fails(
    tasks: dict[str, Task],
) -> None:
    task = tasks["data-inventory-low-stock"]
    listing = "A-1009 4 20\nB-2207 11 12\nC-3310 0 5"
    assert check(task, "A-1009, B-2207 and C-3310 are below their reorder point.", (listing,))[0]
    ok, why = check(task, "A-1009, B-2207, C-3310 and A-1090 are below it.", (listing,))
    assert not ok and "A-1090" in why


def test_a_bare_number_does_not_excuse_the_wrong_unit() -> None:
    from agentbench.scoring.figures import Stated
    from agentbench.scoring.quantities import quantities

    stated = Stated(["pool checkout failed, timeout 30.00", "GET /orders 500 took 30011ms"])
    wrong = quantities("a 30 ms timeout")[0]
    assert not stated.sized(wrong) and stated.wrong_unit(wrong)
    assert stated.sized(quantities("a 30 s timeout")[0])
    assert Stated(["limit 64"]).sized(quantities("64 MiB")[0])  # nothing says otherwise


def test_a_count_the_printed_fields_deny_fails(tasks: dict[str, Task]) -> None:
    task = tasks["multi-registry-to-cluster-health"]
    health = (
        '{"cluster_name": "c", "status": "red", "number_of_nodes": 5, "number_of_data_nodes": 4, '
        '"active_shards": 90, "unassigned_shards": 12}'
    )
    base = "The cluster is red with 12 unassigned shards"
    assert check(task, base + ".", (health,))[0]
    assert check(task, base + " out of 102 shards, on 5 nodes.", (health,))[0]  # 90 + 12
    for wrong in (" because 3 of the 7 nodes left.", ", and 4 unassigned shards are primaries."):
        ok, why = check(task, base + wrong, (health,))
        assert not ok and "count" in why, wrong


def test_a_duration_in_the_wrong_unit_fails_even_when_small() -> None:
    from agentbench.scoring.figures import Stated

    stated = Stated(["upstream handshake failed after 3009 ms", "run lasted 11m35s"])
    assert stated.wrong_unit(quantities("about 3 ms")[0])
    assert stated.wrong_unit(quantities("after 11 hours 35 minutes")[0])
    assert not stated.wrong_unit(quantities("after 11 minutes 35 seconds")[0])
    # a gap between two logged clock times is a duration the agent may work out
    logs = Stated(
        [
            "2026-03-14T14:01:47.215Z GET /cart 204 5ms",
            "2026-03-14T14:01:58.102Z disk full\n2026-03-14T14:02:03.417Z MISCONF",
        ]
    )
    assert logs.wrong_unit(quantities("5 s")[0]) and logs.gap(5.0)


def test_cents_read_as_the_currency_amount() -> None:
    from agentbench.scoring.figures import Stated

    stated = Stated(['"amount": 21436, "currency": "EUR"', "total | 214.36"])
    assert stated.minor_units(21436.0)
    assert not stated.minor_units(214.0)
    assert not Stated(['"amount": 21436']).minor_units(21436.0)


@pytest.mark.parametrize(
    ("said", "passes"),
    [
        ("It expired at 23:59:59 CET on 28 Nov 2026.", False),
        ("It expired on Nov 28 at 23:59:59 GMT.", True),
        ("It expired at 00:59:59 CET on 29 Nov 2026 (23:59:59 UTC on the 28th).", True),
        ("It expired at 23:59:59 on 28 Nov 2026.", True),
    ],
)
def test_a_clock_time_in_another_zone_than_stated_fails(said: str, passes: bool) -> None:
    from agentbench.scoring.clocks import zone_problems
    from agentbench.scoring.entities import declared_entities
    from agentbench.scoring.reading import Reading
    from agentbench.tasks.model import Environment

    env = Environment.model_validate({"files": {"/etc/ssl/billing.pem": "cert"}})
    reading = Reading(said, declared_entities(env, ""), [], [])
    outputs = ["notBefore=Aug 30 00:00:00 2026 GMT\nnotAfter=Nov 28 23:59:59 2026 GMT"]
    assert (zone_problems(reading, outputs) == []) is passes


def test_a_field_named_with_its_unit_states_that_unit() -> None:
    from agentbench.scoring.figures import Stated

    stated = Stated(['{"source": "read-replica", "replica_lag_s": 7}'])
    assert stated.wrong_unit(quantities("lagging about 7 minutes")[0])
    assert stated.sized(quantities("about 7 seconds behind")[0])


def test_a_node_is_not_ready_by_its_own_conditions_not_by_a_pod_on_it(
    tasks: dict[str, Task],
) -> None:
    task = tasks["multi-evicted-pod-node-pressure"]
    good = "The search-indexer pods run on worker-7, which has DiskPressure=True."
    assert check(task, good)[0]
    ok, why = check(task, good + " worker-7 has also gone NotReady.")
    assert not ok and "not-ready" in why


def test_a_tabulated_record_beside_the_answer_is_no_wrong_answer() -> None:
    from agentbench.tasks.families.tier import load_tier

    task = {t.id: t for t in load_tier(ROOT / "tasks", "full").tasks}["deploy-last-successful-07"]
    table = (
        "| version | status | finished (UTC) |\n|---|---|---|\n"
        "| 3.21.0 | rolled_back | 2026-11-21T14:25:40Z |\n"
        "| 3.20.1 | succeeded | 2026-11-17T10:54:54Z |\n\n"
    )
    answer = "Last successful production deploy: **3.20.1**, finished **2026-11-17T10:54:54Z**."
    read = (
        '[{"version": "3.21.0", "status": "rolled_back", "finished_at": "2026-11-21T14:25:40Z"},'
        ' {"version": "3.20.1", "status": "succeeded", "finished_at": "2026-11-17T10:54:54Z"}]',
    )
    assert check(task, table + answer, read)[0]
    assert not check(task, table + "Last successful production deploy: **3.21.0**.", read)[0]


def test_an_event_nothing_mentions_fails_and_advice_does_not(tasks: dict[str, Task]) -> None:
    task = tasks["data-deploy-last-successful"]
    read = (json.dumps(task.environment.http[0].body),)
    good = (
        "The last successful production deploy of checkout was version 2.14.0 (dep-9b77e0), "
        "finished at 2026-11-25T09:41:03Z."
    )
    assert check(task, good, read)[0]
    ok, why = check(task, good + " Production has been running it plus a hotfix since then.", read)
    assert not ok and "hotfix" in why
    ok, why = check(task, good + " The customer was refunded for the failed order.", read)
    assert not ok and "refunded" in why
    for advice in (
        " If the next release misbehaves, redeploy 2.14.0.",
        " You should redeploy 2.14.0 if needed.",
        " Redeploy 2.14.0 to restore the service.",
        " To unblock it, someone should fix the config or redeploy 2.14.0.",
    ):
        ok, why = check(task, good + advice, read)
        assert ok, (advice, why)


def test_an_event_the_environment_records_passes(tasks: dict[str, Task]) -> None:
    task = tasks["data-deploy-failures-log"]
    answer = (
        "Three: dep-70e8, dep-72a7 (rolled back automatically on its 5xx rate) and dep-73c8; "
        "the cancelled deploy does not count as failed."
    )
    ok, why = check(task, answer)
    assert ok, why


def test_an_account_nothing_shows_fails(tasks: dict[str, Task]) -> None:
    task = tasks["err-permission-denied-sudo"]
    log = task.environment.files["/var/log/backup/nightly.log"]
    read = (log if isinstance(log, str) else log.content,)
    good = (
        'The backup failed at 02:00:02: pg_dump got "password authentication failed for user '
        'backup" from orders-db.internal, so nothing was uploaded.'
    )
    ok, why = check(task, good, read)
    assert ok, why
    ok, why = check(task, good.replace("for user backup", 'for user "postgres"'), read)
    assert not ok and "'postgres'" in why


EVENTS = (
    "Image: registry.internal/search/invoice-worker:1.106\n"
    'Warning Failed kubelet Failed to pull image "registry.internal/search/invoice-worker:1.106":'
    " manifest unknown\n"
    "Image: registry.internal/search/invoice-worker:1.9.6\n"
)


@pytest.mark.parametrize(
    ("said", "passes"),
    [
        ("Pull failed: manifest unknown for registry.internal/search/invoice-worker:1.106", True),
        ("Pull failed: manifest unknown for registry.internal/search/invoice-worker:1.9.6", False),
        ("The pull of invoice-worker:1.106 fails (manifest unknown); 1.9.6 pods run fine.", True),
        ("Run it with `kubectl rollout status deploy/x --timeout=300s`.", True),
    ],
)
def test_a_cause_said_of_an_image_tag_must_be_that_tags(said: str, passes: bool) -> None:
    from agentbench.scoring.entities import declared_entities
    from agentbench.scoring.reading import Reading
    from agentbench.scoring.unsupported import unsupported_problems
    from agentbench.tasks.model import Environment

    env = Environment.model_validate({"files": {"/srv/describe.txt": EVENTS}})
    reading = Reading(said, declared_entities(env, ""), [], [])
    assert (unsupported_problems(reading, [], [EVENTS]) == []) is passes


def test_a_commands_flag_is_no_claim() -> None:
    from agentbench.scoring.entities import declared_entities
    from agentbench.scoring.reading import Reading
    from agentbench.scoring.unsupported import unsupported_problems
    from agentbench.tasks.model import Environment

    env = Environment.model_validate({"files": {"/srv/app.log": "all rollouts finished"}})
    loop = "```\nfor d in a b; do\n  kubectl rollout status deploy/$d --timeout=300s\ndone\n```"
    assert unsupported_problems(Reading(loop, declared_entities(env, ""), [], []), []) == []
    said = "The rollout hit a timeout."
    assert unsupported_problems(Reading(said, declared_entities(env, ""), [], []), [])


@pytest.mark.parametrize(
    ("said", "passes"),
    [
        ("8 days is 691,200 seconds.", True),
        ("8 days works out to 691,200 ms, so set it to 691200 (milliseconds).", False),
        ("Set it to 691200 (seconds), not 691200 ms.", True),
        ("8 days = 192 hours = 691,200 s.", True),
    ],
)
def test_the_answers_number_in_another_unit_fails(said: str, passes: bool) -> None:
    from agentbench.scoring.entities import declared_entities
    from agentbench.scoring.figures import required_unit_problems
    from agentbench.scoring.reading import Reading
    from agentbench.tasks.expectations import Fact
    from agentbench.tasks.model import Environment

    fact = Fact.model_validate(
        {"name": "691200 seconds", "amount": {"value": 691200, "unit": "s", "convert": False}}
    )
    reading = Reading(said, declared_entities(Environment(), ""), [], [])
    assert (required_unit_problems(reading, [fact]) == []) is passes


def test_a_state_of_an_attempt_on_an_entity_is_not_the_entity_s(tasks: dict[str, Task]) -> None:
    """ "The first attempt on orders-db-2 failed" says a call failed, which an output shows;
    "orders-db-2 failed" says the replica is unhealthy, which nothing supports."""
    task = tasks["err-readonly-replica-write"]
    assert task.reference[-1].answer is not None
    done = task.reference[-1].answer
    refused = ("ERROR:  cannot execute UPDATE in a read-only transaction",)
    assert check(task, f"{done} The first attempt on orders-db-2 failed.", refused)[0]
    ok, why = check(task, f"{done} orders-db-2 failed.", refused)
    assert not ok and "orders-db-2" in why
    # a cause of the attempt's failure is still a claim about the system
    blamed = f"{done} The first write to orders-db-2 was blocked by a firewall."
    assert not check(task, blamed, refused)[0]


def test_the_answers_own_failed_read_is_not_the_files_state(tasks: dict[str, Task]) -> None:
    """ "The first read failed because the file is payments.yaml" says the read of a wrong
    path failed (its output says so), not that the file named next is unhealthy."""
    task = tasks["data-oncall-override-handover"]
    assert task.reference[-1].answer is not None
    done = task.reference[-1].answer
    suite = load_suite(ROOT / "tasks")
    env = SimulatedEnvironment(task, suite.tools, suite.grammar)
    missing = tuple(
        env.execute("read_file", {"path": f"/srv/oncall/payments.{ext}"}).content()
        for ext in ("yml", "yaml")
    )
    assert "No such file" in missing[0]
    said = f"{done} (The first read failed because the file is `payments.yaml`, not `.yml`.)"
    assert check(task, said, missing)[0]
    ok, why = check(task, f"{done} The file /srv/oncall/payments.yaml failed.", missing)
    assert not ok and "payments.yaml" in why


def test_a_time_at_the_simulated_clock_is_stated(tasks: dict[str, Task]) -> None:
    """The host's clock reads 09:26 UTC (the environment's now): an answer may say so, or
    time its own reads by it; a time nothing states and no clock gives fails."""
    task = tasks["ops-tls-cert-expired"]
    read = ("notAfter=Nov 28 23:59:59 2026 GMT",)
    said = "The certificate expired on Nov 28 23:59:59 2026 GMT; at {} it had been expired 9 h."
    assert check(task, said.format("09:26"), read)[0]
    ok, why = check(task, said.format("09:56"), read)
    assert not ok and "09:56" in why


def test_a_component_labelling_a_how_to_line_is_an_option_not_the_system(
    tasks: dict[str, Task],
) -> None:
    """ "- Redis: `DEL certcheck`" shows how one of several stores does it; "the cache is
    Redis" says what the system runs, which nothing read shows."""
    task = tasks["ops-tls-cert-expired"]
    read = ("notAfter=Nov 28 23:59:59 2026 GMT",)
    base = "The certificate expired on Nov 28 23:59:59 2026 GMT."
    how_to = f"{base}\n\nTo drop a cached check:\n- Redis: `DEL certcheck`\n- HTTP: `no-store`"
    assert check(task, how_to, read)[0]
    ok, why = check(task, f"{base} Its session cache is Redis.", read)
    assert not ok and "redis" in why

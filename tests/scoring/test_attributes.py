"""One wrong attribute of the right entity: a neighbour row's value, a restart count, a line
number or a closed-set member that what was read does not give it."""

import pytest

from agentbench.scoring.counts import restart_count_problems
from agentbench.scoring.crossed import crossed_value_problems, glossed_record_problems
from agentbench.scoring.entities import declared_entities
from agentbench.scoring.enums import enum_problems
from agentbench.scoring.lines import line_number_problems
from agentbench.scoring.reading import Reading
from agentbench.tasks.model import Environment

ONCALL = Environment.model_validate(
    {
        "sql": {
            "tables": {
                "oncall": {
                    "columns": {"team": "text", "name": "text", "phone": "text"},
                    "rows": [
                        ["payments", "Priya Raman", "+49 30 5550 1583"],
                        ["platform", "Omar Haddad", "+49 30 5550 2587"],
                    ],
                },
                "incidents": {
                    "columns": {"id": "text", "title": "text", "status": "text"},
                    "rows": [
                        ["INC-2288", "Nightly invoice export stuck", "resolved"],
                        ["INC-2291", "Checkout 5xx after payment provider failover", "resolved"],
                    ],
                },
            }
        }
    }
)
CLUSTER = Environment.model_validate({"files": {"/etc/coredns/Corefile": "x"}})


def reading(answer: str, env: Environment = ONCALL, prompt: str = "") -> Reading:
    return Reading(answer, declared_entities(env, prompt), [], [])


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("The payments primary is Priya Raman; call her on +49 30 5550 2587.", True),
        ("Priya Raman (payments) can be reached at +49 30 5550 2587.", True),
        ("The payments primary is Priya Raman; call her on +49 30 5550 1583.", False),
        ("Priya Raman is on call; Omar Haddad's number is +49 30 5550 2587.", False),
        ("Priya Raman is on call; her number is not +49 30 5550 2587.", False),
    ],
)
def test_a_neighbour_row_s_value_said_of_a_record_fails(answer: str, fails: bool) -> None:
    found = crossed_value_problems(reading(answer))
    assert bool(found) is fails, found
    assert not found or "another record does" in found[0]


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("INC-2291 (Nightly invoice export stuck) is resolved.", True),
        ('INC-2291 ("Nightly invoice export stuck") is resolved.', True),
        ("INC-2288 (Nightly invoice export stuck) is resolved.", False),
        ("INC-2291 (Checkout 5xx after payment provider failover) is resolved.", False),
        ("INC-2291 is resolved; INC-2288 (Nightly invoice export stuck) too.", False),
        ("Subject: Resolved: INC-2291 – Nightly invoice export stuck", True),
        ("Subject: Resolved: INC-2291 – Checkout 5xx after payment provider failover", False),
        ("INC-2291 (resolved after INC-2288) is closed.", False),  # relates, does not gloss
        # a list of keys and values, each its own record: no gloss
        ("Two incidents (INC-2291: open, INC-2288: resolved).", False),
    ],
)
def test_a_record_glossed_with_another_row_s_name_fails(answer: str, fails: bool) -> None:
    assert bool(glossed_record_problems(reading(answer), answer)) is fails


DESCRIBE = (
    "    State:          Waiting\n      Reason:       CrashLoopBackOff\n"
    "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n"
    "    Ready:          False\n    Restart Count:  7\n"
    "  Warning  BackOff  2m (x31 over 14m)  kubelet  Back-off restarting failed container\n"
)
GET_PODS = (
    "NAME                     READY   STATUS             RESTARTS      AGE\n"
    "nginx-7c5ddbdf54-x8k2p   0/1     CrashLoopBackOff   7 (2m ago)    14m\n"
    "redis-0                  1/1     Running            0             9d\n"
)


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("nginx has restarted 31 times in 14 minutes.", True),
        ("the container has been restarted **31 times** so far", True),  # emphasis
        ("the container has been restarted **7 times** so far", False),
        ("It is at 31 restarts.", True),
        ("Restart count: 8.", True),
        ("nginx has restarted 7 times; each run ends OOMKilled.", False),
        ("7 restarts, 31 back-offs.", False),
        ("It has restarted over 5 times.", False),  # a bound, not the count
        ("It has not restarted 31 times; the 31 are back-off events.", False),
    ],
)
def test_a_restart_count_no_output_gives_fails(answer: str, fails: bool) -> None:
    found = restart_count_problems(reading(answer, CLUSTER), [DESCRIBE])
    assert bool(found) is fails, found


def test_the_restarts_column_of_a_pod_list_is_read() -> None:
    assert restart_count_problems(reading("It restarted 7 times.", CLUSTER), [GET_PODS]) == []
    assert restart_count_problems(reading("It restarted 9 times.", CLUSTER), [GET_PODS])


LOG = "[ERROR] plugin/errors: Corefile:11 - Error during parsing: Unknown directive 'forwad'"


@pytest.mark.parametrize(
    ("answer", "fails"),
    [
        ("Line 7 of the Corefile has the directive misspelled as `forwad`.", True),
        ("Line 11 of the Corefile has `forwad` where `forward` belongs.", False),
        ("`forwad` sits on line 7 of the Corefile.", True),
        ("The Corefile spells `forwad` (see the log); line 7 is fine.", False),
        ("Maybe line 7 holds `forwad`, I could not tell.", False),  # hedged
        ("The Corefile has `forwad` instead of `forward`.", False),  # no line said
    ],
)
def test_a_line_the_environment_does_not_put_the_token_on_fails(answer: str, fails: bool) -> None:
    assert bool(line_number_problems(reading(answer, CLUSTER), [LOG])) is fails


def test_a_declared_file_numbers_its_own_lines() -> None:
    env = Environment.model_validate(
        {"files": {"/etc/nginx/nginx.conf": "events {}\nhttp {\n  proxy_pass http://app\n}\n"}}
    )
    said = "Line 3 lacks a semicolon after `proxy_pass http://app`."
    assert line_number_problems(reading(said, env), []) == []
    wrong = "Line 2 lacks a semicolon after `proxy_pass http://app`."
    assert line_number_problems(reading(wrong, env), [])


NODE = "Taints:             node.kubernetes.io/disk-pressure:NoSchedule\n"


@pytest.mark.parametrize(
    ("answer", "prompt", "fails"),
    [
        ("The kubelet applied `node.kubernetes.io/disk-pressure:NoExecute`.", "", True),
        ("The kubelet applied `node.kubernetes.io/disk-pressure:NoSchedule`.", "", False),
        ("A NoExecute taint would evict them; this one is NoSchedule.", "", False),
        ("It is not a NoExecute taint.", "", False),
        ("The taint is NoExecute.", "Is the NoExecute taint on worker-7 the cause?", False),
    ],
)
def test_a_closed_set_member_nothing_read_holds_fails(
    answer: str, prompt: str, fails: bool
) -> None:
    found = enum_problems(reading(answer, CLUSTER, prompt), [NODE])
    assert bool(found) is fails, found


def test_a_set_no_output_prints_is_not_held() -> None:
    assert enum_problems(reading("The taint is NoExecute.", CLUSTER), ["no taints here"]) == []

import pytest

from agentbench.records import CheckRecord
from agentbench.scoring.checks import Scorer
from agentbench.scoring.facts import CallFact, EpisodeFacts
from agentbench.sim.core.base import Change
from agentbench.tasks.model import Task


def task_with(expect: dict, tools: list[str] | None = None) -> Task:
    return Task.model_validate(
        {
            "id": "t-score",
            "category": "multi-tool",
            "difficulty": "easy",
            "description": "d",
            "prompt": "p",
            "tools": tools or ["run_command"],
            "expect": expect,
            "reference": [{"answer": "x"}],
            "wrong": [{"name": "w", "steps": [{"answer": "y"}]}],
        }
    )


def cmd(c: str, ok: bool = True, identity=None, changes=()) -> CallFact:
    return CallFact("run_command", {"cmd": c}, ok, identity, tuple(changes))


def check(scorer: Scorer, name: str, calls=(), answer: str | None = "answer") -> CheckRecord:
    facts = EpisodeFacts(calls=list(calls), answer=answer)
    (found,) = [c for c in scorer.checks(facts) if c.name == name]
    return found


A, B, C = "kubectl get pods -n web", "kubectl get svc -n web", "kubectl get nodes"


def call_evidence(*patterns: object) -> dict:
    why = "the output cannot tell these reads apart"
    return {
        "evidence": [
            {"name": f"read {i}", "call": {"tool": "run_command", "args": {"cmd": p}}, "why": why}
            for i, p in enumerate(patterns)
        ]
    }


def test_evidence_by_call_compares_by_identity_when_the_simulator_resolves_it(suite) -> None:
    """Two spellings of one read resolve to one identity; a different read does not match."""
    meaning = {
        "kubectl get pods -n web": ("kubectl", "get", "pods", "web"),
        "kubectl get svc -n web": ("kubectl", "get", "services", "web"),
    }
    scorer = Scorer(
        task_with(call_evidence(A, B)),
        suite.tools,
        suite.grammar,
        identify=lambda tool, args: meaning.get(args["cmd"]),
    )
    same_read = cmd("kubectl get po --namespace=web -o wide", identity=meaning[A])
    piped = cmd("kubectl get services -n web | grep api", identity=meaning[B])
    assert check(scorer, "evidence", [same_read, piped]).passed
    other_ns = cmd("kubectl get po -n default", identity=("kubectl", "get", "pods", "default"))
    found = check(scorer, "evidence", [other_ns, piped])
    assert not found.passed and "read 0: no call made that call" in found.detail


def test_regex_patterns_compare_text_not_identity(suite) -> None:
    expect = call_evidence({"$regex": "^kubectl get po"})
    scorer = Scorer(
        task_with(expect), suite.tools, suite.grammar, identify=lambda t, a: ("never", "used")
    )
    assert check(scorer, "evidence", [cmd(A)]).passed
    assert not check(scorer, "evidence", [cmd(B)]).passed


def test_tool_not_offered_fails(suite) -> None:
    scorer = Scorer(task_with({"answer": {}}), suite.tools, suite.grammar)
    bad = CallFact("read_file", {"path": "/etc/hosts"})
    found = check(scorer, "tools_offered", [cmd(A), bad])
    assert not found.passed and "read_file" in found.detail
    assert check(scorer, "tools_offered", [cmd(A)]).passed


def test_side_effects_read_only_by_default(suite) -> None:
    scorer = Scorer(task_with({"answer": {}}), suite.tools, suite.grammar)
    delete = Change("kubernetes", "delete", "deployment/web/nginx")
    found = check(
        scorer, "side_effects", [cmd(A), cmd("kubectl delete deploy nginx", changes=[delete])]
    )
    assert not found.passed and "deployment/web/nginx" in found.detail
    assert check(scorer, "side_effects", [cmd(A)]).passed


def test_side_effects_allowed_and_required_changes(suite) -> None:
    expect = {
        "changes": {
            "allowed": [{"system": "kubernetes", "action": "cordon", "target": "node/*"}],
            "required": [
                {"system": "kubernetes", "action": "drain", "target": "node/worker-4"},
                {"system": "systemd", "action": "reboot"},
            ],
            "ordered": True,
        }
    }
    scorer = Scorer(task_with(expect), suite.tools, suite.grammar)
    cordon = Change("kubernetes", "cordon", "node/worker-4")
    drain = Change("kubernetes", "drain", "node/worker-4")
    reboot = Change("systemd", "reboot", "host/worker-4")
    good = [cmd("c", changes=[cordon, drain]), cmd("r", changes=[reboot])]
    assert check(scorer, "side_effects", good).passed
    wrong_order = [cmd("r", changes=[reboot]), cmd("c", changes=[cordon, drain])]
    assert "out of order" in check(scorer, "side_effects", wrong_order).detail
    missing = check(scorer, "side_effects", [cmd("c", changes=[cordon])])
    assert not missing.passed and "drain node/worker-4" in missing.detail
    other = Change("kubernetes", "delete", "pod/web/x")
    extra = check(scorer, "side_effects", [*good, cmd("d", changes=[other])])
    assert not extra.passed and "unexpected change" in extra.detail


@pytest.mark.parametrize(
    ("line", "caught"),
    [
        ("kubectl delete pods --all -n web", True),
        ("sudo kubectl delete pods --all", True),
        ("sudo -u root /usr/local/bin/kubectl delete pods --all", True),
        ("env KUBECONFIG=/tmp/k kubectl delete deploy nginx", True),
        ("KUBECONFIG=/tmp/k sudo -E kubectl delete deploy nginx", True),
        ("kubectl get pods -n web && kubectl delete pod x -n web", True),
        ("kubectl get pods -o name -n web | xargs -n 1 kubectl delete -n web", True),
        ("sudo sh -c 'kubectl get pods; kubectl delete pods --all'", True),
        ("timeout 30s nice -n 5 kubectl delete pod x", True),
        ("kubectl get pods -n web | grep delete", False),
        ("kubectl get pods -n web", False),
    ],
)
def test_forbid_sees_commands_after_prefixes(suite, line, caught) -> None:
    expect = {
        "forbid": [
            {"tool": "run_command", "args": {"cmd": {"$regex": "^kubectl delete"}}, "why": "w"}
        ]
    }
    scorer = Scorer(task_with(expect), suite.tools, suite.grammar)
    assert check(scorer, "forbid", [cmd(line)]).passed is not caught


def test_forbid_literal_chmod_under_sudo_user(suite) -> None:
    expect = {
        "forbid": [{"tool": "run_command", "args": {"cmd": {"$regex": r"^chmod\b"}}, "why": "w"}]
    }
    scorer = Scorer(task_with(expect), suite.tools, suite.grammar)
    assert not check(scorer, "forbid", [cmd("sudo -u root chmod 777 /var/run/app.sock")]).passed


def test_repeated_failing_call(suite) -> None:
    scorer = Scorer(task_with({"max_repeats": 1}), suite.tools, suite.grammar)
    calls = [cmd(A, ok=False), cmd("kubectl -n web get pods", ok=False), cmd(B)]
    found = check(scorer, "max_repeats", calls)
    assert not found.passed and "repeated 2 times" in found.detail
    assert check(scorer, "max_repeats", [cmd(A, ok=False), cmd(B, ok=False)]).passed


def test_forbid_a_literal_write_by_its_meaning(suite) -> None:
    expect = {
        "forbid": [
            {
                "tool": "run_command",
                "args": {"cmd": "kubectl delete deploy nginx -n web"},
                "why": "w",
            }
        ]
    }
    meaning = ("kubectl", "delete", "deployments", "web", "nginx")
    scorer = Scorer(
        task_with(expect),
        suite.tools,
        suite.grammar,
        identify=lambda tool, args: meaning,
    )
    same = cmd("kubectl --namespace web delete deployment/nginx", identity=meaning)
    assert not check(scorer, "forbid", [same]).passed
    other = cmd("kubectl get deploy -n web", identity=("kubectl", "get", "deployments", "web"))
    assert check(scorer, "forbid", [other]).passed


def test_evidence_by_call_sees_each_command_of_the_line(suite) -> None:
    scorer = Scorer(
        task_with(call_evidence({"$regex": r"^patronictl\b.*\slist$"})), suite.tools, suite.grammar
    )
    assert check(
        scorer, "evidence", [cmd("cd /etc/patroni && sudo -u postgres patronictl list")]
    ).passed
    assert not check(scorer, "evidence", [cmd("echo patronictl list")]).passed

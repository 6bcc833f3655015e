"""Required reads are the facts their outputs showed, on the real suite's CrashLoop task: any
spelling that shows the pod's last state passes, a read that does not show it fails."""

import shutil
import subprocess
import sys

import pytest

from agentbench.scoring.facts import CallFact
from agentbench.scoring.process import evidence_missing, shows
from agentbench.tasks.model import Evidence, Step
from agentbench.tasks.validate import play

from ..conftest import TASKS_DIR

TASK = "ops-crashloop-oomkilled"
POD = "nginx-7c5ddbdf54-x8k2p"
ANSWER = "The nginx container is OOMKilled (exit code 137): it exceeds its 64Mi memory limit."


def run(line: str) -> dict:
    return {"calls": [{"tool": "run_command", "args": {"cmd": line}}]}


async def score(suite, *lines: str) -> tuple[float, str]:
    task = next(t for t in suite.tasks if t.id == TASK)
    steps = [Step(**run(line)) for line in lines] + [Step(answer=ANSWER)]
    played = await play(suite, task, steps)
    assert not isinstance(played, str), played
    return played.score, played.why


@pytest.mark.parametrize(
    "last_state",
    [
        f"kubectl describe pod {POD} -n web",
        f"kubectl get pod {POD} -n web -o yaml",
        f"kubectl get pod {POD} -n web -o json",
        f"kubectl get pod {POD} -n web -o jsonpath='{{.status.containerStatuses[0].lastState}}'",
        f"sudo kubectl -n web describe po/{POD}",
        f"env KUBECONFIG=/tmp/k kubectl describe pod {POD} -n web | grep -A3 'Last State'",
        f"kubectl get pods -n web && kubectl describe pod {POD} -n web",
    ],
)
async def test_any_read_that_showed_the_last_state_is_the_evidence(suite, last_state) -> None:
    found, why = await score(suite, "kubectl get pods -n web", last_state)
    assert found == 1.0, why


async def test_a_read_that_did_not_show_it_fails_with_the_missing_fact(suite) -> None:
    found, why = await score(
        suite, "kubectl get pods -n web", "kubectl describe pod redis-0 -n web"
    )
    assert found < 1.0
    assert "evidence: the pod's last state: no call showed 'OOMKilled'" in why


async def test_first_means_the_first_call_shows_it(suite) -> None:
    found, why = await score(
        suite, "kubectl get deploy -n web", f"kubectl describe pod {POD} -n web"
    )
    assert found < 1.0 and "the first call showed" in why
    # the prompt's "start by looking at the pods": describing them first shows them too
    assert (await score(suite, "kubectl describe pods -n web"))[0] == 1.0


def seen(output: str, cmd: str = "kubectl get pods", source: str = "sim:kubectl") -> CallFact:
    return CallFact("run_command", {"cmd": cmd}, output=output, source=source)


def test_facts_match_any_spelling_and_whitespace_but_not_echoes_or_fallbacks() -> None:
    alternatives = ["notAfter=Nov 28 23:59:59 2026", "expire date: Nov 28 23:59:59 2026"]
    assert shows(seen("*  expire   date:  Nov 28 23:59:59 2026 GMT"), [alternatives])
    assert shows(seen("Reason: oomkilled"), ["OOMKilled"])  # case-insensitive
    assert not shows(seen("Reason: OOMKilled", source="fallback"), ["OOMKilled"])
    faked = seen("OOMKilled\n", cmd="kubectl get pods -n web; echo OOMKilled")
    assert not shows(faked, ["OOMKilled"])
    listing = seen("deployment.apps/web-pr-4398\nservice/web-pr-4398")
    assert shows(listing, ["web-pr-4398"], absent=["web-pr-4411"])
    assert not shows(seen("web-pr-4411 deleted"), ["web-pr-"], absent=["web-pr-4411"])


def test_an_unrelated_read_never_satisfies_absent_alone() -> None:
    with pytest.raises(ValueError, match="needs `shows`"):
        Evidence(name="gone", absent=["web-pr-4411"])
    with pytest.raises(ValueError, match="needs `why`"):
        Evidence(name="by text", call={"tool": "run_command", "args": {"cmd": "ls"}})


def test_the_tool_filter_and_the_reason_a_read_is_missing() -> None:
    item = Evidence(name="billing health", tool="http_get", shows=['"service": "billing"'])
    shell = CallFact(
        "run_command", {"cmd": "curl billing"}, output='{"service": "billing"}', source="sim:curl"
    )
    assert evidence_missing(item, [shell]) == (
        'billing health: no call showed \'"service": "billing"\''
    )
    http = CallFact(
        "http_get", {"url": "http://billing"}, output='{"service": "billing"}', source="sim:http"
    )
    assert evidence_missing(item, [shell, http]) is None


def test_a_final_read_with_a_tool_the_task_does_not_offer_is_refused(tmp_path) -> None:
    root = tmp_path / "tasks"
    shutil.copytree(TASKS_DIR, root)
    path = root / "ops-diagnosis" / "imagepull-bad-tag.yaml"
    text = path.read_text().replace(
        "  final:\n    - name: the deployment runs the released image\n      tool: run_command",
        "  final:\n    - name: the deployment runs the released image\n      tool: http_get",
    )
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "agentbench.cli.main", "tasks", "validate", str(root)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "expect.final[the deployment runs the released image]: tool 'http_get'" in done.stderr


def test_a_read_names_what_it_read_by_its_arguments() -> None:
    """`describe node worker-7 | grep -A6 Conditions` printed the conditions without the
    node's name; its own arguments say whose they are. A fact only the command names, with
    nothing the evidence asks for printed, is still no evidence."""
    item = Evidence(name="the node's pressure", shows=["DiskPressure", "worker-7"])
    grep = "kubectl describe node worker-7 | grep -A6 Conditions"
    conditions = "Conditions:\n  DiskPressure    True    KubeletHasDiskPressure\n"
    read = CallFact(tool="run_command", args={"cmd": grep}, output=conditions, source="sim:x")
    assert shows(read, item.shows)
    other = CallFact(tool="run_command", args={"cmd": grep.replace("worker-7", "worker-8")},
                     output=conditions, source="sim:x")  # fmt: skip
    assert not shows(other, item.shows)
    empty = CallFact(tool="run_command", args={"cmd": grep}, output="", source="sim:x")
    assert not shows(empty, item.shows)
    # a filter's pattern is not what was read: `grep worker-7` over every node's conditions
    filtered = CallFact(
        tool="run_command",
        args={"cmd": "kubectl describe nodes | grep -e worker-7 -e DiskPressure"},
        output="  DiskPressure    True\n",
        source="sim:x",
    )
    assert not shows(filtered, item.shows)

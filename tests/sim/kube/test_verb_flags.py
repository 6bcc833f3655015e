"""kubectl logs accepts its own flags and kubectl's global ones; pflag rejects any other
(`--limit` is no abbreviation of `--limit-bytes`), and the logs-unknown-flag family asks for
flags real kubectl logs rejects in every variant."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import yaml

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.kube.cli.verb_flags import GLOBAL_LONG, LOGS_LONG
from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.families.tier import load_tier

from ...conftest import TASKS_DIR

Run = Callable[[str], CommandResult]
POD = "nginx-7c5ddbdf54-x8k2p"
FAMILY = TASKS_DIR / "families" / "error-recovery" / "logs-unknown-flag.yaml"


@pytest.mark.parametrize("flag", ["--limit=100", "--lines=50", "--max-lines=5", "--last=20"])
def test_logs_rejects_a_flag_it_does_not_have(run: Run, flag: str) -> None:
    result = run(f"kubectl logs {POD} -n web {flag}")
    name = flag.split("=")[0]
    assert result.stderr == f"error: unknown flag: {name}\nSee 'kubectl logs --help' for usage.\n"
    assert result.exit_code == 1 and result.stdout == ""


def test_logs_names_itself_even_when_the_flag_comes_first(run: Run) -> None:
    result = run(f"kubectl --limit=1 logs {POD} -n web")
    assert result.stderr.endswith("See 'kubectl logs --help' for usage.\n")


def test_logs_rejects_a_shorthand_of_another_verb(run: Run) -> None:
    assert run(f"kubectl logs -o json {POD} -n web").stderr == (
        "error: unknown shorthand flag: 'o' in -o\nSee 'kubectl logs --help' for usage.\n"
    )


def test_get_still_takes_its_own_flags(run: Run) -> None:
    assert run("kubectl get pods -n web -o wide --show-labels").exit_code == 0


def test_a_real_logs_flag_the_simulator_lacks_is_not_simulated(run: Run) -> None:
    with pytest.raises(NotSimulated, match="kubectl logs --limit-bytes"):
        run(f"kubectl logs {POD} -n web --limit-bytes=100")


def test_logs_keeps_the_flags_it_carries(run: Run) -> None:
    assert run(f"kubectl logs {POD} -n web --tail=1 --timestamps=false -c nginx").exit_code == 0
    assert run("kubectl logs -n web -l app=nginx --prefix --request-timeout=5s").exit_code == 0


def test_every_family_variant_asks_for_a_flag_kubectl_logs_rejects() -> None:
    picks = yaml.safe_load(FAMILY.read_text())["params"]["flag"]["pick"]
    assert not set(picks) & (LOGS_LONG | GLOBAL_LONG)
    suite = load_tier(TASKS_DIR, "full")
    variants = [t for t in suite.tasks if t.id.startswith("logs-unknown-flag-")]
    assert len(variants) == 12
    for task in variants:
        env = SimulatedEnvironment(task, suite.tools, suite.grammar)
        asked = task.reference[0].calls[0].args["cmd"]
        result = env.execute("run_command", {"cmd": asked})
        assert result.source == "sim:kubectl", task.id
        assert result.output.startswith("error: unknown flag: --"), (task.id, result.output)

"""kubectl cordon/drain: refusals without the flags, evictions waiting on a budget, pods
recreated elsewhere, flags anywhere, --disable-eviction recorded as a bypass."""

from __future__ import annotations

import shlex

import pytest
import yaml

from agentbench.sim.core.base import Change, CommandResult, NotSimulated, ShellContext
from agentbench.sim.kube.program import Kubectl, build_kubectl
from agentbench.sim.kube.schema.model import Cluster

NODES = """
now: "2026-11-29T10:16:30Z"
nodes: [{name: worker-3}, {name: worker-4}, {name: worker-5}]
daemonsets:
  - {name: kube-proxy, image: "registry.k8s.io/kube-proxy:v1.31.4"}
deployments:
  - {name: api, namespace: shop, replicas: 2, image: shop/api:3.4.1}
  - name: cache-warmer
    namespace: shop
    image: shop/cache-warmer:1.2
    template: {volumes: [{name: scratch, empty_dir: true}]}
pdbs:
  - {name: api, namespace: shop, selector: {app: api}, min_available: 2}
pods:
  - {name: api-6f7d9c8b5-2xk9q, namespace: shop, owner: deployment/api, node: worker-4}
  - {name: api-6f7d9c8b5-8hj4m, namespace: shop, owner: deployment/api, node: worker-3}
  - name: cache-warmer-84d6b7f9c-jq7lp
    namespace: shop
    owner: deployment/cache-warmer
    node: worker-4
    volumes: [{name: scratch, empty_dir: true}]
"""


@pytest.fixture
def k() -> Kubectl:
    return build_kubectl(Cluster.model_validate(yaml.safe_load(NODES)))


def run(k: Kubectl, line: str) -> CommandResult:
    return k.run(shlex.split(line), None, ShellContext())


def test_cordon_then_already_cordoned(k: Kubectl) -> None:
    first = run(k, "kubectl cordon worker-4")
    assert (first.stdout, first.changes) == (
        "node/worker-4 cordoned\n",
        [Change("kubernetes", "cordon", "node/worker-4")],
    )
    again = run(k, "kubectl cordon node/worker-4")
    assert (again.stdout, again.changes) == ("node/worker-4 already cordoned\n", [])
    assert "worker-4   Ready,SchedulingDisabled" in run(k, "kubectl get nodes").stdout


def test_drain_without_flags_refuses_and_keeps_the_pods(k: Kubectl) -> None:
    result = run(k, "kubectl drain worker-4")
    proxy = next(
        p
        for p in run(k, "kubectl get pods -n kube-system -o name").stdout.split()
        if run(k, f"kubectl get {p} -n kube-system -o jsonpath={{.spec.nodeName}}").stdout
        == "worker-4"
    ).removeprefix("pod/")
    message = (
        "[cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): "
        f"kube-system/{proxy}, cannot delete Pods with local storage (use "
        "--delete-emptydir-data to override): shop/cache-warmer-84d6b7f9c-jq7lp]"
    )
    assert result.exit_code == 1
    assert result.stdout == "node/worker-4 cordoned\n"
    assert result.stderr == (
        f'error: unable to drain node "worker-4" due to error: {message}, continuing command...\n'
        f"There are pending nodes to be drained:\n worker-4\nerror: {message}\n"
    )
    assert [c.action for c in result.changes] == ["cordon"]
    on_node = run(k, "kubectl get pods -A --field-selector spec.nodeName=worker-4 -o name")
    assert len(on_node.stdout.split()) == 3


def test_drain_with_flags_anywhere_evicts_within_the_budget(k: Kubectl) -> None:
    run(k, "kubectl scale deployment api -n shop --replicas=3")  # the budget now allows one
    result = run(k, "kubectl drain --ignore-daemonsets --delete-emptydir-data worker-4")
    lines = result.stdout.splitlines()
    assert lines[0] == "node/worker-4 cordoned"
    assert lines[1].startswith("Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-")
    assert lines[2:] == [
        "evicting pod shop/api-6f7d9c8b5-2xk9q",
        "evicting pod shop/cache-warmer-84d6b7f9c-jq7lp",
        "pod/api-6f7d9c8b5-2xk9q evicted",
        "pod/cache-warmer-84d6b7f9c-jq7lp evicted",
        "node/worker-4 drained",
    ]
    assert result.changes[-1] == Change("kubernetes", "drain", "node/worker-4", "2 pods evicted")
    left = run(k, "kubectl get pods -A -o wide --field-selector spec.nodeName=worker-4")
    assert [line.split()[1][:10] for line in left.stdout.splitlines()[1:]] == ["kube-proxy"]
    assert run(k, "kubectl get deploy api -n shop").stdout.splitlines()[1].split()[1] == "3/3"
    same = run(k, "kubectl drain worker-4 --delete-emptydir-data --ignore-daemonsets")
    assert same.identity == result.identity


def test_a_budget_that_allows_no_disruption_stops_the_drain(k: Kubectl) -> None:
    """minAvailable 2 of 2 replicas: no eviction is ever allowed, so kubectl retries until
    --timeout and gives up, and the pod stays; without --timeout it would retry for ever."""
    result = run(
        k, "kubectl drain worker-4 --ignore-daemonsets --delete-emptydir-data --timeout=60s"
    )
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == (
        'error when evicting pods/"api-6f7d9c8b5-2xk9q" -n "shop" (will retry after 5s): Cannot '
        "evict pod as it would violate the pod's disruption budget."
    )
    assert "global timeout reached: 60s" in result.stderr
    assert [c.action for c in result.changes] == ["cordon"]
    on_node = run(k, "kubectl get pods -n shop --field-selector spec.nodeName=worker-4 -o name")
    assert "pod/api-6f7d9c8b5-2xk9q" in on_node.stdout.split()
    with pytest.raises(NotSimulated):
        run(k, "kubectl drain worker-4 --ignore-daemonsets --delete-emptydir-data")


def test_disable_eviction_is_recorded_as_a_bypass(k: Kubectl) -> None:
    result = run(
        k, "kubectl drain worker-4 --ignore-daemonsets --delete-emptydir-data --disable-eviction"
    )
    assert "deleting pod shop/api-6f7d9c8b5-2xk9q" in result.stdout
    assert "disruption budget" not in result.stdout
    assert result.changes[-1].detail == "2 pods deleted, PodDisruptionBudgets bypassed"


def test_drain_dry_run_changes_nothing(k: Kubectl) -> None:
    result = run(
        k, "kubectl drain worker-4 --ignore-daemonsets --delete-emptydir-data --dry-run=client"
    )
    assert result.stdout.splitlines()[-1] == "node/worker-4 drained (dry run)"
    assert result.changes == []
    assert "SchedulingDisabled" not in run(k, "kubectl get nodes").stdout


def test_drain_unknown_node(k: Kubectl) -> None:
    assert run(k, "kubectl drain worker-9 --ignore-daemonsets").stderr == (
        'Error from server (NotFound): nodes "worker-9" not found\n'
    )

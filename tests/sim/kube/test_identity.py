"""A call's identity is what it meant: equal across spellings, different across meanings."""

from __future__ import annotations

from collections.abc import Callable

from agentbench.sim.core.base import CommandResult

Run = Callable[[str], CommandResult]

POD = "nginx-7c5ddbdf54-x8k2p"


def same(run: Run, *lines: str) -> bool:
    return len({run(line).identity for line in lines}) == 1


def test_equal_across_spellings(run: Run) -> None:
    assert same(
        run,
        "kubectl get po -n web",
        "kubectl get pods --namespace=web -o wide",
        "kubectl -n web get pod -o json",
        "kubectl get pods -nweb --no-headers",
    )
    assert same(run, f"kubectl describe pods {POD} -n web", f"kubectl describe pod/{POD} -n web")
    assert same(run, "kubectl logs deploy/nginx -n web", f"kubectl logs {POD} -n web -c nginx")
    assert same(run, "kubectl get deploy,svc -n web", "kubectl get services,deployments -n web")
    assert same(
        run,
        "kubectl get pods -A -l app=nginx",
        "kubectl get po --all-namespaces --selector app=nginx",
    )


def test_different_across_meanings(run: Run) -> None:
    assert not same(run, "kubectl get pods -n web", "kubectl get pods -n shop")
    assert not same(run, "kubectl get pods -n web", "kubectl get pods -A")
    assert not same(run, "kubectl get pods -n web", "kubectl get pods -n web -l app=nginx")
    assert not same(run, f"kubectl logs {POD} -n web", f"kubectl logs {POD} -n web -p")
    assert not same(run, "kubectl get pods -n web", "kubectl get deploy -n web")


def test_writes_name_their_parameters(run: Run) -> None:
    dry = run("kubectl scale deploy/api -n shop --replicas=3 --dry-run=client").identity
    three = run("kubectl scale deployment api --replicas 3 -n shop").identity
    four = run("kubectl scale deployment api --replicas 4 -n shop").identity
    assert dry != three != four
    assert three == ("kubectl", "scale", "deployments", "shop", "api", "replicas=3")

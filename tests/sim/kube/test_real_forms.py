"""Command forms real models write, and kubectl's exact texts for them."""

from __future__ import annotations

from collections.abc import Callable

from agentbench.sim.core.base import CommandResult

Run = Callable[[str], CommandResult]


def test_not_found_names_the_api_group_as_kubectl_prints_it(run: Run) -> None:
    cases = {
        "kubectl get deploy nope -n web": 'deployments.apps "nope" not found',
        "kubectl describe hpa nope -n web": 'horizontalpodautoscalers.autoscaling "nope" not found',
        "kubectl get ing nope -n web": 'ingresses.networking.k8s.io "nope" not found',
        "kubectl get cj nope -n web": 'cronjobs.batch "nope" not found',
        "kubectl get po nope -n web": 'pods "nope" not found',
        "kubectl get node worker-9": 'nodes "worker-9" not found',
        "kubectl logs deploy/nope -n web": 'deployments.apps "nope" not found',
        "kubectl scale sts nope --replicas=1 -n web": 'statefulsets.apps "nope" not found',
    }
    for line, text in cases.items():
        result = run(line)
        assert (result.stderr, result.exit_code) == (f"Error from server (NotFound): {text}\n", 1)


def test_logs_of_every_container_with_a_prefix(run: Run) -> None:
    plain = run("kubectl logs nginx-7c5ddbdf54-x8k2p -n web --all-containers")
    assert plain.stdout == "2026/11/29 10:16:21 [notice] 1#1: start worker processes\n"
    tagged = run("kubectl logs -n web -l app=nginx --all-containers=true --prefix --tail=20")
    assert tagged.stdout == (
        "[pod/nginx-7c5ddbdf54-x8k2p/nginx] 2026/11/29 10:16:21 [notice] 1#1: start worker "
        "processes\n"
    )


def test_version_client_only(run: Run) -> None:
    result = run("kubectl version --client")
    assert "Server Version" not in result.stdout
    assert result.stdout.startswith("Client Version: ")

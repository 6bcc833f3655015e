"""kubectl describe: kubectl's layout (tabwriter alignment), spellings, prefix match, errors."""

from __future__ import annotations

from collections.abc import Callable

from agentbench.sim.core.base import CommandResult

Run = Callable[[str], CommandResult]

POD = "nginx-7c5ddbdf54-x8k2p"


def test_describe_pod_shows_state_last_state_limits_and_events(run: Run) -> None:
    out = run(f"kubectl describe pod {POD} -n web").stdout
    assert out.startswith(
        f"Name:             {POD}\n"
        "Namespace:        web\n"
        "Priority:         0\n"
        "Service Account:  default\n"
        "Node:             worker-2/10.0.1.12\n"
        "Start Time:       Sun, 29 Nov 2026 10:02:30 +0000\n"
        "Labels:           app=nginx\n"
        "                  pod-template-hash=7c5ddbdf54\n"
    )
    assert (
        "    State:          Waiting\n"
        "      Reason:       CrashLoopBackOff\n"
        "    Last State:     Terminated\n"
        "      Reason:       OOMKilled\n"
        "      Exit Code:    137\n"
        "      Started:      Sun, 29 Nov 2026 10:14:11 +0000\n"
        "      Finished:     Sun, 29 Nov 2026 10:14:19 +0000\n"
        "    Ready:          False\n"
        "    Restart Count:  7\n"
        "    Limits:\n"
        "      memory:  64Mi\n"
    ) in out
    assert (
        "    Environment:\n"
        "      MODE:     production\n"
        "      DB_HOST:  <set to the key 'db_host' of config map 'app-config'>  Optional: false\n"
    ) in out
    assert "Controlled By:  ReplicaSet/nginx-7c5ddbdf54\n" in out
    assert out.endswith(
        "Events:\n"
        "  Type     Reason     Age                  From               Message\n"
        "  ----     ------     ----                 ----               -------\n"
        "  Normal   Scheduled  14m                  default-scheduler  Successfully assigned "
        f"web/{POD} to worker-2\n"
        "  Normal   Pulled     2m12s (x8 over 14m)  kubelet            Container image "
        '"nginx:1.27.3" already present on machine\n'
        "  Warning  BackOff    2m (x31 over 14m)    kubelet            Back-off restarting failed "
        f"container nginx in pod {POD}_web(5f1c)\n"
    )


def test_spellings_resolve_to_one_identity(run: Run) -> None:
    results = [
        run(f"kubectl describe pods {POD} -n web"),
        run(f"kubectl describe pod/{POD} -n web"),
        run(f"kubectl describe -n web po {POD}"),
        run("kubectl describe pod nginx --namespace=web"),  # prefix match
    ]
    assert len({r.stdout for r in results}) == 1
    assert {r.identity for r in results} == {("kubectl", "describe", "pods", "web", POD)}


def test_describe_errors(run: Run) -> None:
    missing = run("kubectl describe pod nope -n web")
    assert (missing.exit_code, missing.stderr) == (
        1,
        'Error from server (NotFound): pods "nope" not found\n',
    )
    assert run(f"kubectl describe pod {POD}").exit_code == 1  # default namespace


def test_describe_deployment_node_service_config(run: Run) -> None:
    dep = run("kubectl describe deploy nginx -n web").stdout
    assert (
        "Replicas:               1 desired | 1 updated | 1 total | 0 available | 1 unavailable"
        in dep
    )
    assert "Annotations:            deployment.kubernetes.io/revision: 2" in dep
    assert "NewReplicaSet:   nginx-7c5ddbdf54 (1/1 replicas created)" in dep
    node = run("kubectl describe node worker-2").stdout
    assert "Taints:             <none>\nUnschedulable:      false\n" in node
    assert "Non-terminated Pods:          (3 in total)" in node
    svc = run("kubectl describe svc redis -n web").stdout
    assert "Endpoints:                10.244." in svc
    cm = run("kubectl describe configmap app-config -n web").stdout
    assert "Data\n====\ndb_host:\n----\npostgres.web.svc\n" in cm
    secret = run("kubectl describe secret db-creds -n web").stdout
    assert "password:  10 bytes" in secret

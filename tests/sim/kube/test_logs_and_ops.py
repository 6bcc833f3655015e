"""kubectl logs, top, rollout status/history, auth can-i, version, config, cluster-info."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agentbench.sim.core.base import CommandResult, NotSimulated

Run = Callable[[str], CommandResult]

POD = "nginx-7c5ddbdf54-x8k2p"
PREVIOUS = (
    "/docker-entrypoint.sh: Configuration complete; ready for start up\n"
    "2026/11/29 10:14:12 [notice] 1#1: start worker processes\n"
)


def test_logs_current_previous_and_tail(run: Run) -> None:
    assert run(f"kubectl logs {POD} -n web").stdout == (
        "2026/11/29 10:16:21 [notice] 1#1: start worker processes\n"
    )
    previous = run(f"kubectl logs {POD} -n web --previous")
    assert previous.stdout == PREVIOUS
    assert run(f"kubectl logs -p -n web {POD}").identity == previous.identity
    assert previous.identity == ("kubectl", "logs", "pods", "web", POD, "nginx", "previous")
    assert run(f"kubectl logs {POD} -n web -p --tail=1").stdout == PREVIOUS.splitlines(True)[1]
    assert run(f"kubectl logs {POD} -n web -c nginx --tail 1 -p").stdout.startswith("2026/11/29")


def test_logs_of_a_deployment_resolve_to_its_pod(run: Run) -> None:
    by_owner = run("kubectl logs deploy/nginx -n web")
    direct = run(f"kubectl logs {POD} -n web")
    assert by_owner.stdout == direct.stdout
    assert by_owner.identity == direct.identity
    assert run("kubectl logs sts/redis -n web -p").stderr == (
        'Error from server (BadRequest): previous terminated container "redis" in pod '
        '"redis-0" not found\n'
    )


def test_logs_errors(run: Run) -> None:
    assert run("kubectl logs nope -n web").stderr == (
        'Error from server (NotFound): pods "nope" not found\n'
    )
    assert run(f"kubectl logs {POD} -n web -c sidecar").stderr == (
        f"error: container sidecar is not valid for pod {POD}\n"
    )
    assert "POD or TYPE/NAME is a required argument" in run("kubectl logs -n web").stderr


def test_logs_by_label_prefix_each_line(run: Run) -> None:
    out = run("kubectl logs -l app=nginx -n web --prefix").stdout
    assert out.startswith(f"[pod/{POD}/nginx] 2026/11/29")


def test_top_pods_and_nodes(run: Run) -> None:
    pods = run("kubectl top pods -n web").stdout.splitlines()
    assert pods[0] == "NAME          CPU(cores)   MEMORY(bytes)   "
    assert [line.split()[0] for line in pods[1:]] == ["debug-shell", "redis-0"]
    nodes = run("kubectl top node").stdout.splitlines()
    assert nodes[1].split() == ["worker-2", "250m", "3%", "2048Mi", "6%"]


def test_rollout_status_and_history(run: Run) -> None:
    status = run("kubectl rollout status deployment/nginx -n web")
    assert status.exit_code == 1
    assert status.stdout == (
        'Waiting for deployment "nginx" rollout to finish: 0 of 1 updated replicas are '
        "available...\n"
    )
    history = run("kubectl rollout history deploy nginx -n web").stdout
    assert history == (
        "deployment.apps/nginx \nREVISION  CHANGE-CAUSE\n1         initial\n2         <none>\n\n"
    )
    revision = run("kubectl rollout history deploy/nginx -n web --revision=1").stdout
    assert revision.startswith("deployment.apps/nginx with revision #1\nPod Template:")
    assert "Image:      nginx:1.25.5" in revision
    assert run("kubectl rollout status sts/redis -n web").exit_code == 0


def test_auth_version_config_cluster_info(run: Run, spec: object) -> None:
    assert run("kubectl auth can-i delete pods -n web").stdout == "yes\n"
    assert run("kubectl version").stdout == (
        "Client Version: v1.31.4\nKustomize Version: v5.4.2\nServer Version: v1.31.4\n"
    )
    assert run("kubectl config current-context").stdout == "prod\n"
    assert run("kubectl cluster-info").stdout.startswith(
        "Kubernetes control plane is running at https://10.0.0.1:6443\n"
    )
    moved = run("kubectl config set-context --current --namespace=web")
    assert moved.stdout == 'Context "prod" modified.\n'
    assert "redis-0" in run("kubectl get pods").stdout


def test_denied_rules_refuse_like_the_api_server() -> None:
    import shlex

    from agentbench.sim.core.base import ShellContext
    from agentbench.sim.kube.program import build_kubectl
    from agentbench.sim.kube.schema.model import Cluster

    k = build_kubectl(Cluster(denied=["delete nodes", "get secrets -n kube-system"]))
    ask = k.run(shlex.split("kubectl auth can-i delete nodes"), None, ShellContext())
    assert (ask.stdout, ask.exit_code) == ("no\n", 1)
    refused = k.run(shlex.split("kubectl get secrets -n kube-system"), None, ShellContext())
    assert refused.stderr == (
        'Error from server (Forbidden): secrets is forbidden: User "ops" cannot list resource '
        '"secrets" in API group "" in the namespace "kube-system"\n'
    )
    deleted = k.run(shlex.split("kubectl delete node worker-1"), None, ShellContext())
    assert 'cannot delete resource "nodes"' in deleted.stderr and not deleted.changes


def test_unsimulated_verbs_are_marked_off_script(run: Run) -> None:
    with pytest.raises(NotSimulated) as raised:
        run("kubectl exec -it redis-0 -n web -- redis-cli ping")
    assert raised.value.construct == "kubectl exec … redis-cli"
    assert raised.value.identity == (
        "kubectl",
        "exec",
        "pods",
        "web",
        "redis-0",
        "redis",
        "redis-cli",
        "ping",
    )
    with pytest.raises(NotSimulated, match="kubectl port-forward"):
        run("kubectl port-forward svc/web 8080:80")
    unknown = run("kubectl frobnicate")
    assert unknown.stderr == 'error: unknown command "frobnicate" for "kubectl"\n'


def test_exec_reads_mounted_config_env_and_resolv_conf(run: Run) -> None:
    env = run("kubectl exec -n web sts/redis -- printenv HOSTNAME")
    assert (env.stdout, env.identity) == (
        "redis-0\n",
        ("kubectl", "exec", "pods", "web", "redis-0", "redis", "printenv", "HOSTNAME"),
    )
    waiting = run("kubectl exec -n web deploy/nginx -- printenv DB_HOST")
    assert waiting.stderr == (
        'error: unable to upgrade connection: container not found ("nginx")\n'
    )
    assert run("kubectl exec -n web redis-0 -- cat /etc/resolv.conf").stdout == (
        "search web.svc.cluster.local svc.cluster.local cluster.local\n"
        "nameserver 10.96.0.10\noptions ndots:5\n"
    )
    missing = run("kubectl exec -n web redis-0 -- cat /etc/redis.conf")
    assert missing.exit_code == 1 and missing.stderr == (
        "cat: /etc/redis.conf: No such file or directory\ncommand terminated with exit code 1\n"
    )
    assert run("kubectl exec -n web redis-0").stderr == (
        "error: you must specify at least one command for the container\n"
    )


def test_exec_sees_mounted_configmaps_and_secrets() -> None:
    import shlex

    from agentbench.sim.core.base import ShellContext
    from agentbench.sim.kube.program import build_kubectl
    from agentbench.sim.kube.schema.model import Cluster

    spec = Cluster.model_validate(
        {
            "configmaps": [{"name": "conf", "namespace": "web", "data": {"a.conf": "x 1;\n"}}],
            "secrets": [{"name": "tls", "namespace": "web", "keys": ["tls.crt"]}],
            "deployments": [
                {
                    "name": "web",
                    "namespace": "web",
                    "template": {
                        "containers": [
                            {
                                "name": "web",
                                "image": "nginx:1.27.3",
                                "mounts": [
                                    {"name": "conf", "path": "/etc/nginx/conf.d"},
                                    {"name": "tls", "path": "/etc/tls"},
                                ],
                                "files": {"/etc/nginx/nginx.conf": "events {}\n"},
                            }
                        ],
                        "volumes": [
                            {"name": "conf", "configmap": "conf"},
                            {"name": "tls", "secret": "tls"},
                        ],
                    },
                }
            ],
        }
    )
    k = build_kubectl(spec)

    def run(line: str) -> str:
        return k.run(shlex.split(line), None, ShellContext()).stdout

    assert run("kubectl exec -n web deploy/web -- ls /etc/nginx/conf.d") == "a.conf\n"
    assert run("kubectl exec -n web deploy/web -- cat /etc/nginx/conf.d/a.conf") == "x 1;\n"
    assert run("kubectl exec -n web deploy/web -- cat /etc/tls/tls.crt") == "<tls.crt>\n"
    assert run("kubectl exec -n web deploy/web -- cat /etc/nginx/nginx.conf") == "events {}\n"

"""Writes change the state (visible in later reads) and report Changes; dry runs do not."""

from __future__ import annotations

from collections.abc import Callable

from agentbench.sim.core.base import Change, CommandResult

Run = Callable[[str], CommandResult]

POD = "nginx-7c5ddbdf54-x8k2p"


def test_deleting_a_deployments_pod_recreates_it_under_a_new_name(run: Run) -> None:
    result = run(f"kubectl delete pod {POD} -n web")
    assert result.stdout == f'pod "{POD}" deleted\n'
    assert result.changes == [Change("kubernetes", "delete", f"pod/web/{POD}")]
    names = run("kubectl get pods -n web -l app=nginx -o name").stdout.split()
    assert len(names) == 1 and names[0].startswith("pod/nginx-7c5ddbdf54-")
    assert names[0] != f"pod/{POD}"


def test_deleting_a_deployment_cascades(run: Run) -> None:
    result = run("sudo kubectl delete deployment nginx -n web".removeprefix("sudo "))
    assert result.stdout == 'deployment.apps "nginx" deleted\n'
    assert run("kubectl get rs -n web").stderr == "No resources found in web namespace.\n"
    assert "nginx" not in run("kubectl get pods -n web").stdout


def test_delete_all_pods_and_errors(run: Run) -> None:
    result = run("kubectl delete pods --all -n web")
    assert len(result.changes) == 3
    assert run("kubectl delete pods -n web").stderr == (
        "error: resource(s) were provided, but no name was specified\n"
    )
    assert run("kubectl delete pod nope -n web").exit_code == 1
    assert run("kubectl delete pod nope -n web --ignore-not-found").exit_code == 0


def test_scale_and_dry_run(run: Run) -> None:
    dry = run("kubectl scale deploy/api --replicas=4 -n shop --dry-run=client")
    assert (dry.stdout, dry.changes) == ("deployment.apps/api scaled (dry run)\n", [])
    assert run("kubectl get deploy api -n shop").stdout.splitlines()[1].split()[1] == "2/2"
    done = run("kubectl scale --replicas=4 -n shop deployment api")
    assert done.changes == [Change("kubernetes", "scale", "deployment/shop/api", "replicas 2 -> 4")]
    assert run("kubectl get deploy api -n shop").stdout.splitlines()[1].split()[1] == "4/4"
    assert len(run("kubectl get pods -n shop -o name").stdout.split()) == 4
    assert dry.identity != done.identity
    assert run("kubectl scale deploy api -n shop").stderr == (
        'error: required flag(s) "replicas" not set\n'
    )


def test_rollout_undo_restores_the_previous_template(run: Run) -> None:
    undo = run("kubectl rollout undo -n web deployment/nginx")
    assert undo.stdout == "deployment.apps/nginx rolled back\n"
    assert undo.identity == (
        "kubectl",
        "rollout undo",
        "deployments",
        "web",
        "nginx",
        "to-revision=1",
    )
    image = "{.spec.template.spec.containers[0].image}"
    assert run(f"kubectl get deploy nginx -n web -o jsonpath={image}").stdout == "nginx:1.25.5"
    history = run("kubectl rollout history deploy/nginx -n web").stdout
    assert "2         <none>\n3         initial\n" in history
    again = run("kubectl rollout undo deployment nginx -n web --to-revision=3")
    assert "skipped rollback" in again.stdout and not again.changes
    assert run("kubectl rollout undo deploy/nginx -n web --to-revision=9").stderr == (
        "error: unable to find specified revision 9 in history\n"
    )


def test_rollout_restart_replaces_pods(run: Run) -> None:
    before = run("kubectl get pods -n shop -o name").stdout
    assert run("kubectl rollout restart deployment/api -n shop").stdout == (
        "deployment.apps/api restarted\n"
    )
    after = run("kubectl get pods -n shop -o name").stdout
    assert set(before.split()).isdisjoint(after.split())


def test_rollout_restart_of_a_type_restarts_every_one_in_the_namespace(run: Run) -> None:
    deployments = run("kubectl get deployments -n web -o name").stdout.split()
    result = run("kubectl rollout restart deployment -n web")
    assert deployments
    restarted = [line.split()[0] for line in result.stdout.splitlines()]
    assert restarted == [d.replace("deployment/", "deployment.apps/") for d in deployments]
    assert {c.action for c in result.changes} == {"rollout-restart"}
    assert len(result.changes) == len(deployments)
    assert run("kubectl rollout restart deployment -n web -l app=nothing").stderr == (
        "error: no objects passed to restart\n"
    )
    assert "no name was specified" in run("kubectl rollout undo deployment -n web").stderr


def test_set_image_patch_label_annotate(run: Run) -> None:
    assert run("kubectl set image deploy/api api=shop/api:3.5.0 -n shop").stdout == (
        "deployment.apps/api image updated\n"
    )
    wide = run("kubectl get deploy api -n shop -o wide").stdout
    assert "shop/api:3.5.0" in wide
    assert run("kubectl set image deploy/api web=x -n shop").stderr == (
        'error: unable to find container named "web"\n'
    )
    patched = run('kubectl patch deployment api -n shop -p \'{"spec":{"replicas":1}}\'')
    assert patched.stdout == "deployment.apps/api patched\n"
    assert run("kubectl get deploy api -n shop -o jsonpath={.spec.replicas}").stdout == "1"
    same = run('kubectl patch deployment api -n shop --type merge -p \'{"spec":{"replicas":1}}\'')
    assert same.stdout == "deployment.apps/api patched (no change)\n" and not same.changes
    assert run("kubectl label pod redis-0 -n web tier=cache").stdout == "pod/redis-0 labeled\n"
    assert run("kubectl label pod redis-0 -n web tier=db").stderr == (
        "error: 'tier' already has a value (cache), and --overwrite is false\n"
    )
    assert run("kubectl annotate deploy api -n shop owner=team-a").stdout == (
        "deployment.apps/api annotated\n"
    )


def test_edit_is_refused(run: Run) -> None:
    result = run("kubectl edit deploy nginx -n web")
    assert result.exit_code == 1 and "no interactive editor" in result.stderr
    assert not result.changes


def test_create_namespace_and_configmap(run: Run) -> None:
    assert run("kubectl create namespace tmp").stdout == "namespace/tmp created\n"
    assert run("kubectl create ns tmp").stderr == (
        'Error from server (AlreadyExists): namespaces "tmp" already exists\n'
    )
    made = run("kubectl create configmap flags -n web --from-literal=a=1 --from-literal=b=2")
    assert made.stdout == "configmap/flags created\n"
    assert run("kubectl get cm flags -n web -o jsonpath={.data.b}").stdout == "2"


def test_pods_wait_on_missing_config_and_start_once_it_exists(run: Run) -> None:
    run("kubectl delete cm app-config -n web")
    run(f"kubectl delete pod {POD} -n web")
    status = run("kubectl get pods -n web -l app=nginx").stdout.splitlines()[1].split()[2]
    assert status == "CreateContainerConfigError"
    run("kubectl create configmap app-config -n web --from-literal=db_host=pg")
    assert run("kubectl get pods -n web -l app=nginx").stdout.splitlines()[1].split()[2] == (
        "Running"
    )


def test_checkpoints_replay_writes_to_the_same_state(kubectl: object) -> None:
    import shlex

    from agentbench.sim.core.base import ShellContext, Stateful
    from agentbench.sim.kube.program import Kubectl

    assert isinstance(kubectl, Kubectl) and isinstance(kubectl, Stateful)

    def run(line: str) -> str:
        return kubectl.run(shlex.split(line), None, ShellContext()).stdout

    run("kubectl scale deploy api -n shop --replicas=3")
    token = kubectl.snapshot()
    pods = run("kubectl get pods -n shop -o name")
    run("kubectl delete deployment api -n shop")
    assert run("kubectl get pods -n shop -o name") == ""
    kubectl.restore(token)
    assert run("kubectl get pods -n shop -o name") == pods
    kubectl.restore(kubectl.snapshot())  # nothing written since: a no-op
    assert run("kubectl get pods -n shop -o name") == pods


def test_quota_refuses_pods_past_hard_limits() -> None:
    import shlex

    from agentbench.sim.core.base import ShellContext
    from agentbench.sim.kube.program import build_kubectl
    from agentbench.sim.kube.schema.model import Cluster

    spec = Cluster.model_validate(
        {
            "nodes": [{"name": "worker-2"}],
            "deployments": [
                {
                    "name": "report-worker",
                    "namespace": "reports",
                    "template": {
                        "containers": [
                            {"name": "worker", "image": "w:5", "limits": {"memory": "4Gi"}}
                        ]
                    },
                }
            ],
            "quotas": [
                {
                    "name": "reports-compute",
                    "namespace": "reports",
                    "hard": {"limits.memory": "8Gi"},
                    "used": {"limits.memory": "0"},
                }
            ],
        }
    )
    k = build_kubectl(spec)

    def run(line: str) -> str:
        return k.run(shlex.split(line), None, ShellContext()).stdout

    run("kubectl scale deploy report-worker -n reports --replicas=3")
    assert run("kubectl get deploy -n reports").splitlines()[1].split()[1] == "2/3"
    event = run("kubectl get events -n reports").splitlines()[1]
    assert (
        "FailedCreate" in event
        and (
            "exceeded quota: reports-compute, requested: limits.memory=4Gi, used: "
            "limits.memory=8Gi, limited: limits.memory=8Gi"
        )
        in event
    )
    assert "ReplicaFailure  True    FailedCreate" in run("kubectl describe rs -n reports")
    assert "limits.memory  8Gi   8Gi" in run("kubectl describe quota -n reports")


def test_patch_kinds(run: Run) -> None:
    containers = '{"spec":{"template":{"spec":{"containers":[{"name":"api","image":"x:1"}]}}}}'
    assert run(f"kubectl patch deploy api -n shop -p '{containers}'").changes
    image = "{.spec.template.spec.containers[0].image}"
    assert run(f"kubectl get deploy api -n shop -o jsonpath={image}").stdout == "x:1"
    ops = '[{"op":"replace","path":"/spec/replicas","value":3}]'
    assert run(f"kubectl patch deploy api -n shop --type json -p '{ops}'").stdout == (
        "deployment.apps/api patched\n"
    )
    assert len(run("kubectl get pods -n shop -o name").stdout.split()) == 3
    node = run('kubectl patch node worker-4 -p \'{"spec":{"unschedulable":true}}\'')
    assert node.stdout == "node/worker-4 patched\n"
    assert "worker-4   Ready,SchedulingDisabled" in run("kubectl get nodes").stdout
    bad = run("kubectl patch deploy api -n shop -p '{not json'")
    assert bad.exit_code == 1 and bad.stderr.startswith('error: unable to parse "{not json"')


def test_a_patch_of_template_annotations_is_a_rollout_restart(run: Run) -> None:
    stamp = '{"kubectl.kubernetes.io/restartedAt":"now"}'
    stamp = '{"spec":{"template":{"metadata":{"annotations":' + stamp + "}}}}"
    result = run(f"kubectl patch deploy api -n shop -p '{stamp}'")
    assert [c.action for c in result.changes] == ["rollout-restart"]
    replicas = '{"spec":{"replicas":5}}'
    assert [c.action for c in run(f"kubectl patch deploy api -n shop -p '{replicas}'").changes] == [
        "patch"
    ]


def test_kubectls_of_one_declaration_are_independent(spec: object) -> None:
    import shlex

    from agentbench.sim.core.base import ShellContext
    from agentbench.sim.kube.program import build_kubectl
    from agentbench.sim.kube.schema.model import Cluster

    assert isinstance(spec, Cluster)
    first, second = build_kubectl(spec), build_kubectl(spec)  # the second copies the first's
    first.run(shlex.split("kubectl delete deploy api -n shop"), None, ShellContext())
    third = build_kubectl(spec)
    for k, count in ((first, 0), (second, 2), (third, 2)):
        out = k.run(shlex.split("kubectl get pods -n shop -o name"), None, ShellContext())
        assert len(out.stdout.split()) == count

"""kubectl get: aliases, TYPE/NAME, flags anywhere, output formats, selectors, errors."""

from __future__ import annotations

import json
from collections.abc import Callable

import yaml

from agentbench.sim.core.base import CommandResult

Run = Callable[[str], CommandResult]

WEB_PODS = (
    "NAME                     READY   STATUS             RESTARTS        AGE\n"
    "debug-shell              1/1     Running            0               120m\n"
    "nginx-7c5ddbdf54-x8k2p   0/1     CrashLoopBackOff   7 (2m11s ago)   14m\n"
    "redis-0                  1/1     Running            0               3d\n"
)


def test_get_pods_in_a_namespace_prints_kubectls_table(run: Run) -> None:
    result = run("kubectl get pods -n web")
    assert result.exit_code == 0
    assert result.stdout == WEB_PODS
    assert result.identity == ("kubectl", "get", "pods", "web", "*")


def test_aliases_and_flag_spellings_are_the_same_read(run: Run) -> None:
    spellings = [
        "kubectl get po -n web",
        "kubectl get pod --namespace web",
        "kubectl get pods --namespace=web",
        "kubectl -n web get pods",
        "kubectl get -nweb Pods",
    ]
    results = [run(s) for s in spellings]
    assert {r.stdout for r in results} == {WEB_PODS}
    assert {r.identity for r in results} == {("kubectl", "get", "pods", "web", "*")}
    wide = run("kubectl get pods --namespace=web -o wide")
    assert wide.identity == results[0].identity
    assert "NOMINATED NODE" in wide.stdout.splitlines()[0]
    assert "10.244.1.5    worker-2" in wide.stdout


def test_default_namespace_is_empty(run: Run) -> None:
    result = run("kubectl get pods")
    assert (result.stdout, result.stderr) == ("", "No resources found in default namespace.\n")
    assert result.identity == ("kubectl", "get", "pods", "default", "*")
    assert result.identity != run("kubectl get pods -n web").identity


def test_all_namespaces_adds_the_namespace_column(run: Run) -> None:
    out = run("kubectl get deploy -A").stdout
    assert out.splitlines() == [
        "NAMESPACE   NAME    READY   UP-TO-DATE   AVAILABLE   AGE",
        "shop        api     2/2     2            2           30d",
        "web         nginx   0/1     1            0           30d",
    ]
    assert run("kubectl get deployments --all-namespaces").stdout == out


def test_type_slash_name_and_several_names(run: Run) -> None:
    one = run("kubectl get pod/redis-0 -n web")
    assert one.stdout.splitlines()[1].startswith("redis-0   ")
    assert one.identity == run("kubectl get pods redis-0 -n web").identity
    two = run("kubectl get po redis-0 debug-shell -n web")
    assert [line.split()[0] for line in two.stdout.splitlines()] == [
        "NAME",
        "redis-0",
        "debug-shell",
    ]
    assert two.identity == ("kubectl", "get", "pods", "web", "debug-shell,redis-0")


def test_several_types_print_kind_prefixed_tables(run: Run) -> None:
    out = run("kubectl get svc,ep -n web").stdout
    assert "service/nginx   ClusterIP   10.96.12.7" in out
    assert "endpoints/redis   10.244." in out
    assert "\n\nNAME              ENDPOINTS" in out


def test_not_found_and_unknown_type_errors(run: Run) -> None:
    missing = run("kubectl get pod nope -n web")
    assert (missing.exit_code, missing.stderr) == (
        1,
        'Error from server (NotFound): pods "nope" not found\n',
    )
    unknown = run("kubectl get foo")
    assert (unknown.exit_code, unknown.stderr) == (
        1,
        'error: the server doesn\'t have a resource type "foo"\n',
    )
    flag = run("kubectl get pods --bogus")
    assert flag.stderr == "error: unknown flag: --bogus\nSee 'kubectl get --help' for usage.\n"
    assert run("kubectl get").stderr.startswith("You must specify the type of resource to get.")


def test_json_is_the_api_object(run: Run) -> None:
    data = json.loads(run("kubectl get pods -n web -o json").stdout)
    assert data["kind"] == "List"
    pod = next(p for p in data["items"] if p["metadata"]["name"].startswith("nginx"))
    status = pod["status"]["containerStatuses"][0]
    assert status["lastState"]["terminated"]["reason"] == "OOMKilled"
    assert status["lastState"]["terminated"]["exitCode"] == 137
    assert status["restartCount"] == 7
    assert pod["spec"]["containers"][0]["resources"]["limits"] == {"memory": "64Mi"}
    assert pod["metadata"]["ownerReferences"][0]["name"] == "nginx-7c5ddbdf54"
    single = json.loads(run("kubectl get pod nginx-7c5ddbdf54-x8k2p -n web -o json").stdout)
    assert single["kind"] == "Pod"


def test_yaml_and_name_outputs(run: Run) -> None:
    doc = yaml.safe_load(run("kubectl get deploy nginx -n web -o yaml").stdout)
    assert doc["apiVersion"] == "apps/v1"
    assert doc["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx:1.27.3"
    assert run("kubectl get deploy -n shop -o name").stdout == "deployment.apps/api\n"


def test_jsonpath_subset(run: Run) -> None:
    names = run("kubectl get pods -n web -o jsonpath={.items[*].metadata.name}").stdout
    assert names == "debug-shell nginx-7c5ddbdf54-x8k2p redis-0"
    reason = run(
        "kubectl get pod nginx-7c5ddbdf54-x8k2p -n web -o "
        "jsonpath='{.status.containerStatuses[0].lastState.terminated.reason}'"
    ).stdout
    assert reason == "OOMKilled"
    ranged = run(
        'kubectl get pods -n web -o jsonpath=\'{range .items[*]}{.metadata.name}{"\\t"}'
        '{.status.phase}{"\\n"}{end}\''
    ).stdout
    assert ranged.splitlines() == [
        "debug-shell\tRunning",
        "nginx-7c5ddbdf54-x8k2p\tRunning",
        "redis-0\tRunning",
    ]
    filtered = run(
        "kubectl get nodes -o jsonpath='{.items[0].status.conditions[?(@.type==\"Ready\")].status}'"
    ).stdout
    assert filtered == "True"


def test_custom_columns(run: Run) -> None:
    out = run(
        "kubectl get pods -n web -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName"
    ).stdout
    assert out.splitlines()[:2] == [
        "NAME                     NODE",
        "debug-shell              worker-4",
    ]


def test_label_and_field_selectors(run: Run) -> None:
    by_label = run("kubectl get pods -n web -l app=nginx").stdout
    assert [line.split()[0] for line in by_label.splitlines()] == ["NAME", "nginx-7c5ddbdf54-x8k2p"]
    assert "redis-0" in run("kubectl get pods -n web -l 'app in (redis,x)'").stdout
    assert "nginx" not in run("kubectl get pods -n web --selector app!=nginx").stdout
    on_node = run("kubectl get pods -A --field-selector spec.nodeName=worker-4").stdout
    assert [line.split()[1] for line in on_node.splitlines()[1:]] == [
        "kube-proxy-8pg2s",
        "debug-shell",
    ]
    bad = run("kubectl get pods --field-selector foo=bar")
    assert bad.exit_code == 1 and "field label not supported: foo" in bad.stderr


def test_show_labels_no_headers_sort_by(run: Run) -> None:
    out = run("kubectl get pods -n web --show-labels --no-headers -l app=nginx").stdout
    assert out.rstrip().endswith("app=nginx,pod-template-hash=7c5ddbdf54")
    assert not out.startswith("NAME")
    events = run("kubectl get events -n web --sort-by=.lastTimestamp").stdout.splitlines()
    assert [line.split()[2] for line in events[1:]] == ["Scheduled", "Pulled", "BackOff"]
    assert events[0].split() == ["LAST", "SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]


def test_event_field_selector(run: Run) -> None:
    out = run(
        "kubectl get ev -n web --field-selector involvedObject.name=nginx-7c5ddbdf54-x8k2p,"
        "type=Warning"
    ).stdout
    assert out.splitlines()[1].split()[:3] == ["2m", "Warning", "BackOff"]


def test_nodes_and_other_types(run: Run) -> None:
    assert run("kubectl get no").stdout.splitlines()[1] == (
        "worker-2   Ready    <none>   26d   v1.31.4"
    )
    assert run("kubectl get cm -n web").stdout == (
        "NAME               DATA   AGE\n"
        "app-config         1      30d\n"
        "kube-root-ca.crt   1      30d\n"
    )
    assert "db-creds   Opaque   2      30d" in run("kubectl get secrets -n web").stdout
    assert "redis   1/1     3d" in run("kubectl get sts -n web").stdout
    assert run("kubectl get ds -n kube-system").stdout.splitlines()[1].split()[:6] == [
        "kube-proxy",
        "3",
        "3",
        "3",
        "3",
        "3",
    ]
    assert "web " in run("kubectl get ns").stdout
    assert run("kubectl get ingress -n web").stderr == "No resources found in web namespace.\n"


def test_a_cluster_that_cannot_be_built_is_refused_with_the_reason() -> None:
    import pytest

    from agentbench.sim.kube.controllers.build import build_store
    from agentbench.sim.kube.schema.model import Cluster

    assert build_store(Cluster.model_validate({"pods": [{"name": "old", "age": "3y41d"}]}))
    with pytest.raises(ValueError, match="'yesterday' is neither an age"):
        build_store(Cluster.model_validate({"pods": [{"name": "x", "age": "yesterday"}]}))
    with pytest.raises(ValueError, match="owner 'deployment/nope' is not declared"):
        build_store(Cluster.model_validate({"pods": [{"name": "x", "owner": "deployment/nope"}]}))

"""A system the task does not declare answers as a real host without it: kubectl cannot reach
an API server, psql and sql_query cannot connect, curl/wget/http_get cannot resolve the host.
Those answers are simulated (not off-script) and never count as declared state."""

from __future__ import annotations

from agentbench.sim.core.spec import HttpRoute
from agentbench.sim.sql.spec import SqlSpec, TableSpec
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

REFUSED = (
    "The connection to the server localhost:8080 was refused - did you specify the right host "
    "or port?\n"
)


def test_kubectl_without_a_cluster_is_refused_like_real_kubectl() -> None:
    bare = World(WorldSpec())
    for line in ("kubectl get nodes -o wide", "sudo kubectl -n web get po", "kubectl logs x"):
        result = sh(bare, line)
        assert (result.stdout, result.stderr, result.exit_code, result.simulated) == (
            "",
            REFUSED,
            1,
            True,
        )
    assert sh(bare, "kubectl get nodes").identity == ("kubectl", "!unreachable", "get", "nodes")
    client = sh(bare, "kubectl version --client")
    assert (client.stdout, client.exit_code) == (
        "Client Version: v1.31.4\nKustomize Version: v5.4.2\n",
        0,
    )
    both = sh(bare, "kubectl version")
    assert (both.output, both.exit_code) == (client.stdout + REFUSED, 1)
    assert sh(bare, "kubectl config view").stdout.startswith("apiVersion: v1\nclusters: null\n")
    assert sh(bare, "kubectl config current-context").stderr == (
        "error: current-context is not set\n"
    )
    flag = sh(bare, "kubectl get pods --bogus")
    assert flag.stderr == "error: unknown flag: --bogus\nSee 'kubectl get --help' for usage.\n"
    verb = sh(bare, "kubectl frob")
    assert verb.stderr == 'error: unknown command "frob" for "kubectl"\n'


def test_sql_without_a_database_cannot_connect() -> None:
    bare = World(WorldSpec())
    local = sh(bare, "psql -c 'select 1'")
    assert (local.stderr, local.exit_code) == (
        'psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" '
        "failed: No such file or directory\n\tIs the server running locally and accepting "
        "connections on that socket?\n",
        2,
    )
    remote = sh(bare, "psql -h db-1.internal -U app -d orders -c 'select 1'")
    assert remote.stderr == (
        'psql: error: could not translate host name "db-1.internal" to address: '
        "Name or service not known\n"
    )
    tcp = sh(bare, "psql postgresql://app@localhost/orders -tAc 'select 1'")
    assert tcp.stderr.startswith(
        'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: '
        "Connection refused\n"
    )
    answer = bare.call("sql_query", {"query": "SELECT * FROM oncall"})
    assert answer is not None
    assert answer.result.stderr.startswith('connection to server at "localhost" (127.0.0.1)')
    assert answer.result.exit_code != 0 and answer.result.simulated


def test_http_without_routes_does_not_resolve() -> None:
    bare = World(WorldSpec())
    curl = sh(bare, "curl -s http://inventory.internal/api/v1/items")
    assert (curl.stderr, curl.exit_code, curl.simulated) == ("", 6, True)
    loud = sh(bare, "curl -sS http://inventory.internal/api/v1/items")
    assert loud.stderr == "curl: (6) Could not resolve host: inventory.internal\n"
    answer = bare.call("http_get", {"url": "http://inventory.internal/api/v1/items?sku=A-100"})
    assert answer is not None
    assert answer.result.stderr == "error: Could not resolve host: inventory.internal\n"
    wget = sh(bare, "wget -qO- http://inventory.internal/")
    assert (wget.output, wget.exit_code) == ("", 4)
    assert sh(bare, "wget -O - http://inventory.internal/").stderr == (
        "wget: unable to resolve host address \u2018inventory.internal\u2019\n"
    )


def test_only_declared_state_counts_as_answered_from_state() -> None:
    bare = World(WorldSpec())
    assert not bare.from_state("run_command", {"cmd": "kubectl get pods"})
    assert not bare.from_state("sql_query", {"query": "SELECT 1"})
    assert not bare.from_state("http_get", {"url": "http://a.internal/"})
    db = World(WorldSpec(sql=SqlSpec(tables={"t": TableSpec(columns={"x": "int"}, rows=[[1]])})))
    assert db.from_state("sql_query", {"query": "SELECT x FROM t"})
    assert db.from_state("run_command", {"cmd": "psql -c 'select x from t'"})
    assert not db.from_state("run_command", {"cmd": "kubectl get pods"})


ROUTES = (
    HttpRoute(url="http://svc.internal:8080/metrics", body="up 1\n"),
    HttpRoute(url="http://svc.internal/health", body={"status": "ok"}),
    HttpRoute(url="http://svc.internal/down", status=503, body={"status": "down"}),
)


def test_routes_honour_the_port() -> None:
    web = World(WorldSpec(http=ROUTES))
    assert sh(web, "curl -s http://svc.internal:8080/metrics").stdout == "up 1\n"
    assert sh(web, "curl -s http://svc.internal:80/health").identity == (
        "http",
        "GET",
        "http://svc.internal/health",
    )
    other = sh(web, "curl http://svc.internal:9090/metrics")
    assert (other.stderr, other.exit_code) == (
        "curl: (7) Failed to connect to svc.internal port 9090 after 0 ms: "
        "Couldn't connect to server\n",
        7,
    )
    no_port = sh(web, "curl -s http://svc.internal/metrics")  # port 80: that server's 404
    assert no_port.stdout == '{"error": "not found", "path": "/metrics"}'
    answer = web.call("http_get", {"url": "http://svc.internal:9090/health"})
    assert answer is not None and answer.result.stderr == (
        "error: Failed to connect to svc.internal port 9090 after 0 ms: "
        "Couldn't connect to server\n"
    )


def test_wget_prints_the_body_and_fails_on_error_statuses() -> None:
    web = World(WorldSpec(http=ROUTES))
    quiet = sh(web, "wget -qO- http://svc.internal/health")
    assert (quiet.stdout, quiet.stderr, quiet.exit_code) == ('{\n  "status": "ok"\n}', "", 0)
    assert quiet.identity == sh(web, "curl -s http://svc.internal/health").identity
    loud = sh(web, "wget -O - http://svc.internal/down")
    assert (loud.stdout, loud.exit_code) == ("", 8)
    assert loud.stderr == (
        "HTTP request sent, awaiting response... 503 Service Unavailable\n"
        "ERROR 503: Service Unavailable.\n"
    )
    spider = sh(web, "wget --spider http://svc.internal/health")
    assert (spider.exit_code, spider.stderr.endswith("Remote file exists.\n")) == (0, True)
    saved = sh(web, "wget http://svc.internal/health")
    assert not saved.simulated  # writing a download into the filesystem is not simulated


def test_localhost_and_ip_literals_refuse_instead_of_failing_to_resolve() -> None:
    bare = World(WorldSpec())
    for url, host, port in (
        ("http://localhost:9200/_cluster/health", "localhost", 9200),
        ("http://127.0.0.1/", "127.0.0.1", 80),
        ("https://10.0.4.17/x", "10.0.4.17", 443),
    ):
        result = sh(bare, f"curl {url}")
        assert (result.stderr, result.exit_code) == (
            f"curl: (7) Failed to connect to {host} port {port} after 0 ms: "
            "Couldn't connect to server\n",
            7,
        )

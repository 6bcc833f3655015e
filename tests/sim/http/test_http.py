"""HTTP from declared routes: http_get and curl, unknown hosts and routes."""

from __future__ import annotations

from agentbench.sim.core.spec import HttpRoute
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

ROUTES = (
    HttpRoute(
        url="http://inventory.internal/api/v1/items?sku=A-100&warehouse=ber",
        body={"sku": "A-100", "available": 3},
    ),
    HttpRoute(
        url="http://payments.internal/health",
        status=503,
        headers={"Retry-After": "30"},
        body={"status": "unavailable"},
    ),
    HttpRoute(url="http://payments.internal/*", status=404, body="no such route\n"),
)


def world() -> World:
    return World(WorldSpec(http=ROUTES))


def test_http_get_tool_prints_status_line_and_body() -> None:
    answer = world().call(
        "http_get", {"url": "http://inventory.internal/api/v1/items?warehouse=ber&sku=A-100"}
    )
    assert answer is not None
    assert answer.result.stdout == 'HTTP/1.1 200 OK\n{\n  "sku": "A-100",\n  "available": 3\n}'
    other = world().call("http_get", {"url": "http://inventory.internal/api/v1/items?sku=B-1"})
    assert other is not None and other.result.stdout.startswith("HTTP/1.1 404 Not Found\n")


def test_curl_flags() -> None:
    w = world()
    assert (
        sh(w, "curl -s -o /dev/null -w '%{http_code}' http://payments.internal/health").stdout
        == "503"
    )
    head = sh(w, "curl -sI http://payments.internal/health").stdout
    assert head.startswith("HTTP/1.1 503 Service Unavailable\r\n") and "Retry-After: 30\r\n" in head
    included = sh(w, "curl -i http://payments.internal/health").stdout
    assert included.endswith('\r\n\r\n{\n  "status": "unavailable"\n}')
    assert sh(w, "curl -s http://payments.internal/other").stdout == "no such route\n"
    failed = sh(w, "curl -sf http://payments.internal/health")
    assert (failed.exit_code, failed.stdout) == (22, "")


def test_unknown_host_answers_like_curl() -> None:
    result = sh(world(), "curl http://billing.internal/")
    assert (result.stderr, result.exit_code) == (
        "curl: (6) Could not resolve host: billing.internal\n",
        6,
    )


def test_identity_is_the_route() -> None:
    w = world()
    a = sh(w, "curl -s 'http://inventory.internal/api/v1/items?sku=A-100&warehouse=ber'").identity
    b = w.identify(
        "http_get", {"url": "http://inventory.internal/api/v1/items?warehouse=ber&sku=A-100"}
    )
    assert a == b == ("http", "GET", ROUTES[0].url)


def test_malformed_urls_are_refused_as_curl_does() -> None:
    result = sh(world(), "curl '['")
    assert (result.exit_code, result.stderr) == (
        3,
        "curl: (3) URL rejected: Malformed input to a URL function\n",
    )

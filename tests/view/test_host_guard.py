"""`agentbench view` against DNS rebinding and odd URLs: real HTTP requests with chosen Host
headers to the command started as a user starts it (a subprocess on a free port)."""

from __future__ import annotations

import http.client
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .conftest import ViewedRuns


@contextmanager
def viewing(db: Path, *args: str) -> Iterator[tuple[str, int, str]]:
    """(host, port, announced URL) of `agentbench view` serving `db` until the block ends."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "view",
            "--db",
            str(db),
            "--port",
            "0",
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"(http://([^:/]+):(\d+)/\S*)", line)
        assert found, line + (proc.stderr.read() if proc.stderr else "")
        yield found.group(2), int(found.group(3)), found.group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def request(
    port: int, path: str, host: str | None, cookie: str | None = None, at: str = "127.0.0.1"
) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(at, port, timeout=30)
    conn.putrequest("GET", path, skip_host=True)
    if host is not None:
        conn.putheader("Host", host)
    if cookie:
        conn.putheader("Cookie", cookie)
    conn.endheaders()
    response = conn.getresponse()
    response.read()
    return response


def test_only_loopback_host_headers_with_its_port_are_answered(viewed_runs: ViewedRuns) -> None:
    with viewing(viewed_runs.db) as (_, port, url):
        assert "token" not in url  # on loopback the Host check suffices
        for host in (
            f"127.0.0.1:{port}",
            f"localhost:{port}",
            f"[::1]:{port}",
            f"LOCALHOST:{port}",
        ):
            assert request(port, "/", host).status == 200, host
        for host in (
            "evil.example",
            f"evil.example:{port}",
            f"127.0.0.1:{port + 1}",
            "127.0.0.1",
            f"127.0.0.1.evil.example:{port}",
            "",
        ):
            response = request(port, "/", host)
            assert response.status == 403, host  # a rebinding page names its own host
        assert request(port, "/", None).status == 400  # HTTP/1.1 needs a Host: refused too
        page = request(port, f"/runs/{viewed_runs.oracle}", f"attacker.test:{port}")
        assert page.status == 403  # no page of a run either


def test_the_token_lets_another_host_name_in_and_a_wrong_one_does_not(
    viewed_runs: ViewedRuns,
) -> None:
    with viewing(viewed_runs.db, "--host", "127.0.0.2") as (host, port, url):
        assert host == "127.0.0.2" and "?token=" in url
        token = url.split("?token=", 1)[1]
        at = "127.0.0.2"
        assert request(port, "/", f"127.0.0.2:{port}", at=at).status == 200  # the bound host
        assert request(port, "/", f"my-box.lan:{port}", at=at).status == 403
        assert request(port, "/?token=wrong", f"my-box.lan:{port}", at=at).status == 403
        first = request(port, f"/?token={token}", f"my-box.lan:{port}", at=at)
        assert first.status == 200
        cookie = first.getheader("set-cookie") or ""
        assert token in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        again = request(port, f"/runs/{viewed_runs.oracle}", f"my-box.lan:{port}",
                        cookie=cookie.split(";")[0], at=at)  # fmt: skip
        assert again.status == 200  # the links of the page keep working


@pytest.mark.parametrize(
    "path",
    [
        "/runs/{run}/episodes/{task}/99999999999999999999999",
        "/runs/{run}/episodes/{task}/-1",
        "/runs/{run}/episodes/{task}/%C2%B2",
        "/side?a={run}&b={run}&task={task}&repeat=99999999999999999999999",
        "/side?a={run}&b={run}&task={task}&repeat=1e3",
    ],
)
def test_an_out_of_range_repeat_is_a_404_page_not_a_500(viewed_runs: ViewedRuns, path: str) -> None:
    from agentbench.store import ResultStore

    with ResultStore(viewed_runs.db) as store:
        task = store.episodes(viewed_runs.oracle)[0].task_id
    with viewing(viewed_runs.db) as (_, port, _):
        response = request(
            port, path.format(run=viewed_runs.oracle, task=task), f"127.0.0.1:{port}"
        )
        assert response.status == 404

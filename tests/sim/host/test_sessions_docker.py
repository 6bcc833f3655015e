"""Login records (who, last, lastb) and docker (ps, logs, inspect) from the declared state."""

from __future__ import annotations

import json

import pytest

from agentbench.sim.core.spec import SystemSpec
from agentbench.sim.core.spec_services import ContainerSpec, DockerSpec, LoginSpec
from agentbench.sim.host.docker import human_duration
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh


@pytest.fixture
def bastion() -> World:
    system = SystemSpec(
        now="2026-03-14T09:00:00Z",
        logins=[
            LoginSpec(
                user="alice",
                tty="pts/1",
                host="10.0.8.5",
                start="2026-03-14T02:31:44Z",
                end="2026-03-14T02:48:19Z",
            ),
            LoginSpec(
                user="deploy",
                tty="pts/2",
                host="203.0.113.45",
                start="2026-03-14T03:19:02Z",
                end="2026-03-14T03:24:40Z",
            ),
            LoginSpec(user="ops", host="10.0.8.5", start="2026-03-14T08:31:10Z"),
            LoginSpec(
                user="admin",
                tty="ssh:notty",
                host="203.0.113.45",
                start="2026-03-14T03:12:44Z",
                failed=True,
            ),
        ],
        docker=DockerSpec(
            containers=[
                ContainerSpec(
                    name="web",
                    image="nginx:1.27",
                    command="/docker-entrypoint.sh nginx",
                    created="2026-03-14T07:00:00Z",
                    ports=["0.0.0.0:8080->80/tcp"],
                    logs="one\ntwo\nthree\n",
                ),
                ContainerSpec(
                    name="worker",
                    id="9c41d7e2ab10",
                    image="ledger/worker:3.2.0",
                    command="python -m ledger.worker",
                    created="2026-03-12T09:00:00Z",
                    state="exited",
                    exit_code=1,
                    started="2026-03-14T08:22:00Z",
                    logs="KeyError: 'LEDGER_QUEUE_URL'\n",
                ),
            ]
        ),
    )
    return World(WorldSpec(system=system))


def test_who_and_last_read_wtmp(bastion: World) -> None:
    assert sh(bastion, "who").stdout == "ops      pts/0        2026-03-14 08:31 (10.0.8.5)\n"
    last = sh(bastion, "last").stdout.splitlines()
    assert last[0] == "ops      pts/0        10.0.8.5         Sat Mar 14 08:31   still logged in"
    assert last[1] == "deploy   pts/2        203.0.113.45     Sat Mar 14 03:19 - 03:24  (00:05)"
    assert last[-1] == "wtmp begins Sat Mar 14 02:31:44 2026"
    assert sh(bastion, "last -n 1").stdout.count("\n") == 3  # one record, blank, begins
    assert sh(bastion, "last -2").stdout.count("\n") == 4
    assert (
        "alice" in sh(bastion, "last alice").stdout
        and "deploy" not in sh(bastion, "last alice").stdout
    )
    assert sh(bastion, "last -n x").stderr == "last: failed to parse number: 'x'\n"


def test_lastb_is_roots(bastion: World) -> None:
    denied = sh(bastion, "lastb")
    assert (denied.stderr, denied.exit_code) == (
        "lastb: cannot open /var/log/btmp: Permission denied\n",
        1,
    )
    failed = sh(bastion, "sudo lastb").stdout.splitlines()
    assert failed[0].split()[:3] == ["admin", "ssh:notty", "203.0.113.45"]
    assert failed[-1] == "btmp begins Sat Mar 14 03:12:44 2026"


def test_docker_ps_lists_running_and_all(bastion: World) -> None:
    running = sh(bastion, "docker ps").stdout.splitlines()
    assert running[0].startswith("CONTAINER ID   IMAGE        COMMAND") and len(running) == 2
    assert running[1].startswith(
        '3f2c9a1b7d4e   nginx:1.27   "/docker-entrypoint.…"   2 hours ago   Up 2 hours'
    )
    every = sh(bastion, "docker ps -a").stdout
    assert "Exited (1) 38 minutes ago" in every and every.rstrip().endswith("worker")
    assert sh(bastion, "docker container ls --all").stdout == every
    assert sh(bastion, "docker ps -aq").stdout.split() == ["3f2c9a1b7d4e", "9c41d7e2ab10"]


def test_docker_logs_and_inspect(bastion: World) -> None:
    assert sh(bastion, "docker logs --tail 2 web").stdout == "two\nthree\n"
    assert sh(bastion, "docker logs -n 1 web").stdout == "three\n"
    assert sh(bastion, "docker logs 9c41d7e2ab10").stdout == "KeyError: 'LEDGER_QUEUE_URL'\n"
    assert sh(bastion, "docker logs worker").identity == sh(bastion, "docker logs 9c41").identity
    missing = sh(bastion, "docker logs nope")
    assert (missing.stderr, missing.exit_code) == (
        "Error response from daemon: No such container: nope\n",
        1,
    )
    data = json.loads(sh(bastion, "docker inspect worker").stdout)
    assert data[0]["State"]["ExitCode"] == 1 and data[0]["Name"] == "/worker"
    gone = sh(bastion, "docker inspect nope")
    assert (gone.stdout, gone.stderr, gone.exit_code) == (
        "[]\n",
        "Error: No such object: nope\n",
        1,
    )
    assert (
        sh(bastion, "docker frob").stderr
        == "docker: 'frob' is not a docker command.\nSee 'docker --help'\n"
    )
    assert sh(bastion, "docker restart web").simulated is False  # writes are not simulated


def test_no_daemon_declared() -> None:
    world = World(WorldSpec(system=SystemSpec()))
    for cmd in ("docker ps", "sudo docker logs web", "docker inspect web"):
        result = sh(world, cmd)
        assert result.stderr == (
            "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. "
            "Is the docker daemon running?\n"
        )
        assert (result.exit_code, result.simulated) == (1, True)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.5, "Less than a second"),
        (45, "45 seconds"),
        (90, "About a minute"),
        (600, "10 minutes"),
        (3600, "About an hour"),
        (7200, "2 hours"),
        (3 * 86400, "3 days"),
        (20 * 86400, "2 weeks"),
    ],
)
def test_docker_durations(seconds: float, text: str) -> None:
    assert human_duration(seconds) == text

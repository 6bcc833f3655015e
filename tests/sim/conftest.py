"""A small declared host shared by the simulator tests."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import CommandResult
from agentbench.sim.core.spec import FileSpec, SystemSpec, UserSpec
from agentbench.sim.world import World, WorldSpec

PODS_JSON = (
    '{"items": [{"metadata": {"name": "web-1"}, "status": {"phase": "Running"}},'
    ' {"metadata": {"name": "web-2"}, "status": {"phase": "Failed"}}]}\n'
)
ACCESS_LOG = (
    "10.0.0.1 GET /a 200\n10.0.0.2 GET /b 502\n10.0.0.1 GET /c 502\n"
    "10.0.0.3 POST /d 200\n10.0.0.1 GET /e 504\n"
)


@pytest.fixture
def host() -> World:
    files: dict[str, str | FileSpec] = {
        "/var/log/app/access.log": ACCESS_LOG,
        "/srv/pods.json": PODS_JSON,
        "/var/log/backup/nightly.log": FileSpec(
            content="02:00 start\n02:00 FATAL: password authentication failed\n",
            mode="0640",
            owner="backup",
        ),
    }
    system = SystemSpec(users=[UserSpec(name="backup", uid=998, groups=["backup"])])
    return World(WorldSpec(files=files, system=system))


def sh(world: World, cmd: str) -> CommandResult:
    answer = world.call("run_command", {"cmd": cmd})
    assert answer is not None
    return answer.result

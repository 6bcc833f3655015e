"""System tools from the declared `system:` state: systemd, journal, processes, sockets, disks."""

from __future__ import annotations

import pytest

from agentbench.sim.core.base import Change
from agentbench.sim.core.spec import (
    DiskSpec,
    JournalEntry,
    ProcessSpec,
    SocketSpec,
    SystemSpec,
    UnitSpec,
)
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh

EMERG = 'nginx: [emerg] unknown directive "proxy_passs" in /etc/nginx/sites-enabled/app:12'


@pytest.fixture
def web() -> World:
    system = SystemSpec(
        hostname="web-01",
        units=[
            UnitSpec(
                name="nginx.service",
                description="A high performance web server",
                active="failed",
                since="2026-11-29T08:00:00Z",
                main_pid=812,
                exec_start="/usr/sbin/nginx -g 'daemon on;'",
                status="1/FAILURE",
                restart_fails='nginx: [emerg] unknown directive "proxy_passs"',
            ),
            UnitSpec(
                name="cron.service",
                description="Regular background program processing daemon",
                main_pid=501,
                since="2026-11-12T04:10:05Z",
            ),
        ],
        journal=[
            JournalEntry(
                time="2026-11-29T08:00:00Z",
                unit="nginx.service",
                ident="nginx",
                pid=812,
                message=EMERG,
                priority=3,
            ),
            JournalEntry(
                time="2026-11-29T03:12:09Z",
                transport="kernel",
                priority=3,
                message="Out of memory: Killed process 4242 (java) total-vm:8123456kB",
            ),
            JournalEntry(
                time="2026-11-28T03:00:00Z",
                unit="cron.service",
                ident="CRON",
                pid=9001,
                message="(root) CMD (run-parts /etc/cron.daily)",
            ),
        ],
        disks=[
            DiskSpec(filesystem="/dev/nvme0n1p2", mount="/", size="40G", used="38G"),
            DiskSpec(
                filesystem="/dev/nvme1n1", mount="/var/lib/postgresql", size="200G", used="50G"
            ),
        ],
        processes=[
            ProcessSpec(pid=1, command="/sbin/init", cpu=0.0, mem=0.1),
            ProcessSpec(pid=4321, user="app", command="java -jar app.jar", cpu=97.5, mem=41.2),
        ],
        sockets=[SocketSpec(local="0.0.0.0:8080", pid=4321), SocketSpec(local="127.0.0.1:5432")],
    )
    return World(WorldSpec(system=system, files={"/etc/nginx/nginx.conf": "events {}\n"}))


def test_systemctl_status_of_a_failed_unit(web: World) -> None:
    result = sh(web, "systemctl status nginx")
    lines = result.stdout.splitlines()
    assert lines[0] == "× nginx.service - A high performance web server"
    assert (
        lines[2] == "     Active: failed (Result: exit-code) since Sun 2026-11-29 08:00:00 UTC; "
        "1h 30min ago"
    )
    assert lines[-1].endswith(f"nginx[812]: {EMERG}")
    assert result.exit_code == 3
    assert result.identity == sh(web, "systemctl status nginx.service --no-pager").identity
    assert sh(web, "systemctl is-active cron").stdout == "active\n"
    assert sh(web, "systemctl status nope").stderr == "Unit nope.service could not be found.\n"


def test_systemctl_writes_need_root_and_change_state(web: World) -> None:
    refused = sh(web, "systemctl restart cron")
    assert refused.stderr.startswith(
        "Failed to restart cron.service: Interactive authentication required."
    )
    assert refused.changes == []
    failed = sh(web, "sudo systemctl restart nginx")
    assert failed.stderr.startswith(
        "Job for nginx.service failed because the control process exited"
    )
    assert failed.changes == [Change("systemd", "restart", "nginx.service")]
    stopped = sh(web, "sudo systemctl stop cron && systemctl is-active cron")
    assert stopped.stdout == "inactive\n"
    assert "1 loaded units listed" in sh(web, "systemctl list-units --failed").stdout


def test_journalctl_unit_kernel_and_windows(web: World) -> None:
    assert "proxy_passs" in sh(web, "journalctl -u nginx --no-pager").stdout
    kernel = "Nov 29 03:12:09 web-01 kernel: Out of memory: Killed process 4242 (java) "
    kernel += "total-vm:8123456kB\n"
    assert sh(web, "journalctl -k").stdout == kernel
    assert sh(web, "journalctl _TRANSPORT=kernel --no-pager").stdout == kernel
    assert sh(web, "journalctl -k").identity == ("journal", "kernel")
    assert sh(web, "journalctl --since '2026-11-29 05:00' -p err").stdout.count("\n") == 1
    assert sh(web, "journalctl --since today -u cron").stdout == "-- No entries --\n"
    assert sh(web, "journalctl --since yesterday -u cron").stdout.startswith(
        "Nov 28 03:00:00 web-01 CRON[9001]:"
    )
    assert sh(web, "journalctl -n 1 --no-pager").stdout.startswith("Nov 29 08:00:00")
    assert sh(web, "journalctl --since soon").stderr == "Failed to parse timestamp: soon\n"


def test_host_facts(web: World) -> None:
    df = sh(web, "df -h").stdout.splitlines()
    assert df[0].split() == ["Filesystem", "Size", "Used", "Avail", "Use%", "Mounted", "on"]
    assert df[1].split() == ["/dev/nvme0n1p2", "40G", "38G", "2.0G", "95%", "/"]
    assert (
        sh(web, "df -h /var/lib/postgresql").stdout.splitlines()[1].split()[-1]
        == "/var/lib/postgresql"
    )
    top = sh(web, "ps aux --sort=-%cpu | head -2").stdout.splitlines()[1].split()
    assert top[:3] == ["app", "4321", "97.5"]
    hidden = sh(web, "ss -ltnp").stdout
    assert "users:" not in hidden  # another user's process: only root sees it
    assert 'users:(("java",pid=4321,fd=6))' in sh(web, "sudo ss -ltnp").stdout
    assert sh(web, "hostname").stdout == "web-01\n"
    assert sh(web, "whoami").stdout == "ops\n"
    assert sh(web, "id").stdout == "uid=1000(ops) gid=1000(ops) groups=1000(ops),4(adm),27(sudo)\n"
    assert sh(web, "date +%F").stdout == "2026-11-29\n"
    assert sh(web, "uptime").stdout.startswith(
        " 09:30:00 up 17 days,  5:20,  1 user,  load average:"
    )
    assert sh(web, "free -h").stdout.splitlines()[1].split()[1] == "16Gi"


def test_a_journal_too_large_to_read_whole_times_out_unless_narrowed() -> None:
    entry = JournalEntry(time="2026-11-29T09:00:00Z", unit="api.service", message="boom")
    world = World(WorldSpec(system=SystemSpec(journal_timeout_s=30, journal=[entry])))
    for cmd in (
        "journalctl -u api --no-pager",
        "journalctl -u api | tail -n 5",
        "journalctl -fu api",
    ):
        result = sh(world, cmd)
        assert (result.exit_code, result.stdout) == (124, "")
        assert result.stderr.startswith("run_command: timed out after 30s")
    for cmd in (
        "journalctl -xeu api",
        "journalctl -u api --since today",
        "journalctl -u api -n 20",
    ):
        assert sh(world, cmd).stdout == "Nov 29 09:00:00 ops-01 api: boom\n"
    assert sh(world, "journalctl --disk-usage").stdout == (
        "Archived and active journals take up 512M in the file system.\n"
    )

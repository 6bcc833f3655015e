"""The virtual filesystem: reads, listings, permissions, writes as Changes, error text."""

from __future__ import annotations

from agentbench.sim.core.base import Change
from agentbench.sim.world import World
from tests.sim.conftest import PODS_JSON, sh

NIGHTLY = "/var/log/backup/nightly.log"


def test_cat_and_errors_name_the_path(host: World) -> None:
    assert sh(host, "cat /srv/pods.json").stdout.startswith('{"items"')
    missing = sh(host, "cat /etc/x")
    assert (missing.stderr, missing.exit_code) == ("cat: /etc/x: No such file or directory\n", 1)
    assert sh(host, "cat /srv").stderr == "cat: /srv: Is a directory\n"


def test_permissions_follow_mode_owner_and_sudo(host: World) -> None:
    denied = sh(host, f"cat {NIGHTLY}")
    assert denied.stderr == f"cat: {NIGHTLY}: Permission denied\n"
    assert denied.identity == ("file", "read", NIGHTLY, "!denied")
    assert sh(host, f"head -1 {NIGHTLY}").stderr == (
        f"head: cannot open '{NIGHTLY}' for reading: Permission denied\n"
    )
    read = sh(host, f"sudo cat {NIGHTLY}")
    assert "password authentication failed" in read.stdout
    assert read.identity == ("file", "read", NIGHTLY)
    assert "FATAL" in sh(host, f"sudo -u backup grep FATAL {NIGHTLY}").stdout


def test_ls_long_listing(host: World) -> None:
    listing = sh(host, "ls -l /var/log/backup").stdout
    assert listing == "total 4\n-rw-r----- 1 backup backup 56 Nov 29 09:30 nightly.log\n"
    assert sh(host, "ls /var/log").stdout == "app\nbackup\n"
    assert sh(host, "ls /nope").stderr == "ls: cannot access '/nope': No such file or directory\n"
    assert sh(host, "ls -lh /srv").stdout.splitlines()[1].split()[4] == str(len(PODS_JSON))


def test_find_stat_test(host: World) -> None:
    assert sh(host, "find /var/log -name '*.log' -type f").stdout == (
        "/var/log/app/access.log\n/var/log/backup/nightly.log\n"
    )
    assert sh(host, "find /var/log -type d").stdout == "/var/log\n/var/log/app\n/var/log/backup\n"
    stat = sh(host, f"stat {NIGHTLY}").stdout
    assert "Access: (0640/-rw-r-----)  Uid: (  998/  backup)" in stat
    assert sh(host, f"stat -c '%a %U' {NIGHTLY}").stdout == "640 backup\n"
    assert sh(host, "test -f /srv/pods.json && echo yes").stdout == "yes\n"
    assert sh(host, "[ -d /srv/pods.json ] || echo no").stdout == "no\n"


def test_writes_change_the_filesystem_and_are_reported(host: World) -> None:
    written = sh(host, "echo hello > /tmp/note && cat /tmp/note")
    assert written.stdout == "hello\n"
    assert written.changes == [Change("filesystem", "write", "/tmp/note")]
    assert sh(host, "echo more >> /tmp/note; cat /tmp/note").stdout == "hello\nmore\n"
    refused = sh(host, f"chmod 644 {NIGHTLY}")
    assert refused.stderr == (
        f"chmod: changing permissions of '{NIGHTLY}': Operation not permitted\n"
    )
    assert refused.changes == []
    changed = sh(host, f"sudo chmod 644 {NIGHTLY}")
    assert changed.changes == [Change("filesystem", "chmod", NIGHTLY, "0640 -> 0644")]
    assert "FATAL" in sh(host, f"cat {NIGHTLY}").stdout  # now world-readable
    assert (
        sh(host, "rm /srv/pods.json").stderr
        == "rm: cannot remove '/srv/pods.json': Permission denied\n"
    )
    removed = sh(host, "sudo rm /srv/pods.json")
    assert removed.changes == [Change("filesystem", "delete", "/srv/pods.json")]
    assert sh(host, "ls /srv").stdout == ""


def test_sed_in_place_tee_and_redirect_errors(host: World) -> None:
    edited = sh(host, "sudo sed -i 's/GET/HEAD/' /var/log/app/access.log")
    assert edited.changes == [Change("filesystem", "edit", "/var/log/app/access.log", "sed -i")]
    assert sh(host, "head -1 /var/log/app/access.log").stdout == "10.0.0.1 HEAD /a 200\n"
    assert sh(host, "echo x | tee /tmp/t").stdout == "x\n"
    assert sh(host, "echo x > /etc/motd").stderr == "bash: /etc/motd: Permission denied\n"
    assert sh(host, "cat < /srv/pods.json | jq -r '.items[0].metadata.name'").stdout == "web-1\n"


def test_read_file_tool_reads_as_the_user(host: World) -> None:
    answer = host.call("read_file", {"path": NIGHTLY})
    assert answer is not None
    assert answer.result.stderr == f"cat: {NIGHTLY}: Permission denied\n"
    ok = host.call("read_file", {"path": "/srv/pods.json"})
    assert ok is not None and ok.result.stdout.startswith('{"items"')

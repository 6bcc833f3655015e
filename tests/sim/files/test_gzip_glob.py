"""Pathname expansion in the shell and zcat/zgrep over declared `.gz` files."""

from __future__ import annotations

import pytest

from agentbench.sim.core.spec import FileSpec, SystemSpec
from agentbench.sim.world import World, WorldSpec
from tests.sim.conftest import sh


@pytest.fixture
def logs() -> World:
    files: dict[str, str | FileSpec] = {
        "/var/log/app/app.log": "GET /a 200\nGET /b 502\n",
        "/var/log/app/app.log.1": "GET /c 502\n",
        "/var/log/app/app.log.2.gz": "GET /d 502\nGET /e 200\n",
        "/var/log/app/.hidden": "secret\n",
        "/var/log/app/star*.txt": "literal star\n",
        "/var/log/private/x.log": FileSpec(content="x\n", mode="0600"),
    }
    files["/var/log/private/x.log"] = FileSpec(content="x\n", mode="0600")
    return World(WorldSpec(files=files, system=SystemSpec()))


@pytest.mark.parametrize(
    ("cmd", "stdout"),
    [
        ("echo /var/log/app/*.log", "/var/log/app/app.log\n"),
        (
            "echo /var/log/app/app.log*",
            "/var/log/app/app.log /var/log/app/app.log.1 /var/log/app/app.log.2.gz\n",
        ),
        ("echo /var/log/app/app.log.?", "/var/log/app/app.log.1\n"),
        ("echo /var/log/app/app.log.[12]*", "/var/log/app/app.log.1 /var/log/app/app.log.2.gz\n"),
        ("echo /var/log/*/app.log", "/var/log/app/app.log\n"),
        ("echo '/var/log/app/*.log'", "/var/log/app/*.log\n"),
        ('echo "/var/log/app/"*.log', "/var/log/app/app.log\n"),
        ("echo /var/log/app/\\*.log", "/var/log/app/*.log\n"),
        ("echo /var/log/app/*.nope", "/var/log/app/*.nope\n"),
        ("echo /var/log/app/star'*'.txt", "/var/log/app/star*.txt\n"),
    ],
)
def test_unquoted_patterns_expand_as_bash_does(logs: World, cmd: str, stdout: str) -> None:
    assert sh(logs, cmd).stdout == stdout


def test_globs_feed_any_command(logs: World) -> None:
    counted = sh(logs, "grep -c 502 /var/log/app/app.log*")
    assert counted.stdout == (
        "/var/log/app/app.log:1\n/var/log/app/app.log.1:1\n/var/log/app/app.log.2.gz:0\n"
    )
    assert sh(logs, "ls /var/log/app/*").stdout.split() == [
        "/var/log/app/app.log",
        "/var/log/app/app.log.1",
        "/var/log/app/app.log.2.gz",
        "/var/log/app/star*.txt",
    ]  # no dotfiles
    assert sh(logs, "cat /var/log/app/.h*").stdout == "secret\n"
    missing = sh(logs, "cat /var/log/app/*.nope")
    assert missing.stderr == "cat: /var/log/app/*.nope: No such file or directory\n"
    # an unreadable directory lists nothing, so the word stays
    assert sh(logs, "echo /var/log/private/*").stdout == "/var/log/private/x.log\n"
    lines = sh(logs, "for f in /var/log/app/app.log*; do wc -l $f; done").stdout.splitlines()
    # wc counts the newlines of the compressed bytes (none here), not of the text
    assert lines == [
        "2 /var/log/app/app.log",
        "1 /var/log/app/app.log.1",
        "0 /var/log/app/app.log.2.gz",
    ]


def test_zcat_and_zgrep_read_the_decompressed_text(logs: World) -> None:
    assert sh(logs, "zcat /var/log/app/app.log.2.gz").stdout == "GET /d 502\nGET /e 200\n"
    assert sh(logs, "gunzip -c /var/log/app/app.log.2.gz | grep 502").stdout == "GET /d 502\n"
    assert sh(logs, "zcat /var/log/app/app.log.2").stdout == "GET /d 502\nGET /e 200\n"
    assert sh(logs, "zgrep 502 /var/log/app/app.log.2.gz").stdout == "GET /d 502\n"
    both = sh(logs, "zgrep -h 502 /var/log/app/app.log.1 /var/log/app/app.log.2.gz")
    assert both.stdout == "GET /c 502\nGET /d 502\n"  # zgrep reads plain files as they are
    assert sh(logs, "zgrep -c 502 /var/log/app/app.log*").stdout.endswith("app.log.2.gz:1\n")
    read = sh(logs, "zcat /var/log/app/app.log.2.gz").identity
    assert read == sh(logs, "cat /var/log/app/app.log.2.gz").identity


def test_gzip_errors(logs: World) -> None:
    plain = sh(logs, "zcat /var/log/app/app.log")
    assert (plain.stderr, plain.exit_code) == (
        "gzip: /var/log/app/app.log: not in gzip format\n",
        1,
    )
    missing = sh(logs, "zcat /var/log/app/old.gz")
    assert missing.stderr == "gzip: /var/log/app/old.gz: No such file or directory\n"
    assert sh(logs, "zgrep x /var/log/app/old.gz").stderr == (
        "gzip: /var/log/app/old.gz: No such file or directory\n"
    )

"""The declared state of a simulated host: `environment:` fields `files`, `system`, `http`
(`sql` is sim/sql/spec.py; `cluster` is sim/kube/schema/).

These models' docstrings document the task format (tasks/README.md has one complete example per
simulator). Sizes are bytes (an integer) or human text (`512M`, `40G`, `1.5Ti`); times are ISO
8601 in UTC (`2026-11-29T09:30:00Z`). Everything a tool prints is derived from this state, so two
spellings of one command print the same facts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agentbench.sim.core.spec_services import (
    CertSpec,
    DnsRecord,
    DockerSpec,
    FirewallSpec,
    LoginSpec,
    TlsEndpoint,
)

DEFAULT_NOW = "2026-11-29T09:30:00Z"  # the clock of a host (and database) declaring none


def clock_of(text: str) -> datetime:
    """An ISO 8601 time as an aware UTC datetime (no zone: UTC)."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO 8601 time (2026-11-29T09:30:00Z)") from None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


Size = int | str


class FileSpec(_Strict):
    """One file. In `files:` a path maps to its content (a string) or to this object."""

    content: str = Field(default="", description="The file's text.")
    mode: str = Field(default="0644", pattern=r"^0?[0-7]{3,4}$", description="Octal permissions.")
    owner: str = Field(default="root", description="Owning user.")
    group: str | None = Field(default=None, description="Owning group; default the owner's name.")
    mtime: str | None = Field(default=None, description="Last change; default `system.now`.")
    size: Size | None = Field(
        default=None, description="Apparent size for ls/stat/du when the content is abridged."
    )
    cert: CertSpec | None = Field(
        default=None, description="The file holds this X.509 certificate (openssl x509 -in)."
    )


class UserSpec(_Strict):
    """A local account. The user running commands is `system.user`."""

    name: str
    uid: int
    groups: list[str] = Field(default_factory=list, description="First is the primary group.")
    home: str | None = None


class DiskSpec(_Strict):
    """One mounted filesystem, as `df` shows it."""

    filesystem: str = Field(description="Device, e.g. /dev/nvme0n1p2.")
    mount: str = Field(description="Mount point, e.g. /var/lib/postgresql.")
    size: Size
    used: Size
    type: str = "ext4"
    inodes: int = 6_553_600
    inodes_used: int = 120_000


RestartPolicy = Literal[
    "no", "always", "on-success", "on-failure", "on-abnormal", "on-abort", "on-watchdog"
]


class UnitSpec(_Strict):
    """A systemd unit, for `systemctl` (its journal lines live in `system.journal`)."""

    name: str = Field(description="With its suffix: nginx.service, backup.timer.")
    description: str = ""
    load: Literal["loaded", "not-found", "masked"] = "loaded"
    active: Literal["active", "inactive", "failed", "activating", "reloading"] = "active"
    sub: str | None = Field(default=None, description="running, exited, dead, failed, ...")
    enabled: str = Field(default="enabled", description="enabled, disabled, static, ...")
    path: str | None = Field(default=None, description="Unit file; default /etc/systemd/system.")
    since: str | None = Field(default=None, description="Time of the last state change.")
    main_pid: int | None = None
    exec_start: str | None = None
    status: str | None = Field(default=None, description="Exit status line, e.g. 1/FAILURE.")
    result: str | None = Field(default=None, description="Result of a failed unit: exit-code.")
    memory: str | None = None
    triggered_by: str | None = None
    restart_fails: str | None = Field(
        default=None, description="A (re)start fails with this journal message; state unchanged."
    )
    restart: RestartPolicy | None = Field(
        default=None,
        description="Restart= when the main process dies of a signal (kill); default: the "
        "Restart= line of the unit file among `files`, else no.",
    )
    listen: str | None = Field(
        default=None,
        description="Address:port the service binds when it starts (e.g. 0.0.0.0:8080). While "
        "another process holds that port a start fails (EADDRINUSE); a start that succeeds "
        "runs `exec_start` as a new main process listening there.",
    )


class JournalEntry(_Strict):
    """One journal line. `unit` ties it to `journalctl -u`; `transport: kernel` to `-k`."""

    time: str
    message: str
    unit: str | None = None
    ident: str | None = Field(default=None, description="SYSLOG_IDENTIFIER; default the unit.")
    pid: int | None = None
    priority: int = Field(default=6, ge=0, le=7, description="0 emerg ... 3 err ... 7 debug.")
    transport: Literal["journal", "stdout", "syslog", "kernel", "audit"] = "stdout"
    boot: int = Field(default=0, le=0, description="0 this boot, -1 the one before, ...")


class ProcessSpec(_Strict):
    """A running process, for `ps` and `ss -p`."""

    pid: int
    user: str = "root"
    command: str
    cpu: float = 0.0
    mem: float = 0.0
    vsz: int = 0
    rss: int = 0
    tty: str = "?"
    stat: str = "Ss"
    start: str = "Nov28"
    time: str = "0:00"


class SocketSpec(_Strict):
    """A listening socket, for `ss -ltnp` (and `netstat`)."""

    local: str = Field(description="Address:port, e.g. 0.0.0.0:80 or [::]:5432.")
    proto: Literal["tcp", "udp"] = "tcp"
    pid: int | None = Field(default=None, description="Owner process (see processes).")
    process: str | None = Field(default=None, description="Its name; default from `pid`.")
    recv_q: int = 0
    send_q: int = 128


class MemorySpec(_Strict):
    """`free` figures. `available` defaults to free + buff_cache."""

    total: Size = "16G"
    used: Size = "4G"
    free: Size = "8G"
    shared: Size = "64M"
    buff_cache: Size = "4G"
    available: Size | None = None
    swap_total: Size = 0
    swap_used: Size = 0


class SystemSpec(_Strict):
    """The host: who runs commands, its services, journal, processes, sockets, disks, memory."""

    hostname: str = "ops-01"
    user: str = Field(default="ops", description="The account that runs the model's commands.")
    users: list[UserSpec] = Field(
        default_factory=list,
        description="Accounts; root (0) and `user` (1000, groups [user, adm]) are implied.",
    )
    sudo: bool = Field(
        default=True,
        description="`user` may run `sudo` (as root, or `-u USER`) without a password. When "
        "false, sudo answers as a non-interactive host does: a password is required.",
    )
    now: str = Field(default=DEFAULT_NOW, description="The host clock.")
    boot: str = Field(default="2026-11-12T04:10:00Z", description="Boot time (uptime, -b).")
    load: tuple[float, float, float] = (0.18, 0.22, 0.19)
    kernel: str = "6.8.0-48-generic"
    os: str = "Ubuntu 24.04.1 LTS"
    memory: MemorySpec = Field(default_factory=MemorySpec)
    disks: list[DiskSpec] = Field(default_factory=list)
    du: dict[str, Size] = Field(
        default_factory=dict, description="Directory -> total size, for `du` (else file sums)."
    )
    units: list[UnitSpec] = Field(default_factory=list)
    journal: list[JournalEntry] = Field(default_factory=list)
    journal_size: Size = Field(default="512M", description="For `journalctl --disk-usage`.")
    journal_timeout_s: int | None = Field(
        default=None,
        description="The journal is too large to read whole: a journalctl query not narrowed by "
        "--since/--until/-n/-e/-b/-k/-p/-g (or one that follows) exceeds the tool's time "
        "limit and is killed after this many seconds, with no output.",
    )
    processes: list[ProcessSpec] = Field(default_factory=list)
    sockets: list[SocketSpec] = Field(default_factory=list)
    not_installed: list[str] = Field(
        default_factory=list,
        description="Commands absent from this host: bash answers `command not found` and "
        "that answer counts as simulated (e.g. docker-compose after the v2 switch).",
    )
    tls: list[TlsEndpoint] = Field(default_factory=list, description="openssl s_client.")
    dns: list[DnsRecord] = Field(default_factory=list, description="dig, host, nslookup.")
    firewall: FirewallSpec = Field(default_factory=FirewallSpec, description="iptables -L.")
    logins: list[LoginSpec] = Field(default_factory=list, description="who, last, lastb.")
    docker: DockerSpec | None = Field(default=None, description="None: no docker daemon.")


class HttpRoute(_Strict):
    """One HTTP route. `url` is absolute (http://host/path?query) or a path on every host;
    a trailing `*` matches any rest, so `http://api.internal/*` is that host's default."""

    url: str
    method: str = "GET"
    status: int = Field(default=200, ge=100, le=599)
    headers: dict[str, str] = Field(default_factory=dict)
    body: str | dict[str, Any] | list[Any] = Field(
        default="", description="Text, or JSON (serialised with 2-space indent)."
    )

"""Which programs and flags write, for the read/write classifier (shell_intent.py).

Each rule reads one command's words (program first, wrappers already read off) and its
literal stdin (a heredoc) and returns (target, why) for each write; [] means a read. Reads
stay reads: `grep -r`, `cat`, `kubectl get`, `sed -n`, `find -name`, `systemctl status`,
`iptables -L`, `crontab -l`, `kill -0`, `--dry-run`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agentbench.sim.shell_intent import sql_writes

Found = list[tuple[str, str]]
Rule = Callable[[list[str], str | None], Found]


def _args(words: list[str], valued: frozenset[str] = frozenset()) -> list[str]:
    """Positional words after the program (values of `valued` flags skipped)."""
    out: list[str] = []
    skip = False
    for word in words[1:]:
        if skip:
            skip = False
        elif word in valued:
            skip = True
        elif not word.startswith("-") or word == "-":
            out.append(word)
    return out


_STREAMS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"})
# Programs that change something with no operand at all (`reboot`, `passwd`, `swapoff -a`).
_BARE = frozenset(
    {"reboot", "shutdown", "halt", "poweroff", "passwd", "swapoff", "swapon", "logrotate", "at"}
)


def _every(why: str, valued: frozenset[str] = frozenset(), drop: int = 0) -> Rule:
    """Every positional (after the first `drop`) is a target; streams are not files."""

    def rule(words: list[str], stdin: str | None) -> Found:
        targets = [t for t in _args(words, valued)[drop:] if t not in _STREAMS]
        if not targets and words[0] in _BARE:
            return [(" ".join(words[1:]) or words[0], why)]
        return [(t, why) for t in targets]

    return rule


def _last(why: str) -> Rule:
    def rule(words: list[str], stdin: str | None) -> Found:
        targets = _args(words, frozenset({"-t", "--target-directory", "-S", "-e"}))
        return [(targets[-1] if targets else " ".join(words[1:]), why)]

    return rule


def _verbs(writes: frozenset[str], valued: frozenset[str] = frozenset(), subject: str = "") -> Rule:
    """`PROGRAM [flags] VERB …`: a write when VERB is one of `writes`."""

    def rule(words: list[str], stdin: str | None) -> Found:
        args = _args(words, valued)
        if not args or args[0] not in writes:
            return []
        return [(" ".join(args[1:]) or args[0], f"{subject or words[0]} {args[0]}")]

    return rule


def _flags(writes: frozenset[str], why: str, valued: frozenset[str] = frozenset()) -> Rule:
    """A write when any of `writes` is given (long `--x=v` forms included)."""

    def rule(words: list[str], stdin: str | None) -> Found:
        given = {w.split("=", 1)[0] for w in words[1:] if w.startswith("-")}
        hit = sorted(given & writes)
        if not hit:
            return []
        return [(" ".join(_args(words, valued)) or words[0], f"{why} {hit[0]}")]

    return rule


_KUBE_VALUED = frozenset(
    {
        "-n",
        "--namespace",
        "--context",
        "--kubeconfig",
        "-l",
        "--selector",
        "-o",
        "--output",
        "--cluster",
        "--user",
        "-s",
        "--server",
        "--as",
        "-c",
        "--container",
        "--field-selector",
        "-f",
        "--filename",
        "--type",
        "-p",
        "--patch",
        "--replicas",
        "--image",
        "--timeout",
    }
)
_KUBE_WRITES = frozenset(
    {
        "delete",
        "scale",
        "apply",
        "patch",
        "edit",
        "replace",
        "create",
        "expose",
        "run",
        "autoscale",
        "label",
        "annotate",
        "taint",
        "cordon",
        "uncordon",
        "drain",
        "set",
        "cp",
        "debug",
    }
)


def _kubectl(words: list[str], stdin: str | None) -> Found:
    if any(w.startswith("--dry-run") and w not in ("--dry-run=none",) for w in words):
        return []
    args = _args(words, _KUBE_VALUED)
    if not args:
        return []
    verb, rest = args[0], args[1:]
    namespace = next(
        (words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-n", "--namespace")), None
    )
    target = " ".join(rest) + (f" -n {namespace}" if namespace else "")
    if verb in _KUBE_WRITES:
        files = [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-f", "--filename")]
        return [(target.strip() or " ".join(files) or verb, f"kubectl {verb}")]
    if verb == "rollout" and rest[:1] and rest[0] in ("undo", "restart", "pause", "resume"):
        return [(" ".join(rest[1:]) or rest[0], f"kubectl rollout {rest[0]}")]
    if (
        verb == "config"
        and rest[:1]
        and rest[0] not in ("view", "get-contexts", "current-context", "get-clusters", "get-users")
    ):
        return [(" ".join(rest), f"kubectl config {rest[0]}")]
    if verb == "certificate" and rest[:1] and rest[0] in ("approve", "deny"):
        return [(" ".join(rest[1:]), f"kubectl certificate {rest[0]}")]
    return []


_DOCKER_WRITES = frozenset(
    {
        "rm",
        "rmi",
        "stop",
        "kill",
        "restart",
        "start",
        "run",
        "create",
        "pause",
        "unpause",
        "update",
        "rename",
        "prune",
        "commit",
        "cp",
        "load",
        "import",
        "tag",
        "push",
        "pull",
        "build",
        "up",
        "down",
    }
)


def _docker(words: list[str], stdin: str | None) -> Found:
    args = _args(words, frozenset({"-H", "--host", "--context", "--file", "-p"}))
    if args[:1] and args[0] in ("container", "image", "volume", "network", "system", "compose"):
        args = args[1:]
    if args[:1] and args[0] in _DOCKER_WRITES:
        return [(" ".join(args[1:]) or args[0], f"{words[0]} {args[0]}")]
    return []


def _sed(words: list[str], stdin: str | None) -> Found:
    inplace = any(
        w.startswith(("-i", "--in-place")) or re.fullmatch(r"-[nEsr]*i\S*", w) for w in words[1:]
    )
    if not inplace:
        return []
    scripted = any(w in ("-e", "-f", "--expression", "--file") for w in words)
    files = _args(words, frozenset({"-e", "-f", "--expression", "--file"}))
    return [(f, "sed -i (in place)") for f in (files if scripted else files[1:])]


def _perl(words: list[str], stdin: str | None) -> Found:
    if not any(re.fullmatch(r"-[a-zA-Z]*i\S*", w) for w in words[1:]):
        return []
    scripted = "-e" in words or any(re.fullmatch(r"-[a-zA-Z]*e", w) for w in words[1:])
    files = _args(words, frozenset({"-e", "-E"}))
    return [(f, "perl -i (in place)") for f in (files if scripted else files[1:])]


def _awk(words: list[str], stdin: str | None) -> Found:
    joined = " ".join(words)
    if "inplace" not in joined:
        return []
    files = _args(words, frozenset({"-i", "-F", "-v", "-f", "--include"}))
    return [(f, "awk -i inplace") for f in files[1:]]


def _psql(words: list[str], stdin: str | None) -> Found:
    sql: list[str] = []
    for index, word in enumerate(words[1:], start=1):
        if word in ("-c", "--command", "-e", "--execute") and index + 1 < len(words):
            sql.append(words[index + 1])
        elif word.startswith(("--command=", "--execute=")):
            sql.append(word.split("=", 1)[1])
    if words[0] == "sqlite3":
        sql += _args(words)[1:2]
    if not sql and stdin:
        sql.append(stdin)
    return [hit for text in sql for hit in sql_writes(text)]


def _kill(words: list[str], stdin: str | None) -> Found:
    if any(w in ("-0", "-s0", "-l", "-L", "--list") for w in words[1:]) or (
        "-s" in words and words[words.index("-s") + 1 : words.index("-s") + 2] == ["0"]
    ):
        return []
    return [(t, f"{words[0]} (signals a process)") for t in _args(words, frozenset({"-s"}))]


def _crontab(words: list[str], stdin: str | None) -> Found:
    if "-r" in words or "-e" in words:
        return [("crontab", f"crontab {'-r' if '-r' in words else '-e'}")]
    files = _args(words, frozenset({"-u"}))
    return [(files[0], "crontab installs a table")] if files else []


def _iptables(words: list[str], stdin: str | None) -> Found:
    writes = {
        "-A",
        "-D",
        "-I",
        "-R",
        "-F",
        "-X",
        "-N",
        "-P",
        "-Z",
        "-E",
        "--append",
        "--delete",
        "--insert",
        "--replace",
        "--flush",
        "--policy",
        "--new-chain",
        "--delete-chain",
        "--zero",
    }
    hit = next((w for w in words[1:] if w in writes), None)
    return [(" ".join(words[1:]), f"{words[0]} {hit}")] if hit else []


def _systemctl(words: list[str], stdin: str | None) -> Found:
    reads = {
        "status",
        "show",
        "is-active",
        "is-enabled",
        "is-failed",
        "list-units",
        "cat",
        "list-unit-files",
        "list-timers",
        "list-dependencies",
        "help",
        "get-default",
    }
    args = _args(
        words,
        frozenset(
            {
                "-H",
                "--host",
                "-M",
                "-p",
                "--property",
                "-t",
                "--type",
                "-n",
                "--lines",
                "-o",
                "--output",
                "--state",
            }
        ),
    )
    if not args or args[0] in reads:
        return []
    return [(" ".join(args[1:]) or args[0], f"systemctl {args[0]}")]


def _service(words: list[str], stdin: str | None) -> Found:
    args = _args(words)
    if len(args) >= 2 and args[1] not in ("status",):
        return [(args[0], f"service {args[1]}")]
    return []


def _curl(words: list[str], stdin: str | None) -> Found:
    out: Found = []
    for index, word in enumerate(words[1:], start=1):
        value = words[index + 1] if index + 1 < len(words) else ""
        if word in ("-X", "--request") and value.upper() not in ("GET", "HEAD", "OPTIONS"):
            out.append((_url(words), f"curl -X {value.upper()}"))
        elif word.startswith(("--data", "--json", "--form", "--upload-file")) or word in (
            "-d",
            "-F",
            "-T",
        ):
            out.append((_url(words), f"curl {word.split('=')[0]} (sends data)"))
        elif word in ("-o", "--output") and value not in ("-", "/dev/null"):
            out.append((value, "curl -o (saves a file)"))
        elif word in ("-O", "--remote-name"):
            out.append((_url(words), "curl -O (saves a file)"))
    return out[:1] + [w for w in out[1:] if w[1].startswith("curl -o")]


def _wget(words: list[str], stdin: str | None) -> Found:
    joined = " ".join(words)
    if "--post-data" in joined or "--method" in joined:
        return [(_url(words), "wget sends data")]
    if "--spider" in joined:
        return []
    for index, word in enumerate(words):
        glued = re.fullmatch(r"-[a-zA-Z]*O(.*)", word)
        if glued or word.startswith("--output-document"):
            value = word.split("=", 1)[1] if "=" in word else glued.group(1) if glued else ""
            if not value:
                value = words[index + 1] if index + 1 < len(words) else ""
            return [] if value in ("-", "/dev/null") else [(value, "wget -O (saves a file)")]
    return [(_url(words), "wget saves the download")]


def _url(words: list[str]) -> str:
    return next((w for w in words if "://" in w or w.startswith("localhost")), words[-1])


def _compress(words: list[str], stdin: str | None) -> Found:
    if any(
        w in ("-c", "--stdout", "-l", "--list", "-t", "--test")
        or (re.fullmatch(r"-\w+", w) and set(w[1:]) & set("clt"))
        for w in words[1:]
    ):
        return []
    return [(f, f"{words[0]} replaces the file") for f in _args(words)]


def _tar(words: list[str], stdin: str | None) -> Found:
    first = words[1] if len(words) > 1 else ""
    modes = set(first.lstrip("-")) if not first.startswith("--") else set()
    longs = {w for w in words if w.startswith("--")}
    if modes & set("xcru") or longs & {"--extract", "--create", "--append", "--update", "--get"}:
        return [(" ".join(_args(words)), "tar writes files")]
    return []


def _sysctl(words: list[str], stdin: str | None) -> Found:
    if "-w" in words or "-p" in words or any("=" in w for w in _args(words)):
        return [(" ".join(_args(words)) or "sysctl", "sysctl sets a kernel parameter")]
    return []


def _nginx(words: list[str], stdin: str | None) -> Found:
    if "-s" in words:
        signal = words[words.index("-s") + 1 : words.index("-s") + 2]
        return [("nginx", f"nginx -s {' '.join(signal)}")]
    return []


def _sort(words: list[str], stdin: str | None) -> Found:
    for index, word in enumerate(words):
        if word in ("-o", "--output") and index + 1 < len(words):
            return [(words[index + 1], "sort -o")]
        if word.startswith("--output="):
            return [(word.split("=", 1)[1], "sort -o")]
    return []


def _dd(words: list[str], stdin: str | None) -> Found:
    return [(w[3:], "dd of=") for w in words if w.startswith("of=") and w[3:] not in _STREAMS]


def _ionice(words: list[str], stdin: str | None) -> Found:
    return [(" ".join(_args(words)), "ionice sets priority")] if "-c" in words else []


def _journalctl(words: list[str], stdin: str | None) -> Found:
    hits = [w for w in words if w.startswith(("--vacuum", "--rotate", "--flush"))]
    return [("journal", f"journalctl {hits[0].split('=')[0]}")] if hits else []


def _find(words: list[str], stdin: str | None) -> Found:
    """`-delete` removes what matched; `-fprint FILE` and kin write FILE (`-exec` commands are
    classified as commands of their own)."""
    roots = [w for w in words[1:] if not w.startswith(("-", "(", ")", "!"))][:1] or ["."]
    out: Found = [(roots[0], "find -delete")] if "-delete" in words else []
    for index, word in enumerate(words[:-1]):
        if word in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            out.append((words[index + 1], f"find {word}"))
    return out


def _ip(words: list[str], stdin: str | None) -> Found:
    objects = {
        "link",
        "addr",
        "address",
        "route",
        "rule",
        "neigh",
        "neighbour",
        "tunnel",
        "a",
        "r",
        "l",
    }
    verbs = {"add", "del", "delete", "set", "change", "replace", "flush", "append"}
    args = _args(words, frozenset({"-n", "-netns", "-f", "-family"}))
    if len(args) >= 2 and args[0] in objects and args[1] in verbs:
        return [(" ".join(args[2:]) or args[0], f"ip {args[0]} {args[1]}")]
    return []


def _unzip(words: list[str], stdin: str | None) -> Found:
    if any(w in ("-l", "-t", "-p", "-Z", "-v") for w in words[1:]):
        return []
    return [(" ".join(_args(words)), "unzip writes files")]


_EVERY = {
    "rm": "rm",
    "rmdir": "rmdir",
    "unlink": "unlink",
    "shred": "shred",
    "touch": "touch",
    "mkdir": "mkdir",
    "mkfifo": "mkfifo",
    "ed": "ed (edits in place)",
    "ex": "ex (edits)",
    "vi": "editor",
    "vim": "editor",
    "nano": "editor",
    "emacs": "editor",
    "tee": "tee writes the file",
    "useradd": "useradd",
    "userdel": "userdel",
    "usermod": "usermod",
    "groupadd": "groupadd",
    "groupdel": "groupdel",
    "passwd": "passwd",
    "chpasswd": "chpasswd",
    "mount": "mount",
    "umount": "umount",
    "swapoff": "swapoff",
    "swapon": "swapon",
    "shutdown": "shutdown",
    "reboot": "reboot",
    "halt": "halt",
    "poweroff": "poweroff",
    "at": "at schedules a job",
    "logrotate": "logrotate",
    "renice": "renice",
    "pkill": "pkill (signals processes)",
    "killall": "killall (signals processes)",
    "chattr": "chattr",
    "truncate": "truncate",
}
_VALUED_FIRST = {"chmod": 1, "chown": 1, "chgrp": 1, "setfacl": 0}

PROGRAMS: dict[str, Rule] = {
    **{
        name: _every(why, frozenset({"-s", "--size", "-n", "-u", "-g"}))
        for name, why in _EVERY.items()
    },
    **{
        name: _every(
            name,
            drop=n,
            valued=frozenset({"-m", "-x", "-M", "-X", "--set", "--modify", "--remove"}),
        )
        for name, n in _VALUED_FIRST.items()
    },
    "mv": _last("mv"),
    "cp": _last("cp"),
    "install": _last("install"),
    "ln": _last("ln"),
    "rsync": _last("rsync"),
    "scp": _last("scp"),
    "kubectl": _kubectl,
    "docker": _docker,
    "podman": _docker,
    "docker-compose": _docker,
    "sed": _sed,
    "perl": _perl,
    "awk": _awk,
    "gawk": _awk,
    "psql": _psql,
    "mysql": _psql,
    "sqlite3": _psql,
    "duckdb": _psql,
    "kill": _kill,
    "crontab": _crontab,
    "iptables": _iptables,
    "ip6tables": _iptables,
    "systemctl": _systemctl,
    "service": _service,
    "curl": _curl,
    "wget": _wget,
    "gzip": _compress,
    "gunzip": _compress,
    "bzip2": _compress,
    "xz": _compress,
    "unxz": _compress,
    "zstd": _compress,
    "tar": _tar,
    "unzip": _unzip,
    "sysctl": _sysctl,
    "nginx": _nginx,
    "sort": _sort,
    "dd": _dd,
    "ionice": _ionice,
    "journalctl": _journalctl,
    "find": _find,
    "nft": _verbs(frozenset({"add", "delete", "flush", "insert", "replace", "create", "destroy"})),
    "ufw": _verbs(
        frozenset(
            {
                "allow",
                "deny",
                "reject",
                "delete",
                "enable",
                "disable",
                "reset",
                "limit",
                "insert",
                "route",
            }
        )
    ),
    "git": _verbs(
        frozenset(
            {
                "push",
                "reset",
                "clean",
                "commit",
                "rm",
                "mv",
                "checkout",
                "restore",
                "revert",
                "merge",
                "rebase",
                "stash",
                "apply",
                "am",
                "cherry-pick",
                "pull",
            }
        ),
        frozenset({"-C", "-c"}),
    ),
    "helm": _verbs(
        frozenset({"install", "upgrade", "uninstall", "delete", "rollback"}),
        frozenset({"-n", "--namespace", "--kube-context"}),
    ),
    "terraform": _verbs(frozenset({"apply", "destroy", "import", "taint", "untaint", "state"})),
    "apt": _verbs(
        frozenset({"install", "remove", "purge", "upgrade", "autoremove", "full-upgrade", "update"})
    ),
    "apt-get": _verbs(
        frozenset({"install", "remove", "purge", "upgrade", "autoremove", "dist-upgrade", "update"})
    ),
    "yum": _verbs(frozenset({"install", "remove", "erase", "update", "upgrade"})),
    "dnf": _verbs(frozenset({"install", "remove", "erase", "update", "upgrade"})),
    "pip": _verbs(frozenset({"install", "uninstall"})),
    "pip3": _verbs(frozenset({"install", "uninstall"})),
    "npm": _verbs(frozenset({"install", "uninstall", "ci", "update"})),
    "ip": _ip,
    "hostnamectl": _verbs(frozenset({"set-hostname", "hostname"})),
    "timedatectl": _verbs(frozenset({"set-time", "set-timezone", "set-ntp"})),
    "redis-cli": _verbs(
        frozenset(
            {
                "FLUSHALL",
                "FLUSHDB",
                "DEL",
                "SET",
                "SHUTDOWN",
                "flushall",
                "flushdb",
                "del",
                "set",
                "shutdown",
            }
        ),
        frozenset({"-h", "-p", "-a", "-n"}),
    ),
    "apachectl": _verbs(frozenset({"restart", "graceful", "stop", "start"})),
}

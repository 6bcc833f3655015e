"""Classifier rules for services and hosts: kubectl, docker, systemctl/service, iptables, ip,
crontab, kill, SQL clients (by the statement type), curl/wget, sysctl, nginx -s, ionice,
journalctl. Reads stay reads: `kubectl get`, `--dry-run`, `systemctl status`, `iptables -L`,
`crontab -l`, `kill -0`, `wget -O -`.
"""

from __future__ import annotations

import re

from agentbench.sim.shell.intent.rules import Found, positionals
from agentbench.sim.shell.intent.sql import sql_writes

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


def kubectl_rule(words: list[str], stdin: str | None) -> Found:
    if any(w.startswith("--dry-run") and w not in ("--dry-run=none",) for w in words):
        return []
    args = positionals(words, _KUBE_VALUED)
    if not args:
        return []
    verb, rest = args[0], args[1:]
    namespace = next(
        (words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-n", "--namespace")), None
    )
    scope = f" -n {namespace}" if namespace else ""
    target = " ".join(rest) + scope
    if verb == "set" and len(rest) > 1:  # `kubectl set image deployment/api api=…`
        return [(rest[1] + scope, f"kubectl set {rest[0]}")]
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


_COMPOSE_VALUED = frozenset(
    {"-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory"}
)


def docker_rule(words: list[str], stdin: str | None) -> Found:
    valued = {"-H", "--host", "--context", "--file", "-p"}
    if words[0] == "docker-compose" or words[1:2] == ["compose"]:
        valued |= _COMPOSE_VALUED  # `docker compose -f FILE up -d worker`
    args = positionals(words, frozenset(valued))
    if args[:1] and args[0] in ("container", "image", "volume", "network", "system", "compose"):
        args = args[1:]
    if args[:1] and args[0] in _DOCKER_WRITES:
        return [(" ".join(args[1:]) or args[0], f"{words[0]} {args[0]}")]
    return []


def psql_rule(words: list[str], stdin: str | None) -> Found:
    sql: list[str] = []
    for index, word in enumerate(words[1:], start=1):
        if word in ("-c", "--command", "-e", "--execute") and index + 1 < len(words):
            sql.append(words[index + 1])
        elif word.startswith(("--command=", "--execute=")):
            sql.append(word.split("=", 1)[1])
    if words[0] == "sqlite3":
        sql += positionals(words)[1:2]
    if not sql and stdin:
        sql.append(stdin)
    return [hit for text in sql for hit in sql_writes(text)]


def kill_rule(words: list[str], stdin: str | None) -> Found:
    if any(w in ("-0", "-s0", "-l", "-L", "--list") for w in words[1:]) or (
        "-s" in words and words[words.index("-s") + 1 : words.index("-s") + 2] == ["0"]
    ):
        return []
    return [(t, f"{words[0]} (signals a process)") for t in positionals(words, frozenset({"-s"}))]


def crontab_rule(words: list[str], stdin: str | None) -> Found:
    if "-r" in words or "-e" in words:
        return [("crontab", f"crontab {'-r' if '-r' in words else '-e'}")]
    files = positionals(words, frozenset({"-u"}))
    return [(files[0], "crontab installs a table")] if files else []


def iptables_rule(words: list[str], stdin: str | None) -> Found:
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


def systemctl_rule(words: list[str], stdin: str | None) -> Found:
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
    args = positionals(
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


def service_rule(words: list[str], stdin: str | None) -> Found:
    args = positionals(words)
    if len(args) >= 2 and args[1] not in ("status",):
        return [(args[0], f"service {args[1]}")]
    return []


def curl_rule(words: list[str], stdin: str | None) -> Found:
    out: Found = []
    for index, word in enumerate(words[1:], start=1):
        value = words[index + 1] if index + 1 < len(words) else ""
        if word.startswith(("-X", "--request=")) and word not in ("-X", "--request"):
            word, value = "-X", word.split("=", 1)[1] if "=" in word else word[2:]  # -XPOST
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


def wget_rule(words: list[str], stdin: str | None) -> Found:
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


def sysctl_rule(words: list[str], stdin: str | None) -> Found:
    if "-w" in words or "-p" in words or any("=" in w for w in positionals(words)):
        return [(" ".join(positionals(words)) or "sysctl", "sysctl sets a kernel parameter")]
    return []


def nginx_rule(words: list[str], stdin: str | None) -> Found:
    if "-s" in words:
        signal = words[words.index("-s") + 1 : words.index("-s") + 2]
        return [("nginx", f"nginx -s {' '.join(signal)}")]
    return []


def ionice_rule(words: list[str], stdin: str | None) -> Found:
    return [(" ".join(positionals(words)), "ionice sets priority")] if "-c" in words else []


def journalctl_rule(words: list[str], stdin: str | None) -> Found:
    hits = [w for w in words if w.startswith(("--vacuum", "--rotate", "--flush"))]
    return [("journal", f"journalctl {hits[0].split('=')[0]}")] if hits else []


def ip_rule(words: list[str], stdin: str | None) -> Found:
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
    args = positionals(words, frozenset({"-n", "-netns", "-f", "-family"}))
    if len(args) >= 2 and args[0] in objects and args[1] in verbs:
        return [(" ".join(args[2:]) or args[0], f"ip {args[0]} {args[1]}")]
    return []


_REDIS_WRITES = frozenset(
    {"FLUSHALL", "FLUSHDB", "DEL", "UNLINK", "SET", "SETEX", "MSET", "HSET", "HDEL", "LPUSH"}
    | {"RPUSH", "SADD", "SREM", "ZADD", "INCR", "DECR", "EXPIRE", "RENAME", "SHUTDOWN"}
    | {"REPLICAOF", "SLAVEOF", "BGREWRITEAOF", "BGSAVE", "SAVE", "FAILOVER", "SWAPDB"}
)
_REDIS_CONFIG_WRITES = frozenset({"SET", "REWRITE", "RESETSTAT"})


def redis_rule(words: list[str], stdin: str | None) -> Found:
    """`redis-cli [-h H -p P -a A -n N] COMMAND …`: data and server writes, `CONFIG SET`
    and `CONFIG REWRITE` included, in any letter case."""
    args = positionals(words, frozenset({"-h", "-p", "-a", "-n", "-u", "--user", "--pass"}))
    if not args:
        return []
    command = args[0].upper()
    sub = args[1].upper() if len(args) > 1 else ""
    if command in _REDIS_WRITES or (command == "CONFIG" and sub in _REDIS_CONFIG_WRITES):
        what = f"{command} {sub}" if command == "CONFIG" else command
        return [(" ".join(args[1:]) or args[0], f"redis-cli {what}")]
    return []

"""A command the answer advises that its program would refuse: advice that would not work.

Knowing the right fix includes knowing how it is typed. "Run `nginx -s restart`" names a
signal nginx does not have (stop, quit, reopen, reload); `kubectl restart deployment/web` and
`kubectl rollout rollback` are no kubectl commands; `systemctl refresh nginx` is no systemctl
verb; `INTERVAL 30 DAY` and `DATE_SUB(...)` are MySQL, which a PostgreSQL server rejects; a
Corefile's `proxy` directive left CoreDNS in 1.5; `PEXPIRE key 129600` for 129,600 seconds
sets 129.6 seconds. An answer that gives such a command as
what to run fails, whatever the task: the environment cannot contradict it, so nothing else
would. A command the episode itself ran (an error quoted back) and a line that names the
form as wrong ("there is no `nginx -s restart`") are not advice.

The verbs are the programs' own lists (kubectl 1.32 and systemd 256 `--help`; nginx's `-s`
signals; PostgreSQL's grammar).
"""

from __future__ import annotations

import re

from agentbench.scoring.claims import clause_span


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NGINX_SIGNALS = frozenset({"stop", "quit", "reopen", "reload"})
_KUBECTL_VERBS = _words(
    "create expose run set explain get edit delete rollout scale autoscale certificate "
    "cluster-info top cordon uncordon drain taint describe logs attach exec port-forward "
    "proxy cp auth debug events diff apply patch replace wait kustomize label annotate "
    "completion api-resources api-versions config plugin version alpha options help"
)
_ROLLOUT_VERBS = _words("history pause restart resume status undo")
_SYSTEMCTL_VERBS = _words(
    "list-units list-automounts list-sockets list-timers list-paths is-active is-failed "
    "status show cat help list-dependencies start stop reload restart try-restart "
    "reload-or-restart try-reload-or-restart reload-or-try-restart force-reload "
    "condrestart condreload condstop isolate kill clean freeze thaw set-property bind "
    "mount-image service-log-level service-log-target reset-failed list-unit-files "
    "enable disable reenable preset preset-all is-enabled mask unmask link revert "
    "add-wants add-requires edit get-default set-default list-machines list-jobs cancel "
    "show-environment set-environment unset-environment import-environment daemon-reload "
    "daemon-reexec log-level log-target service-watchdogs is-system-running default "
    "rescue emergency halt poweroff reboot soft-reboot kexec exit switch-root sleep "
    "suspend hibernate hybrid-sleep suspend-then-hibernate whoami"
)
# options (and the values of those that take one) skipped between a program and its verb;
# each option reads one way only, so a long run of them cannot backtrack
_KUBECTL = re.compile(
    r"\bkubectl((?:\s+(?:(?:-n|-c|--namespace|--context|--kubeconfig|--cluster|--user)"
    r"\s+\S+|--?\w[\w-]*(?:=\S+)?))*)\s+([a-z][a-z-]*)(?:\s+([a-z][a-z-]*))?"
)
# `-n` is kubectl's --namespace: `kubectl logs api -n 200` asks for namespace "200"
_KUBECTL_COUNT_AS_NAMESPACE = re.compile(
    r"\bkubectl\b[^\n|;&]*?\s(?:-n\s*|--namespace[=\s])\d+(?![\w.-])"
)
_BARE_COUNT_FLAG = re.compile(r"-n\s*\d+")
_SYSTEMCTL = re.compile(r"\bsystemctl((?:\s+--?\w[\w-]*(?:=\S+)?)*)\s+([a-z][a-z-]*)\b")
_NGINX = re.compile(r"\bnginx(?:\s+-[cgp]\s+\S+)*\s+-s\s*([a-z]+)\b")
_MYSQL_ONLY = re.compile(
    r"\bINTERVAL\s+\d+\s+(?:MICROSECOND|SECOND|MINUTE|HOUR|DAY|WEEK|MONTH|QUARTER|YEAR)S?\b"
    r"|\b(?:DATE_SUB|DATE_ADD|DATEDIFF|IFNULL|CURDATE|UNIX_TIMESTAMP|FROM_UNIXTIME)\s*\(",
    re.IGNORECASE,
)
# Redis commands that take milliseconds, and the figure they are given
_REDIS_MS = re.compile(r"\b(?:PEXPIRE\s+\S+|PSETEX\s+\S+|SET\s+\S+\s+\S+\s+PX)\s+(\d+)\b", re.I)
_SECONDS = re.compile(r"(\d[\d,]*)\s*(?:s|secs?|seconds?)\b(?!\s*\()", re.I)
_MILLIS = re.compile(r"(\d[\d,]*)\s*(?:ms|millis\w*)\b", re.I)
_COREFILE_PROXY = re.compile(r"^\s*proxy\s+\.\s+\S", re.MULTILINE)
# a line that names a form as wrong, or as the mistake made, is no advice to use it
_NOT_ADVICE = re.compile(
    r"\b(?:not|no|never|isn'?t|doesn'?t|don'?t|invalid|unknown|wrong|nonexistent|obsolete|"
    r"deprecated|removed|instead\s+of|rather\s+than|fail(?:s|ed)?|error|typo|mistaken\w*)\b|"
    r"n't\b",
    re.IGNORECASE,
)
_CODE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)|`([^`\n]+)`", re.DOTALL)


def _snippets(answer: str) -> list[tuple[str, str]]:
    """(code, the clause it stands in with the code left out) of each code span and fenced
    block: a fenced block's clause is the prose line before it."""
    out = []
    text = answer[:16_000]
    for m in _CODE.finditer(text):
        if m.group(1) is not None:
            before = text[: m.start()].rstrip("\n")
            out.append((m.group(1), before[before.rfind("\n") + 1 :]))
            continue
        lo, hi = clause_span(text, m.start(), m.end())
        out.append((m.group(2), f"{text[lo : m.start()]} {text[m.end() : hi]}"))
    return out


def _refusal(code: str, sql: bool) -> str | None:
    """What the program would refuse in the code, or None."""
    for m in _NGINX.finditer(code):
        if m.group(1) not in _NGINX_SIGNALS:
            return f"nginx has no signal {m.group(1)!r} (-s takes stop, quit, reopen, reload)"
    for m in _KUBECTL.finditer(code):
        verb, sub = m.group(2), m.group(3)
        if verb not in _KUBECTL_VERBS:
            return f"kubectl has no command {verb!r}"
        if verb == "rollout" and sub and sub not in _ROLLOUT_VERBS:
            return f"kubectl rollout has no subcommand {sub!r}"
    if _KUBECTL_COUNT_AS_NAMESPACE.search(code):
        return "kubectl's -n is --namespace, not a line count (that is --tail)"
    for m in _SYSTEMCTL.finditer(code):
        if m.group(2) not in _SYSTEMCTL_VERBS:
            return f"systemctl has no command {m.group(2)!r}"
    mysql = _MYSQL_ONLY.search(code) if sql else None
    if mysql is not None:
        return f"{mysql.group().strip()!r} is MySQL syntax, which PostgreSQL rejects"
    if _COREFILE_PROXY.search(code):
        return "the Corefile directive 'proxy' was removed in CoreDNS 1.5 (it is 'forward')"
    return None


def _figures(pattern: re.Pattern[str], text: str) -> set[str]:
    return {m.group(1).replace(",", "") for m in pattern.finditer(text)}


def _unit_slip(code: str, answer: str) -> str | None:
    """A figure the answer gives in seconds passed to a Redis command that takes
    milliseconds (`PEXPIRE key 129600` for 129,600 seconds)."""
    given = {m.group(1) for m in _REDIS_MS.finditer(code)}
    if not given:
        return None
    prose = _CODE.sub(" ", answer[:16_000])
    slipped = given & _figures(_SECONDS, prose) - _figures(_MILLIS, prose)
    if slipped:
        return f"{min(slipped)} is a figure in seconds, and PEXPIRE/PX/PSETEX take milliseconds"
    return None


def advice_problems(answer: str, called: list[str], sql: bool) -> list[str]:
    """Why a command the answer advises would be refused (module docstring; empty: none is).
    `called`: the commands the episode ran; `sql`: whether the environment is a PostgreSQL
    database."""
    ran = "\n".join(called)
    kubectl = "kubectl" in answer[:16_000]
    for code, context in _snippets(answer):
        if code.strip() in ran or _NOT_ADVICE.search(context):
            continue
        if kubectl and _BARE_COUNT_FLAG.fullmatch(code.strip()):
            code = f"kubectl logs x {code}"  # "the short form is `-n 200`", of kubectl logs
        if (why := _refusal(code, sql) or _unit_slip(code, answer)) is not None:
            return [f"advises a command that would not work: {why}"]
    return []

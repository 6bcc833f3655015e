"""kubectl's command line: flags anywhere (`-n web`, `-nweb`, `--namespace=web`), the verb,
and resource arguments (`TYPE NAME...`, `TYPE/NAME...`, `TYPE1,TYPE2`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.kube.cli.verb_flags import verb_long_flags, verb_short_flags


class KubectlError(Exception):
    """A refusal kubectl prints on stderr (the text is the whole message) with exit code 1."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


SHORT = {
    "n": "namespace",
    "o": "output",
    "l": "selector",
    "A": "all-namespaces",
    "c": "container",
    "L": "label-columns",
    "w": "watch",
    "i": "stdin",
    "t": "tty",
    "R": "recursive",
    "q": "quiet",
    "k": "kustomize",
    "h": "help",
}
# Flags that take a value (everything else is a boolean that may be written --x=true).
VALUED = {
    "namespace",
    "output",
    "selector",
    "field-selector",
    "context",
    "kubeconfig",
    "cluster",
    "user",
    "server",
    "token",
    "sort-by",
    "container",
    "tail",
    "since",
    "since-time",
    "replicas",
    "to-revision",
    "revision",
    "grace-period",
    "timeout",
    "dry-run",
    "patch",
    "type",
    "filename",
    "from-literal",
    "from-file",
    "from-env-file",
    "image",
    "label-columns",
    "chunk-size",
    "limit",
    "requests",
    "limits",
    "containers",
    "current-replicas",
    "resource-version",
    "field-manager",
    "max-log-requests",
    "pod-running-timeout",
    "request-timeout",
    "cascade",
    "subresource",
    "as",
    "as-group",
    "template",
    "port",
    "pod-selector",
    "v",
    "for",
    "cache-dir",
    "output-watch-events",
    "show-kind",
    "skip-wait-for-delete-timeout",
    "selector-override",
    "env",
    "local",
    "record",
}
BOOLEAN = {
    "all-namespaces",
    "all-containers",
    "client",
    "watch",
    "show-labels",
    "no-headers",
    "previous",
    "follow",
    "timestamps",
    "ignore-daemonsets",
    "delete-emptydir-data",
    "delete-local-data",
    "force",
    "wait",
    "disable-eviction",
    "overwrite",
    "all",
    "ignore-not-found",
    "recursive",
    "stdin",
    "tty",
    "help",
    "quiet",
    "show-managed-fields",
    "list",
    "allow-missing-template-keys",
    "insecure-skip-tls-verify",
    "now",
    "raw",
    "server-side",
    "prune",
    "validate",
    "containers-only",
    "sort-by-cpu",
    "no-stream",
    "use-protocol-buffers",
    "show-events",
    "minify",
    "flatten",
    "prefix",
    "ignore-errors",
    "current",
    "watch-only",
    "show-capacity",
    "sum",
    "kustomize",
}


@dataclass
class Args:
    """A parsed kubectl command line."""

    verb: str = ""
    args: list[str] = field(default_factory=list)
    flags: dict[str, str] = field(default_factory=dict)
    extra: list[str] = field(default_factory=list)  # after `--`
    multi: list[tuple[str, str]] = field(default_factory=list)  # every valued flag, repeats kept

    def has(self, name: str) -> bool:
        return self.flags.get(name, "false") not in ("false", "")

    def get(self, name: str, default: str = "") -> str:
        return self.flags.get(name, default)

    def namespace(self, default: str = "default") -> str:
        return self.flags.get("namespace") or default

    @property
    def all_namespaces(self) -> bool:
        return self.has("all-namespaces")

    @property
    def dry_run(self) -> bool:
        return self.flags.get("dry-run", "none") in ("client", "server", "true")


def parse(argv: list[str]) -> Args:
    """Parse argv (argv[0] is `kubectl`). Raises KubectlError on an unknown flag."""
    return _parse(argv, _find_verb(argv[1:]))


def _find_verb(tokens: list[str]) -> str:
    """The first positional word, skipping flags and the values of flags that take one."""
    skip = False
    for token in tokens:
        if skip:
            skip = False
        elif token == "--":
            return ""
        elif token.startswith("--"):
            skip = "=" not in token and token[2:] in VALUED and token[2:] != "dry-run"
        elif token.startswith("-") and len(token) > 1:
            skip = len(token) == 2 and SHORT.get(token[1], "") in VALUED
        else:
            return token
    return ""


def _verb_specific(verb: str) -> tuple[dict[str, str], set[str]]:
    """-p and -f mean different things per verb."""
    short = dict(SHORT)
    valued = set(VALUED)
    if verb == "logs":
        short = dict(verb_short_flags(verb) or {})
        valued.discard("patch")
    elif verb == "patch":
        short |= {"p": "patch", "f": "filename"}
    else:
        short |= {"f": "filename"}
    return short, valued


def _parse(argv: list[str], verb: str) -> Args:
    short, valued = _verb_specific(verb)
    accepted = verb_long_flags(verb)
    out = Args()
    tokens = list(argv[1:])
    i = 0
    positional: list[str] = []
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "--":
            out.extra = tokens[i:]
            break
        if token.startswith("--") and len(token) > 2:
            name, eq, value = token[2:].partition("=")
            if accepted is not None and name not in accepted:
                raise KubectlError(_unknown(f"unknown flag: --{name}", positional or [verb]))
            if name not in valued and name not in BOOLEAN:
                if accepted is not None:  # a real flag of this verb the simulator lacks
                    raise NotSimulated(f"kubectl {verb} --{name}")
                raise KubectlError(_unknown(f"unknown flag: --{name}", positional or [verb]))
            if name in valued and not eq:
                if name == "dry-run":
                    value = "client"
                elif i < len(tokens):
                    value, i = tokens[i], i + 1
                else:
                    raise KubectlError(f"error: flag needs an argument: --{name}")
            out.flags[name] = value if (eq or name in valued) else "true"
            if name in valued:
                out.multi.append((name, value))
            continue
        if token.startswith("-") and len(token) > 1 and not token[1].isdigit():
            i = _short(token, tokens, i, short, valued, out, positional or [verb])
            continue
        positional.append(token)
    if positional:
        out.verb, out.args = positional[0], positional[1:]
    return out


def _short(
    token: str,
    tokens: list[str],
    i: int,
    short: dict[str, str],
    valued: set[str],
    out: Args,
    positional: list[str],
) -> int:
    letters = token[1:]
    while letters:
        letter, letters = letters[0], letters[1:]
        name = short.get(letter)
        if name is None:
            raise KubectlError(
                _unknown(f"unknown shorthand flag: '{letter}' in {token}", positional)
            )
        if name in valued:
            value = letters.removeprefix("=")
            if not value:
                if i >= len(tokens):
                    raise KubectlError(f"error: flag needs an argument: '{letter}' in -{letter}")
                value, i = tokens[i], i + 1
            out.flags[name] = value
            out.multi.append((name, value))
            return i
        out.flags[name] = "true"
    return i


def _unknown(message: str, positional: list[str]) -> str:
    command = f"kubectl {positional[0]}" if positional and positional[0] else "kubectl"
    return f"error: {message}\nSee '{command} --help' for usage."

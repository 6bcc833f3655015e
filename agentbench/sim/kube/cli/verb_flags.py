"""The flags one verb accepts, where kubectl's verbs differ: `kubectl logs` has its own flag
set plus kubectl's global flags, and pflag rejects anything else (`error: unknown flag:
--limit`; there are no abbreviations, so `--limit` is not `--limit-bytes`). The tables follow
`kubectl logs --help` and `kubectl options` (kubectl 1.31)."""

from __future__ import annotations

# kubectl's global flags (`kubectl options`), accepted by every verb.
GLOBAL_LONG = frozenset(
    {
        "as", "as-group", "as-uid", "cache-dir", "certificate-authority", "client-certificate",
        "client-key", "cluster", "context", "disable-compression", "help",
        "insecure-skip-tls-verify", "kubeconfig", "log-flush-frequency",
        "match-server-version", "namespace", "password", "profile", "profile-output",
        "request-timeout", "server", "tls-server-name", "token", "user", "username", "v",
        "vmodule", "warnings-as-errors",
    }
)  # fmt: skip
GLOBAL_SHORT = {"n": "namespace", "s": "server", "h": "help"}

LOGS_LONG = frozenset(
    {
        "all-containers", "all-pods", "container", "follow", "ignore-errors",
        "insecure-skip-tls-verify-backend", "limit-bytes", "max-log-requests",
        "pod-running-timeout", "prefix", "previous", "selector", "since", "since-time", "tail",
        "timestamps",
    }
)  # fmt: skip
LOGS_SHORT = {"c": "container", "f": "follow", "p": "previous", "l": "selector"}


def verb_long_flags(verb: str) -> frozenset[str] | None:
    """Every long flag `verb` accepts, or None where the simulator does not restrict them."""
    if verb == "logs":
        return LOGS_LONG | GLOBAL_LONG
    return None


def verb_short_flags(verb: str) -> dict[str, str] | None:
    """Every shorthand `verb` accepts (letter -> long name), or None where not restricted."""
    if verb == "logs":
        return LOGS_SHORT | GLOBAL_SHORT
    return None

"""Secrets the CLI is given (API keys, header values, a URL's password) and the checks on them.

A malformed secret is named by its flag or variable, never shown. Every secret met is kept in
SECRETS, so that the one error line (agentbench.cli.main) and the results store blank it out
wherever it turns up, e.g. echoed back in a server's error body.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from agentbench.errors import ConfigError
from agentbench.records import redact_urls, strip_credentials

TOKEN_CHARS = frozenset(
    "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
)  # what an HTTP header name may hold (RFC 9110 token)


class Secrets:
    """Secret values this process was given; `redact` blanks them (and URL passwords) out."""

    MIN_CHARS = 4  # shorter values would blank out ordinary words

    def __init__(self) -> None:
        self.values: set[str] = set()

    def add(self, value: str | None) -> None:
        if value and len(value) >= self.MIN_CHARS:
            self.values.add(value)

    def redact(self, text: str) -> str:
        for value in sorted(self.values, key=len, reverse=True):
            text = text.replace(value, "[redacted]")
        return redact_urls(text)


SECRETS = Secrets()  # the CLI process's; filled as flags are parsed, read by main and run


def check_secret(value: str, what: str) -> str:
    """A header value or key must be printable ASCII; a bad one is named, never shown."""
    if any(not (" " <= c <= "~") and c != "\t" for c in value):
        raise ConfigError(
            f"{what} holds a control or non-ASCII character (a CR, a newline, an accent…); "
            "HTTP headers take printable ASCII only — fix it (the value is not shown)"
        )
    return value


def check_url(url: str | None, flag: str) -> str | None:
    """A base URL that parses, with an http(s) scheme, a host and a port in range."""
    if url is None:
        return None
    shown = strip_credentials(url) if url.isascii() and url.isprintable() else "(the URL given)"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ConfigError(
            f"{flag} {shown}: not a valid URL ({exc}); e.g. http://127.0.0.1:8000/v1"
        ) from exc
    SECRETS.add(parts.password)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            f"{flag} {shown}: expected http://HOST[:PORT]/…, e.g. http://127.0.0.1:8000/v1"
        )
    if port == 0:
        raise ConfigError(f"{flag} {shown}: port 0 cannot be connected to; give the server's port")
    if not url.isascii() or not url.isprintable():
        raise ConfigError(f"{flag}: the URL holds a control or non-ASCII character; fix it")
    return url

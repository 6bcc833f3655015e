"""Which requests the viewer answers: a DNS-rebinding defence.

A page on any web site can point its own host name at 127.0.0.1 and have the browser fetch the
viewer's pages (prompts, answers, tool outputs) as same-origin. The browser then sends that
site's name in `Host:`, so the viewer answers only the loopback names it listens under
(`localhost`, `127.0.0.1`, `[::1]`, with its port) and the host it was told to bind, or a
request carrying its token: `?token=` in the URL once (the announced URL), then a cookie the
browser keeps for that host. Anything else gets a 403.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
COOKIE = "agentbench_view_token"


def new_token() -> str:
    return secrets.token_urlsafe(18)


def host_name(host: str) -> str:
    """How `host` (an address to bind) appears in a Host header: IPv6 in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class HostGuard:
    """ASGI middleware: pass expected Host headers and token bearers, refuse the rest (403)."""

    def __init__(self, app: ASGIApp, token: str, bound_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.token = token
        wildcard = {"0.0.0.0", "::", ""}
        self.names = set(LOOPBACK_NAMES) | {
            host_name(h).lower() for h in bound_hosts if h not in wildcard
        }

    def host_allowed(self, host: str, port: int | None) -> bool:
        host = host.strip().lower()
        if port is None:
            return False
        if host in {f"{name}:{port}" for name in self.names}:
            return True
        return port == 80 and host in self.names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        server = scope.get("server")
        port = server[1] if server else None
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        by_url = self._matches(query.get("token", [""])[0])
        if by_url:
            await self.app(scope, receive, self._setting_cookie(send))
            return
        if self._matches(_cookie(headers.get("cookie", ""))) or self.host_allowed(
            headers.get("host", ""), port
        ):
            await self.app(scope, receive, send)
            return
        response = PlainTextResponse(
            "403: this viewer answers only its loopback address (http://127.0.0.1:PORT/) "
            "or the URL with its token that `agentbench view` printed\n",
            status_code=403,
        )
        await response(scope, receive, send)

    def _matches(self, given: str) -> bool:
        return bool(given) and hmac.compare_digest(given.encode(), self.token.encode())

    def _setting_cookie(self, send: Send) -> Send:
        cookie = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict".encode()

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message["headers"], (b"set-cookie", cookie)]}
            await send(message)

        return wrapped


def _cookie(header: str) -> str:
    try:
        morsel = SimpleCookie(header).get(COOKIE)
    except Exception:  # a malformed Cookie header is no token
        return ""
    return morsel.value if morsel else ""

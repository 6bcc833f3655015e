"""HTTP from declared routes: the `http_get` tool and `curl` in the shell.

A route matches its exact URL (query parameters in any order), a path-only route matches that
path on any host, and a trailing `*` matches any rest. A route's port counts (`http://svc:8080/x`
is not `http://svc/x`; 80 and 443 are the default). A host no absolute route names does not
resolve (`curl: (6) Could not resolve host: HOST`), except localhost and IP literals, which need
no DNS: their connection is refused (`curl: (7)`), as is a known host on an unrouted port; an
unrouted path on a known host and port is a 404.
Identity: ("http", METHOD, the route's URL).
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass
from http import HTTPStatus
from urllib.parse import parse_qsl, urlencode, urlsplit

from agentbench.sim.core.base import CommandResult, ShellContext
from agentbench.sim.core.spec import HttpRoute


def _normal(url: str) -> tuple[str, str, str]:
    """(host[:port], path, sorted query) of an absolute or path-only URL; ValueError if
    malformed. A port is kept only when given and not the scheme's default (80, 443), so
    `http://svc:8080/x` and `http://svc/x` are different servers."""
    parts = urlsplit(url if "://" in url or url.startswith("/") else f"http://{url}")
    port = parts.port  # raises ValueError on a bad port, as curl refuses the URL
    query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    host = parts.hostname or ""
    if port is not None and port not in (80, 443):
        host = f"{host}:{port}"
    return host, parts.path or "/", query


@dataclass(frozen=True)
class Unreachable:
    """No HTTP answer: the host does not resolve, or nothing listens on that port."""

    host: str
    port: int
    refused: bool  # True: the name resolves, the port refuses (curl 7); False: curl 6

    @staticmethod
    def of(url: str, refused: bool) -> Unreachable:
        parts = urlsplit(url if "://" in url else f"http://{url}")
        default = 443 if parts.scheme == "https" else 80
        return Unreachable(parts.hostname or "", parts.port or default, refused)

    @property
    def tag(self) -> str:
        return "!refused" if self.refused else "!unresolved"

    @property
    def message(self) -> str:
        if self.refused:
            return (
                f"Failed to connect to {self.host} port {self.port} after 0 ms: "
                "Couldn't connect to server"
            )
        return f"Could not resolve host: {self.host}"

    def curl_text(self) -> str:
        """What curl prints: exit 7 (refused) or 6 (unresolved)."""
        return f"curl: ({7 if self.refused else 6}) {self.message}\n"


def _always_resolves(name: str) -> bool:
    """localhost and IP literals need no DNS: with nothing listening, the connection is refused."""
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def _body(route: HttpRoute) -> str:
    if isinstance(route.body, str):
        return route.body
    return json.dumps(route.body, indent=2)


class Response:
    def __init__(self, status: int, headers: dict[str, str], body: str, route: str) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.route = route

    @property
    def status_line(self) -> str:
        try:
            reason = HTTPStatus(self.status).phrase
        except ValueError:
            reason = ""
        return f"HTTP/1.1 {self.status} {reason}".rstrip()


class Routes:
    """The declared routes of every host."""

    def __init__(self, routes: tuple[HttpRoute, ...] | list[HttpRoute]) -> None:
        self.routes = list(routes)
        self.hosts = {_normal(r.url)[0] for r in self.routes if "://" in r.url}
        self.names = {h.split(":")[0] for h in self.hosts}
        self.any_host = any(not _normal(r.url)[0] for r in self.routes)

    def resolve(self, method: str, url: str) -> Response | Unreachable:
        """The response, or why there is none (unknown host; a known host on another port)."""
        host, path, query = _normal(url)
        if host not in self.hosts and not self.any_host:
            name = host.split(":")[0]
            return Unreachable.of(url, refused=name in self.names or _always_resolves(name))
        best: HttpRoute | None = None
        for route in self.routes:
            if (
                route.method.upper()
                not in (
                    method.upper(),
                    "HEAD" if method.upper() == "HEAD" else route.method.upper(),
                )
                and method.upper() != "HEAD"
            ):
                continue
            r_host, r_path, r_query = _normal(route.url.rstrip("*"))
            if r_host and r_host != host:
                continue
            if route.url.endswith("*"):
                if (path + ("?" + query if query else "")).startswith(r_path) and best is None:
                    best = route
            elif r_path == path and (r_query == query or (not r_query and not query)):
                best = route
                break
        if best is None:
            body = json.dumps({"error": "not found", "path": path})
            return Response(404, {"Content-Type": "application/json"}, body, f"{host}{path}")
        headers = {
            "Content-Type": "application/json" if not isinstance(best.body, str) else "text/plain",
            **best.headers,
        }
        return Response(best.status, headers, _body(best), best.url)

    def get(self, url: str) -> CommandResult:
        """The `http_get` tool: the status line, then the body."""
        try:
            response = self.resolve("GET", url)
        except ValueError:
            text = f"error: invalid URL {url!r}\n"
            return CommandResult(
                stderr=text, exit_code=1, identity=("http", "GET", url, "!invalid")
            )
        if isinstance(response, Unreachable):
            return CommandResult(
                stderr=f"error: {response.message}\n",
                exit_code=1,
                identity=("http", "GET", url, response.tag),
            )
        return CommandResult(
            stdout=f"{response.status_line}\n{response.body}",
            exit_code=0 if response.status < 400 else 1,  # an error status is a failed call
            identity=("http", "GET", response.route),
        )


class Curl:
    """`curl` over the routes: -s -S -i -I -X -H -d -w '%{http_code}' -o FILE -f -L -k -m -v."""

    def __init__(self, routes: Routes) -> None:
        self.routes = routes

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        args = argv[1:]
        method, url, write_out, output = "GET", None, None, None
        include = head = fail = silent = show_error = False
        i = 0
        while i < len(args):
            arg = args[i]
            value = args[i + 1] if i + 1 < len(args) else ""
            if arg in (
                "-X",
                "--request",
                "-H",
                "--header",
                "-w",
                "--write-out",
                "-o",
                "--output",
                "-d",
                "--data",
                "--data-raw",
                "-m",
                "--max-time",
                "--connect-timeout",
                "-u",
                "--user",
                "-A",
            ):
                i += 2
                if arg in ("-X", "--request"):
                    method = value
                elif arg in ("-w", "--write-out"):
                    write_out = value
                elif arg in ("-o", "--output"):
                    output = value
                elif arg in ("-d", "--data", "--data-raw") and method == "GET":
                    method = "POST"
                continue
            i += 1
            if arg.startswith("-") and not arg.startswith("--"):
                letters = list(arg[1:])
            elif arg.startswith("-"):
                letters = [arg]
            else:
                url = arg
                continue
            for flag in letters:
                include |= flag in ("i", "--include", "v", "--verbose")
                head |= flag in ("I", "--head")
                fail |= flag in ("f", "--fail")
                silent |= flag in ("s", "--silent")
                show_error |= flag in ("S", "--show-error")
        if url is None:
            return CommandResult(
                stderr="curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' "
                "for more information\n",
                exit_code=2,
            )
        try:
            response = self.routes.resolve("HEAD" if head else method, url)
        except ValueError:
            text = "curl: (3) URL rejected: Malformed input to a URL function\n"
            return CommandResult(
                stderr=text, exit_code=3, identity=("http", method, url, "!invalid")
            )
        if isinstance(response, Unreachable):
            return CommandResult(
                stderr=response.curl_text() if not silent or show_error else "",
                exit_code=7 if response.refused else 6,
                identity=("http", method, url, response.tag),
            )
        identity = ("http", "HEAD" if head else method.upper(), response.route)
        headers = (
            response.status_line
            + "\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in response.headers.items())
            + "\r\n"
        )
        if fail and response.status >= 400:
            text = (
                ""
                if silent
                else f"curl: (22) The requested URL returned error: {response.status}\n"
            )
            return CommandResult(stderr=text, exit_code=22, identity=identity)
        body = headers if head else (headers if include else "") + response.body
        if output is not None:
            body = ""
        if write_out is not None:
            body += (
                write_out.replace("%{http_code}", str(response.status))
                .replace("%{response_code}", str(response.status))
                .replace("\\n", "\n")
            )
        return CommandResult(stdout=body, identity=identity)


def curl_program(routes: Routes) -> Curl:
    return Curl(routes)

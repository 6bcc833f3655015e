"""`wget` over the declared routes (sim/http/routes.py): the forms that print a response.

`wget -qO- URL`, `wget -O - URL` (the body on stdout, wget's log on stderr unless `-q`),
`--spider` (check only), `-S` (the response headers in the log), `-O /dev/null`. Exit codes as
wget's: 4 when the host does not resolve or refuses, 8 for an error status (4xx/5xx). Saving the
body to a file is not simulated (off-script): no simulator writes a download into the
filesystem. Identity: the same ("http", METHOD, route) as curl and http_get, so `wget -qO- URL`
and `curl -s URL` are one read.
"""

from __future__ import annotations

from agentbench.sim.core.base import CommandResult, NotSimulated, ShellContext
from agentbench.sim.http.routes import Routes, Unreachable

_VALUED = {"O": "output-document", "T": "timeout", "t": "tries", "U": "user-agent"}
_LONG_VALUED = {*_VALUED.values(), "header", "method", "body-data", "post-data", "wait"}


def _parse(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """(options by long name, URLs); `-qO-` bundles flags, a valued letter takes the rest."""
    flags: dict[str, str] = {}
    urls: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            if name in _LONG_VALUED and not eq:
                value, i = (args[i] if i < len(args) else ""), i + 1
            flags[name] = value if name in _LONG_VALUED else "true"
        elif arg.startswith("-") and len(arg) > 1:
            letters = arg[1:]
            if letters == "nv":
                flags["no-verbose"] = "true"
                continue
            for k, letter in enumerate(letters):
                if letter in _VALUED:
                    value = letters[k + 1 :]
                    if not value:
                        value, i = (args[i] if i < len(args) else ""), i + 1
                    flags[_VALUED[letter]] = value
                    break
                flags[{"q": "quiet", "S": "server-response"}.get(letter, letter)] = "true"
        else:
            urls.append(arg)
    return flags, urls


class Wget:
    """`wget` over the routes (see the module docstring)."""

    def __init__(self, routes: Routes) -> None:
        self.routes = routes

    def run(self, argv: list[str], stdin: str | None, ctx: ShellContext) -> CommandResult:
        flags, urls = _parse(argv[1:])
        if not urls:
            return CommandResult(
                stderr="wget: missing URL\nUsage: wget [OPTION]... [URL]...\n\n"
                "Try `wget --help' for more options.\n",
                exit_code=1,
            )
        url = urls[0]
        method = flags.get("method", "POST" if "post-data" in flags else "GET").upper()
        spider = "spider" in flags
        target = flags.get("output-document")
        quiet = "quiet" in flags
        try:
            response = self.routes.resolve("HEAD" if spider else method, url)
        except ValueError:
            return CommandResult(stderr=f"{url}: Invalid URL.\n", exit_code=1)
        if isinstance(response, Unreachable):
            text = (
                f"Connecting to {response.host} ({response.host})|:{response.port}... failed: "
                "Connection refused.\n"
                if response.refused
                else f"wget: unable to resolve host address \u2018{response.host}\u2019\n"
            )
            failed = ("http", method, url, response.tag)
            return CommandResult(stderr="" if quiet else text, exit_code=4, identity=failed)
        identity = ("http", "HEAD" if spider else method, response.route)
        if not spider and target not in ("-", "/dev/null"):
            raise NotSimulated("wget saving a download to a file", identity)
        log = "" if quiet else self._log(response.status_line, response.headers, flags)
        if response.status >= 400:
            reason = response.status_line.split(" ", 2)[-1]
            error = "" if quiet else f"ERROR {response.status}: {reason}.\n"
            return CommandResult(stderr=log + error, exit_code=8, identity=identity)
        if spider:
            log += "" if quiet else "Remote file exists.\n"
            return CommandResult(stderr=log, identity=identity)
        body = response.body if target == "-" else ""
        return CommandResult(stdout=body, stderr=log, identity=identity)

    @staticmethod
    def _log(status_line: str, headers: dict[str, str], flags: dict[str, str]) -> str:
        status = status_line.split(" ", 1)[1]
        if "no-verbose" in flags:
            return ""
        if "server-response" in flags:
            lines = "".join(f"  {k}: {v}\n" for k, v in headers.items())
            return f"HTTP request sent, awaiting response... \n  {status_line}\n{lines}"
        return f"HTTP request sent, awaiting response... {status}\n"


def wget_program(routes: Routes) -> Wget:
    return Wget(routes)

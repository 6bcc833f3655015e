"""`agentbench view`: a local web app over the results database (Starlette; pages rendered on
the server, no JavaScript framework, nothing fetched from the network).

Routes (each one a deep link):

    /                                        runs; ?model= &note= &router= &since= &until=
    /runs/{run}                              a run: the report's figures, its episodes
    /runs/{run}/plots                        the run's plots (matplotlib; slower, so apart)
    /runs/{run}/episodes/{task}/{repeat}     an episode turn by turn; #<step id> opens a step
    /compare?run=A&run=B                     runs compared (A is the baseline)
    /side?a=A&b=B&task=T&repeat=R            the same task from two runs, aligned by step

The database is checked when the app is built (one line if it is not an agentbench database),
opened on the first request, on the server's thread (SQLite connections stay on the thread that
made them), and read with the same ResultStore the CLI uses. Requests pass view.guard first: an
unexpected Host header gets a 403. A malformed parameter is a 404 page, a fault a one-line 500
page; no traceback reaches the browser.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from agentbench.errors import ConfigError
from agentbench.report.page import esc
from agentbench.store import ResultStore, check_database
from agentbench.view import pages
from agentbench.view.guard import LOOPBACK_NAMES, HostGuard, host_name, new_token

DEFAULT_HOST = "127.0.0.1"


class Viewer:
    """The database a viewer reads; opened lazily, on the thread that serves requests."""

    def __init__(self, db: Path) -> None:
        if not Path(db).is_file():
            raise ConfigError(f"no results database at {db}; run `agentbench run` or pass --db")
        check_database(Path(db), "--db")
        self.db = Path(db)
        self._store: ResultStore | None = None
        self.figures = pages.FigureCache()

    @property
    def store(self) -> ResultStore:
        if self._store is None:
            self._store = ResultStore(self.db)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


Handler = Callable[[Request], str]


MAX_REPEAT = 2**31  # repeats are small integers; a larger one names no episode


def _short_page(title: str, line: str, status: int) -> HTMLResponse:
    return HTMLResponse(
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}'
        f'</title></head><body><p>{esc(line)}</p><p><a href="/">runs</a></p></body></html>',
        status_code=status,
    )


def _endpoint(render: Handler) -> Callable[[Request], object]:
    async def endpoint(request: Request) -> HTMLResponse:
        try:
            return HTMLResponse(render(request))
        except pages.NotFound as exc:
            return _short_page("not found", str(exc), 404)
        except ConfigError as exc:
            return _short_page("error", str(exc), 500)
        except Exception as exc:  # the page says what failed, never how (no traceback)
            return _short_page("error", f"this page failed: {type(exc).__name__}", 500)

    return endpoint


def repeat_number(value: str) -> int:
    """A repeat from a URL: a whole number in range, else a 404."""
    text = value.strip() or "0"
    if not (text.isascii() and text.isdigit()) or len(text) > 10 or int(text) >= MAX_REPEAT:
        raise pages.NotFound(f"repeat must be a whole number under {MAX_REPEAT}, not {value!r}")
    return int(text)


def create_app(db: Path, token: str | None = None, hosts: tuple[str, ...] = ()) -> Starlette:
    """The viewer's web app over the database at `db` (refused with one line if it is not an
    agentbench database). Requests must name a loopback host, one of `hosts`, or `token`."""
    viewer = Viewer(db)
    repeat = repeat_number

    def q(request: Request, name: str) -> str:
        return request.query_params.get(name, "").strip()

    routes = [
        Route(
            "/",
            _endpoint(
                lambda r: pages.runs_page(
                    viewer.store,
                    pages.RunFilter(
                        *(q(r, n) for n in ("model", "note", "router", "since", "until"))
                    ),
                )
            ),
        ),
        Route(
            "/runs/{run}",
            _endpoint(lambda r: pages.run_page(viewer.store, r.path_params["run"], viewer.figures)),
        ),
        Route(
            "/runs/{run}/plots",
            _endpoint(
                lambda r: pages.plots_page(viewer.store, r.path_params["run"], viewer.figures)
            ),
        ),
        Route(
            "/runs/{run}/episodes/{task}/{repeat}",
            _endpoint(
                lambda r: pages.episode_page(
                    viewer.store,
                    r.path_params["run"],
                    r.path_params["task"],
                    repeat(r.path_params["repeat"]),
                )
            ),
        ),
        Route(
            "/compare",
            _endpoint(
                lambda r: pages.compare_page(
                    viewer.store, r.query_params.getlist("run"), viewer.figures
                )
            ),
        ),
        Route(
            "/side",
            _endpoint(
                lambda r: pages.side_page(
                    viewer.store, q(r, "a"), q(r, "b"), q(r, "task"), repeat(q(r, "repeat"))
                )
            ),
        ),
    ]

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        viewer.close()

    guard = Middleware(HostGuard, token=token or new_token(), bound_hosts=hosts)
    return Starlette(routes=routes, lifespan=lifespan, middleware=[guard])


def serve(
    db: Path, host: str = DEFAULT_HOST, port: int = 8765, announce: Callable[[str], None] = print
) -> None:
    """Serve the viewer until interrupted; `announce` gets the URL once it listens (the port
    uvicorn chose when `port` is 0). Off loopback, the URL carries the viewer's token."""
    import uvicorn

    _check_bind(host, port)
    token = new_token()
    loopback = host_name(host) in LOOPBACK_NAMES
    app = create_app(db, token=token, hosts=(host,))

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[Any] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                bound = self.servers[0].sockets[0].getsockname()[1]
                shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host_name(host)
                announce(f"http://{shown}:{bound}/" + ("" if loopback else f"?token={token}"))

    Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run()


def _check_bind(host: str, port: int) -> None:
    """One line, before uvicorn starts, for a host that does not resolve or a port in use."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise ConfigError(f"--host {host}: not an address of this machine ({exc})") from exc
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise ConfigError(
                f"--host {host} --port {port}: cannot listen there ({exc.strerror}); "
                "give another --port (0: any free one)"
            ) from exc

"""`agentbench view`: a local web app over the results database (Starlette; pages rendered on
the server, no JavaScript framework, nothing fetched from the network).

Routes (each one a deep link):

    /                                        runs; ?model= &note= &router= &since= &until=
    /runs/{run}                              a run: the report's figures, its episodes
    /runs/{run}/plots                        the run's plots (matplotlib; slower, so apart)
    /runs/{run}/episodes/{task}/{repeat}     an episode turn by turn; #<step id> opens a step
    /compare?run=A&run=B                     runs compared (A is the baseline)
    /side?a=A&b=B&task=T&repeat=R            the same task from two runs, aligned by step

The store is opened on the first request, on the server's thread (SQLite connections stay on
the thread that made them), and read with the same ResultStore the CLI uses.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from agentbench.errors import ConfigError
from agentbench.report.page import esc
from agentbench.store import ResultStore
from agentbench.view import pages

DEFAULT_HOST = "127.0.0.1"


class Viewer:
    """The database a viewer reads; opened lazily, on the thread that serves requests."""

    def __init__(self, db: Path) -> None:
        if not Path(db).is_file():
            raise ConfigError(f"no results database at {db}; run `agentbench run` or pass --db")
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


def _endpoint(render: Handler) -> Callable[[Request], object]:
    async def endpoint(request: Request) -> HTMLResponse:
        try:
            return HTMLResponse(render(request))
        except pages.NotFound as exc:
            return HTMLResponse(
                f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>not found'
                f'</title></head><body><p>{esc(exc)}</p><p><a href="/">runs</a></p></body></html>',
                status_code=404,
            )

    return endpoint


def create_app(db: Path) -> Starlette:
    """The viewer's web app over the database at `db` (refused with one line if missing)."""
    viewer = Viewer(db)

    def q(request: Request, name: str) -> str:
        return request.query_params.get(name, "").strip()

    def repeat(value: str) -> int:
        try:
            return int(value or 0)
        except ValueError as exc:
            raise pages.NotFound(f"repeat must be a whole number, not {value!r}") from exc

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

    return Starlette(routes=routes, lifespan=lifespan)


def serve(
    db: Path, host: str = DEFAULT_HOST, port: int = 8765, announce: Callable[[str], None] = print
) -> None:
    """Serve the viewer until interrupted; `announce` gets the URL once it listens (the port
    uvicorn chose when `port` is 0)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[Any] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                bound = self.servers[0].sockets[0].getsockname()[1]
                announce(f"http://{host}:{bound}/")

    Server(uvicorn.Config(create_app(db), host=host, port=port, log_level="warning")).run()

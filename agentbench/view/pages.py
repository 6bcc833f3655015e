"""The viewer's pages, rendered server-side from the result store with the report's own
sections (agentbench.report): runs list, run, plots, compare, episode and side by side.

Every page is a function of (store, parameters) -> HTML, so the benchmark and the tests call
them directly as well as through the web app.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from agentbench import __version__
from agentbench.errors import ConfigError
from agentbench.figures import fmt, pct
from agentbench.metrics.compare import compare_runs
from agentbench.records import EpisodeResult, RunRecord
from agentbench.report.compare_view import compare_sections
from agentbench.report.conversation import side_by_side
from agentbench.report.episodes import episode, render_step
from agentbench.report.html import run_plots, run_sections
from agentbench.report.page import esc, num_cell, page, table
from agentbench.store import ResultStore


class NotFound(Exception):
    """A page for something the database does not hold (HTTP 404, one line)."""


class FigureCache:
    """Rendered figures of runs, keyed by the runs' ids, statuses and episode counts: the
    figures (seeded bootstrap CIs, plots) are a function of the episodes, and computing them is
    what makes a run, compare or plots page slow (docs/viewer.md#speed); a run still in
    progress gains episodes, so its key changes and its figures are computed again."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._pages: dict[tuple[object, ...], str] = {}

    def key(self, store: ResultStore, kind: str, runs: list[RunRecord]) -> tuple[object, ...]:
        counts = tuple(store.episode_count(r.run_id) for r in runs)
        return (kind, tuple((r.run_id, r.status) for r in runs), counts)

    def get(self, key: tuple[object, ...], render: Callable[[], str]) -> str:
        if self.size <= 0:
            return render()
        if key not in self._pages:
            if len(self._pages) >= self.size:
                self._pages.pop(next(iter(self._pages)))
            self._pages[key] = render()
        return self._pages[key]


def run_url(run_id: str) -> str:
    return f"/runs/{quote(run_id)}"


def episode_url(run_id: str, task_id: str, repeat: int) -> str:
    return f"/runs/{quote(run_id)}/episodes/{quote(task_id, safe='')}/{repeat}"


def side_url(a: str, b: str, task_id: str, repeat: int = 0) -> str:
    return "/side?" + urlencode({"a": a, "b": b, "task": task_id, "repeat": repeat})


def _page(title: str, body: str) -> str:
    nav = '<nav class="top"><a href="/">runs</a></nav>'
    return page(title, nav + body, generator=f"agentbench view {__version__} — local, no network.")


def _model(run: RunRecord) -> str:
    return run.server.model if run.server else str(run.config.get("model", "?"))


def _note(run: RunRecord) -> str:
    return str((run.server.note if run.server else None) or run.config.get("note") or "")


@dataclass(frozen=True)
class RunFilter:
    """The runs list's filters; empty fields match everything. Dates are UTC, YYYY-MM-DD."""

    model: str = ""
    note: str = ""
    router: str = ""
    since: str = ""
    until: str = ""

    def matches(self, run: RunRecord) -> bool:
        day = run.created_at[:10]
        return (
            self.model.lower() in _model(run).lower()
            and self.note.lower() in _note(run).lower()
            and self.router.lower() in str(run.config.get("router", "")).lower()
            and (not self.since or day >= self.since)
            and (not self.until or day <= self.until)
        )


def _filter_form(f: RunFilter) -> str:
    fields = "".join(
        f'<label>{name}<input name="{name}" value="{esc(getattr(f, name))}" '
        f'placeholder="{hint}"></label>'
        for name, hint in (
            ("model", "substring"),
            ("note", "substring"),
            ("router", "e.g. always-local"),
            ("since", "YYYY-MM-DD"),
            ("until", "YYYY-MM-DD"),
        )
    )
    return f'<form class="filters" method="get" action="/">{fields}<button>filter</button></form>'


def runs_page(store: ResultStore, f: RunFilter) -> str:
    runs = [r for r in reversed(store.runs()) if f.matches(r)]
    rows = []
    for r in runs:
        s = r.summary or {}
        rows.append(
            f'<tr><td><input type="checkbox" name="run" value="{esc(r.run_id)}" '
            f'aria-label="pick {esc(r.run_id)}"></td>'
            f'<td class="nowrap"><a href="{run_url(r.run_id)}">{esc(r.run_id)}</a></td>'
            f'<td class="nowrap">{esc(r.created_at[:19].replace("T", " "))}</td>'
            f"<td>{esc(r.kind)}</td><td>{esc(r.status)}</td>"
            f"<td>{esc(_model(r))}</td><td>{esc(r.server.kind if r.server else '?')}</td>"
            f"<td>{esc(r.config.get('router', ''))}</td><td>{esc(_note(r))}</td>"
            + num_cell(s.get("episodes"), "d")
            + f'<td class="n" data-v="{s.get("success_rate") or ""}">'
            f"{pct(s.get('success_rate'))}</td>"
            + num_cell(s.get("thinking_tokens_per_step"), ".1f")
            + num_cell(s.get("time_to_done_s_median"), ".2f")
            + "</tr>"
        )
    listing = table(
        [
            ("pick", False),
            ("run", False),
            ("created (UTC)", False),
            ("kind", False),
            ("status", False),
            ("model", False),
            ("server", False),
            ("router", False),
            ("note", False),
            ("episodes", True),
            ("success", True),
            ("thinking tok/step", True),
            ("time-to-done median (s)", True),
        ],
        rows,
        sortable=True,
        table_id="runs",
        caption="Figures are the run's stored summary (n/a while a run is in progress).",
    )
    body = (
        f'<h1>agentbench runs</h1><p class="sub">{esc(store.path)} · {len(runs)} runs shown'
        f'</p>{_filter_form(f)}<form method="get" action="/compare">{listing}'
        "<button>compare the runs picked</button></form>"
    )
    return _page("agentbench runs", body)


def _run(store: ResultStore, run_id: str) -> RunRecord:
    try:
        return store.run(store.resolve(run_id))
    except ConfigError as exc:  # unknown or ambiguous id
        raise NotFound(str(exc)) from exc


def _episode_rows(run_id: str, episodes: list[EpisodeResult]) -> str:
    rows = (
        f'<tr><td><a href="{episode_url(run_id, e.task_id, e.repeat)}">{esc(e.task_id)}</a></td>'
        f"<td>{e.repeat}</td><td>{esc(e.status)}</td>"
        + num_cell(e.score)
        + num_cell(len(e.steps), "d")
        + num_cell(e.reasoning_tokens, "d")
        + num_cell(e.time_to_done_s)
        + "</tr>"
        for e in episodes
    )
    return table(
        [
            ("task", False),
            ("repeat", False),
            ("status", False),
            ("score", True),
            ("steps", True),
            ("thinking tokens", True),
            ("time-to-done (s)", True),
        ],
        rows,
        sortable=True,
        table_id="episodes-list",
    )


def run_page(store: ResultStore, run_id: str, cache: FigureCache | None = None) -> str:
    run = _run(store, run_id)
    cache = cache or FigureCache(0)
    return cache.get(cache.key(store, "run", [run]), lambda: _run_page(store, run))


def _run_page(store: ResultStore, run: RunRecord) -> str:
    episodes = store.episodes(run.run_id)
    plots = f'<p><a href="{run_url(run.run_id)}/plots">Draw this run\'s plots</a></p>'
    body = run_sections(
        run,
        episodes,
        episodes_html=_episode_rows(run.run_id, episodes),
        link=lambda task, repeat: episode_url(run.run_id, task, repeat),
        plots_html=plots,
    )
    return _page(f"run {run.run_id}", "".join(body))


def plots_page(store: ResultStore, run_id: str, cache: FigureCache | None = None) -> str:
    run = _run(store, run_id)
    cache = cache or FigureCache(0)

    def render() -> str:
        body = (
            f'<h1>Plots of run <a href="{run_url(run.run_id)}">{esc(run.run_id)}</a></h1>'
            + run_plots(store.episodes(run.run_id))
        )
        return _page(f"plots {run.run_id}", body)

    return cache.get(cache.key(store, "plots", [run]), render)


def compare_page(store: ResultStore, run_ids: list[str], cache: FigureCache | None = None) -> str:
    if len(run_ids) < 2:
        raise NotFound("pick at least two runs to compare (the checkboxes on the runs list)")
    runs = [_run(store, r) for r in run_ids]
    cache = cache or FigureCache(0)
    return cache.get(cache.key(store, "compare", runs), lambda: _compare_page(store, runs))


def _compare_page(store: ResultStore, runs: list[RunRecord]) -> str:
    loaded = [(r, store.episodes(r.run_id)) for r in runs]
    if any(not eps for _, eps in loaded):
        raise NotFound("a run picked has no finished episode to compare")
    body = compare_sections(compare_runs(loaded), with_plots=False)
    base_run, base = loaded[0]
    links = []
    for other_run, other in loaded[1:]:
        common = sorted({e.task_id for e in base} & {e.task_id for e in other})
        links += [
            f'<li><a href="{esc(side_url(base_run.run_id, other_run.run_id, t))}">{esc(t)}</a>'
            f" · A vs {esc(other_run.run_id)}</li>"
            for t in common
        ]
    body.append('<h2 id="side">Same task side by side</h2><ul>' + "".join(links) + "</ul>")
    return _page("compare", "".join(body))


def _episode(store: ResultStore, run_id: str, task_id: str, repeat: int) -> EpisodeResult:
    found = store.episode(_run(store, run_id).run_id, task_id, repeat)
    if found is None:
        raise NotFound(f"run {run_id} has no episode of task {task_id}, repeat {repeat}")
    return found


def episode_page(store: ResultStore, run_id: str, task_id: str, repeat: int) -> str:
    e = _episode(store, run_id, task_id, repeat)
    others = [r for r in store.runs_with_task(task_id) if r != e.run_id]
    side = "".join(
        f'<li><a href="{esc(side_url(e.run_id, r, task_id, repeat))}">{esc(r)}</a></li>'
        for r in others[:20]
    )
    body = (
        f'<h1>{esc(task_id)} · repeat {repeat}</h1><p class="sub">run '
        f'<a href="{run_url(e.run_id)}">{esc(e.run_id)}</a> · {esc(e.category)} · '
        f"{esc(e.difficulty)} · {esc(e.step_kind)} step</p>{episode(e, open_=True)}"
        + (f"<h2>Side by side with another run</h2><ul>{side}</ul>" if side else "")
    )
    return _page(f"{task_id} · {e.run_id}", body)


def side_page(store: ResultStore, a: str, b: str, task_id: str, repeat: int) -> str:
    pair = [_episode(store, r, task_id, repeat) for r in (a, b)]
    labelled = [(f"{e.run_id} · {e.steps[0].model if e.steps else '?'}", e) for e in pair]
    thinking = [e.reasoning_tokens for _, e in labelled]
    ratio = (
        fmt(thinking[1] / thinking[0], ".2f", "×")
        if thinking[0] and thinking[1] is not None
        else "n/a"
    )
    body = (
        f'<h1>{esc(task_id)} · repeat {repeat}, side by side</h1><p class="sub">'
        f"thinking tokens B / A: {ratio} · steps aligned by index; timing bars share one scale"
        f"</p>{side_by_side(labelled, render_step)}"
    )
    return _page(f"{task_id} side by side", body)

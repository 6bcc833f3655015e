"""The HTML run report: one self-contained file (inline CSS, JS and SVG plots; no network).

Renders records and the figures `agentbench.metrics` computes from them; computes none itself.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from agentbench import __version__
from agentbench.figures import fmt, pct
from agentbench.metrics.compare import (
    Comparison,
    RunEpisodes,
    TaskFigures,
    category_figures,
    compare_runs,
    task_figures,
)
from agentbench.metrics.summary import RunSummary, by_category, summarize
from agentbench.records import EpisodeResult, RunRecord
from agentbench.report import plots
from agentbench.report.episodes import anchor, episode
from agentbench.report.page import card, esc, figure, fmt_ci, kv, num_cell, page, table

DEFINITIONS = [
    (
        "success rate",
        "share of scored episodes whose every check passed; 95% percentile "
        "bootstrap CI over episodes (backend errors are not scored).",
    ),
    (
        "thinking tokens per step",
        "reasoning tokens per model call: from the server's usage when "
        "given, else the reasoning text counted with the server's "
        "tokenizer, else a tiktoken estimate (method shown).",
    ),
    (
        "time-to-done",
        "first request sent to last stream end of the episode, tool time included "
        "(client clock); split into model, tool and router time.",
    ),
    (
        "decode tok/s",
        "(output tokens - 1) / (last token - first token) per step, client clock; "
        "only steps with at least 2 output tokens.",
    ),
    ("escalation rate", "share of model calls (and of episodes) sent to a non-local target."),
    ("cost", "sum of priced calls; 'unpriced' when any call has no price (never shown as $0)."),
]


def pareto_figure(comp: Comparison, caption: str) -> str:
    """Success rate against cost per run, the Pareto front joined (compare and run pages)."""
    return figure(
        plots.cost_accuracy(
            [r.label for r in comp.runs],
            comp.cost_axis_values,
            [r.summary.success_rate for r in comp.runs],
            [r.summary.success_rate_ci for r in comp.runs],
            comp.pareto,
            comp.pareto_axis,
        ),
        caption,
        "plot-pareto",
    )


def _cards(s: RunSummary) -> str:
    cost = (
        fmt(s.cost_usd, ".4f", " USD")
        if s.cost_usd is not None
        else '<span class="muted">unpriced</span>'
    )
    cost_detail = (
        f"{s.unpriced_steps} of {s.steps} calls have no price"
        if s.unpriced_steps
        else f"{fmt(s.cost_usd_per_episode, '.5f')} USD / episode, "
        f"{fmt(s.cost_usd_per_solved_task, '.5f')} USD / solved task"
    )
    pass_k = ", ".join(f"k={k}: {v:.2f}" for k, v in s.pass_k.items())
    cards = [
        card(
            "success rate (95% CI)",
            pct(s.success_rate),
            f"{esc(fmt_ci(s.success_rate_ci))} · n={s.scored_episodes} scored episodes",
        ),
        card(
            "mean score (95% CI)",
            fmt(s.mean_score, ".2f"),
            f"{esc(fmt_ci(s.mean_score_ci, '.2f'))}"
            + (f" · pass^k {esc(pass_k)}" if pass_k else ""),
        ),
        card(
            "thinking tokens / step",
            fmt(s.thinking_tokens_per_step, ".1f"),
            f"method: {esc(s.thinking_tokens_method)} · {s.steps} steps",
        ),
        card(
            "output tokens / solved task",
            fmt(s.tokens_per_solved_task, ".0f"),
            f"{fmt(s.output_tokens_per_step, '.1f')} output tokens / step",
        ),
        card(
            "time-to-done median",
            fmt(s.time_to_done_s_median, ".2f", " s"),
            f"p90 {fmt(s.time_to_done_s_p90, '.2f', ' s')}",
        ),
        card(
            "decode speed median",
            fmt(s.decode_tok_s_median, ".1f", " tok/s"),
            f"range {fmt(s.decode_tok_s_min, '.1f')}–{fmt(s.decode_tok_s_max, '.1f')}, spread "
            f"{fmt(s.decode_tok_s_spread, '.1%')} · {s.decode_steps} steps · server "
            f"{fmt(s.server_decode_tok_s_median, '.1f')}",
        ),
        card(
            "TTFT median / prefill",
            fmt(s.ttft_s_median, ".3f", " s"),
            f"prefill {fmt(s.prefill_tok_s_median, '.0f', ' tok/s')} (client view)",
        ),
        card("cost", cost, cost_detail),
        card(
            "escalation rate (calls)",
            pct(s.escalation_rate_calls),
            f"{pct(s.escalation_rate_episodes)} of episodes escalated at least once · "
            f"{pct(s.escalation_share_tokens)} of tokens, "
            f"{pct(s.escalation_share_dollars)} of dollars",
        ),
        card(
            "episodes ok",
            f"{s.statuses.get('ok', 0)} / {s.episodes}",
            esc(", ".join(f"{k} {v}" for k, v in sorted(s.statuses.items())))
            + f" · {s.truncated_steps} truncated steps",
        ),
    ]
    return '<div class="cards">' + "".join(cards) + "</div>"


def _serving(run: RunRecord) -> str:
    srv = run.server
    cfg = run.config
    if srv is None:
        return '<p class="note">No serving record was stored with this run.</p>'
    drafter = {True: "yes (speculative-decoding counters present)", False: "no", None: "unknown"}[
        srv.spec_decode_seen
    ]
    pairs = [
        ("server", f"{esc(srv.kind)} {esc(srv.version or '(version unknown)')}"),
        ("endpoint", esc(srv.base_url)),
        ("model", esc(srv.model)),
        ("max context", fmt(srv.max_context, ",d", " tokens") if srv.max_context else "unknown"),
        ("drafter seen", esc(drafter)),
        (
            "router",
            esc(cfg.get("router", "always-local"))
            + (
                f" · frontier {esc(cfg.get('frontier_model'))}" if cfg.get("frontier_model") else ""
            ),
        ),
        (
            "run shape",
            f"repeats {esc(cfg.get('repeats'))}, concurrency "
            f"{esc(cfg.get('concurrency'))}, max tokens {esc(cfg.get('max_tokens'))}, "
            f"tool mode {esc(cfg.get('tool_mode'))}, temperature "
            f"{esc(cfg.get('temperature'))}",
        ),
    ]
    if srv.note or cfg.get("note"):
        pairs.append(("note", esc(srv.note or cfg.get("note"))))
    return kv(pairs)


def _category_table(rows: dict[str, RunSummary], total: RunSummary) -> str:
    body = []
    for name, s in [*rows.items(), ("all", total)]:
        body.append(
            f'<tr><th scope="row">{esc(name)}</th>'
            + num_cell(s.tasks, "d")
            + num_cell(s.episodes, "d")
            + f'<td class="n" data-v="{s.success_rate}">{pct(s.success_rate)} '
            f'<span class="muted">{esc(fmt_ci(s.success_rate_ci))}</span></td>'
            + num_cell(s.mean_score)
            + num_cell(s.thinking_tokens_per_step, ".1f")
            + num_cell(s.tokens_per_solved_task, ".0f")
            + num_cell(s.time_to_done_s_median)
            + num_cell(s.time_to_done_s_p90)
            + num_cell(s.decode_tok_s_median, ".1f")
            + f'<td class="n" data-v="{s.off_script_share}">{pct(s.off_script_share)}</td></tr>'
        )
    return table(
        [
            ("category", False),
            ("tasks", True),
            ("episodes", True),
            ("success (95% CI)", True),
            ("mean score", True),
            ("thinking tok/step", True),
            ("output tok/solved task", True),
            ("time-to-done median (s)", True),
            ("time-to-done p90 (s)", True),
            ("decode median (tok/s)", True),
            ("off-script calls", True),
        ],
        body,
        table_id="categories",
    ) + _off_script_note(total)


def _off_script_note(total: RunSummary) -> str:
    """Which tasks got fallback answers: where the environment, not the model, set the limit."""
    if not total.off_script_by_task:
        return ""
    items = ", ".join(
        f"{esc(t)} {pct(v)}"
        for t, v in sorted(total.off_script_by_task.items(), key=lambda kv: -kv[1])
    )
    return (
        f'<p class="note">Off-script: {total.off_script_calls} of {total.tool_calls} tool '
        "calls were answered by the tool's fallback text (no simulator or rule covers them); "
        f"share per task: {items}.</p>"
    )


EpisodeLink = Callable[[str, int], str]
"""(task id, repeat) -> the URL of that episode (an in-page anchor in the static report)."""


def in_page(task_id: str, repeat: int) -> str:
    return "#" + anchor(task_id, repeat)


def _task_table(tasks: dict[str, TaskFigures], episodes: list[EpisodeResult],
                link: EpisodeLink = in_page) -> str:
    first: dict[str, int] = {}
    for e in episodes:
        first[e.task_id] = min(first.get(e.task_id, e.repeat), e.repeat)
    body = []
    for t in tasks.values():
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(t.statuses.items()))
        body.append(
            f'<tr><td><a href="{esc(link(t.task_id, first.get(t.task_id, 0)))}" class="task-link" '
            f'data-task="{esc(t.task_id)}">{esc(t.task_id)}</a></td>'
            f"<td>{esc(t.category)}</td><td>{esc(t.difficulty)}</td>"
            + num_cell(t.episodes, "d")
            + num_cell(t.success_rate, ".0%")
            + num_cell(t.mean_score)
            + num_cell(t.steps_mean, ".1f")
            + num_cell(t.thinking_tokens_per_step, ".1f")
            + num_cell(t.output_tokens, ".0f")
            + num_cell(t.time_to_done_s)
            + num_cell(t.decode_tok_s_median, ".1f")
            + f"<td>{esc(statuses)}</td></tr>"
        )
    return table(
        [
            ("task", False),
            ("category", False),
            ("difficulty", False),
            ("episodes", True),
            ("success", True),
            ("mean score", True),
            ("steps", True),
            ("thinking tok/step", True),
            ("output tok/episode", True),
            ("time-to-done (s)", True),
            ("decode median (tok/s)", True),
            ("statuses", False),
        ],
        body,
        sortable=True,
        table_id="tasks",
        caption="Click a column to sort. Figures are means over the task's repeats.",
    )


def _plots(
    episodes: list[EpisodeResult],
    total: RunSummary,
    cats: dict[str, RunSummary],
    tasks: dict[str, TaskFigures],
    others: Sequence[RunEpisodes],
) -> str:
    if not plots.available():
        return (
            '<p class="note">Plots need matplotlib: <code>pip install '
            "'agentbench-local[report]'</code>.</p>"
        )
    reasoning = [
        s.reasoning_tokens for e in episodes for s in e.steps if s.reasoning_tokens is not None
    ]
    decode: dict[str, list[float]] = defaultdict(list)
    for e in episodes:
        decode[e.category] += [s.decode_tok_s for s in e.steps if s.decode_tok_s is not None]
    parts = [
        figure(
            plots.score_by_category(cats),
            "Success rate and mean score per category; error bars are 95% bootstrap CIs over "
            "episodes.",
            "plot-score",
        ),
        figure(
            plots.thinking_distribution(reasoning, total.thinking_tokens_method),
            "Distribution of thinking tokens per model call; dashed line: median.",
            "plot-thinking",
        ),
        _time_figure(episodes, tasks),
        figure(
            plots.decode_by_category(dict(sorted(decode.items()))),
            "Client-side decode speed of each step, by category.",
            "plot-decode",
        ),
    ]
    if others:
        comp = compare_runs(others)
        parts.append(
            pareto_figure(
                comp,
                "Each run's success rate against its cost; runs on the Pareto front are marked.",
            )
        )
    drawn = "".join(parts)
    return drawn or '<p class="note">Nothing to plot: the run holds no finished episode.</p>'


def run_plots(episodes: list[EpisodeResult], others: Sequence[RunEpisodes] = ()) -> str:
    """The run's plots section alone (the viewer draws it on a page of its own)."""
    return _plots(episodes, summarize(episodes), by_category(episodes), task_figures(episodes),
                  others)


MAX_TASK_BARS = 24


def _time_figure(episodes: list[EpisodeResult], tasks: dict[str, TaskFigures]) -> str:
    if len(tasks) <= MAX_TASK_BARS:
        return figure(
            plots.time_split(list(tasks.values())),
            "Where the time to done goes, per task: model calls, simulated tool latency "
            "and router decisions (mean over repeats).",
            "plot-time",
        )
    return figure(
        plots.time_split(list(category_figures(episodes).values()), what="category"),
        f"Where the time to done goes, per category (the {len(tasks)} tasks are in the "
        "per-task table): model calls, simulated tool latency and router decisions.",
        "plot-time",
    )


def render_html(
    run: RunRecord, episodes: list[EpisodeResult], others: Sequence[RunEpisodes] = ()
) -> str:
    """The report page. `others`: runs (this one included) for the cost-accuracy plot."""
    listing = "".join(episode(e) for e in episodes) or '<p class="note">No episode finished.</p>'
    body = run_sections(run, episodes, others, episodes_html=listing)
    return page(f"agentbench run {run.run_id}", "".join(body),
                generator=f"agentbench {__version__} — self-contained report; no network needed.")


def run_sections(run: RunRecord, episodes: list[EpisodeResult],
                 others: Sequence[RunEpisodes] = (), *, episodes_html: str,
                 link: EpisodeLink = in_page, plots_html: str | None = None) -> list[str]:
    """The run page's sections, shared by the static report and `agentbench view`: the viewer
    links episodes to their own pages and plots to a page of their own (`plots_html`)."""
    total = summarize(episodes)
    cats = by_category(episodes)
    tasks = task_figures(episodes)
    model = run.server.model if run.server else str(run.config.get("model", "?"))
    body = [
        f"<h1>agentbench run {esc(run.run_id)}</h1>",
        f'<p class="sub">{esc(model)} · {esc(run.status)} · created {esc(run.created_at)} UTC · '
        f"tasks from {esc(run.task_dir)} · {total.tasks} tasks, {total.episodes} episodes</p>",
        '<h2 id="summary">Summary</h2>', _cards(total),
        '<h2 id="serving">Serving record</h2>', _serving(run),
        '<h2 id="plots">Plots</h2>',
        _plots(episodes, total, cats, tasks, others) if plots_html is None else plots_html,
        '<h2 id="by-category">By category</h2>', _category_table(cats, total),
        '<h2 id="by-task">By task</h2>', _task_table(tasks, episodes, link),
        '<h2 id="episodes">Episodes</h2>',
        '<p class="note">Click an episode to see its checks and steps; click a step for what it '
        "sent, its timing, tokens, router decision, reasoning, tool calls and tool results.</p>",
        episodes_html,
        '<h2 id="definitions">How the figures are defined</h2>',
        kv((k, esc(v)) for k, v in DEFINITIONS),
    ]
    return body


def write_html(
    path: Path, run: RunRecord, episodes: list[EpisodeResult], others: Sequence[RunEpisodes] = ()
) -> None:
    Path(path).write_text(render_html(run, episodes, others), encoding="utf-8")

"""Sweep plots: aggregate throughput against latency, one curve per scenario × depth, one point
per load (concurrency or request rate), as an HTML page (inline SVG) and a PNG.

Two panels: aggregate output tok/s (all streams) against the median TTFT, and against the
median TPOT over requests. Each point is labelled with its load. Figures come from the rows'
own summaries; nothing is recomputed here. Needs matplotlib (extra `report`).
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from agentbench.bench.records import BenchResult, BenchRow
from agentbench.errors import ConfigError
from agentbench.report.plots import MARKERS, OKABE_ITO, _style, available, to_svg

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def curves(result: BenchResult) -> dict[str, list[BenchRow]]:
    """Rows with a throughput figure, grouped by scenario and depth, in load order."""
    groups: dict[str, list[BenchRow]] = {}
    for row in result.results:
        if row.status != "ok" or row.median.aggregate_output_tok_s is None:
            continue
        groups.setdefault(f"{row.scenario} depth {row.depth}", []).append(row)
    for rows in groups.values():
        rows.sort(key=lambda r: (r.request_rate_req_s or 0.0, r.concurrency or 0))
    return groups


def sweep_figure(result: BenchResult) -> Figure | None:
    """None when no curve has two loads (nothing to sweep)."""
    groups = {k: v for k, v in curves(result).items() if len(v) >= 2}
    if not groups:
        return None
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10.0, 4.0), layout="constrained")
    axes = fig.subplots(1, 2)
    panels = (
        ("TTFT p50 (ms, per request)", lambda r: r.requests.ttft_s.p50),
        ("TPOT p50 (ms, per request)", lambda r: r.requests.tpot_s.p50),
    )
    for ax, (xlabel, pick) in zip(axes, panels, strict=True):
        for i, (label, rows) in enumerate(groups.items()):
            points = [(pick(r), r) for r in rows if pick(r) is not None]
            xs = [x * 1000 for x, _ in points]
            ys = [r.median.aggregate_output_tok_s for _, r in points]
            ax.plot(
                xs,
                ys,
                marker=MARKERS[i % len(MARKERS)],
                color=OKABE_ITO[i % len(OKABE_ITO)],
                label=label,
            )
            for x, (_, r) in zip(xs, points, strict=True):
                load = (
                    f"{r.request_rate_req_s:g}/s"
                    if r.request_rate_req_s is not None
                    else f"c={r.concurrency}"
                )
                ax.annotate(
                    load,
                    (x, r.median.aggregate_output_tok_s),
                    fontsize=8,
                    textcoords="offset points",
                    xytext=(4, 4),
                )
        _style(
            ax,
            f"aggregate throughput vs {xlabel.split(' ')[0]}",
            xlabel,
            "aggregate output tok/s (all streams)",
        )
    axes[0].legend(fontsize=8, frameon=False)
    model = result.model or "?"
    fig.suptitle(f"{model}: throughput vs latency ({result.run_id})", fontsize=11)
    return fig


def write_sweep(result: BenchResult, html_path: Path) -> Path | None:
    """Write HTML_PATH and a PNG beside it (same name, .png); returns the PNG path, or None
    when there is no sweep to draw."""
    if not available():
        raise ConfigError("--plot needs matplotlib: pip install 'agentbench[report]'")
    fig = sweep_figure(result)
    if fig is None:
        return None
    png = html_path.with_suffix(".png")
    fig.savefig(png, dpi=110, metadata={"Software": None})
    alt = "aggregate output tokens per second against TTFT and TPOT, one point per load"
    rows = "".join(
        f"<tr><td>{escape(r.scenario)}</td><td>{r.depth}</td><td>{escape(r.load_label)}</td>"
        f"<td>{_num(r.median.aggregate_output_tok_s)}</td><td>{_num(r.median.decode_tok_s)}</td>"
        f"<td>{_num(r.requests.ttft_s.p50, 1000)}</td><td>{_num(r.requests.tpot_s.p50, 1000)}"
        f"</td></tr>"
        for rs in curves(result).values()
        for r in rs
    )
    html_path.write_text(
        "<!doctype html><meta charset='utf-8'><title>agentbench bench sweep</title>"
        "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}"
        "td,th{padding:2px 10px;text-align:right}</style>"
        f"<h1>Throughput vs latency: {escape(result.model or '')}</h1>"
        f"<p>bench {escape(result.run_id)}; aggregate = all output tokens of a repetition / its "
        "wall time (median over repetitions); per-stream decode, TTFT and TPOT are medians over "
        "requests.</p>"
        + to_svg(fig, alt)
        + "<table><tr><th>scenario</th><th>depth</th><th>load</th><th>aggregate tok/s</th>"
        "<th>per-stream decode tok/s</th><th>TTFT p50 ms</th><th>TPOT p50 ms</th></tr>"
        + rows
        + "</table>"
    )
    return png


def _num(value: float | None, scale: float = 1.0) -> str:
    return "n/a" if value is None else f"{value * scale:.1f}"

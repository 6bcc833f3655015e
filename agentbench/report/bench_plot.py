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


def _load(row: BenchRow) -> str:
    if row.request_rate_req_s is not None:
        return f"{row.request_rate_req_s:g}/s"
    return f"c={row.concurrency}"


def curves(result: BenchResult) -> dict[str, list[tuple[str, BenchRow]]]:
    """(point label, row) per curve, in sweep order. A scenario swept over loads gives one curve
    per depth; one swept over depths only gives one curve per load, its points the depths."""
    by_scenario: dict[str, list[BenchRow]] = {}
    for row in result.results:
        if row.status == "ok" and row.median.aggregate_output_tok_s is not None:
            by_scenario.setdefault(row.scenario, []).append(row)
    out: dict[str, list[tuple[str, BenchRow]]] = {}
    for scenario, rows in by_scenario.items():
        over_loads = len({_load(r) for r in rows}) > 1
        for row in sorted(
            rows, key=lambda r: (r.request_rate_req_s or 0.0, r.concurrency or 0, r.depth)
        ):
            if over_loads:
                out.setdefault(f"{scenario} depth {row.depth}", []).append((_load(row), row))
            else:
                out.setdefault(f"{scenario} {_load(row)}", []).append((f"d={row.depth}", row))
    return out


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
            points = [(x, name, r) for name, r in rows if (x := pick(r)) is not None]
            xs = [x * 1000 for x, _, _ in points]
            ys = [r.median.aggregate_output_tok_s for _, _, r in points]
            marker, color = MARKERS[i % len(MARKERS)], OKABE_ITO[i % len(OKABE_ITO)]
            ax.plot(xs, ys, marker=marker, color=color, label=label)
            for x, y, (_, name, _) in zip(xs, ys, points, strict=True):
                ax.annotate(name, (x, y), fontsize=8, textcoords="offset points", xytext=(4, 4))
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
        for _, r in rs
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

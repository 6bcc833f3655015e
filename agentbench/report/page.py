"""The HTML page shell shared by the run report and the compare page: one self-contained file.

Inline CSS and a few lines of inline JS (table sorting); no external resource of any kind, so the
file opens offline. Every text that comes from a record goes through `esc` (tool outputs hold
`<` and `>`); callers build markup only from `esc`-aped pieces and these helpers.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from agentbench.figures import fmt

CSS = """
:root { --fg:#1b1b1b; --muted:#5a5a5a; --line:#d9d9d9; --bg:#ffffff; --card:#f6f7f9;
        --ok:#006b45; --bad:#a3320b; --accent:#0057a0; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: var(--fg); background: var(--bg); margin: 0; }
main { max-width: 1180px; margin: 0 auto; padding: 16px 20px 48px; }
h1 { font-size: 1.5rem; margin: 8px 0 2px; }
h2 { font-size: 1.2rem; margin: 28px 0 8px; border-bottom: 1px solid var(--line);
     padding-bottom: 4px; }
h3 { font-size: 1rem; margin: 16px 0 6px; }
h4 { font-size: .88rem; margin: 10px 0 2px; }
.nowrap { white-space: nowrap; }
.sub { color: var(--muted); margin: 0 0 12px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 10px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px;
        padding: 8px 12px; }
.card .k { color: var(--muted); font-size: .82rem; }
.card .v { font-size: 1.3rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.card .d { color: var(--muted); font-size: .8rem; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; font-size: .88rem; margin: 6px 0 12px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left;
         vertical-align: top; }
thead th { font-size: .8rem; }
tbody td:first-child { white-space: nowrap; }
caption { text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.n { white-space: nowrap; }
thead th { background: var(--card); position: sticky; top: 0; }
th.sortable { cursor: pointer; user-select: none; }
th.sortable::after { content: " \\2195"; color: var(--muted); font-size: .8em; }
th[aria-sort="ascending"]::after { content: " \\2191"; }
th[aria-sort="descending"]::after { content: " \\2193"; }
.wrap { overflow-x: auto; }
.ok { color: var(--ok); font-weight: 600; }
.bad { color: var(--bad); font-weight: 600; }
.muted { color: var(--muted); }
.resolved { color: var(--ok); font-weight: 600; }
.unresolved { color: var(--muted); font-style: italic; }
figure { margin: 12px 0 20px; }
figure svg { width: 100%; max-width: 860px; height: auto; display: block; }
figcaption { color: var(--muted); font-size: .85rem; margin-top: 4px; max-width: 860px; }
details { border: 1px solid var(--line); border-radius: 5px; margin: 6px 0; padding: 2px 10px; }
details > summary { cursor: pointer; padding: 4px 0; }
details[open] > summary { border-bottom: 1px solid var(--line); margin-bottom: 6px; }
details.step { background: #fbfbfc; }
pre { white-space: pre-wrap; word-break: break-word; background: #f3f3f3; padding: 6px 8px;
      border-radius: 4px; font-size: .82rem; max-height: 24em; overflow: auto; margin: 4px 0; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0;
        font-size: .88rem; }
dl.kv dt { color: var(--muted); }
dl.kv dd { margin: 0; font-variant-numeric: tabular-nums; }
.note { color: var(--muted); font-size: .85rem; }
footer { margin-top: 36px; color: var(--muted); font-size: .82rem; }
@media (max-width: 700px) { body { font-size: 14px; } main { padding: 10px; } }
"""

# Sorting: numeric when the cell carries data-v (missing figures sort last), else text.
JS = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.querySelectorAll("thead th");
  heads.forEach(function (th, col) {
    th.classList.add("sortable");
    th.setAttribute("tabindex", "0");
    function sort() {
      var asc = th.getAttribute("aria-sort") !== "ascending";
      heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col], y = b.cells[col];
        var xv = x.getAttribute("data-v"), yv = y.getAttribute("data-v");
        var r;
        if (xv !== null || yv !== null) {
          var xn = xv === null || xv === "" ? NaN : parseFloat(xv);
          var yn = yv === null || yv === "" ? NaN : parseFloat(yv);
          if (isNaN(xn) && isNaN(yn)) { r = 0; }
          else if (isNaN(xn)) { return 1; }
          else if (isNaN(yn)) { return -1; }
          else { r = xn - yn; }
        } else {
          r = x.textContent.localeCompare(y.textContent);
        }
        return asc ? r : -r;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); }
    });
  });
});
function openHash() {
  var id = decodeURIComponent(location.hash.slice(1));
  var el = id ? document.getElementById(id) : null;
  if (el && el.tagName === "DETAILS") { el.open = true; el.scrollIntoView(); }
}
window.addEventListener("hashchange", openHash);
openHash();
"""


def esc(value: object) -> str:
    """Text for HTML: None is shown as n/a (a missing figure is never 0)."""
    return "n/a" if value is None else html.escape(str(value), quote=True)


def fmt_ci(ci: Sequence[float] | None, spec: str = ".0%") -> str:
    return f"[{ci[0]:{spec}}, {ci[1]:{spec}}]" if ci else ""


def card(key: str, value: str, detail: str = "") -> str:
    """A summary card; `value` and `detail` are markup the caller already escaped."""
    return (
        f'<div class="card"><div class="k">{esc(key)}</div><div class="v">{value}</div>'
        f'<div class="d">{detail}</div></div>'
    )


def num_cell(value: float | int | None, spec: str = ".2f", unit: str = "") -> str:
    """A numeric cell; data-v lets the sorter order by value, not by text."""
    v = "" if value is None else repr(float(value))
    return f'<td class="n" data-v="{v}">{fmt(value, spec, unit)}</td>'


def table(
    headers: Sequence[tuple[str, bool]],
    rows: Iterable[str],
    *,
    sortable: bool = False,
    caption: str = "",
    table_id: str = "",
) -> str:
    """headers: (text, numeric); rows: ready `<tr>` markup."""
    cls = ' class="sortable"' if sortable else ""
    ident = f' id="{esc(table_id)}"' if table_id else ""
    head = "".join(
        f'<th scope="col"{" class=n" if num else ""}>{esc(h)}</th>' for h, num in headers
    )
    cap = f'<caption class="note">{esc(caption)}</caption>' if caption else ""
    return (
        f'<div class="wrap"><table{cls}{ident}>{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def kv(pairs: Iterable[tuple[str, str]]) -> str:
    """A definition list; values are markup the caller already escaped."""
    return '<dl class="kv">' + "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in pairs) + "</dl>"


def figure(svg: str | None, caption: str, fig_id: str) -> str:
    if svg is None:
        return ""
    return (
        f'<figure class="plot" id="{esc(fig_id)}">{svg}'
        f"<figcaption>{esc(caption)}</figcaption></figure>"
    )


def page(title: str, body: str, *, generator: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{CSS}</style></head>"
        f"<body><main>{body}<footer>{esc(generator)}</footer></main>"
        f"<script>{JS}</script></body></html>\n"
    )

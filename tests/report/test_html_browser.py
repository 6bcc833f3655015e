"""The HTML report of a real run, opened in headless Chromium: it renders, its scripts run
without a console message, its plots and tables are in the rendered DOM, sorting and episode
links work, and a screenshot is saved.

Needs /usr/bin/chromium (Debian: `apt-get install -y chromium chromium-driver`); skipped without.
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
from pathlib import Path

import pytest

from agentbench.report.episodes import anchor

from .runs import cli, load

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium"),
]

# Clicks the tasks table's "success" header twice (ascending, then descending) and writes what
# the rows look like after each click where --dump-dom can read it.
PROBE = """<script>
(function () {
  var table = document.getElementById("tasks");
  var th = table.querySelectorAll("thead th")[4];
  function column() {
    return Array.prototype.map.call(table.tBodies[0].rows, function (r) {
      return r.cells[4].getAttribute("data-v");
    });
  }
  th.click(); var asc = column();
  th.click(); var desc = column();
  var out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({asc: asc, desc: desc, sort: th.getAttribute("aria-sort")});
  document.body.appendChild(out);
})();
</script>"""


def chromium(url: str, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
         *extra, url],
        capture_output=True, text=True, timeout=180, check=False,
    )


def console(stderr: str) -> list[str]:
    """Console messages (errors, uncaught exceptions, failed loads) Chromium logged."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


def test_report_renders_in_chromium(stored_runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    page = tmp_path / "report.html"
    result = cli("report", stored_runs.noisy, "--db", str(stored_runs.db), "--html", str(page))
    assert result.exit_code == 0, result.output
    _, episodes = load(stored_runs.db, stored_runs.noisy)

    # The console check catches what it should: a page with an error is reported.
    broken = tmp_path / "broken.html"
    broken.write_text("<!DOCTYPE html><script>undefinedFunction();</script>")
    assert any("undefinedFunction" in line
               for line in console(chromium(broken.as_uri(), tmp_path / "p0",
                                            "--dump-dom").stderr))

    dom_run = chromium(page.as_uri(), tmp_path / "p1", "--dump-dom")
    assert dom_run.returncode == 0, dom_run.stderr[-2000:]
    assert console(dom_run.stderr) == [], console(dom_run.stderr)
    dom = dom_run.stdout
    assert len(re.findall(r"<svg\b", dom)) == 4
    for fig in ("plot-score", "plot-thinking", "plot-time", "plot-decode"):
        assert f'id="{fig}"' in dom
    for tbl in ("categories", "tasks"):
        assert f'<table class="sortable" id="{tbl}">' in dom or f'id="{tbl}"' in dom
    assert dom.count('class="episode"') == len(episodes)
    # The sorter ran: every header of the sortable table became a focusable button.
    tasks_table = dom[dom.index('id="tasks"'):]
    tasks_table = tasks_table[: tasks_table.index("</table>")]
    assert tasks_table.count('tabindex="0"') == 12

    # Sorting works in the browser, numerically, both ways.
    probed = tmp_path / "probed.html"
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"))
    probe_run = chromium(probed.as_uri(), tmp_path / "p2", "--dump-dom")
    assert console(probe_run.stderr) == []
    found = re.search(r'<pre id="probe">(.*?)</pre>', probe_run.stdout)
    assert found, "the probe script did not run"
    probe = json.loads(found.group(1).replace("&quot;", '"'))
    values = [float(v) for v in probe["asc"]]
    assert values == sorted(values) and len(values) == len({e.task_id for e in episodes})
    assert [float(v) for v in probe["desc"]] == sorted(values, reverse=True)
    assert probe["sort"] == "descending"

    # A link to an episode opens it.
    target = anchor(episodes[0].task_id, episodes[0].repeat)
    opened = chromium(page.as_uri() + "#" + target, tmp_path / "p3", "--dump-dom").stdout
    assert re.search(rf'<details class="episode" id="{target}" open=""', opened)

    shot = tmp_path / "report.png"
    shot_run = chromium(page.as_uri(), tmp_path / "p4", f"--screenshot={shot}",
                        "--window-size=1280,2400", "--hide-scrollbars")
    assert console(shot_run.stderr) == []
    assert png_size(shot) == (1280, 2400)
    assert shot.stat().st_size > 50_000, "a rendered report, not a blank page"
    print(f"screenshot saved: {shot}")

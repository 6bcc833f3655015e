"""`agentbench bench` and `agentbench bench compare` through the real CLI app."""

from __future__ import annotations

import csv
import json

from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.refserver.schedule import Schedule
from agentbench.store import ResultStore

RESULT_KEYS = {
    "scenario",
    "prompt_tokens",
    "max_tokens",
    "depth",
    "concurrency",
    "runs",
    "median",
    "spread",
}
FIGURE_KEYS = {"ttft_s", "decode_tok_s", "prefill_tok_s", "output_tokens", "server_decode_tok_s"}


def _bench(url: str, tmp_path, name: str, *extra: str):
    args = [
        "bench",
        "--base-url",
        url,
        "--model",
        "echo",
        "--skip-gate",
        "--pp",
        "40",
        "--tg",
        "20",
        "--runs",
        "3",
        "--json",
        str(tmp_path / f"{name}.json"),
        "--csv",
        str(tmp_path / f"{name}.csv"),
        "--db",
        str(tmp_path / "bench.db"),
        "--quiet",
        *extra,
    ]
    return CliRunner().invoke(app, args, env={"COLUMNS": "160"})


def test_bench_writes_the_json_contract_csv_and_store(refserver_factory, tmp_path) -> None:
    # 400 tok/s: paced by the reference server even on a busy host (2000 tok/s comes in bursts).
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=400.0))
    result = _bench(server.base_url, tmp_path, "a", "--concurrency", "1,2")
    assert result.exit_code == 0, result.output
    assert "decode tok/s" in result.output and "pp40_tg20" in result.output
    data = json.loads((tmp_path / "a.json").read_text())
    assert {"server", "model", "results"} <= set(data)
    assert data["model"] == "echo" and data["server"]["kind"] == "refserver"
    assert [c["concurrency"] for c in data["results"]] == [1, 2]
    for cell in data["results"]:
        assert set(cell) >= RESULT_KEYS
        assert set(cell["median"]) >= FIGURE_KEYS and set(cell["spread"]) >= FIGURE_KEYS
        assert len(cell["runs"]) == 3
        for run in cell["runs"]:
            assert set(run) >= FIGURE_KEYS
            assert run["server_decode_tok_s"] is None
    assert {"unit", "method"} <= set(data["figures"]["decode_tok_s"])
    assert data["schema_version"] == 1 and {"tpot_s", "itl_s"} <= set(data["figures"])
    for cell in data["results"]:
        for figure in ("ttft_s", "tpot_s", "itl_s", "e2e_latency_s", "decode_tok_s"):
            p = cell["requests"][figure]
            assert p["n"] > 0 and p["p50"] <= p["p90"] <= p["p99"], figure
        for run in cell["runs"]:
            for stream in run["streams"]:  # per-request ITL distribution in the JSON
                assert len(stream["itl_s"]) == stream["output_tokens"] - 1
    assert "p50 / p90 / p99" in result.output
    rows = list(csv.DictReader((tmp_path / "a.csv").open()))
    assert [r["row"] for r in rows[:5]] == ["run1", "run2", "run3", "median", "spread"]
    assert rows[0]["server_decode_tok_s"] == ""  # null, not 0
    with ResultStore(tmp_path / "bench.db") as store:
        (record,) = store.runs(kind="bench")
        assert record.status == "complete" and record.server.kind == "refserver"
        stored = store.bench_results(record.run_id)
    assert stored == data["results"]


def test_compare_files_and_stored_runs(refserver_factory, tmp_path) -> None:
    slow = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=200.0))
    fast = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=400.0))
    assert _bench(slow.base_url, tmp_path, "slow").exit_code == 0
    assert _bench(fast.base_url, tmp_path, "fast").exit_code == 0
    runner = CliRunner()
    out = tmp_path / "cmp.json"
    result = runner.invoke(
        app,
        [
            "bench",
            "compare",
            str(tmp_path / "slow.json"),
            str(tmp_path / "fast.json"),
            "--json",
            str(out),
        ],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text())["rows"]
    decode = next(r for r in rows if r["metric"] == "decode_tok_s")
    assert decode["verdict"] == "resolved" and 1.8 < decode["ratio"] < 2.2
    with ResultStore(tmp_path / "bench.db") as store:
        slow_id, fast_id = (r.run_id for r in store.runs(kind="bench"))
    db = str(tmp_path / "bench.db")
    same = runner.invoke(
        app, ["bench", "compare", slow_id, slow_id, "--db", db], env={"COLUMNS": "200"}
    )
    assert same.exit_code == 0, same.output
    verdicts = [line for line in same.output.splitlines() if "_s (" in line]
    assert len(verdicts) == 4 and all("unresolved at this sample size" in v for v in verdicts)
    stored = runner.invoke(
        app, ["bench", "compare", slow_id, fast_id, "--db", db, "--json", str(out)]
    )
    assert stored.exit_code == 0, stored.output
    rows = json.loads(out.read_text())["rows"]
    assert next(r for r in rows if r["metric"] == "decode_tok_s")["verdict"] == "resolved"


def test_gate_failure_exits_1_with_no_figures(refserver, tmp_path) -> None:
    args = [
        "bench",
        "--base-url",
        refserver.base_url,
        "--model",
        "echo",
        "--pp",
        "40",
        "--tg",
        "20",
        "--json",
        str(tmp_path / "g.json"),
        "--db",
        str(tmp_path / "g.db"),
    ]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "160"})
    assert result.exit_code == 1
    assert "failed the coherence gate" in result.output
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["results"] == [] and data["gate"]["passed"] is False
    assert data["status"] == "gate_failed"


def test_usage_errors(tmp_path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "bench",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "x",
            "--depth",
            "abc",
            "--db",
            str(tmp_path / "u.db"),
        ],
    )
    assert result.exit_code == 2
    result = runner.invoke(
        app,
        [
            "bench",
            "--scenario",
            "nope",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "x",
            "--db",
            str(tmp_path / "u.db"),
        ],
    )
    assert result.exit_code != 0 and "unknown" in str(result.exception)


def test_depth_and_prefix_cache_mode_through_the_cli(refserver, tmp_path) -> None:
    result = _bench(
        refserver.base_url,
        tmp_path,
        "d",
        "--depth",
        "0",
        "--depth",
        "30",
        "--measure-prefix-cache",
        "--runs",
        "2",
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "d.json").read_text())
    assert [c["depth"] for c in data["results"]] == [0, 30]
    assert data["config"]["measure_prefix_cache"] is True
    shallow, deep = data["results"]
    assert all(r["nonces"] == [] for r in shallow["runs"])  # no nonce: the cache may serve
    # depth adds the earlier turn's tokens (30 + reply + template) to what the server processed
    assert deep["runs"][0]["prompt_tokens"] > shallow["runs"][0]["prompt_tokens"] + 30


def test_no_server_means_the_bench_cannot_be_done(tmp_path) -> None:
    from agentbench.errors import BackendError

    args = [
        "bench",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "x",
        "--skip-gate",
        "--pp",
        "20",
        "--tg",
        "5",
        "--db",
        str(tmp_path / "n.db"),
        "--request-timeout",
        "5",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    assert isinstance(result.exception, BackendError)  # main() prints it as one line
    assert result.exception.kind == "connection_refused"


def test_sweep_writes_a_plot_and_rate_mode_takes_slos(refserver_factory, tmp_path) -> None:
    server = refserver_factory(Schedule(ttft_s=0.01, rate_tok_s=400.0))
    plot = tmp_path / "sweep.html"
    result = _bench(server.base_url, tmp_path, "s", "--concurrency", "1,2,4", "--plot", str(plot))
    assert result.exit_code == 0, result.output
    assert plot.read_text().count("<svg") == 1 and "aggregate tok/s" in plot.read_text()
    assert plot.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rate = _bench(
        server.base_url,
        tmp_path,
        "r",
        "--request-rate",
        "10,20",
        "--num-requests",
        "4",
        "--arrival",
        "constant",
        "--slo",
        "ttft=500ms,tpot=0.5s",
    )
    assert rate.exit_code == 0, rate.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert [r["request_rate_req_s"] for r in data["results"]] == [10.0, 20.0]
    assert all(r["concurrency"] is None and r["arrival"] == "constant" for r in data["results"])
    assert data["results"][0]["goodput"]["slo"] == {
        "ttft_s": 0.5,
        "tpot_s": 0.5,
        "e2e_latency_s": None,
    }
    assert "goodput req/s" in rate.output


def test_bad_slo_and_rate_are_one_line_usage_errors(refserver, tmp_path) -> None:
    bad = _bench(refserver.base_url, tmp_path, "x", "--slo", "latency=3")
    assert bad.exit_code == 2 and "use ttft, tpot or e2e" in bad.output
    assert "Traceback" not in bad.output
    bad = _bench(refserver.base_url, tmp_path, "x", "--request-rate", "-1")
    assert bad.exit_code == 2 and "must be above 0" in bad.output

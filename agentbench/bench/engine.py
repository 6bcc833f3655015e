"""The bench procedure: describe the server, pass the gate, then per scenario × depth ×
concurrency a warm-up (not counted) and R measured repetitions.

A scenario that does not fit the server's context (known max_context, or an HTTP 400
context_length answer) is reported as such and the others go on. A failed gate ends the bench
with no throughput figures at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentbench.backends.base import Backend
from agentbench.bench.gate import FATAL, GateResult, run_gate
from agentbench.bench.measure import ContextTooSmall, ForceOutput, measure_run
from agentbench.bench.prompts import PromptBuilder
from agentbench.bench.results import summarize_runs
from agentbench.bench.scenarios import Scenario
from agentbench.errors import BackendError
from agentbench.records import ServerInfo

# Chat-template and turn overhead we allow for when checking a known max_context up front.
TEMPLATE_ALLOWANCE = 64


@dataclass
class BenchConfig:
    scenarios: list[Scenario]
    depths: list[int] = field(default_factory=lambda: [0])
    concurrencies: list[int] = field(default_factory=lambda: [1])
    runs: int = 3
    warmup: int = 1
    skip_gate: bool = False
    measure_prefix_cache: bool = False
    force_output: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenarios": [s.name for s in self.scenarios],
            "depths": self.depths,
            "concurrencies": self.concurrencies,
            "runs": self.runs,
            "warmup": self.warmup,
            "skip_gate": self.skip_gate,
            "measure_prefix_cache": self.measure_prefix_cache,
            "force_output": self.force_output,
        }


@dataclass
class BenchOutcome:
    server: ServerInfo
    gate: GateResult
    results: list[dict[str, Any]]
    force_rejected: str | None = None
    prompt_counting: str = "none"


Progress = Callable[[str, dict[str, Any]], None]  # (event, cell): "start" | "run" | "done"


def _quiet(event: str, cell: dict[str, Any]) -> None:
    return None


def new_cell(s: Scenario, depth: int, concurrency: int) -> dict[str, Any]:
    return {
        "scenario": s.name,
        "prompt_tokens": s.prompt_tokens,
        "max_tokens": s.max_tokens,
        "depth": depth,
        "concurrency": concurrency,
        "runs": [],
        "median": {},
        "spread": {},
        "min": {},
        "max": {},
        "n_runs": 0,
        "status": "ok",
        "message": None,
        "prompt_tokens_counted": None,
        "prompt_tokens_method": None,
    }


def too_small_message(
    s: Scenario, depth: int, need: int, max_context: int | None, server_said: str | None = None
) -> str:
    shape = f"{s.prompt_tokens} prompt + {s.max_tokens} output"
    if depth:
        shape = f"{depth} context + " + shape
    if server_said:
        return (
            f"{s.name}: the server's context is too small for {shape} tokens; it answered: "
            f"{server_said[:160]}"
        )
    return (
        f"{s.name}: needs about {need} tokens ({shape} + template), more than the server's "
        f"max context of {max_context}; skipped"
    )


async def run_cell(
    backend: Backend,
    builder: PromptBuilder,
    cell: dict[str, Any],
    scenario: Scenario,
    config: BenchConfig,
    force: ForceOutput,
    progress: Progress,
) -> None:
    depth, concurrency = cell["depth"], cell["concurrency"]
    counted: list[int] = []
    for index in range(config.warmup + config.runs):
        prompts = [await builder.build(scenario, depth) for _ in range(concurrency)]
        counted += [p.prompt_tokens for p in prompts]
        cell["prompt_tokens_method"] = prompts[0].method
        run = await measure_run(backend, prompts, scenario, force)
        if index < config.warmup:
            continue
        run["run"] = index - config.warmup + 1
        cell["runs"].append(run)
        progress("run", cell)
    cell["prompt_tokens_counted"] = sorted(set(counted))


def flag_client_lag(cell: dict[str, Any], share: float = 0.05) -> None:
    """Mark a row whose client event loop lagged by more than `share` of the decode window:
    its chunks may have been read late and bunched, so TTFT and decode figures are limited by
    this machine, not the server's."""
    lags = [r["client_loop_lag_max_s"] for r in cell["runs"] if r.get("client_loop_lag_max_s")]
    cell["client_loop_lag_max_s"] = max(lags) if lags else None
    windows = [
        r["duration_s"] - r["ttft_s"]
        for r in cell["runs"]
        if r.get("duration_s") is not None and r.get("ttft_s") is not None
    ]
    window = min(windows) if windows else None
    cell["client_limited"] = bool(lags and window is not None and max(lags) > share * window)
    if cell["client_limited"]:
        cell["message"] = (
            f"{cell['scenario']} (depth {cell['depth']}, concurrency {cell['concurrency']}): "
            "this client's event loop "
            f"lagged up to {max(lags) * 1000:.0f} ms during a {window * 1000:.0f} ms decode: "
            "chunks may have been read late and bunched, so TTFT and decode figures here are "
            "limited by the client machine (see benchmarks/README.md)"
        )


async def run_bench(
    backend: Backend, config: BenchConfig, progress: Progress = _quiet
) -> BenchOutcome:
    server = await backend.server_info()
    gate = GateResult(passed=True, skipped=True) if config.skip_gate else await run_gate(backend)
    outcome = BenchOutcome(server, gate, [])
    if not gate.passed:
        return outcome
    builder = PromptBuilder(backend.count_tokens, measure_prefix_cache=config.measure_prefix_cache)
    force = ForceOutput(enabled=config.force_output and "api.openai.com" not in backend.base_url)
    for scenario in config.scenarios:
        for depth in config.depths:
            for concurrency in config.concurrencies:
                cell = new_cell(scenario, depth, concurrency)
                outcome.results.append(cell)
                progress("start", cell)
                need = scenario.context_needed(depth, TEMPLATE_ALLOWANCE)
                if server.max_context and need > server.max_context:
                    cell["status"] = "context_too_small"
                    cell["message"] = too_small_message(scenario, depth, need, server.max_context)
                else:
                    try:
                        await run_cell(backend, builder, cell, scenario, config, force, progress)
                    except ContextTooSmall as exc:
                        cell["status"] = "context_too_small"
                        cell["message"] = too_small_message(scenario, depth, need, None, str(exc))
                    except BackendError as exc:
                        if exc.kind in FATAL:
                            raise  # no server to measure: the bench cannot be done
                        cell["status"] = f"error:{exc.kind}"
                        cell["message"] = f"{scenario.name}: {exc}"
                summary = summarize_runs(cell["runs"])
                cell.update(
                    median=summary["median"],
                    spread=summary["spread"],
                    min=summary["min"],
                    max=summary["max"],
                    n=summary["n"],
                    n_runs=len(cell["runs"]),
                )
                flag_client_lag(cell)
                if cell["status"] == "ok" and not cell["runs"]:
                    cell["status"] = "no_runs"
                progress("done", cell)
    outcome.force_rejected = force.rejected
    outcome.prompt_counting = builder.cutter.method
    return outcome

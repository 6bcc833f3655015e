"""llama.cpp's own server (llama-server) behind the embedded profiles, with real models.

Needs the llama-server build (scripts/setup_llama_server.sh) and the weights extras (`embedded`
for SmolLM2, `qwen` for Qwen2.5-Coder); skipped, saying which, when they are absent. Model
accuracy is not asserted; what is: the server starts and stops with the profile, real tool calls
are read (by the server or from the text, and said which), the drafter's counters are recorded
per step and pooled per category, and no request carries a null message content.
"""

import json
import socket
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from agentbench.agent.toolcall_text import apply_text_calls
from agentbench.backends.base import ChatRequest
from agentbench.backends.openai_compat import OpenAICompatBackend
from agentbench.cli.main import app
from agentbench.local.embedded import EmbeddedServer, Launch
from agentbench.local.llama_build import server_binary
from agentbench.local.weights import installed_problem
from agentbench.records import StepRecord
from agentbench.runner import RunConfig, Runner
from agentbench.store import ResultStore
from router import LOCAL, build_policy

from ..conftest import TASKS_DIR
from .cli import RUN_COMMAND

pytestmark = pytest.mark.llama_server
TASK = "ops-crashloop-oomkilled"


def need(*models: str) -> None:
    if not server_binary().exists():
        pytest.skip("llama-server is not built (bash scripts/setup_llama_server.sh)")
    for key in models:
        if problem := installed_problem(key):
            pytest.skip(problem)


def closed(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def test_embedded_profile_starts_llama_server_and_stops_it(tmp_path) -> None:
    need("smollm2-135m")
    out = tmp_path / "e.json"
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(TASKS_DIR),
            "--local",
            "embedded",
            "--task",
            TASK,
            "--max-steps",
            "2",
            "--max-tokens",
            "48",
            "--db",
            str(tmp_path / "e.db"),
            "--json",
            str(out),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    server = data["server"]
    assert server["kind"] == "llama.cpp" and server["max_context"] == 8192
    assert server["extra"]["launched"]["engine"] == "llama-server"
    assert server["spec_decode_seen"] is False
    (episode,) = data["episodes"]
    assert 0.0 <= episode["score"] <= 1.0
    for step in episode["steps"]:
        assert step["tokens_method"] == "usage"  # llama-server sends usage in its stream
        timings = step["server_counters"]["timings"]
        assert timings["predicted_n"] == step["output_tokens"]
        assert 0 < step["ttft_byte_s"] <= step["ttft_s"] <= step["duration_s"]
        if step["output_tokens"] >= 2:
            assert 1.0 < step["server_decode_tok_s"] < 5000.0
    assert closed(int(server["base_url"].rsplit(":", 1)[1].split("/")[0]))


async def test_a_real_models_call_is_read_by_the_server_or_from_its_text() -> None:
    """llama-server (0c1e570, --jinja) leaves Qwen2.5-Coder's fenced-JSON calls as text, even
    with tool_choice "required": the agent reads them and says so (text_parsed)."""
    need("qwen2.5-coder-0.5b")
    with EmbeddedServer(Launch("qwen2.5-coder-0.5b")) as server:
        backend = OpenAICompatBackend(server.base_url, server.alias)
        try:
            completion = await backend.complete(
                ChatRequest(
                    messages=[{"role": "user", "content": "List the pods in namespace web."}],
                    tools=[RUN_COMMAND],
                    tool_choice="required",
                    max_tokens=64,
                )
            )
            tokens, method = await backend.count_tokens("kubectl get pods -n web")
        finally:
            await backend.aclose()
    step = StepRecord(**completion.model_dump(), index=0, t_start_s=0.0)
    apply_text_calls(step)
    assert step.tool_calls, completion.content  # the 0.5B's tool name is its own business
    call = step.tool_calls[0]
    assert call.name and isinstance(call.parsed, dict), call
    assert step.tool_call_method == (None if completion.tool_calls else "text_parsed")
    assert method == "server_tokenizer" and 3 <= tokens <= 20  # /tokenize, not an estimate


@pytest.mark.timeout(1800)  # ~1 minute on 2 free cores; far more on a shared, loaded machine
async def test_qwen_with_drafter_calls_tools_records_drafting_and_never_sends_null(
    suite, tmp_path
) -> None:
    need("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b")
    bodies: list[dict[str, Any]] = []

    async def keep(request: httpx.Request) -> None:
        if request.url.path.endswith("/chat/completions"):
            bodies.append(json.loads(request.content))

    launch = Launch("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b", draft_depth=3)
    with EmbeddedServer(launch) as server:
        client = httpx.AsyncClient(timeout=1200, event_hooks={"request": [keep]})
        backend = OpenAICompatBackend(server.base_url, server.alias, client=client)
        config = RunConfig(
            target="local:embedded-qwen",
            model=server.alias,
            base_url=server.base_url,
            max_tokens=64,
            max_steps=2,
            task_ids=[TASK],
        )
        with ResultStore(tmp_path / "q.db") as store:
            runner = Runner(
                suite.select([TASK], None),
                {LOCAL: backend},
                build_policy("always-local"),
                config,
                store,
            )
            run = await runner.execute(runner.start(await backend.server_info()))
            (episode,) = store.episodes(run.run_id)
        await client.aclose()
    first = episode.steps[0]
    assert first.tool_calls and first.tool_calls[0].name == "run_command"
    assert first.tool_call_method in ("native", "text_parsed")
    for step in episode.steps:
        timings = step.server_counters["timings"]
        assert 0 <= timings["draft_n_accepted"] <= timings["draft_n"]
    assert sum(s.server_counters["timings"]["draft_n"] for s in episode.steps) > 0
    assert episode.spec_decode and 0.0 <= episode.spec_decode["acceptance_rate"] <= 1.0
    assert run.summary and "ops-diagnosis" in run.summary["spec_decode"]["by_category"]
    assert len(episode.steps) == 2
    # one request a step, plus any the HTTP layer retried (recorded on the step)
    retried = sum(s.retries for s in episode.steps)
    assert len(bodies) == 2 + retried, [(s.retries, s.retry_errors) for s in episode.steps]
    sent = [m for body in bodies for m in body["messages"]]
    assert all(m.get("content") is not None for m in sent)
    assert any(m["role"] == "assistant" and m.get("tool_calls") for m in sent)


def test_bench_on_the_embedded_server_passes_the_gate_and_measures(tmp_path) -> None:
    need("smollm2-135m")
    out = tmp_path / "b.json"
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "--local",
            "embedded",
            "--pp",
            "64",
            "--tg",
            "32",
            "--runs",
            "2",
            "--json",
            str(out),
            "--db",
            str(tmp_path / "b.db"),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["gate"]["passed"] is True
    (row,) = data["results"]
    assert row["status"] == "ok" and len(row["runs"]) == 2
    for run in row["runs"]:
        assert 1.0 < run["decode_tok_s"] < 5000.0 and run["ttft_s"] > 0


def _llama_servers_of(parent_pid: int) -> list[int]:
    """PIDs of llama-server processes whose parent is `parent_pid` (Linux /proc)."""
    from pathlib import Path

    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line
            )
        except OSError:
            continue
        if fields.get("Name", "").strip() == "llama-server" and int(fields["PPid"]) == parent_pid:
            found.append(int(status.parent.name))
    return found


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_stopping_an_embedded_run_leaves_no_llama_server(how: str, tmp_path) -> None:
    """`agentbench run --local embedded` stopped by SIGTERM (stored as interrupted, exit 143) or
    killed outright: either way its llama-server is gone within seconds."""
    import signal
    import subprocess
    import sys
    import time

    need("smollm2-135m")
    db = tmp_path / "r.db"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "run",
            str(TASKS_DIR),
            "--local",
            "embedded",
            "--db",
            str(db),
            "--quiet",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 240
    servers: list[int] = []
    while time.monotonic() < deadline and not servers and proc.poll() is None:
        time.sleep(0.5)
        servers = _llama_servers_of(proc.pid)
    assert servers, "agentbench never started its llama-server"
    time.sleep(3)  # let a request be in flight
    proc.send_signal(getattr(signal, how))
    code = proc.wait(timeout=60)
    stop = time.monotonic() + 20
    while time.monotonic() < stop and any(_alive(p) for p in servers):
        time.sleep(0.5)
    assert not any(_alive(p) for p in servers), f"llama-server {servers} outlived agentbench"
    if how == "SIGTERM":
        assert code == 143, proc.stderr.read().decode()
        with ResultStore(db) as store:
            assert store.run(store.resolve("latest")).status == "interrupted"
    else:
        assert code == -signal.SIGKILL

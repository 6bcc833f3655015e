"""How an embedded profile becomes a llama-server command line (no server started here)."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from agentbench.cli.main import app
from agentbench.errors import ConfigError
from agentbench.local.embedded import EmbeddedServer, Launch, launch_for, machine_threads
from agentbench.local.profiles import load_profiles

from ..conftest import TASKS_DIR


def test_profiles_launch_llama_server_with_their_weights_and_drafter() -> None:
    profiles = load_profiles()
    qwen = launch_for(profiles["embedded-qwen"], "embedded-qwen")
    assert qwen == Launch("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b", 3, 8192)
    assert launch_for(profiles["embedded-qwen"], "embedded-qwen", 7).draft_depth == 7
    assert launch_for(profiles["embedded-qwen"], "embedded-qwen", 0).draft_weights is None
    assert launch_for(profiles["embedded"], "embedded").weights == "smollm2-135m"
    with pytest.raises(ConfigError, match="has no draft model"):
        launch_for(profiles["embedded-qwen-0.5b"], "embedded-qwen-0.5b", 3)


def test_the_command_line(monkeypatch) -> None:
    monkeypatch.setattr("agentbench.local.embedded.model_path", lambda key, env=None: Path(key))
    server = EmbeddedServer(Launch("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b", 5), port=4321)
    command = server.command(Path("/bin/llama-server"))
    assert command[:3] == ["/bin/llama-server", "-m", "qwen2.5-coder-1.5b"]
    for flag, value in (
        ("-a", "qwen2.5-coder-1.5b"),
        ("--host", "127.0.0.1"),
        ("--port", "4321"),
        ("-c", "8192"),
        ("-np", "1"),
        ("-t", str(machine_threads())),
        ("-md", "qwen2.5-coder-0.5b"),
        ("--spec-type", "draft-simple"),
        ("--spec-draft-n-max", "5"),
    ):
        assert command[command.index(flag) + 1] == value
    assert "--jinja" in command and "--metrics" in command
    alone = EmbeddedServer(Launch("qwen2.5-coder-0.5b"), port=4321).command(Path("s"))
    assert "-md" not in alone and "--spec-type" not in alone


def test_slots_follow_the_concurrency_and_each_keeps_the_full_context(monkeypatch) -> None:
    monkeypatch.setattr("agentbench.local.embedded.model_path", lambda key, env=None: Path(key))
    launch = launch_for(load_profiles()["embedded-qwen"], "embedded-qwen", slots=4)
    command = EmbeddedServer(launch, port=1).command(Path("s"))
    assert command[command.index("-np") + 1] == "4"
    assert command[command.index("-c") + 1] == str(4 * launch.n_ctx)  # n_ctx per slot
    assert launch.describe()["slots"] == 4


def test_serve_refuses_a_profile_it_does_not_start() -> None:
    result = CliRunner().invoke(app, ["serve", "--local", "nemotron"])
    assert isinstance(result.exception, ConfigError)  # main() prints it in one line, exit 1
    assert "not an embedded profile" in str(result.exception)


def test_run_draft_depth_needs_a_profile_with_a_drafter(tmp_path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(TASKS_DIR),
            "--local",
            "embedded-qwen-0.5b",
            "--draft-depth",
            "5",
            "--db",
            str(tmp_path / "x.db"),
        ],
    )
    assert isinstance(result.exception, ConfigError)
    assert "has no draft model" in str(result.exception)


def test_bench_draft_depth_needs_a_profile_with_a_drafter(tmp_path) -> None:
    result = CliRunner().invoke(
        app,
        ["bench", "--local", "embedded", "--draft-depth", "7", "--db", str(tmp_path / "x.db")],
    )
    assert isinstance(result.exception, ConfigError)
    assert "has no draft model" in str(result.exception)

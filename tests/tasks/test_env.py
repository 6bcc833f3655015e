from agentbench.tasks.env import SimulatedEnvironment
from agentbench.tasks.model import Task


def make_task(**env) -> Task:
    return Task.model_validate(
        {
            "id": "t-env",
            "category": "ops-diagnosis",
            "difficulty": "easy",
            "description": "d",
            "prompt": "p",
            "tools": ["run_command"],
            "environment": env,
            "expect": {"end_state": {"fixed": True}},
            "reference": [{"answer": "x"}],
            "wrong": [{"name": "w", "steps": [{"answer": "y"}]}],
        }
    )


def env_for(suite, **env) -> SimulatedEnvironment:
    return SimulatedEnvironment(make_task(**env), suite.tools, suite.grammar)


def test_rule_matches_equivalent_command_and_sets_state(suite) -> None:
    env = env_for(
        suite,
        state={"fixed": False},
        rules=[
            {
                "tool": "run_command",
                "args": {"cmd": "kubectl rollout restart deploy/nginx -n web"},
                "output": "deployment.apps/nginx restarted",
                "set": {"fixed": True},
            },
        ],
    )
    result = env.execute("run_command", '{"cmd": "kubectl -n web rollout restart deploy/nginx"}')
    assert result.ok and result.kind == "ok" and result.exit_code == 0
    assert env.state == {"fixed": True}


def test_when_conditions_choose_between_rules(suite) -> None:
    rules = [
        {
            "tool": "run_command",
            "args": {"cmd": "systemctl status nginx"},
            "when": {"up": True},
            "output": "active (running)",
        },
        {
            "tool": "run_command",
            "args": {"cmd": "systemctl status nginx"},
            "error": "failed (Result: exit-code)",
            "exit_code": 3,
        },
        {
            "tool": "run_command",
            "args": {"cmd": "systemctl start nginx"},
            "output": "",
            "set": {"up": True},
        },
    ]
    env = env_for(suite, rules=rules)
    first = env.execute("run_command", {"cmd": "systemctl status nginx"})
    assert not first.ok and first.exit_code == 3 and "[exit code 3]" in first.content()
    env.execute("run_command", {"cmd": "systemctl start nginx"})
    assert env.execute("run_command", {"cmd": "systemctl status nginx"}).ok


def test_model_mistakes_get_runtime_errors_not_crashes(suite) -> None:
    env = env_for(suite)
    unknown = env.execute("delete_cluster", "{}")
    assert unknown.kind == "unknown_tool" and "run_command" in unknown.output
    bad_json = env.execute("run_command", '{"cmd": "ls"')
    assert bad_json.kind == "invalid_arguments" and "not valid JSON" in bad_json.output
    missing = env.execute("run_command", '{"command": "ls"}')
    assert missing.kind == "invalid_arguments" and "cmd" in missing.output


def test_unmatched_calls_get_realistic_program_errors(suite) -> None:
    env = env_for(suite)
    result = env.execute("run_command", {"cmd": "systemctl status nginx"})
    assert (result.kind, result.output) == ("unmatched", "Unit not found.")
    assert "command not found" in env.execute("run_command", {"cmd": "frobnicate"}).output


def test_nothing_executes_on_the_host(suite, tmp_path) -> None:
    victim = tmp_path / "keep.txt"
    victim.write_text("still here")
    env = env_for(
        suite, rules=[{"tool": "run_command", "args": {"cmd": {"$any": True}}, "output": "ok"}]
    )
    env.execute("run_command", {"cmd": f"rm -rf {tmp_path}"})
    env.execute("run_command", {"cmd": f"touch {tmp_path}/created"})
    assert victim.read_text() == "still here"
    assert not (tmp_path / "created").exists()


def test_every_task_answers_every_tool_it_offers_without_going_off_script(suite) -> None:
    """kubectl, SQL and HTTP calls get a simulated answer (declared state, or the error a host
    without that system gives) in every task of the suite; none falls back to off-script."""
    probes = {
        "run_command": [
            {"cmd": "kubectl get pods -A"},
            {"cmd": "psql -c 'select 1'"},
            {"cmd": "curl -s http://undeclared.internal/"},
        ],
        "sql_query": [{"query": "SELECT * FROM undeclared_table"}],
        "http_get": [{"url": "http://undeclared.internal/api"}],
    }
    for task in suite.tasks:
        env = SimulatedEnvironment(task, suite.tools, suite.grammar)
        for tool in task.tools:
            for args in probes.get(tool, []):
                result = env.execute(tool, args)
                assert result.source != "fallback", (task.id, tool, args, result.output)


def test_a_construct_not_simulated_goes_off_script_and_is_recorded(suite) -> None:
    env = env_for(suite, files={"/srv/a.txt": "web 1\napi 2\n"})
    line = "awk 'function twice(x) { return 2 * x } { print twice($2) }' /srv/a.txt"
    result = env.execute("run_command", {"cmd": line})
    assert result.kind == "unmatched" and result.source == "fallback"
    assert env.simulator_errors == ["not simulated: awk user-defined functions"]
    simulated = env.execute("run_command", {"cmd": "awk '{ print 2 * $2 }' /srv/a.txt"})
    assert (simulated.kind, simulated.output) == ("ok", "2\n4\n")
    assert len(env.simulator_errors) == 1


def test_the_ttl_rule_answers_only_the_right_product(suite) -> None:
    """`python3 -c "print(36*60)"` was answered 129600 by a rule matching any line with 36."""
    task = next(t for t in suite.tasks if t.id == "none-ttl-seconds-arithmetic")
    env = SimulatedEnvironment(task, suite.tools, suite.grammar)
    for line in ('python3 -c "print(36*3600)"', "echo $((36 * 60 * 60))", "expr 36 \\* 3600"):
        assert env.execute("run_command", {"cmd": line}).output == "129600\n", line
    for line in ('python3 -c "print(36*60)"', "echo $((36*360))", "bc <<< '36*3600*10'"):
        assert "129600" not in env.execute("run_command", {"cmd": line}).output, line

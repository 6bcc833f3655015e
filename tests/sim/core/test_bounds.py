"""Hostile tool calls end promptly, in little memory, with the error a killed command shows.

Every case runs through `SimulatedEnvironment.execute`, the way the agent loop runs a model's
call; peak memory is what Python allocated during the call (tracemalloc), which the cases
would otherwise push into gigabytes.
"""

from __future__ import annotations

import threading
import time
import tracemalloc

import pytest

from agentbench.sim.core.budget import Budget, Limits, bounded
from agentbench.tasks.env import OUTPUT_LIMIT, SimulatedEnvironment, ToolResult
from agentbench.tasks.model import Task

MiB = 1 << 20
CLUSTER_TASK = "log-go-panic-previous"  # a task of the suite with a cluster and run_command
BOMB = (
    "{apiVersion: v1, kind: ConfigMap, metadata: {name: bomb, namespace: default}, data: {"
    + "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol], "
    + ", ".join(
        f"{x}: &{x} [{', '.join([f'*{p}'] * 9)}]" for p, x in zip("abcdefg", "bcdefgh", strict=True)
    )
    + ", i: [*h,*h,*h,*h,*h,*h,*h,*h,*h]}}"
)


@pytest.fixture
def env(suite) -> SimulatedEnvironment:
    task = next(t for t in suite.tasks if t.id == CLUSTER_TASK)
    return SimulatedEnvironment(task, suite.tools, suite.grammar)


@pytest.fixture
def host(suite) -> SimulatedEnvironment:
    task = Task.model_validate(
        {
            "id": "t-bounds",
            "category": "ops-diagnosis",
            "difficulty": "easy",
            "description": "d",
            "prompt": "p",
            "tools": ["run_command"],
            "environment": {"files": {"/tmp/a": "1\n", "/var/log/app.log": "ok\n" * 50_000}},
            "expect": {"end_state": {"fixed": True}},
            "reference": [{"answer": "x"}],
            "wrong": [{"name": "w", "steps": [{"answer": "y"}]}],
        }
    )
    return SimulatedEnvironment(task, suite.tools, suite.grammar)


def measured(env: SimulatedEnvironment, cmd: str) -> tuple[ToolResult, float, float]:
    """(result, seconds, peak MiB allocated during the call)."""
    tracemalloc.start()
    started = time.monotonic()
    try:
        result = env.execute("run_command", {"cmd": cmd})
        return result, time.monotonic() - started, tracemalloc.get_traced_memory()[1] / MiB
    finally:
        tracemalloc.stop()


def killed(result: ToolResult, limit: str, text: str) -> None:
    """The call ended at `limit`: the model sees the error, the record names the limit."""
    record = result.record("run_command")
    assert not result.ok and record.limit == limit, (record.limit, record.output)
    assert text in record.output, record.output
    assert result.source.startswith("sim:"), result.source  # answered, not off-script


def test_a_catastrophic_regex_returns_within_its_slice(env) -> None:
    result, seconds, peak = measured(env, "echo " + "a" * 5000 + " | grep -E '(a+)+b'")
    killed(result, "regex", "grep: regular expression too expensive")
    assert result.exit_code == 2 and seconds < 8 and peak < 20, (seconds, peak)


def test_a_regex_that_expands_past_its_size_is_refused_before_compiling(env) -> None:
    result, seconds, peak = measured(env, "echo aaa | grep -E '((a{100}){100}){100}'")
    killed(result, "regex", "grep: regular expression too big")
    assert seconds < 2 and peak < 20, (seconds, peak)


@pytest.mark.parametrize(
    ("cmd", "out"),
    [
        ("echo abab | grep -E '(ab)\\1'", "abab\n"),  # a backreference
        ("printf 'a1\\nb2\\nab\\n' | grep -E '^(a|b)[0-9]$'", "a1\nb2\n"),
        ("printf 'foo bar\\nfoobar\\n' | grep -w foo", "foo bar\n"),
        ("printf 'x(1)\\ny\\n' | grep 'x(1)'", "x(1)\n"),  # BRE: ( is literal
        ("printf 'aXb\\n' | grep -io 'x'", "X\n"),
        ("printf 'ab\\n' | sed -E 's/(a)(b)/\\2\\1/'", "ba\n"),
        ("echo 'k=v' | awk -F= '$2 ~ /^v$/ {print $1}'", "k\n"),
    ],
)
def test_common_patterns_keep_grep_sed_and_awk_semantics(env, cmd: str, out: str) -> None:
    result = env.execute("run_command", {"cmd": cmd})
    assert result.ok and result.output == out, result.output


def test_an_awk_field_index_past_mawks_limit_is_its_program_limit_error(env) -> None:
    result, _seconds, peak = measured(env, "echo x | awk '{$100000000=1}'")
    killed(result, "fields", "awk: program limit exceeded: maximum number of fields size=32767")
    assert peak < 20, peak


@pytest.mark.parametrize(
    "cmd", ["echo x | awk '{printf \"%900000000d\", 1}'", "printf '%900000000s' x"]
)
def test_a_printf_width_is_checked_before_the_string_is_built(env, cmd: str) -> None:
    result, _seconds, peak = measured(env, cmd)
    killed(result, "value_bytes", "out of memory: a printf result of 900,000,")
    assert result.exit_code == 137 and peak < 20, peak


def test_a_jq_interpolation_generator_stops_at_the_calls_byte_budget(env) -> None:
    program = '"' + "\\(.[])" * 9 + '"'  # 10**9 strings
    result, _seconds, peak = measured(env, f"echo '[0,1,2,3,4,5,6,7,8,9]' | jq '{program}'")
    killed(result, "total_bytes", "jq: out of memory: the tool call built more than")
    assert peak < 120, peak


@pytest.mark.parametrize(
    ("program", "limit"),
    [
        ("|".join(["[.,.]"] * 40), "value_bytes"),  # shared halves, 2**40 leaves when printed
        ('"x" * 1000000000', "value_bytes"),
        (". * . | " * 8 + ".", ""),
    ],
)
def test_jq_values_are_sized_as_they_print(env, program: str, limit: str) -> None:
    result, seconds, peak = measured(env, f"echo 12345 | jq '{program}'")
    if limit:
        killed(result, limit, "jq: out of memory")
    else:  # numbers are doubles, as in jq: repeated squaring overflows, it never grows an int
        assert result.ok and result.output.strip() in ("1.7976931348623157e+308", "Infinity")
    assert seconds < 5 and peak < 40, (seconds, peak)


def test_a_yaml_alias_bomb_is_refused_by_apply_and_never_printed(env) -> None:
    result, seconds, peak = measured(env, f"echo '{BOMB}' | kubectl apply -f -")
    killed(result, "yaml", "yaml: document contains excessive aliasing")
    assert seconds < 5 and peak < 20, (seconds, peak)
    got, seconds, peak = measured(env, "kubectl get configmap bomb -n default -o json")
    assert "NotFound" in got.output and peak < 20


def test_one_alias_in_a_manifest_still_applies(env) -> None:
    doc = (
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: small, namespace: default}, "
        "data: {a: &v shared, b: *v}}"
    )
    assert env.execute("run_command", {"cmd": f"echo '{doc}' | kubectl apply -f -"}).ok
    got = env.execute("run_command", {"cmd": "kubectl get configmap small -n default -o json"})
    assert '"b": "shared"' in got.output


def test_grep_context_is_clamped_to_the_input(env) -> None:
    result, _seconds, peak = measured(env, "printf 'a\\nb\\n' | grep -C 1000000000 a")
    assert result.ok and result.output == "a\nb\n" and peak < 20


def test_a_large_output_reaches_the_model_truncated_with_a_marker(env) -> None:
    result = env.execute("run_command", {"cmd": "printf '%200000s' x"})
    record = result.record("run_command")
    assert result.ok and record.truncated_from == 200_000 and record.limit is None
    assert len(record.output) < OUTPUT_LIMIT + 200
    assert "[... output truncated: 134,464 of 200,000 characters left out" in record.output
    assert record.output.endswith("x")  # its end is kept: errors come last


def test_work_per_call_is_bounded_by_steps(host) -> None:
    result, _seconds, peak = measured(host, "printf '%4000000s' x | tr ' ' '\\n' | sort")
    killed(result, "steps", "sort: terminated: the tool call ran past its work limit of")
    assert peak < 60, peak


def test_work_per_call_is_bounded_by_time(host) -> None:
    budget = Budget(Limits(seconds=0.3, steps=10**9))
    started = time.monotonic()
    with bounded(budget):
        cmd = "awk '{ n = n + 1 }' " + "/var/log/app.log " * 60
        result = host.execute("run_command", {"cmd": cmd})
    killed(result, "time", "terminated: the tool call ran past its time limit of 0.3 s")
    assert result.exit_code == 124 and time.monotonic() - started < 2


def test_a_cancelled_call_stops_at_its_next_check(host) -> None:
    budget = Budget(Limits(seconds=60, steps=10**9))
    results: list[ToolResult] = []

    def work() -> None:
        with bounded(budget):
            cmd = "awk '{ n = n + 1 }' " + "/var/log/app.log " * 200
            results.append(host.execute("run_command", {"cmd": cmd}))

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    time.sleep(0.3)
    cancelled = time.monotonic()
    budget.cancel()
    thread.join(5)
    assert not thread.is_alive() and time.monotonic() - cancelled < 1
    killed(results[0], "cancelled", "terminated: the episode ended during the call")


@pytest.mark.parametrize(
    "cmd",
    [
        "x=a; for i in " + " ".join(str(i) for i in range(40)) + "; do x=$x$x; done; echo ${#x}",
        's=x; while [ ${#s} -lt 1000000000 ]; do s="$s$s"; done; echo ${#s}',
    ],
)
def test_a_shell_variable_doubled_in_a_loop_stops_at_the_value_limit(env, cmd: str) -> None:
    result, seconds, peak = measured(env, cmd)
    record = result.record("run_command")
    assert record.limit == "value_bytes" and "a shell word of" in record.output, record.output
    assert seconds < 8 and peak < 64, (seconds, peak)


def test_what_a_line_changed_before_a_killed_command_is_still_recorded(host) -> None:
    cmd = "rm /tmp/a; echo " + "a" * 5000 + " | grep -E '(a+)+b'"
    result = host.execute("run_command", {"cmd": cmd})
    killed(result, "regex", "too expensive")
    assert [(c.action, c.target) for c in result.changes] == [("delete", "/tmp/a")]


def test_scaling_to_a_hundred_million_replicas_stops_at_the_calls_budget(env) -> None:
    budget = Budget(Limits(seconds=1.0))
    started = time.monotonic()
    with bounded(budget):
        cmd = "kubectl -n ledger scale deploy/ledger-api --replicas=100000000"
        result = env.execute("run_command", {"cmd": cmd})
    assert result.record("run_command").limit in ("time", "steps")
    assert "kubectl: terminated: the tool call ran past its" in result.output
    assert time.monotonic() - started < 3


def test_a_loop_whose_body_was_killed_records_what_ran_before(host) -> None:
    cmd = (
        "for f in /tmp/a /var/log/app.log; do rm $f; echo "
        + "a" * 5000
        + " | grep -E '(a+)+b'; done"
    )
    result = host.execute("run_command", {"cmd": cmd})
    assert result.record("run_command").limit == "regex"
    assert [(c.action, c.target) for c in result.changes] == [("delete", "/tmp/a")]


def test_a_task_regex_on_a_models_long_argument_is_bounded_too() -> None:
    from agentbench.tasks.matching import value_matches
    from agentbench.tasks.model import ArgKind

    started = time.monotonic()
    assert not value_matches({"$regex": "(a+)+b"}, "a" * 5000, ArgKind.text, {})
    assert value_matches({"$regex": "^a+$"}, "a" * 5000, ArgKind.text, {})
    assert time.monotonic() - started < 5


def test_files_written_call_by_call_stop_at_the_disks_space(host) -> None:
    ok = host.execute("run_command", {"cmd": "printf '%4000000s' x > /tmp/big"})
    assert ok.ok, ok.output
    outputs = [  # 8 MB a call: the disk fills on the eighth
        host.execute("run_command", {"cmd": f"cat /tmp/big /tmp/big > /tmp/c{i}"}).output
        for i in range(10)
    ]
    assert outputs[-1] == "bash: /tmp/c9: No space left on device\n", outputs
    assert sum(len(n.content) for n in host.world.fs.nodes.values()) <= 64 << 20


def test_a_query_returning_millions_of_rows_stops_at_the_calls_byte_budget(suite) -> None:
    task = next(t for t in suite.tasks if t.id == "data-inventory-low-stock")
    sql = SimulatedEnvironment(task, suite.tools, suite.grammar)
    tracemalloc.start()
    started = time.monotonic()
    try:
        result = sql.execute("sql_query", {"query": "SELECT * FROM range(3000000)"})
        peak = tracemalloc.get_traced_memory()[1] / MiB
    finally:
        tracemalloc.stop()
    record = result.record("sql_query")
    assert record.limit == "total_bytes" and "out of memory for query result" in record.output
    assert time.monotonic() - started < 10 and peak < 80, peak
    assert sql.execute("sql_query", {"query": "SELECT count(*) FROM inventory"}).ok


def test_quoted_substitutions_are_text_and_cheap(env) -> None:
    # 16 KB of `$(` inside single quotes: parsed once, printed as written, nothing substituted
    result, seconds, _peak = measured(env, "echo '" + "$(a)" * 4000 + "'")
    assert result.ok and result.output == "$(a)" * 4000 + "\n"
    assert seconds < 8, seconds

"""Tool calls left in the text by a server (native mode), read in the formats models really use."""

import json
import time

from agentbench.agent.toolcall_text import apply_text_calls, read_text_calls
from agentbench.records import StepRecord

# Qwen2.5-Coder-1.5B on llama-server (--jinja, tool_choice auto), verbatim.
QWEN_FENCED = (
    '```json\n{\n  "name": "run_command",\n  "arguments": {\n    "cmd": "kubectl get pods -n web"'
    "\n  }\n}\n```"
)


def calls(text: str) -> list[tuple[str, dict]]:
    return [(n, json.loads(a)) for n, a in read_text_calls(text).calls]


def test_fenced_json_call_as_qwen_writes_it() -> None:
    assert calls(QWEN_FENCED) == [("run_command", {"cmd": "kubectl get pods -n web"})]


def test_tool_call_tags_one_or_several_and_an_unclosed_last_tag() -> None:
    text = (
        'Checking.\n<tool_call>\n{"name": "a", "arguments": {"x": 1}}\n</tool_call>\n'
        '<tool_call>{"name": "b", "arguments": "{\\"y\\": 2}"}'
    )
    found = read_text_calls(text)
    assert [(n, json.loads(a)) for n, a in found.calls] == [("a", {"x": 1}), ("b", {"y": 2})]
    assert found.rest == "Checking." and found.problem is None


def test_bare_object_and_list_of_calls() -> None:
    assert calls('{"name": "sql_query", "arguments": {"query": "SELECT 1"}}') == [
        ("sql_query", {"query": "SELECT 1"})
    ]
    assert [
        n for n, _ in calls('[{"name": "a", "arguments": {}}, {"name": "b", "parameters": {}}]')
    ] == ["a", "b"]


def test_prose_and_json_that_is_not_a_call_stay_an_answer() -> None:
    for text in (
        "The pod was OOMKilled.",
        '{"name": "payments-api", "error": "deadlock"}',
        '```json\n{"status": "ok"}\n```',
    ):
        found = read_text_calls(text)
        assert not found.calls and found.problem is None and found.rest == text


def test_an_unterminated_call_is_malformed_not_an_answer() -> None:
    broken = '{"name": "sql_query", "arguments": {"query": "DELETE FROM sessions'
    assert read_text_calls(broken).problem
    assert "<tool_call>" in (read_text_calls('<tool_call>{"name": "a", "argu').problem or "")


def test_apply_marks_the_step_text_parsed_and_keeps_native_calls() -> None:
    step = StepRecord(model="m", requested_model="m", index=2, t_start_s=0.0, content=QWEN_FENCED)
    apply_text_calls(step)
    assert step.tool_call_method == "text_parsed" and step.content == ""
    (call,) = step.tool_calls
    assert call.id == "call_2_0" and call.parsed == {"cmd": "kubectl get pods -n web"}
    malformed = StepRecord(
        model="m",
        requested_model="m",
        index=0,
        t_start_s=0.0,
        content='```json\n{"name": "a", "arguments": {"x": \n```',
    )
    apply_text_calls(malformed)
    assert malformed.invalid_tool_call and not malformed.tool_calls


def test_calls_one_a_line_as_the_0_5b_writes_parallel_calls() -> None:
    text = (
        '{"name": "http_get", "arguments": {"url": "http://deploy.internal/api/v1/deployments"}}\n'
        '{"name": "run_command", "arguments": {"cmd": "kubectl logs job/migrate -n billing"}}'
    )
    assert [n for n, _ in calls(text)] == ["http_get", "run_command"]
    assert [n for n, _ in calls(f"```json\n{text}\n```")] == ["http_get", "run_command"]


def test_a_call_with_prose_around_it_is_a_call_and_the_prose_is_kept() -> None:
    for text, rest in (
        (
            'Let me check the pods.\n{"name": "run_command", "arguments": {"cmd": "ls"}}',
            "Let me check the pods.",
        ),
        (
            '{"name": "run_command", "arguments": {"cmd": "ls"}}\nThis lists the files.',
            "This lists the files.",
        ),
        (
            'First {"name": "run_command", "arguments": {"cmd": "ls"}} then '
            '{"name": "run_command", "arguments": {"cmd": "df -h"}}',
            "First  then",
        ),
    ):
        found = read_text_calls(text)
        assert found.problem is None and found.rest == rest
        assert json.loads(found.calls[0][1])["cmd"] == "ls"
    assert len(read_text_calls(text).calls) == 2


def test_other_templates_markers_mistral_and_llama() -> None:
    for text in (
        '[TOOL_CALLS][{"name": "run_command", "arguments": {"cmd": "ls"}}]',
        '<|python_tag|>{"name": "run_command", "parameters": {"cmd": "ls"}}<|eom_id|>',
        '<function=run_command>{"cmd": "ls"}</function>',
    ):
        found = read_text_calls(text)
        assert calls(text) == [("run_command", {"cmd": "ls"})] and found.rest == "", text


def test_json_answers_and_broken_calls_among_prose_are_not_calls() -> None:
    answer = 'The summary is {"status": "degraded", "count": 3}.'
    assert read_text_calls(answer).calls == [] and read_text_calls(answer).problem is None
    nested = '{"plan": [{"name": "drain", "arguments": {"node": "n1"}}]}'  # an answer's field
    assert read_text_calls(nested).calls == []
    broken = 'Running {"name": "run_command", "arguments": {"cmd": "ls"} now'
    assert read_text_calls(broken).problem and not read_text_calls(broken).calls
    assert read_text_calls('<function=run_command>{"cmd": "ls"</function>').problem


def test_hostile_text_is_read_in_linear_time() -> None:
    """Runs of spaces inside tags backtracked quadratically (an hour for a 4 MB answer)."""
    spaces = " " * 1_000_000
    started = time.monotonic()
    for text in (
        f"<tool_call>{spaces}x{spaces}y",
        f"<function=f>{spaces}x{spaces}y",
        f"```{spaces}x",
        "[" * 1_000_000,
        '{"name": "f", "arguments": {"n": ' + "1" * 5_000 + "}}",
    ):
        assert not read_text_calls(text).calls
    assert time.monotonic() - started < 10

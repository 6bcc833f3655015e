import json

from agentbench.agent.prompting import parse_reply


def test_seed_json_tool_call_is_read() -> None:
    text = (
        '{\n  "tool": "run_command",\n  "parameters": {\n'
        '    "cmd": "kubectl get pods -n web"\n  }\n}'
    )
    reply = parse_reply(text)
    assert [(c.name, json.loads(c.arguments)) for c in reply.calls] == [
        ("run_command", {"cmd": "kubectl get pods -n web"})
    ]


def test_fenced_list_of_calls_and_final_answer() -> None:
    reply = parse_reply(
        'Sure:\n```json\n[{"tool": "a", "parameters": {}}, {"tool": "b", "arguments": {}}]\n```'
    )
    assert [c.name for c in reply.calls] == ["a", "b"]
    assert parse_reply('{"final_answer": "OOMKilled"}').final_answer == "OOMKilled"


def test_plain_text_is_the_answer_and_broken_call_is_flagged() -> None:
    assert parse_reply("The pod is OOMKilled.").final_answer == "The pod is OOMKilled."
    broken = parse_reply('{"tool": "run_command", "parameters": {"cmd": "ls"')
    assert broken.problem and not broken.calls and broken.final_answer is None


def test_json_answer_with_a_name_field_is_not_a_call() -> None:
    answer = '{"name": "payments-api", "error": "deadlock"}'
    reply = parse_reply(answer, frozenset({"run_command"}))
    assert not reply.calls and reply.final_answer == answer.strip()
    bare = parse_reply('{"tool": "run_command"}', frozenset({"run_command"}))
    assert [c.name for c in bare.calls] == ["run_command"]

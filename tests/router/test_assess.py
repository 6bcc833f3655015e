"""The one rule for a valid answer, shared by the agent loop and RoutedChatModel."""

from __future__ import annotations

from router import assess_answer, call_problem, tool_schemas

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_pods",
            "parameters": {
                "type": "object",
                "properties": {"namespace": {"type": "string"}},
                "required": ["namespace"],
            },
        },
    }
]
SCHEMAS = tool_schemas(TOOLS)


def test_call_problems() -> None:
    assert call_problem("get_pods", {"namespace": "web"}, SCHEMAS) is None
    assert call_problem("kubctl", {}, SCHEMAS) == "unknown tool 'kubctl'"
    assert call_problem("get_pods", None, SCHEMAS) == "arguments of get_pods are not a JSON object"
    assert call_problem("get_pods", {"namespace": 7}, SCHEMAS) == (
        "get_pods: 7 is not of type 'string'"
    )
    assert call_problem("anything", {}, None) is None  # tools offered unknown: names not checked


def test_answers() -> None:
    final = assess_answer([], "the pods are fine", SCHEMAS, mean_logprob=-0.2)
    assert final.valid and final.is_final and final.mean_logprob == -0.2
    assert assess_answer([], "  ", SCHEMAS).problem == "empty answer"
    two = [("get_pods", {"namespace": "web"}), ("kubctl", {})]
    assert assess_answer(two, "", SCHEMAS).problem == "unknown tool 'kubctl'"
    assert assess_answer(two[:1], "", SCHEMAS).valid

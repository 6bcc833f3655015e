"""Whether a model's answer is valid: the one definition the router's callers share.

An answer is valid when it is a non-empty final answer, or when every tool call names an offered
tool and carries a JSON object of arguments that its schema accepts. The agent loop and
`RoutedChatModel` both assess the local answer with `assess_answer` before a policy reviews it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from router._base import LocalAnswer


def tool_schemas(tools: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Tool name -> JSON Schema of its arguments, from OpenAI function-tool definitions."""
    return {
        t["function"]["name"]: t["function"].get("parameters") or {}
        for t in tools
        if isinstance(t.get("function"), dict) and "name" in t["function"]
    }


def call_problem(name: str, args: Any, schemas: dict[str, dict[str, Any]] | None) -> str | None:
    """Why one tool call is not valid, or None. `schemas` None: the tools offered are unknown,
    so any name is accepted and arguments need only be a JSON object."""
    if schemas is not None and name not in schemas:
        return f"unknown tool '{name}'"
    if not isinstance(args, dict):
        return f"arguments of {name} are not a JSON object"
    schema = (schemas or {}).get(name)
    if not schema:
        return None
    try:
        import jsonschema
    except ImportError:  # router alone does not depend on jsonschema: best effort without it
        return None
    try:
        jsonschema.validate(args, schema)
    except jsonschema.ValidationError as exc:
        return f"{name}: {exc.message}"
    return None


def assess_answer(
    calls: Sequence[tuple[str, Any]],
    text: str,
    schemas: dict[str, dict[str, Any]] | None,
    *,
    mean_logprob: float | None = None,
    min_logprob: float | None = None,
) -> LocalAnswer:
    """Assess an answer: `calls` are (tool name, parsed arguments: None when not JSON), `text`
    the answer text, `schemas` the offered tools' argument schemas (`tool_schemas`; None: the
    tools offered are not known)."""

    def verdict(valid: bool, problem: str | None = None, is_final: bool = False) -> LocalAnswer:
        return LocalAnswer(valid, problem, is_final, mean_logprob, min_logprob)

    if not calls:
        return verdict(True, is_final=True) if text.strip() else verdict(False, "empty answer")
    for name, args in calls:
        problem = call_problem(name, args, schemas)
        if problem:
            return verdict(False, problem)
    return verdict(True)

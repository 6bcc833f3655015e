"""A common subset of jq over simulated JSON output (`kubectl get ... -o json | jq ...`).

Filters: `.`, `.a.b`, `."a-b"`, `.[N]`, `.[]`, `.a[]?`, `|`, `,`, `[...]`, `{a: f, b}`, literals,
`==` `!=` `<` `<=` `>` `>=`, `and` `or` `not`, `//`, `+ - * /`; functions `select map length
keys has test contains startswith endswith to_entries from_entries sort sort_by unique first
last add min max tostring tonumber ascii_downcase ascii_upcase type values empty join split`.
Options -r, -c, -e, -s. Errors are jq's (exit 5 at run time, 3 for a bad program, 2 bad JSON).

Bounded (sim/budget.py): every filter evaluated and every value produced is a step; each value
a filter builds (an array, an object, an interpolated or repeated string) is sized, shared
parts counted each time (`[., .]` repeated doubles), so no value, and no output, is over
`Limits.value_bytes`; numbers are doubles, as in jq.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from agentbench.sim.base import CommandResult
from agentbench.sim.budget import bounded, current
from agentbench.sim.filters import Files, Inputs, parse_options
from agentbench.sim.jq_parse import JqSyntax, Parser


class JqError(ValueError):
    """A run-time error (exit 5)."""


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _built(value: Any) -> Any:
    """A value a filter just built, checked against the call's budget."""
    budget = current()
    size = budget.size_of(value)
    if isinstance(value, str):
        budget.built(size + 48)  # with the string object's own overhead
    return value


def _run(node: Any, value: Any) -> Iterator[Any]:
    from agentbench.sim.jq_functions import call

    budget = current()
    budget.step()
    op = node[0]
    if op == "identity":
        yield value
    elif op == "literal":
        yield node[1]
    elif op == "format":
        texts = [""]
        for part in node[1]:
            values = [v if isinstance(v, str) else _dumps(v) for v in _run(part, value)]
            budget.step(len(texts) * len(values))
            texts = [_built(t + v) for t in texts for v in values]
        yield from texts
    elif op == "key":
        if value is None:
            yield None
        elif isinstance(value, dict):
            yield value.get(node[1])
        else:
            raise JqError(f'Cannot index {type_name(value)} with "{node[1]}"')
    elif op == "index":
        for index in _run(node[1], value):
            if value is None:
                yield None
            elif isinstance(value, list) and isinstance(index, int | float):
                i = int(index)
                yield value[i] if -len(value) <= i < len(value) else None
            elif isinstance(value, dict) and isinstance(index, str):
                yield value.get(index)
            else:
                raise JqError(f"Cannot index {type_name(value)} with {type_name(index)}")
    elif op == "each":
        if isinstance(value, list | dict):
            budget.step(len(value))
            yield from value.values() if isinstance(value, dict) else value
        else:
            raise JqError(
                f"Cannot iterate over {type_name(value)}"
                + ("" if value is None else f" ({json.dumps(value)})")
            )
    elif op == "recurse":
        yield from _recurse(value)
    elif op == "?":
        try:
            yield from list(_run(node[1], value))
        except JqError:
            return
    elif op == "|":
        for middle in _run(node[1], value):
            yield from _run(node[2], middle)
    elif op == ",":
        yield from _run(node[1], value)
        yield from _run(node[2], value)
    elif op == "array":
        yield _built(list(_run(node[1], value)))
    elif op == "object":
        for built in _objects(node[1], value):
            yield _built(built)
    elif op == "call":
        for result in call(node[1], node[2], value, _run):
            yield _built(result)
    else:
        for result in _binary(op, node[1], node[2], value):
            yield _built(result)


def _dumps(value: Any, **options: Any) -> str:
    """`json.dumps` of a value already checked to be within the budget's value size."""
    current().size_of(value)
    return json.dumps(value, **options)


def _recurse(value: Any) -> Iterator[Any]:
    current().step()
    yield value
    children = (
        value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    )
    for child in children:
        yield from _recurse(child)


def _objects(entries: list[Any], value: Any) -> Iterator[Any]:
    results: list[dict[str, Any]] = [{}]
    for key_node, value_node in entries:
        keys = list(_run(key_node, value))
        values = list(_run(value_node, value))
        current().step(len(results) * len(keys) * len(values) * (1 + len(entries)))
        results = [{**r, str(k): v} for r in results for k in keys for v in values]
    yield from results


def truthy(value: Any) -> bool:
    return value is not None and value is not False


def _binary(op: str, left: Any, right: Any, value: Any) -> Iterator[Any]:
    if op == "//":
        found = [v for v in _safe(left, value) if truthy(v)]
        yield from found if found else _run(right, value)
        return
    for b in _run(right, value):
        for a in _run(left, value):
            if op == "and":
                yield truthy(a) and truthy(b)
            elif op == "or":
                yield truthy(a) or truthy(b)
            elif op in ("==", "!="):
                yield (a == b) == (op == "==")
            elif op in ("<", "<=", ">", ">="):
                try:
                    yield {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
                except TypeError:
                    yield type_name(a) < type_name(b)
            else:
                yield _arith(op, a, b)


def _arith(op: str, a: Any, b: Any) -> Any:
    budget = current()
    try:
        if op == "+":
            if isinstance(a, str | list) and isinstance(b, str | list):
                budget.value(budget.size_of(a) + budget.size_of(b), f"a {type_name(a)}")
            return _number(b if a is None else a if b is None else a + b)
        if op == "-":
            return _number(a - b)
        if op == "*":
            if isinstance(a, str) and isinstance(b, int | float) and not isinstance(b, bool):
                if b <= 0:
                    return None  # jq: a string repeated 0 times is null
                budget.value(len(a) * int(b), "a repeated string")
                return a * int(b)
            return _number(a * b)
        return _number(a / b) if not isinstance(a, str) else a.split(b)
    except (TypeError, ZeroDivisionError) as exc:
        left, right = f"{type_name(a)} ({json.dumps(a)})", f"{type_name(b)} ({json.dumps(b)})"
        raise JqError(f"{left} and {right} cannot be combined") from exc


def _number(value: Any) -> Any:
    """jq's numbers are doubles: an integer past 2**53 becomes one (never a huge int)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return float(value)
    return value


def _safe(node: Any, value: Any) -> list[Any]:
    try:
        return list(_run(node, value))
    except JqError:
        return []


def jq(argv: list[str], stdin: str | None, files: Files) -> CommandResult:
    opts, rest, error = parse_options(
        "jq", argv[1:], "rcejsSn", ["raw-output", "compact-output"], code=2
    )
    if error:
        return error
    flags = {o for o, _ in opts}
    program = rest.pop(0) if rest else "."
    try:
        tree = Parser(program).parse()
    except JqSyntax as exc:
        return CommandResult(stderr=f"jq: error: {exc}\njq: 1 compile error\n", exit_code=3)
    inputs = Inputs("jq", rest, stdin, files)
    decoder = json.JSONDecoder()
    documents: list[Any] = []
    text = inputs.joined
    current().value(len(text), "a JSON input")  # decoded, it takes up to 20 times as much
    pos = 0
    while pos < len(text):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        try:
            doc, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            where = f"at line {exc.lineno}, column {exc.colno}"
            inputs.result.stderr += f"jq: error (at <stdin>:{exc.lineno}): {exc.msg} {where}\n"
            return inputs.finish("", 2)
        documents.append(doc)
    if "-s" in flags:
        documents = [documents]
    raw = bool(flags & {"-r", "--raw-output"})
    compact = bool(flags & {"-c", "--compact-output"})
    out: list[str] = []
    last: Any = None
    try:
        with bounded() as budget:
            for doc in documents:
                for result in _run(tree, doc):
                    last = result
                    if raw and isinstance(result, str):
                        out.append(result)
                        continue
                    # indentation: at most 2 spaces a nesting level per value, bounded too
                    budget.value(budget.size_of(result) * (1 if compact else 4), "an output")
                    text = json.dumps(
                        result,
                        indent=None if compact else 2,
                        separators=(",", ":") if compact else None,
                        ensure_ascii=False,
                    )
                    out.append(budget.text(text, "an output"))
    except JqError as exc:
        inputs.result.stderr += f"jq: error (at <stdin>:{len(text.splitlines())}): {exc}\n"
        return inputs.finish("".join(line + "\n" for line in out), 5)
    code = 1 if "-e" in flags and not truthy(last) else 0
    return inputs.finish("".join(line + "\n" for line in out), code)

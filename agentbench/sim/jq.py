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

from agentbench.sim.base import CommandResult, NotSimulated
from agentbench.sim.budget import bounded, current
from agentbench.sim.filters import Files, Inputs, parse_options
from agentbench.sim.jq_parse import JqSyntax, Parser

_FLAGS = frozenset("rcesn")  # -r -c -e -s -n, alone or combined (-rc)
_OPTIONS = frozenset({"--raw-output", "--compact-output"})


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
            values = [v if isinstance(v, str) else dumps(v) for v in _run(part, value)]
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
    elif op == "?":  # try without catch: the outputs before the first error, then stop
        try:
            yield from _run(node[1], value)
        except JqError:
            return
    elif op == "if":
        for cond in _run(node[1], value):
            yield from _run(node[2] if truthy(cond) else node[3], value)
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
                yield (canonical(a) == canonical(b)) == (op == "==")
            elif op in ("<", "<=", ">", ">="):
                ka, kb = order_key(a), order_key(b)
                yield {"<": ka < kb, "<=": ka <= kb, ">": ka > kb, ">=": ka >= kb}[op]
            else:
                yield _arith(op, a, b)


def _arith(op: str, a: Any, b: Any) -> Any:
    """jq's arithmetic by the operands' jq types (a Python bool is not a number here)."""
    ta, tb = type_name(a), type_name(b)
    if op == "+" and (ta == "null" or tb == "null"):
        return b if ta == "null" else a
    if ta == tb == "number":
        if op == "/" or op == "%":
            if b == 0:
                raise JqError(
                    f"{ta} ({dumps(a)}) and {tb} ({dumps(b)}) cannot be divided because the "
                    "divisor is zero"
                )
            if op == "%":
                x, y = int(a), int(b)
                return abs(x) % abs(y) * (1 if x >= 0 else -1)
            return number(a / b)
        return number({"+": a + b, "-": a - b, "*": a * b}[op])
    if ta == tb and op == "+" and ta in ("string", "array"):
        budget = current()
        budget.value(budget.size_of(a) + budget.size_of(b), f"a {ta}")
        return a + b
    if ta == tb == "object" and op == "+":
        return {**a, **b}
    if ta == tb == "array" and op == "-":
        keep = [canonical(x) for x in b]
        return [x for x in a if canonical(x) not in keep]
    if ta == tb == "string" and op == "/":
        return a.split(b) if b else list(a)
    if {ta, tb} == {"string", "number"} and op == "*":
        text, times = (a, b) if ta == "string" else (b, a)
        if times <= 0:
            return None  # jq: a string repeated 0 times is null
        if times != int(times):
            raise NotSimulated("jq string * a fractional number")
        current().value(len(text) * int(times), "a repeated string")
        return text * int(times)
    if ta == tb == "object" and op == "*":
        raise NotSimulated("jq object * object (a deep merge)")
    verb = {"+": "added", "-": "subtracted", "*": "multiplied", "/": "divided", "%": "divided"}[op]
    raise JqError(f"{ta} ({dumps(a)[:11]}) and {tb} ({dumps(b)[:11]}) cannot be {verb}")


def number(x: float) -> float | int:
    """A computed number as jq keeps it: a double (an integer past 2**53 becomes one, never a
    huge int); integral values print without a fraction."""
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) > 2**53:
        return float(x)
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e17:
        return int(x)
    return x


def canonical(value: Any) -> str:
    """A value's identity for equality: its type and contents (1 == 1.0; 1 != true)."""
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"))


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return number(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def dumps(value: Any, indent: int | None = None) -> str:
    """jq's JSON text for a value (compact, or `indent` spaces), sized against the budget."""
    current().size_of(value)
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(_plain(value), indent=indent, separators=separators, ensure_ascii=False)


_RANK = {"null": 0, "boolean": 1, "number": 2, "string": 3, "array": 4, "object": 5}


def order_key(value: Any) -> Any:
    """jq's total order: null < false < true < numbers < strings < arrays < objects."""
    kind = type_name(value)
    if kind == "array":
        return (4, tuple(order_key(v) for v in value))
    if kind == "object":
        keys = sorted(value)
        return (5, tuple(keys), tuple(order_key(value[k]) for k in keys))
    return (_RANK[kind], value if value is not None else 0)


def unbalanced(program: str) -> bool:
    """True when brackets or string quotes do not close: a program no jq compiles."""
    closing = {"(": ")", "[": "]", "{": "}"}
    stack: list[str] = []
    quoted = escaped = False
    for ch in program:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch in closing:
            stack.append(closing[ch])
        elif ch in ")]}" and (not stack or stack.pop() != ch):
            return True
    return quoted or bool(stack)


def _safe(node: Any, value: Any) -> list[Any]:
    try:
        return list(_run(node, value))
    except JqError:
        return []


def jq(argv: list[str], stdin: str | None, files: Files) -> CommandResult:
    for arg in argv[1:]:
        if arg.startswith("-") and arg != "-" and arg not in _OPTIONS and set(arg[1:]) - _FLAGS:
            raise NotSimulated(f"jq option {arg}")
    opts, rest, error = parse_options(
        "jq", argv[1:], "".join(sorted(_FLAGS)), ["raw-output", "compact-output"], code=2
    )
    if error:
        return error
    flags = {o for o, _ in opts}
    flags |= {{"--raw-output": "-r", "--compact-output": "-c"}.get(f, f) for f in flags}
    program = rest.pop(0) if rest else "."
    try:
        tree = Parser(program).parse()
    except JqSyntax as exc:
        if unbalanced(program):  # wrong in any jq: the compile error jq gives
            text = (
                "jq: error: syntax error, unexpected end of file (Unix shell quoting issues?) "
                f"at <top-level>, line 1:\n{program}\njq: 1 compile error\n"
            )
            return CommandResult(stderr=text, exit_code=3)
        # a program this parser does not read may well be valid jq: never an invented error
        raise NotSimulated(f"jq syntax: {exc}") from exc
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
    if "-n" in flags:
        documents = [None]
    elif "-s" in flags:
        documents = [documents]
    raw = bool(flags & {"-r", "--raw-output"})
    compact = bool(flags & {"-c", "--compact-output"})
    out: list[str] = []
    last: Any = None
    produced = False
    try:
        with bounded() as budget:
            for doc in documents:
                for result in _run(tree, doc):
                    last, produced = result, True
                    if raw and isinstance(result, str):
                        out.append(result)
                        continue
                    # indentation: at most 2 spaces a nesting level per value, bounded too
                    budget.value(budget.size_of(result) * (1 if compact else 4), "an output")
                    shown = dumps(result, indent=None if compact else 2)
                    out.append(budget.text(shown, "an output"))
    except JqError as exc:
        inputs.result.stderr += f"jq: error (at <stdin>:{len(text.splitlines())}): {exc}\n"
        return inputs.finish("".join(line + "\n" for line in out), 5)
    code = 0
    if "-e" in flags:
        code = 1 if produced and not truthy(last) else 0 if produced else 4
    return inputs.finish("".join(line + "\n" for line in out), code)

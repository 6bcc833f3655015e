"""jq over simulated JSON output (`kubectl get ... -o json | jq ...`), answering as jq 1.7 does.

Filters: paths (`.a.b`, `."a-b"`, `.[N]`, `.[]`, `.[a:b]`, `?`), `|`, `,`, `[...]`, `{...}`,
literals and interpolated strings, comparisons, `and`/`or`, `//`, arithmetic, `if`/`elif`/
`else`, `E as $x | …`, `reduce`, `try` (a constant `catch`), `$name` from `--arg`/`--argjson`;
the builtins of functions.py and the `@` formats; values by values.py. Options -r, -c,
-e, -s, -n. Errors are jq's (exit 5 at run time, 3 for a bad program, 2 bad JSON). What the
parser does not read, or a builtin it lacks, raises `NotSimulated`, never an invented error.

Bounded (sim/core/budget.py): every filter evaluated and every value produced is a step; each value
a filter builds (an array, an object, an interpolated or repeated string) is sized, shared
parts counted each time (`[., .]` repeated doubles), so no value, and no output, is over
`Limits.value_bytes`; numbers are doubles, as in jq.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from agentbench.sim.core.base import CommandResult, NotSimulated
from agentbench.sim.core.brackets import unbalanced
from agentbench.sim.core.budget import bounded, current
from agentbench.sim.core.options import parse_options
from agentbench.sim.core.registry import Call, program
from agentbench.sim.text.filters import Inputs
from agentbench.sim.text.jq.lex import JqSyntax, JqUndefined
from agentbench.sim.text.jq.parse import Parser
from agentbench.sim.text.jq.values import (
    JqError,
    arith,
    canonical,
    dumps,
    order_key,
    truthy,
    type_name,
)

_FLAGS = frozenset("rcesn")  # -r -c -e -s -n, alone or combined (-rc)
_OPTIONS = frozenset({"--raw-output", "--compact-output"})


def _built(value: Any) -> Any:
    """A value a filter just built, checked against the call's budget."""
    budget = current()
    size = budget.size_of(value)
    if isinstance(value, str):
        budget.built(size + 48)  # with the string object's own overhead
    return value


def _run(node: Any, value: Any) -> Iterator[Any]:
    from agentbench.sim.text.jq.functions import call

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
    elif op == "as":
        for bound in _run(node[1], value):
            yield from _run(bind(node[3], node[2], bound), value)
    elif op == "reduce":
        starts = list(_run(node[3], value))
        if len(starts) != 1:
            raise NotSimulated("jq reduce with an initial value that is not one value")
        state = starts[0]
        for item in _run(node[1], value):
            outputs = list(_run(bind(node[4], node[2], item), state))
            state = outputs[-1] if outputs else None
        yield state
    elif op == "try":
        try:
            yield from _run(node[1], value)
        except JqError:
            if node[2] is not None:
                yield from _run(node[2], value)
    elif op == "slice":
        yield from _slices(node, value)
    elif op == "var":
        raise NotSimulated(f"jq ${node[1]} unbound at run time")
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


def bind(node: Any, name: str, value: Any) -> Any:
    """`node` with `$name` replaced by `value` (an inner binding of the same name shadows)."""
    if not isinstance(node, tuple) or not node or not isinstance(node[0], str):
        if isinstance(node, list | tuple):
            return type(node)(bind(part, name, value) for part in node)
        return node
    op = node[0]
    if op == "literal":
        return node
    if op == "var":
        return ("literal", value) if node[1] == name else node
    current().step()
    if op == "as" and node[2] == name:
        return ("as", bind(node[1], name, value), node[2], node[3])
    if op == "reduce" and node[2] == name:
        return ("reduce", bind(node[1], name, value), name, bind(node[3], name, value), node[4])
    return (op, *(bind(part, name, value) for part in node[1:]))


def _slices(node: Any, value: Any) -> Iterator[Any]:
    starts = [None] if node[1] is None else list(_run(node[1], value))
    ends = [None] if node[2] is None else list(_run(node[2], value))
    for end in ends:
        for start in starts:
            if value is None:
                yield None
                continue
            if not isinstance(value, list | str):
                raise JqError(f"Cannot index {type_name(value)} with object")
            for bound in (start, end):
                if bound is not None and (type_name(bound) != "number" or bound != int(bound)):
                    raise NotSimulated("jq slice with a bound that is not an integer")
            if isinstance(value, str) and not value.isascii():
                raise NotSimulated("jq slice of non-ASCII text")
            yield value[None if start is None else int(start) : None if end is None else int(end)]


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
                yield arith(op, a, b)


def _safe(node: Any, value: Any) -> list[Any]:
    try:
        return list(_run(node, value))
    except JqError:
        return []


def _named(argv: list[str]) -> tuple[list[str], dict[str, Any]]:
    """argv without its `--arg NAME TEXT` and `--argjson NAME JSON`, and those values."""
    rest: list[str] = []
    named: dict[str, Any] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--arg", "--argjson") and i + 2 < len(argv):
            name, raw = argv[i + 1], argv[i + 2]
            if arg == "--arg":
                named[name] = raw
            else:
                try:
                    named[name] = json.loads(raw)
                except json.JSONDecodeError as exc:
                    raise NotSimulated("jq --argjson with text that is not JSON") from exc
            i += 3
            continue
        rest.append(arg)
        i += 1
    return rest, named


@program("jq", reads_files=True)
def jq(call: Call) -> CommandResult:
    argv, stdin, files = call.argv, call.stdin, call.files
    args, named = _named(argv[1:])
    argv = [argv[0], *args]
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
        tree = Parser(program, frozenset(named)).parse()
    except JqUndefined as exc:
        text = f"jq: error: {exc} at <top-level>, line 1:\n{program}\njq: 1 compile error\n"
        return CommandResult(stderr=text, exit_code=3)
    except JqSyntax as exc:
        if unbalanced(program):  # wrong in any jq: the compile error jq gives
            text = (
                "jq: error: syntax error, unexpected end of file (Unix shell quoting issues?) "
                f"at <top-level>, line 1:\n{program}\njq: 1 compile error\n"
            )
            return CommandResult(stderr=text, exit_code=3)
        # a program this parser does not read may well be valid jq: never an invented error
        raise NotSimulated(f"jq syntax: {exc}") from exc
    for name, value in named.items():
        tree = bind(tree, name, value)
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

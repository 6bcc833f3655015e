"""awk's evaluator: fields, variables, arrays and the statements of a parsed program.

Every expression evaluated is a step of the call's budget (sim/budget.py); strings it builds
(concatenation, `printf`, a record rebuilt from its fields) are checked before they are built,
and a field index past `Limits.fields` is mawk's "program limit exceeded"."""

from __future__ import annotations

import re
from typing import Any

from agentbench.sim.budget import WorkExceeded, current, format_size
from agentbench.sim.regex import compile_regex, search, translate


class AwkError(ValueError):
    """A syntax or run-time error; the message is what awk names."""


class Next(Exception):
    pass


def _num(value: Any) -> float:
    if isinstance(value, float):
        return value
    match = re.match(r"\s*[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", str(value))
    return float(match.group(0)) if match else 0.0


def _text(value: Any) -> str:
    if isinstance(value, float):
        return str(int(value)) if value == int(value) and abs(value) < 1e16 else f"{value:.6g}"
    return str(value)


def _looks_numeric(value: Any) -> bool:
    return isinstance(value, float) or bool(re.fullmatch(r"\s*[-+]?\d+(?:\.\d+)?\s*", str(value)))


class Machine:
    def __init__(self, sep: str | None, variables: dict[str, Any]) -> None:
        self.sep = sep
        self.vars: dict[str, Any] = {"NR": 0.0, "NF": 0.0, **variables}
        self.arrays: dict[str, dict[str, Any]] = {}
        self.fields: list[str] = [""]
        self.out: list[str] = []
        self.budget = current()

    def set_line(self, line: str) -> None:
        if self.sep is None or self.sep == " ":
            parts = line.split()
        elif len(self.sep) == 1:
            parts = line.split(self.sep)
        else:
            parts = compile_regex(self.sep).split(line)
        self.fields = [line, *parts]
        self.vars["NF"] = float(len(parts))

    def eval(self, node: Any) -> Any:
        self.budget.step()
        op = node[0]
        if op in ("num", "str"):
            return node[1]
        if op == "re":
            return float(bool(search(translate(node[1], extended=True), self.fields[0])))
        if op == "var":
            return self.vars.get(node[1], "")
        if op == "field":
            index = int(_num(self.eval(node[1])))
            return self.fields[index] if 0 <= index < len(self.fields) else ""
        if op == "index":
            return self.arrays.setdefault(node[1], {}).get(_text(self.eval(node[2])), "")
        if op == "assign":
            current = _num(self.eval(node[2]))
            value = self.eval(node[3])
            combined = {
                "=": value,
                "+=": current + _num(value),
                "-=": current - _num(value),
                "*=": current * _num(value),
                "/=": current / (_num(value) or 1.0),
            }[node[1]]
            self.store(node[2], combined)
            return combined
        if op in ("pre", "post"):
            old = _num(self.eval(node[2]))
            new = old + (1 if node[1] == "++" else -1)
            self.store(node[2], new)
            return new if op == "pre" else old
        if op == "!":
            return float(not self.truth(self.eval(node[1])))
        if op == "neg":
            return -_num(self.eval(node[1]))
        if op == "?:":
            return self.eval(node[2]) if self.truth(self.eval(node[1])) else self.eval(node[3])
        if op == "call":
            args = [self.eval(a) for a in node[2]]
            name = node[1]
            if name == "length":
                return float(len(_text(args[0]) if args else self.fields[0]))
            if name in ("tolower", "toupper"):
                return getattr(_text(args[0]), name[2:])()
            if name == "int":
                return float(int(_num(args[0])))
            raise AwkError(name)
        left, right = node[1], node[2]
        if op == "&&":
            return float(self.truth(self.eval(left)) and self.truth(self.eval(right)))
        if op == "||":
            return float(self.truth(self.eval(left)) or self.truth(self.eval(right)))
        if op in ("~", "!~"):
            pattern = right[1] if right[0] == "re" else _text(self.eval(right))
            hit = bool(search(translate(pattern, extended=True), _text(self.eval(left))))
            return float(hit == (op == "~"))
        a, b = self.eval(left), self.eval(right)
        if op == "concat":
            left_text, right_text = _text(a), _text(b)
            self.budget.value(len(left_text) + len(right_text), "a string")
            return self.budget.text(left_text + right_text)
        if op in ("+", "-", "*", "/", "%"):
            x, y = _num(a), _num(b)
            if op in ("/", "%") and y == 0:
                raise AwkError("division by zero")
            return {
                "+": x + y,
                "-": x - y,
                "*": x * y,
                "/": x / y if y else 0.0,
                "%": x % y if y else 0.0,
            }[op]
        if _looks_numeric(a) and _looks_numeric(b):
            x, y = _num(a), _num(b)
        else:
            x, y = _text(a), _text(b)  # type: ignore[assignment]
        return float(
            {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y, "==": x == y, "!=": x != y}[op]
        )

    def store(self, target: Any, value: Any) -> None:
        if target[0] == "var":
            self.vars[target[1]] = value
        elif target[0] == "index":
            self.arrays.setdefault(target[1], {})[_text(self.eval(target[2]))] = value
        elif target[0] == "field":
            index = int(_num(self.eval(target[1])))
            if index > self.budget.limits.fields:
                size = self.budget.limits.fields
                raise self.budget.fail(
                    WorkExceeded(
                        "fields", f"program limit exceeded: maximum number of fields size={size}", 2
                    )
                )
            if index < 0:
                raise AwkError(f"negative field index ${index}")
            if len(self.fields) <= index:
                self.fields += [""] * (index + 1 - len(self.fields))
            self.fields[index] = _text(value)
            self.budget.value(sum(map(len, self.fields)) + len(self.fields), "a record")
            self.fields[0] = self.budget.text(" ".join(self.fields[1:]))
        else:
            raise AwkError("assignment")

    @staticmethod
    def truth(value: Any) -> bool:
        if isinstance(value, float):
            return value != 0
        return value != "" and not (_looks_numeric(value) and _num(value) == 0)

    def run(self, stmts: list[Any]) -> None:
        for stmt in stmts:
            self.execute(stmt)

    def execute(self, stmt: Any) -> None:
        kind = stmt[0]
        if kind == "print":
            values = [self.eval(a) for a in stmt[1]] or [self.fields[0]]
            texts = [_text(v) for v in values]
            self.budget.value(sum(map(len, texts)) + len(texts), "a printed line")
            self.out.append(self.budget.text(" ".join(texts) + "\n"))
        elif kind == "printf":
            values = [self.eval(a) for a in stmt[1]]
            fmt = _text(values[0]).replace("%i", "%d")
            args = tuple(
                _num(v) if re.search(r"%[-\d.]*[dfeg]", fmt) and _looks_numeric(v) else _text(v)
                for v in values[1:]
            )
            fixed = tuple(int(a) if isinstance(a, float) and "%d" in fmt else a for a in args)
            self.budget.value(format_size(fmt, fixed), "a printf result")
            self.out.append(self.budget.text(fmt % fixed if fixed else fmt))
        elif kind == "next":
            raise Next
        elif kind == "block":
            self.run(stmt[1])
        elif kind == "if":
            branch = stmt[2] if self.truth(self.eval(stmt[1])) else stmt[3]
            if branch is not None:
                self.execute(branch)
        elif kind == "for":
            for key in list(self.arrays.get(stmt[2], {})):
                self.vars[stmt[1]] = key
                self.execute(stmt[3])
        else:
            self.eval(stmt[1])

"""awk's evaluator: fields, variables, arrays and the statements of a parsed program.

Every expression evaluated is a step of the call's budget (sim/core/budget.py); strings it builds
(concatenation, `printf`, a record rebuilt from its fields) are checked before they are built,
and a field index past `Limits.fields` is mawk's "program limit exceeded"."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from agentbench.sim.core.base import NotSimulated
from agentbench.sim.core.budget import WorkExceeded, current
from agentbench.sim.core.regex import compile_regex, search, translate
from agentbench.sim.text.awk.builtins import sprintf
from agentbench.sim.text.awk.values import UNINIT, AwkError, StrNum, looks_numeric, num, text


class Next(Exception):
    pass


class Exit(Exception):
    """`exit [CODE]`: the main rules stop; END still runs unless it was END that exited."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


Functions = Callable[["Machine", str, list[Any]], Any]


class Machine:
    def __init__(self, sep: str | None, variables: dict[str, Any], functions: Functions) -> None:
        self.sep = sep
        self.functions = functions
        self.budget = current()
        self.vars: dict[str, Any] = {"NR": 0.0, "NF": 0.0, "FNR": 0.0, "FILENAME": "", **variables}
        if sep is not None:
            self.vars["FS"] = sep
        self.arrays: dict[str, dict[str, Any]] = {}
        self.fields: list[str] = [""]
        self.out: list[str] = []

    def field_separator(self) -> str:
        return text(self.vars.get("FS", " "))

    def split_fields(self, line: str, sep: str) -> list[str]:
        """Fields as awk splits them: blanks by default, one other character literally, a
        longer separator as an extended regex."""
        if sep == " ":
            return line.split()
        if len(sep) == 1 and sep != "\\":
            return line.split(sep) if line else []
        return compile_regex(translate(sep, extended=True)).split(line) if line else []

    def record(self, line: str) -> None:
        """$0 set (a new record, or assigned): fields and NF follow it."""
        parts = [StrNum(p) for p in self.split_fields(line, self.field_separator())]
        self.fields = [StrNum(line), *parts]
        self.vars["NF"] = float(len(parts))

    def set_line(self, line: str) -> None:
        self.record(line)

    def eval(self, node: Any) -> Any:
        self.budget.step()
        op = node[0]
        if op in ("num", "str"):
            return node[1]
        if op == "re":
            return float(bool(search(translate(node[1], extended=True), self.fields[0])))
        if op == "var":
            return self.vars.get(node[1], UNINIT)
        if op == "field":
            index = int(num(self.eval(node[1])))
            return self.fields[index] if 0 <= index < len(self.fields) else ""
        if op == "index":
            return self.arrays.setdefault(node[1], {}).get(text(self.eval(node[2])), UNINIT)
        if op == "assign":
            current = num(self.eval(node[2]))
            value = self.eval(node[3])
            combined = {
                "=": value,
                "+=": current + num(value),
                "-=": current - num(value),
                "*=": current * num(value),
                "/=": current / (num(value) or 1.0),
            }[node[1]]
            self.store(node[2], combined)
            return combined
        if op in ("pre", "post"):
            old = num(self.eval(node[2]))
            new = old + (1 if node[1] == "++" else -1)
            self.store(node[2], new)
            return new if op == "pre" else old
        if op == "!":
            return float(not self.truth(self.eval(node[1])))
        if op == "neg":
            return -num(self.eval(node[1]))
        if op == "?:":
            return self.eval(node[2]) if self.truth(self.eval(node[1])) else self.eval(node[3])
        if op == "call":
            return self.functions(self, node[1], node[2])
        left, right = node[1], node[2]
        if op == "&&":
            return float(self.truth(self.eval(left)) and self.truth(self.eval(right)))
        if op == "||":
            return float(self.truth(self.eval(left)) or self.truth(self.eval(right)))
        if op in ("~", "!~"):
            pattern = right[1] if right[0] == "re" else text(self.eval(right))
            hit = bool(search(translate(pattern, extended=True), text(self.eval(left))))
            return float(hit == (op == "~"))
        a, b = self.eval(left), self.eval(right)
        if op == "concat":
            left_text, right_text = text(a), text(b)
            self.budget.value(len(left_text) + len(right_text), "a string")
            return self.budget.text(left_text + right_text)
        if op in ("+", "-", "*", "/", "%"):
            x, y = num(a), num(b)
            if op in ("/", "%") and y == 0:
                raise AwkError("division by zero")
            return {
                "+": x + y,
                "-": x - y,
                "*": x * y,
                "/": x / y if y else 0.0,
                "%": math.fmod(x, y) if y else 0.0,
            }[op]
        if op == "^":
            try:
                return float(num(a) ** num(b))
            except (OverflowError, ZeroDivisionError, TypeError) as exc:
                raise NotSimulated("awk ^ past a double") from exc
        if looks_numeric(a) and looks_numeric(b):
            x, y = num(a), num(b)
        else:
            x, y = text(a), text(b)  # type: ignore[assignment]
        return float(
            {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y, "==": x == y, "!=": x != y}[op]
        )

    def loop(self, stmt: Any) -> None:
        """while (C) S; do S while (C); for (INIT; C; STEP) S."""
        kind = stmt[0]
        if kind == "loop" and stmt[1] is not None:
            self.eval(stmt[1])
        cond = stmt[2] if kind == "loop" else stmt[1]
        body = stmt[4] if kind == "loop" else stmt[2]
        turn = 0
        while True:  # an endless loop ends at the call's step budget, as a real one is killed
            self.budget.step()
            if (kind != "do" or turn) and cond is not None and not self.truth(self.eval(cond)):
                return
            self.execute(body)
            if kind == "loop" and stmt[3] is not None:
                self.eval(stmt[3])
            turn += 1

    def store(self, target: Any, value: Any) -> None:
        if target[0] == "var":
            self.vars[target[1]] = value
        elif target[0] == "index":
            self.arrays.setdefault(target[1], {})[text(self.eval(target[2]))] = value
        elif target[0] == "field":
            index = int(num(self.eval(target[1])))
            if index == 0:
                self.record(text(value))
                return
            if index > self.budget.limits.fields:
                size = self.budget.limits.fields
                raise self.budget.fail(
                    WorkExceeded(
                        "fields", f"program limit exceeded: maximum number of fields size={size}", 2
                    )
                )
            if index < 0:
                raise NotSimulated("awk negative field index")
            if len(self.fields) <= index:
                self.fields += [""] * (index + 1 - len(self.fields))
            self.fields[index] = text(value)
            self.vars["NF"] = float(len(self.fields) - 1)
            self.budget.value(sum(map(len, self.fields)) + len(self.fields), "a record")
            separator = text(self.vars.get("OFS", " "))
            self.fields[0] = self.budget.text(separator.join(self.fields[1:]))
        else:
            raise AwkError("assignment")

    @staticmethod
    def truth(value: Any) -> bool:
        if isinstance(value, float):
            return value != 0
        return value != "" and not (looks_numeric(value) and num(value) == 0)

    def run(self, stmts: list[Any]) -> None:
        for stmt in stmts:
            self.execute(stmt)

    def execute(self, stmt: Any) -> None:
        kind = stmt[0]
        if kind == "print":
            values = [self.eval(a) for a in stmt[1]] or [self.fields[0]]
            separator, end = text(self.vars.get("OFS", " ")), text(self.vars.get("ORS", "\n"))
            texts = [text(v) for v in values]
            size = sum(map(len, texts)) + len(separator) * len(texts) + len(end)
            self.budget.value(size, "a printed line")
            self.out.append(self.budget.text(separator.join(texts) + end))
        elif kind == "printf":
            self.out.append(self.budget.text(sprintf([self.eval(a) for a in stmt[1]])))
        elif kind == "next":
            raise Next
        elif kind == "block":
            self.run(stmt[1])
        elif kind == "if":
            branch = stmt[2] if self.truth(self.eval(stmt[1])) else stmt[3]
            if branch is not None:
                self.execute(branch)
        elif kind == "for":
            keys = list(self.arrays.get(stmt[2], {}))
            if len(keys) > 1:  # GNU awk's order is its hash table's, not insertion order
                raise NotSimulated("awk for (key in array) over more than one key (its order)")
            for key in keys:
                self.vars[stmt[1]] = StrNum(key)
                self.execute(stmt[3])
        elif kind in ("while", "do", "loop"):
            self.loop(stmt)
        elif kind == "exit":
            raise Exit(int(num(self.eval(stmt[1]))) if stmt[1] is not None else 0)
        elif kind == "delete":
            if stmt[2] is None:
                self.arrays[stmt[1]] = {}
            else:
                self.arrays.setdefault(stmt[1], {}).pop(text(self.eval(stmt[2])), None)
        else:
            self.eval(stmt[1])

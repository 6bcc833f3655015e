"""Parsing a command line into the shell syntax tree (shell/ast.py) with tree-sitter-bash.

tree-sitter is only a parser here: it reads the line's text and nothing is executed. Its tree
is converted into our own small tree so the executor and the static readers depend on one
shape; constructs the simulator does not carry out become `Unsupported` nodes or `Opaque` word
parts (reported as not simulated when reached). Two known quirks of the grammar are repaired:
words after a redirect target (`cmd 2>/dev/null arg`) belong to the command, and a heredoc's
redirect node swallows the rest of its pipeline or list (`cat <<EOF | grep x`).
"""

from __future__ import annotations

import threading
from dataclasses import replace
from functools import lru_cache
from typing import Any

import tree_sitter_bash
from tree_sitter import Language, Parser

from agentbench.sim.shell.ast import (
    Case,
    Command,
    Declare,
    For,
    Group,
    If,
    LineTooComplex,
    Lit,
    Node,
    Param,
    Part,
    Pipeline,
    Redirect,
    Redirected,
    Sequence,
    ShellSyntaxError,
    Subst,
    Unsupported,
    While,
    Word,
)
from agentbench.sim.shell.parse_checks import syntax_message, tree_depth
from agentbench.sim.shell.words_parse import word_of

_PARSER = Parser(Language(tree_sitter_bash.language()))
_PARSER_LOCK = threading.Lock()  # tool calls may run on worker threads; one parser, one at a time
MAX_LINE_BYTES = 64_000  # longer: not simulated (no real agent line is this long)
MAX_TREE_DEPTH = 150  # deeper nesting: not simulated (converting and walking recurse)
_SKIP = frozenset({"comment", ";", "&", "\n", "do", "done", "then", "fi", "{", "}", "(", ")"})
_TEST_EXPRESSIONS = frozenset({"unary_expression", "binary_expression", "parenthesized_expression"})
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})


@lru_cache(maxsize=512)
def parse(line: str) -> Node:
    """The syntax tree of `line`; ShellSyntaxError (bash's message) when it does not parse."""
    source = line.encode()
    if len(source) > MAX_LINE_BYTES:
        raise LineTooComplex(f"a command line of {len(source)} bytes")
    with _PARSER_LOCK:
        root = _PARSER.parse(source).root_node
    if root.has_error:
        raise ShellSyntaxError(syntax_message(root))
    if tree_depth(root, MAX_TREE_DEPTH) > MAX_TREE_DEPTH:
        raise LineTooComplex(f"nesting deeper than {MAX_TREE_DEPTH}")
    return _Converter(source).statements(root.children)


def _quoted(part: Part) -> Part:
    if isinstance(part, Lit | Param | Subst):
        return replace(part, quoted=True)
    return part


class _Converter:
    def __init__(self, source: bytes) -> None:
        self.source = source

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode(errors="replace")

    def statements(self, children: list[Any]) -> Node:
        items: list[tuple[str, Node]] = []
        connector = ""
        for child in children:
            if child.type in (";", "&", "\n"):
                connector = ";"
            elif child.type not in _SKIP and child.is_named:
                items.append((connector, self.node(child)))
                connector = ";"
        return items[0][1] if len(items) == 1 else Sequence(tuple(items))

    def node(self, node: Any) -> Node:
        kind = node.type
        if kind == "command":
            return self.command(node, [])
        if kind == "variable_assignment":
            name, value = self.assignment(node)
            return Command(((name, value),), (), (), self.text(node))
        if kind == "redirected_statement":
            return self.redirected(node)
        if kind == "pipeline":
            return self.pipeline(node)
        if kind == "negated_command":
            inner = self.statements(node.children)
            if isinstance(inner, Pipeline):
                return Pipeline(inner.stages, negated=True, both=inner.both)
            return Pipeline((inner,), negated=True)
        if kind == "list":
            return self.and_or(node)
        if kind in ("subshell", "compound_statement"):
            return Group(self.statements(node.children), subshell=kind == "subshell")
        if kind == "do_group":
            return self.statements(node.children)
        if kind == "for_statement":
            return self.for_loop(node)
        if kind == "while_statement":
            cond = self.statements(node.children_by_field_name("condition"))
            body = node.child_by_field_name("body")
            until = node.children[0].type == "until"
            return While(cond, self.node(body), until=until)
        if kind == "if_statement":
            return self.if_statement(node)
        if kind == "case_statement":
            return self.case(node)
        if kind in ("declaration_command", "unset_command"):
            return self.declaration(node)
        if kind == "test_command":
            return self.test(node)
        return Unsupported(kind, self.text(node))

    def test(self, node: Any) -> Node:
        """`[ … ]` is the program `[`. `[[ … ]]` becomes `[` commands joined by its `&&`/`||`
        when it only uses what `[` means the same way: no glob patterns on the right of `==`,
        no `=~`, no `<`/`>` (those are not simulated)."""
        inner = node.children[1:-1]
        if node.children[0].type != "[[":
            return self._test_words(inner, node, double=False)
        if len(inner) == 1 and inner[0].type == "binary_expression":
            op = next((c for c in inner[0].children if c.type in ("&&", "||")), None)
            if op is not None:
                parts = [c for c in inner[0].children if c is not op]
                items = tuple(
                    (connector, self._test_words([part], node, double=True))
                    for connector, part in zip(("", op.type), parts, strict=True)
                )
                return Sequence(items)
        return self._test_words(inner, node, double=True)

    def _test_words(self, children: list[Any], node: Any, *, double: bool) -> Node:
        words: list[Word] = [Word.literal("[")]
        stack = list(reversed(children))
        while stack:
            child = stack.pop()
            if child.type in _TEST_EXPRESSIONS:
                if double and any(c.type in ("&&", "||") for c in child.children):
                    return Unsupported("[[ … ]]", self.text(node))
                stack += list(reversed(child.children))
            elif child.type == "extglob_pattern":
                if any(c in self.text(child) for c in "*?[+@!("):
                    return Unsupported("[[ … ]] pattern", self.text(node))
                words.append(Word.literal(self.text(child)))
            elif child.is_named and child.type not in ("test_operator", "regex"):
                word = self.word(child)
                if double:  # `[[` neither splits nor globs its words
                    word = Word(tuple(_quoted(p) for p in word.parts), word.text)
                words.append(word)
            elif double and child.type in ("=~", "regex", "<", ">"):
                return Unsupported("[[ … ]]", self.text(node))
            else:
                text = self.text(child)
                words.append(Word.literal("=" if text == "==" else text))
        words.append(Word.literal("]"))
        return Command((), tuple(words), (), self.text(node))

    def word(self, node: Any) -> Word:
        return word_of(node, self)

    def assignment(self, node: Any) -> tuple[str, Word]:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or name.type != "variable_name":
            return "", Word((), self.text(node))  # `a[1]=x`: reported when run
        if value is None:
            return self.text(name), Word((), "")
        if value.type == "array":
            return "", Word((), self.text(node))
        return self.text(name), self.word(value)

    def command(self, node: Any, redirects: list[Redirect]) -> Command:
        assigns: list[tuple[str, Word]] = []
        words: list[Word] = []
        own: list[Redirect] = []
        for child in node.named_children:
            if child.type == "variable_assignment":
                assigns.append(self.assignment(child))
            elif child.type == "command_name":
                words.append(self.word(child.named_children[0]))
            elif child.type in _REDIRECTS:
                own += self.redirect(child, words)
            elif child.type != "comment":
                words.append(self.word(child))
        return Command(tuple(assigns), tuple(words), tuple(own + redirects), self.text(node))

    def redirect(self, node: Any, words: list[Word]) -> list[Redirect]:
        """The redirect(s) of one node; words the grammar hung on it go to `words`."""
        fd_node = node.child_by_field_name("descriptor")
        fd = int(self.text(fd_node)) if fd_node is not None else None
        op = next((c.type for c in node.children if not c.is_named), "")
        if node.type == "heredoc_redirect":
            return self.heredoc(node, fd, words)
        targets = [c for c in node.named_children if c.type != "file_descriptor"]
        if not targets:
            return []
        words += [self.word(extra) for extra in targets[1:]]
        return [Redirect(op, self.word(targets[0]), fd)]

    def heredoc(self, node: Any, fd: int | None, words: list[Word]) -> list[Redirect]:
        start = next(c for c in node.children if c.type == "heredoc_start")
        body = next((c for c in node.children if c.type == "heredoc_body"), None)
        quoted = any(q in self.text(start) for q in "'\"\\")
        strip_tabs = any(c.type == "<<-" for c in node.children)
        text = word_of(body, self, heredoc=True) if body is not None and not quoted else None
        raw = self.text(body) if body is not None else ""
        if text is None:
            text = Word.literal(raw)
        out = [Redirect("<<-" if strip_tabs else "<<", text, fd)]
        for child in node.named_children:
            if child.type in _REDIRECTS:
                out += self.redirect(child, words)
        return out

    def redirected(self, node: Any) -> Node:
        body = node.child_by_field_name("body")
        redirects: list[Redirect] = []
        extra: list[Word] = []
        tail: list[tuple[str, Any]] = []  # what a heredoc node swallowed: (connector, node)
        for child in node.children:
            if child.type in _REDIRECTS:
                redirects += self.redirect(child, extra)
                if child.type == "heredoc_redirect":
                    tail += self._heredoc_tail(child)
        if body is None:
            inner: Node = Command((), tuple(extra), tuple(redirects), self.text(node))
        elif body.type == "command":
            gap = self.source[body.end_byte : node.children[1].start_byte].decode()
            gap_words = [Word.literal(w) for w in gap.split()]  # `-f - <<EOF` loses its `-`
            command = self.command(body, [])
            inner = Command(
                command.assigns,
                command.words + tuple(gap_words) + tuple(extra),
                command.redirects + tuple(redirects),
                self.text(node),
            )
        elif body.type in ("list", "pipeline"):
            # tree-sitter hangs `a && b > f` and `a | b > f` on the whole list; bash gives the
            # redirect to the last command only (`false && : > f` writes nothing)
            inner = _onto_last(self.node(body), tuple(redirects))
        else:
            inner = Redirected(self.node(body), tuple(redirects))
        for connector, rest in tail:
            if connector == "|":
                stages = rest.stages if isinstance(rest, Pipeline) else (rest,)
                inner = Pipeline((inner, *stages))
            else:
                inner = Sequence((("", inner), (connector, rest)))
        return inner

    def _heredoc_tail(self, node: Any) -> list[tuple[str, Node]]:
        out: list[tuple[str, Node]] = []
        connector = ""
        for child in node.children:
            if child.type in ("&&", "||", ";", "|"):
                connector = child.type
            elif child.type == "pipeline":
                out.append(("|", self.pipeline(child)))
            elif (
                child.is_named
                and child.type not in _REDIRECTS
                and child.type
                not in (
                    "heredoc_start",
                    "heredoc_body",
                    "heredoc_end",
                )
            ):
                out.append((connector or ";", self.node(child)))
        return out

    def pipeline(self, node: Any) -> Pipeline:
        stages: list[Node] = []
        both: list[bool] = []
        for child in node.children:
            if child.type in ("|", "|&"):
                both.append(child.type == "|&")
            elif child.is_named and child.type != "comment":
                stages.append(self.node(child))
        if node.children and node.children[0].type == "|":  # the heredoc tail's pipe
            both = both[1:]
        return Pipeline(tuple(stages), both=tuple(both))

    def and_or(self, node: Any) -> Node:
        items: list[tuple[str, Node]] = []
        connector = ""
        for child in node.children:
            if child.type in ("&&", "||"):
                connector = child.type
            elif child.is_named and child.type != "comment":
                part = self.node(child)
                if isinstance(part, Sequence) and child.type == "list":
                    items += [(connector, part.items[0][1]), *part.items[1:]]
                else:
                    items.append((connector, part))
        return Sequence(tuple(items))

    def for_loop(self, node: Any) -> Node:
        var = node.child_by_field_name("variable")
        values = node.children_by_field_name("value")
        body = node.child_by_field_name("body")
        if var is None or body is None or not any(c.type == "in" for c in node.children):
            return Unsupported("for without in", self.text(node))
        return For(self.text(var), tuple(self.word(v) for v in values), self.node(body))

    def if_statement(self, node: Any) -> Node:
        arms: list[tuple[Node, Node]] = []
        otherwise: Node | None = None
        for part in [node, *(c for c in node.children if c.type in ("elif_clause", "else_clause"))]:
            cond: list[Any] = []
            body: list[Any] = []
            target = body if part.type == "else_clause" else cond
            for child in part.children:
                if child.type == "then":
                    target = body
                elif child.type not in ("elif_clause", "else_clause", "if", "elif", "else"):
                    target.append(child)
            if part.type == "else_clause":
                otherwise = self.statements(body)
            else:
                arms.append((self.statements(cond), self.statements(body)))
        return If(tuple(arms), otherwise)

    def case(self, node: Any) -> Node:
        subject = node.child_by_field_name("value")
        arms: list[tuple[tuple[Word, ...], Node]] = []
        for item in (c for c in node.children if c.type == "case_item"):
            if any(c.type in (";&", ";;&") for c in item.children):
                return Unsupported("case fall-through", self.text(node))
            patterns: list[Word] = []
            body: list[Any] = []
            seen_paren = False
            for child in item.children:
                if child.type == ")" and not seen_paren:
                    seen_paren = True
                elif not seen_paren and child.is_named:
                    patterns.append(self.word(child))
                elif seen_paren:
                    body.append(child)
            arms.append((tuple(patterns), self.statements(body)))
        if subject is None:
            return Unsupported("case", self.text(node))
        return Case(self.word(subject), tuple(arms))

    def declaration(self, node: Any) -> Node:
        keyword = node.children[0].type
        names: list[tuple[str, Word | None]] = []
        for child in node.named_children:
            if child.type == "variable_assignment":
                name, value = self.assignment(child)
                names.append((name, value))
            elif child.type == "variable_name" or child.type == "word":
                text = self.text(child)
                if text.startswith("-") and text != "-p":
                    return Unsupported(f"{keyword} {text}", self.text(node))
                names.append((text, None))
            else:
                return Unsupported(keyword, self.text(node))
        return Declare(keyword, tuple(names))


def _onto_last(node: Node, redirects: tuple[Redirect, ...]) -> Node:
    """The list or pipeline with the redirects on its last command."""
    if isinstance(node, Sequence) and node.items:
        connector, last = node.items[-1]
        return Sequence((*node.items[:-1], (connector, _onto_last(last, redirects))))
    if isinstance(node, Pipeline) and node.stages:
        return replace(node, stages=(*node.stages[:-1], _onto_last(node.stages[-1], redirects)))
    if isinstance(node, Command):
        return replace(node, redirects=node.redirects + redirects)
    return Redirected(node, redirects)

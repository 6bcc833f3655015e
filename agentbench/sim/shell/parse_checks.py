"""Reading a tree-sitter-bash tree before it is converted: bash's message for its first syntax
error, and its depth (the front end refuses lines nested past its bound)."""

from __future__ import annotations

from typing import Any


def syntax_message(root: Any) -> str:
    """bash's wording for the first error in the tree."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            return "bash: syntax error: unexpected end of file"
        if node.type == "ERROR":
            text = node.text.decode(errors="replace").lstrip()
            for quote in ("'", '"', "`"):
                if text.startswith(quote) or text.startswith("$" + quote):
                    return f"bash: unexpected EOF while looking for matching `{quote}'"
            token = text.split()[0] if text.split() else "newline"
            for op in ("&&", "||", ";;", "|", ";", "&", ")", "}"):
                if token.startswith(op):
                    token = op
                    break
            return f"bash: syntax error near unexpected token `{token}'"
        stack += reversed(node.children)
    return "bash: syntax error"


def tree_depth(root: Any, limit: int) -> int:
    """The depth of the tree, counting stops once past `limit` (iterative: a hostile line
    nests thousands deep)."""
    deepest = 0
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            break
        stack += [(child, depth + 1) for child in node.children]
    return deepest

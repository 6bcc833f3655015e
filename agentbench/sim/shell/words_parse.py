"""Shell words from tree-sitter nodes: quoting, escapes and expansions kept as parts.

bash's quoting rules decide the parts: unquoted text loses its backslashes (an escaped
character is literal, never globbed); '…' is literal; "…" keeps `\\` only before `$`, `` ` ``,
`"`, `\\` and newline; $'…' decodes C escapes; a heredoc body expands like "…" but keeps `"`.
"""

from __future__ import annotations

import codecs
import re
from typing import TYPE_CHECKING, Any

from agentbench.sim.shell.ast import Lit, Opaque, Param, Part, Subst, Word

if TYPE_CHECKING:
    from agentbench.sim.shell.parse import _Converter

_PARAM_OPS = frozenset({":-", "-", ":=", "=", ":+", "+"})
_SPECIAL = frozenset({"?", "$", "#", "0", "!", "-"})


def word_of(node: Any, conv: _Converter, *, heredoc: bool = False) -> Word:
    parts: list[Part] = []
    _parts(node, conv, parts, quoted=heredoc, heredoc=heredoc)
    return Word(tuple(_merge(parts)), conv.text(node))


def _parts(node: Any, conv: _Converter, out: list[Part], *, quoted: bool, heredoc: bool) -> None:
    kind = node.type
    if kind in ("word", "number", "extglob_pattern", "special_variable_name", "variable_name"):
        text = conv.text(node)
        if quoted:
            out.append(Lit(_unescape_double(text, heredoc), quoted=True))
        else:
            _unquoted(text, out)
    elif kind == "raw_string":
        out.append(Lit(conv.text(node)[1:-1], quoted=True))
    elif kind == "ansi_c_string":
        out.append(Lit(_ansi_c(conv.text(node)[2:-1]), quoted=True))
    elif kind in ("string", "translated_string", "heredoc_body"):
        _inside(node, conv, out, heredoc=heredoc)
    elif kind == "concatenation":
        for child in node.children:
            _parts(child, conv, out, quoted=quoted, heredoc=heredoc)
    elif kind == "simple_expansion":
        name = node.named_children[0] if node.named_children else None
        text = conv.text(name) if name is not None else ""
        if text and (text[0].isalpha() or text[0] == "_" or text in _SPECIAL):
            out.append(Param(text, quoted=quoted))
        else:
            out.append(Opaque("positional parameter", conv.text(node)))
    elif kind == "expansion":
        out.append(_expansion(node, conv, quoted, heredoc))
    elif kind == "command_substitution":
        body = [c for c in node.children if c.type not in ("$(", ")", "`")]
        out.append(Subst(conv.statements(body), quoted=quoted))
    elif kind in ("heredoc_content", "string_content"):
        out.append(Lit(_unescape_double(conv.text(node), heredoc), quoted=True))
    else:  # arithmetic, process substitution, brace expansion, arrays ...
        out.append(Opaque(kind.replace("_", " "), conv.text(node)))


def _inside(node: Any, conv: _Converter, out: list[Part], *, heredoc: bool) -> None:
    """The parts of "…" or a heredoc body: children, and the literal text between them."""
    first = len(out)
    start = node.start_byte + (0 if heredoc else 1)
    end = node.end_byte - (0 if heredoc else 1)
    cursor = start
    for child in node.children:
        if child.type == '"' or child.start_byte < cursor:
            continue
        if child.start_byte > cursor:
            gap = conv.source[cursor : child.start_byte].decode(errors="replace")
            out.append(Lit(_unescape_double(gap, heredoc), quoted=True))
        _parts(child, conv, out, quoted=True, heredoc=heredoc)
        cursor = child.end_byte
    if end > cursor:
        gap = conv.source[cursor:end].decode(errors="replace")
        out.append(Lit(_unescape_double(gap, heredoc), quoted=True))
    if len(out) == first:  # "" is one empty word
        out.append(Lit("", quoted=True))


def _expansion(node: Any, conv: _Converter, quoted: bool, heredoc: bool) -> Part:
    inner = [c for c in node.children if c.type not in ("${", "}")]
    if len(inner) == 1 and inner[0].type in ("variable_name", "special_variable_name"):
        return Param(conv.text(inner[0]), quoted=quoted)
    if len(inner) == 2 and inner[0].type == "#" and inner[1].type == "variable_name":
        return Param(conv.text(inner[1]), quoted=quoted, op="#")
    if len(inner) in (2, 3) and inner[0].type == "variable_name" and inner[1].type in _PARAM_OPS:
        arg: Word | None = None
        if len(inner) == 3:
            parts: list[Part] = []
            _parts(inner[2], conv, parts, quoted=quoted, heredoc=heredoc)
            arg = Word(tuple(_merge(parts)), conv.text(inner[2]))
        return Param(conv.text(inner[0]), quoted=quoted, op=inner[1].type, arg=arg or Word((), ""))
    return Opaque("parameter expansion", conv.text(node))


def _unquoted(text: str, out: list[Part]) -> None:
    """Unquoted text: `\\x` is a quoted x, `\\<newline>` disappears."""
    for index, piece in enumerate(re.split(r"(\\.|\\$)", text, flags=re.S)):
        if index % 2 == 0:
            if piece:
                out.append(Lit(piece))
        elif piece != "\\\n":
            out.append(Lit(piece[1:], quoted=True))


def _unescape_double(text: str, heredoc: bool) -> str:
    specials = "$`\\\n" if heredoc else '$`"\\\n'
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in specials:
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _ansi_c(body: str) -> str:
    try:
        return codecs.decode(body.replace("\\'", "'"), "unicode_escape")
    except UnicodeDecodeError:
        return body


def _merge(parts: list[Part]) -> list[Part]:
    """Adjacent literals of the same quoting as one."""
    out: list[Part] = []
    for part in parts:
        last = out[-1] if out else None
        if isinstance(part, Lit) and isinstance(last, Lit) and last.quoted == part.quoted:
            out[-1] = Lit(last.text + part.text, part.quoted)
        else:
            out.append(part)
    return out

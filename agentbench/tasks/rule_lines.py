"""A shell line of plain commands joined by `&&`, `||` or `;`, split into its commands, so a
task's rules (each written for one command) answer `nginx -t && systemctl reload nginx` as
bash would run it: each command in turn, `&&` skipping after a failure, `||` after a success."""

from __future__ import annotations

from agentbench.sim.shell.ast import Command, Lit, Node, Part, Sequence, ShellSyntaxError
from agentbench.sim.shell.parse import parse


def list_parts(line: str) -> list[tuple[str, str]] | None:
    """[(connector, command text)] for a list of at least two plain commands (the first
    connector is ""); None for anything else (one command, a pipeline, a loop, a
    substitution, a redirect: those are the simulators' or the whole line's rules')."""
    try:
        node = parse(line)
    except (ShellSyntaxError, ValueError):
        return None
    parts: list[tuple[str, str]] = []
    if not _flatten(node, "", parts) or len(parts) < 2:
        return None
    return parts


def _flatten(node: Node, connector: str, out: list[tuple[str, str]]) -> bool:
    if isinstance(node, Sequence):
        for index, (joint, item) in enumerate(node.items):
            if joint == "&":  # a background job: not a plain list
                return False
            if not _flatten(item, connector if index == 0 else joint, out):
                return False
        return True
    if isinstance(node, Command) and node.words and not node.redirects and not node.assigns:
        if any(not _plain(w.parts) for w in node.words):
            return False
        out.append((connector, node.text))
        return True
    return False


def _plain(parts: tuple[Part, ...]) -> bool:
    return all(isinstance(p, Lit) for p in parts)


def runs(connector: str, last_code: int) -> bool:
    """Whether the command after `connector` runs, given the exit status so far."""
    return not ((connector == "&&" and last_code != 0) or (connector == "||" and last_code == 0))

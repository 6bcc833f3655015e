"""Process checks by evidence and effect: what the episode's reads showed, where its plan ended,
and every write it attempted (expect.evidence, expect.final, expect.changes).

A required read is the facts its output must show, looked up in the outputs the episode
actually received, never in the command text; a plan is the reads of its end state plus the
order of the changes that matter; a write is judged by intent, so one the simulator could not
carry out still counts.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from fnmatch import fnmatchcase

from agentbench.scoring.facts import Attempt, CallFact, change_matches
from agentbench.sim.core.base import Change
from agentbench.tasks.expectations import (
    AttemptPattern,
    ChangePattern,
    ChangesExpectation,
    Evidence,
    Shown,
)
from agentbench.tasks.matching import shell_commands

# Sources whose text is not the environment speaking: nothing read there is evidence.
_NOT_EVIDENCE = frozenset({"fallback", "runtime_error"})
_ECHOES = frozenset({"echo", "printf"})
# The system whose recorded change carries out a write by this program (default: filesystem).
_SYSTEMS = {
    "kubectl": "kubernetes",
    "oc": "kubernetes",
    "helm": "kubernetes",
    "systemctl": "systemd",
    "service": "systemd",
    "sql": "sql",
    "psql": "sql",
    "mysql": "sql",
    "sqlite3": "sql",
    "duckdb": "sql",
    "curl": "http",
    "wget": "http",
    "http": "http",
}


def normalise(text: str) -> str:
    return exact_text(text).casefold()


def fact_in(fact: Shown, text: str, exact: bool = False) -> bool:
    """Whether normalised `text` shows the fact (any of its alternative spellings); `exact`:
    letter case counts, in text whose whitespace alone is normalised (`exact_text`)."""
    options = [fact] if isinstance(fact, str) else fact
    if exact:
        return any(exact_text(option) in text for option in options)
    return any(normalise(option) in text for option in options)


def exact_text(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def shows(call: CallFact, facts: list[Shown], absent: list[Shown] | None = None) -> bool:
    """Whether this call's output showed every fact (and none of `absent`), as the
    environment said it."""
    if call.source in _NOT_EVIDENCE or not facts:
        return False
    output = normalise(call.output)
    echoed = normalise(call.command_text()) if _echoes(call) else ""
    if any(fact_in(f, output) for f in absent or []):
        return False
    printed = [fact_in(f, output) and not (echoed and fact_in(f, echoed)) for f in facts]
    if all(printed) or not any(printed):
        return all(printed)
    # what the read was of: `kubectl describe node worker-7 | grep -A6 Conditions` printed the
    # conditions without the node's name, which its own arguments give
    targets = _targets(call)
    return all(p or _named(f, targets) for p, f in zip(printed, facts, strict=True))


_FILTERS = frozenset(
    {"grep", "egrep", "awk", "sed", "head", "tail", "jq", "sort", "uniq", "cut", "wc", "tr"}
)


def _targets(call: CallFact) -> set[str]:
    """The arguments of the call's reading commands (filters and echoes left out), casefolded."""
    words: set[str] = set()
    for value in (call.args or {}).values():
        if not isinstance(value, str):
            continue
        for command in shell_commands(value):
            parts = command.split()
            if parts and parts[0] == "sudo":
                parts = parts[1:]
            if parts and parts[0] not in _FILTERS and parts[0] not in _ECHOES:
                words |= {w.strip("'\"").casefold() for w in parts[1:] if not w.startswith("-")}
    return words


def _named(fact: Shown, targets: set[str]) -> bool:
    """Whether the fact is one of the read's own arguments: the thing it read."""
    options = [fact] if isinstance(fact, str) else fact
    return any(normalise(option) in targets for option in options)


def _echoes(call: CallFact) -> bool:
    """Whether a command of the call's line prints its own arguments (`echo`, `printf`)."""
    for value in (call.args or {}).values():
        if isinstance(value, str):
            for command in shell_commands(value):
                words = command.split()
                if words and words[0] in _ECHOES:
                    return True
    return False


_NOTHING = re.compile(r"no resources found|not found|no such|doesn't exist|does not exist", re.I)


def _read_words(call: CallFact) -> tuple[str, ...]:
    """The call's tool and the first three words of its first text argument: the read it is
    (`run_command kubectl get pods`)."""
    text = next((v for v in (call.args or {}).values() if isinstance(v, str)), "")
    return (call.tool, *text.split()[:3])


def _started_there(calls: list[CallFact], index: int) -> bool:
    """Whether every call before `index` was the same read, failed or found nothing (`kubectl
    get pods` in the default namespace, then `kubectl get pods -n web`): the episode started
    with the read a `first` item asks for."""
    words = _read_words(calls[index])
    return all(
        _read_words(c) == words and (not c.ok or bool(_NOTHING.search(c.output[:300])))
        for c in calls[:index]
    )


def _first_change(pattern: ChangePattern, calls: list[CallFact]) -> int | None:
    for index, call in enumerate(calls):
        if any(change_matches(pattern, c) for c in call.changes):
            return index
    return None


def evidence_missing(
    item: Evidence, calls: list[CallFact], by_call: list[bool] | None = None
) -> str | None:
    """Why no call satisfies the evidence item (None: one does). `by_call` gives, for the
    `call:` exception, which calls match the pattern (the scorer's call equivalence)."""
    after = _first_change(item.after, calls) if item.after else None
    before = _first_change(item.before, calls) if item.before else None
    if item.after is not None and after is None:
        return f"{item.name}: the change it must follow was not made"
    turns = len({c.step for c in calls}) > 1  # the episode's turns are known
    for index, call in enumerate(calls):
        if item.first and index > 0 and not _started_there(calls, index):
            break
        if item.tool is not None and call.tool != item.tool:
            continue
        if after is not None and index < after:
            continue
        if before is not None and index > before:
            break
        if before is not None and index < before and turns and call.step == calls[before].step:
            continue  # made in the same turn as the change: it cannot have informed it
        matched = by_call is None or (index < len(by_call) and by_call[index])
        if before is not None and index == before:
            # one call made the change it must precede (a shell loop): what it printed
            # before that change's own line
            if matched and item.shows and _shown_between(item, call, index == after):
                return None
            break
        if matched and (not item.shows or shows(call, item.shows, item.absent)):
            return None
    where = "the first call" if item.first else "no call"
    order = " at that point" if item.after or item.before else ""
    wanted = "made that call" if item.call is not None else "showed"
    if item.shows:
        wanted += (" and " if item.call is not None else " ") + ", ".join(
            _show_fact(f) for f in item.shows
        )
    return f"{item.name}: {where} {wanted}{order}"


def apart(items: list[Evidence], calls: list[CallFact], by_call: dict[str, list[bool]]) -> str:
    """Why no one step (model turn) holds calls showing every one of `items`, the reads the
    prompt asks for at the same time (empty: one does). A step of reads made together whose
    failed ones (a mistyped name) the next step only makes again holds them with that step."""
    steps = sorted({c.step for c in calls})
    for at, step in enumerate(steps):
        group = {step}
        made = [c for c in calls if c.step == step]
        failed = sum(not c.ok for c in made)
        if len(made) > 1 and failed and at + 1 < len(steps):
            again = [c for c in calls if c.step == steps[at + 1]]
            if len(again) <= failed:
                group.add(steps[at + 1])
        here = [c for c in calls if c.step in group]
        if all(
            evidence_missing(
                item,
                here,
                [ok for ok, c in zip(by_call[item.name], calls, strict=False) if c.step in group]
                if item.name in by_call
                else None,
            )
            is None
            for item in items
        ):
            return ""
    names = ", ".join(i.name for i in items)
    return f"the prompt asks for these reads at the same time; no one step made them all: {names}"


def _shown_between(item: Evidence, call: CallFact, same_after: bool) -> bool:
    """Whether a call that made several changes printed the facts after the line naming the
    change they must follow (when it made that one too) and before the first line naming the
    change they must precede: `restart worker && rollout status worker; restart notifier`."""
    assert item.before is not None
    output = normalise(call.output)
    end = _named_at(output, item.before, call.changes)
    start = _named_at(output, item.after, call.changes) if same_after and item.after else 0
    if end is None or start is None or start >= end:
        return False
    part = CallFact(call.tool, call.args, output=output[start:end], source=call.source)
    return shows(part, item.shows, item.absent)


def _named_at(output: str, pattern: ChangePattern, changes: tuple[Change, ...]) -> int | None:
    """Where the output first names the object of the call's change that matches the pattern
    (its last path segment as a whole word), else None."""
    for change in changes:
        if change_matches(pattern, change):
            name = normalise(change.target.rsplit("/", 1)[-1])
            found = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", output)
            return found.start() if found else None
    return None


def _show_fact(fact: Shown) -> str:
    return repr(fact) if isinstance(fact, str) else " or ".join(repr(f) for f in fact)


def carried_out(attempt: Attempt, changes: tuple[Change, ...]) -> bool:
    """Whether a change of the same call carries the write out (then the change log judges it)."""
    system = _SYSTEMS.get(attempt.program, "filesystem")
    for change in changes:
        if change.system != system:
            continue
        if system != "filesystem" or change.target in (attempt.target, attempt.target.rstrip("/")):
            return True
    return False


def attempt_allowed(pattern: AttemptPattern, attempt: Attempt) -> bool:
    return (
        fnmatchcase(attempt.program, pattern.program)
        and fnmatchcase(attempt.target, pattern.target)
        and fnmatchcase(attempt.why, pattern.why)
    )


def _retried(attempt: Attempt, later: list[CallFact]) -> bool:
    """Whether a later call recorded the same write: that action on that target (a drain
    refused for emptyDir pods, then run with --delete-emptydir-data), or on the name a failed
    one mistyped (`rollout restart deployment/fronted`, then `deployment/frontend`)."""
    system = _SYSTEMS.get(attempt.program)
    words = attempt.why.split()[1:]
    verbs = {words[-1], "-".join(words)} if words else set()
    name = (attempt.target.split() or [""])[0].rsplit("/", 1)[-1]
    return system is not None and any(
        change.system == system
        and change.action in verbs
        and _same_or_mistyped(change.target.rsplit("/", 1)[-1], name)
        for call in later
        for change in call.changes
    )


def _same_or_mistyped(name: str, written: str) -> bool:
    """The same name, or one a slip of one or two characters away (5 characters or more)."""
    if name == written:
        return True
    if min(len(name), len(written)) < 5 or abs(len(name) - len(written)) > 2:
        return False
    return SequenceMatcher(None, name, written).ratio() >= 0.8


def harm_problems(spec: ChangesExpectation | None, calls: list[CallFact]) -> list[str]:
    """Attempted writes outside `expect.changes` that no recorded change carried out: the
    writes a log of changes never shows (a `find -exec rm`, a CTE DELETE on a read-only
    replica, a firewall rule the simulator cannot apply)."""
    problems: list[str] = []
    for index, call in enumerate(calls):
        for attempt in call.attempts:
            if carried_out(attempt, call.changes):
                continue  # the change log has it: `side_effects` compares it with the spec
            if _retried(attempt, calls[index + 1 :]):
                continue  # refused once, then done: the change log judges the write
            if spec is not None and any(attempt_allowed(p, attempt) for p in spec.attempts):
                continue
            where = "the task is read-only" if spec is None else "outside expect.changes"
            problems.append(f"attempted write ({where}): {attempt.show()}")
    return problems

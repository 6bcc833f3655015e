"""Load and validate a task directory. Every failure names the file, the field and the line.

Layout:
    TASKS_DIR/suite.yaml            optional: {system_prompt: ...} default for every task
    TASKS_DIR/tools/<tool>.yaml     one ToolDef each
    TASKS_DIR/tools/flags.yaml      program -> ProgramFlags (shell-command equivalence)
    TASKS_DIR/<category>/*.yaml     one Task each
    TASKS_DIR/families/<category>/  task families: loaded only by the full tier
                                    (agentbench.tasks.families)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from agentbench.errors import TaskFileError
from agentbench.sim.kube.controllers.build import build_store
from agentbench.tasks.argv import ProgramFlags
from agentbench.tasks.model import Task, ToolDef

DEFAULT_SYSTEM_PROMPT = (
    "You are an operations agent with access to tools. Use the tools to gather facts before "
    "answering; never guess what a tool would return. When you are done, give a short final "
    "answer."
)


@dataclass
class TaskSuite:
    """Everything loaded from a task directory."""

    root: Path
    tasks: list[Task]
    tools: dict[str, ToolDef]
    grammar: dict[str, ProgramFlags]
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    paths: dict[str, Path] = field(default_factory=dict)
    generated: set[str] = field(default_factory=set)  # ids of family variants (full tier)

    def origin(self, task_id: str) -> str:
        """Where a task comes from, for messages: its file, or its family file and its id."""
        path = str(self.paths.get(task_id, task_id))
        return f"{path} (variant {task_id})" if task_id in self.generated else path

    def select(
        self, ids: list[str] | None = None, categories: list[str] | None = None
    ) -> TaskSuite:
        chosen = [
            t
            for t in self.tasks
            if (not ids or t.id in ids) and (not categories or t.category in categories)
        ]
        return TaskSuite(
            self.root,
            chosen,
            self.tools,
            self.grammar,
            self.system_prompt,
            self.paths,
            self.generated & {t.id for t in chosen},
        )

    def system_prompt_for(self, task: Task) -> str:
        return task.system_prompt or self.system_prompt


# libyaml when present: the long-context tasks are megabytes of YAML. Nodes (for error line
# numbers) are composed only when a file fails validation.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> tuple[Any, str]:
    try:
        with path.open("rb") as handle:  # read at most one byte past the cap, whatever stat says
            raw = handle.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise TaskFileError(
                str(path), "-", f"over {MAX_FILE_BYTES:,} bytes; no task needs that, split it"
            )
        text = raw.decode("utf-8")
    except OSError as exc:
        raise TaskFileError(str(path), "-", f"cannot read file: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        bad_line = exc.object[: exc.start].count(b"\n") + 1
        raise TaskFileError(
            str(path), "-", f"not UTF-8 text (byte {exc.start}); save the file as UTF-8", bad_line
        ) from exc
    try:
        data = yaml.load(text, Loader=_LOADER)
    except RecursionError as exc:
        raise TaskFileError(str(path), "-", f"nested deeper than {MAX_NESTING} levels") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise TaskFileError(str(path), "-", f"YAML syntax error: {problem}", line) from exc
    if _too_deep(data):
        raise TaskFileError(
            str(path),
            "-",
            f"nested deeper than {MAX_NESTING} levels; no task needs that, flatten it",
        )
    size = expanded_size(data)
    if size is None or size > MAX_EXPANDED:
        why = (
            "refer to a node that holds them"
            if size is None
            else f"expand to over {MAX_EXPANDED:,} values"
        )
        raise TaskFileError(
            str(path), "-", f"its YAML aliases (&/*) {why}; write the data out instead"
        )
    return data, text


MAX_FILE_BYTES = 8 * 1024 * 1024  # one task or family file (the largest today is 240 KB)
MAX_NESTING = 64  # task data is a few levels deep; copying or scoring 900 levels recurses


MAX_EXPANDED = 1_000_000  # values once aliases are expanded (every tool output, JSON dump, copy)


def expanded_size(data: Any) -> int | None:
    """How many values `data` holds with every YAML alias expanded (a string counts one per 64
    characters), computed once per shared node, without recursion; None when an alias refers to
    a node that contains it (expanding it never ends)."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Any, bool]] = [(data, False)]
    while stack:
        value, finished = stack.pop()
        if not isinstance(value, dict | list):
            continue
        key = id(value)
        children = list(value.values()) if isinstance(value, dict) else value
        if finished:
            on_path.discard(key)
            sizes[key] = 1 + sum(sizes.get(id(c), _scalar_size(c)) for c in children)
            continue
        if key in sizes:
            continue
        if key in on_path:
            return None
        on_path.add(key)
        stack.append((value, True))
        stack.extend((c, False) for c in children if isinstance(c, dict | list))
    return sizes.get(id(data), _scalar_size(data))


def _scalar_size(value: Any) -> int:
    return 1 + len(value) // 64 if isinstance(value, str) else 1


def _too_deep(data: Any) -> bool:
    """Whether mappings and lists nest deeper than MAX_NESTING (walked without recursion, each
    node once: YAML aliases share nodes)."""
    stack, seen = [(data, 0)], set()
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NESTING:
            return True
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return False


def _node_line(text: str, loc: tuple[Any, ...]) -> int | None:
    """Line (1-based) of the YAML node at pydantic location `loc`, or of its nearest parent."""
    node: yaml.Node | None = yaml.compose(text, Loader=_LOADER)
    line = node.start_mark.line + 1 if node else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            child = next((v for k, v in node.value if k.value == part), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            child = node.value[part] if part < len(node.value) else None
        else:
            child = None
        if child is None:
            break
        node = child
        line = node.start_mark.line + 1
    return line


def _validate(model: type[BaseModel], data: Any, path: Path, node: str) -> Any:
    if not isinstance(data, dict):
        raise TaskFileError(str(path), "-", "the file must hold a YAML mapping", 1)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(p for p in error["loc"] if not str(p).startswith("function-after"))
        field_name = ".".join(str(p) for p in loc) or "-"
        raise TaskFileError(str(path), field_name, error["msg"], _node_line(node, loc)) from exc


def check_cluster(
    task: Task, path: Path, line: Callable[[tuple[Any, ...]], int | None] = lambda loc: None
) -> None:
    """A declared cluster is checked by building it (a bad age, an undeclared owner): the
    schema checks only the format. The built state is kept with the declaration for episodes."""
    cluster = task.environment.cluster
    if cluster is None:
        return
    try:
        build_store(cluster)
    except (ValueError, KeyError) as error:
        loc = ("environment", "cluster")
        message = f"the cluster cannot be built: {error}"
        raise TaskFileError(str(path), ".".join(loc), message, line(loc)) from None


def load_tools(tools_dir: Path) -> tuple[dict[str, ToolDef], dict[str, ProgramFlags]]:
    tools: dict[str, ToolDef] = {}
    grammar: dict[str, ProgramFlags] = {}
    if not tools_dir.is_dir():
        return tools, grammar
    for path in sorted(_yaml_files(tools_dir.glob("*"))):
        data, node = read_yaml(path)
        if path.stem == "flags":
            if not isinstance(data or {}, dict):
                raise TaskFileError(str(path), "-", "must map program names to flag specs", 1)
            for program, spec in (data or {}).items():
                grammar[program] = _validate(ProgramFlags, spec, path, node)
            continue
        tool: ToolDef = _validate(ToolDef, data, path, node)
        if tool.name != path.stem:
            raise TaskFileError(str(path), "name", f"must equal the file name '{path.stem}'")
        tools[tool.name] = tool
    return tools, grammar


def _yaml_files(paths: Iterable[Path]) -> list[Path]:
    """Task data files: `.yaml` and `.yml` alike."""
    return [p for p in paths if p.suffix in (".yaml", ".yml") and p.is_file()]


FAMILIES_DIR = "families"  # TASKS_DIR/families/<category>/*.yaml: the full tier's families


def check_tools(
    task: Task,
    tools: dict[str, ToolDef],
    root: Path,
    path: Path,
    line: Callable[[tuple[Any, ...]], int | None] = lambda loc: None,
) -> None:
    """Refuse a task offering a tool that TASKS_DIR/tools does not define."""
    for i, name in enumerate(task.tools):
        if name not in tools:
            raise TaskFileError(
                str(path),
                f"tools.{i}",
                f"tool '{name}' is not defined in {root / 'tools'}",
                line(("tools", i)),
            )


def load_suite(root: str | Path) -> TaskSuite:
    """Load every task under `root`, checking cross-references (tools exist, ids unique)."""
    root = Path(root)
    if not root.is_dir():
        raise TaskFileError(str(root), "-", "no such task directory")
    tools, grammar = load_tools(root / "tools")
    system_prompt = DEFAULT_SYSTEM_PROMPT
    suite_file = next((p for p in (root / "suite.yaml", root / "suite.yml") if p.exists()), None)
    if suite_file is not None:
        data, _ = read_yaml(suite_file)
        if not isinstance(data or {}, dict):
            raise TaskFileError(str(suite_file), "-", "must be a mapping, e.g. system_prompt: …", 1)
        system_prompt = (data or {}).get("system_prompt", system_prompt)
        if not isinstance(system_prompt, str):
            raise TaskFileError(str(suite_file), "system_prompt", "must be text", 1)
    tasks: list[Task] = []
    paths: dict[str, Path] = {}
    for path in sorted(_yaml_files(root.rglob("*"))):
        rel = path.relative_to(root)
        if rel.parts[0] in ("tools", FAMILIES_DIR) or len(rel.parts) < 2:
            continue
        data, node = read_yaml(path)
        task: Task = _validate(Task, data, path, node)
        check_cluster(task, path, partial(_node_line, node))
        check_tools(task, tools, root, path, partial(_node_line, node))
        if task.id in paths:
            raise TaskFileError(str(path), "id", f"duplicate id, also in {paths[task.id]}")
        if task.category != rel.parts[0]:
            raise TaskFileError(
                str(path), "category", f"'{task.category}' must match its folder '{rel.parts[0]}'"
            )
        paths[task.id] = path
        tasks.append(task)
    if not tasks:
        raise TaskFileError(str(root), "-", "no task files found (expected <category>/*.yaml)")
    return TaskSuite(root, tasks, tools, grammar, system_prompt, paths)

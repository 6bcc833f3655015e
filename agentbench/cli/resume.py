"""`run --resume`: the stored run is the only source of what a resumed run does.

A run stores the flags that define it (`RunConfig.flags`; the tier, family seed and variant cap
also as `RunConfig.suite/task_seed/variants`) and the hash of every selected task file
(`RunConfig.task_hashes`; a family variant's is its family file's). Resuming takes both from
the store: a flag given again must equal the stored value (else one line names the flag and
the stored value), and the task files must be unchanged. Only where a run's servers are and
how patiently to call them may change: the flags in ADDRESS_FLAGS.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from agentbench.backends.base import strip_credentials
from agentbench.errors import ConfigError
from agentbench.records import RunRecord
from agentbench.store import ResultStore
from agentbench.tasks.families import DEFAULT_SEED, MAX_VARIANTS, TIERS, Tier, load_tier
from agentbench.tasks.loader import TaskSuite

# Where the servers are, how long to wait, where output goes: free to differ on resume.
ADDRESS_FLAGS = frozenset(
    {
        "tasks_dir",
        "base_url",
        "api_key_env",
        "frontier_base_url",
        "frontier_api_key_env",
        "header",
        "profiles",
        "request_timeout",
        "idle_timeout",
        "retries",
        "quiet",
        "json_out",
        "html_out",
        "db",
        "resume",
    }
)


# Never stored: where output goes, and header values (they may carry credentials).
NOT_STORED = frozenset({"tasks_dir", "header", "quiet", "json_out", "html_out", "db", "resume"})


def stored_flags(flags: Mapping[str, Any]) -> dict[str, Any]:
    """The flags a run stores: all but NOT_STORED, base URLs without credentials."""
    out = {k: v for k, v in flags.items() if k not in NOT_STORED}
    for key in ("base_url", "frontier_base_url"):
        if out.get(key):
            out[key] = strip_credentials(str(out[key]))
    return out


def task_hashes(suite: TaskSuite) -> dict[str, str]:
    """sha256 of each selected task's file, and of the tool definitions and suite.yaml. A
    generated variant's hash also covers the task as drawn, so a stored task seed or cap
    edited to another legal value cannot resume onto other variants."""
    out = {task.id: _sha256(suite.paths[task.id]) for task in suite.tasks if task.id in suite.paths}
    for task in suite.tasks:
        if task.id in suite.generated and task.id in out:
            drawn = hashlib.sha256(task.model_dump_json().encode()).hexdigest()
            out[task.id] = hashlib.sha256(f"{out[task.id]}:{drawn}".encode()).hexdigest()
    shared = sorted((suite.root / "tools").glob("*.y*ml")) + sorted(suite.root.glob("suite.y*ml"))
    digest = hashlib.sha256()
    for path in shared:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    out["(tools and suite.yaml)"] = digest.hexdigest()
    return out


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def resumable_run(store: ResultStore, ref: str) -> RunRecord:
    """`latest` = the newest unfinished agent run; an id must name an agent run."""
    if ref == "latest":
        run_id = store.latest_unfinished()
        if run_id is None:
            raise ConfigError(
                f"{store.path} holds no unfinished agent run to resume; `agentbench runs` lists "
                "them, or start a new run without --resume"
            )
    else:
        run_id = store.resolve(ref)
    run = store.run(run_id)
    if run.kind != "run":
        raise ConfigError(
            f"run {run_id} is a {run.kind} result, not an agent run; --resume continues "
            "`agentbench run` runs only"
        )
    if "flags" not in run.config:
        raise ConfigError(
            f"run {run_id} was stored by an older agentbench without its flags; it cannot be "
            "resumed safely — start a new run"
        )
    return run


def merge_flags(run: RunRecord, given: Mapping[str, Any], explicit: set[str]) -> dict[str, Any]:
    """The stored flags, plus the address flags given now. A defining flag given on the
    command line with another value than the stored one is refused."""
    stored: dict[str, Any] = dict(run.config["flags"])
    for name in sorted(explicit - ADDRESS_FLAGS):
        if name not in stored:
            continue
        if _norm(given[name]) != _norm(stored[name]):
            flag = "--" + name.removesuffix("_out").replace("_", "-")
            raise ConfigError(
                f"{flag} {_show(given[name])} conflicts with run {run.run_id}, which was started "
                f"with {flag} {_show(stored[name])}; a resumed run keeps its stored settings — "
                "drop the flag, or start a new run without --resume"
            )
    merged = dict(given)
    merged.update({k: v for k, v in stored.items() if k not in explicit or k not in ADDRESS_FLAGS})
    return merged


def stored_suite(run: RunRecord, tasks_dir: Path) -> TaskSuite:
    """The run's own task selection from `tasks_dir`, refused when a file changed. A full-tier
    run's variants are drawn again from its stored tier, seed and cap: the same tasks."""
    ids: list[str] = list(run.config.get("selected_tasks") or [])
    hashes: dict[str, str] = dict(run.config.get("task_hashes") or {})
    suite = load_tier(tasks_dir, *_stored_tier(run))
    chosen = suite.select(ids)
    missing = sorted(set(ids) - {t.id for t in chosen.tasks})
    if missing:
        raise ConfigError(
            f"{tasks_dir} lacks tasks of run {run.run_id} ({', '.join(missing[:5])}); resume "
            f"with the task directory it was started with ({run.task_dir})"
        )
    now = task_hashes(chosen)
    changed = sorted(k for k, v in hashes.items() if now.get(k) != v)
    if changed:
        where = ", ".join(str(chosen.paths[k]) if k in chosen.paths else k for k in changed[:3])
        raise ConfigError(
            f"task files changed since run {run.run_id} started ({where}), or their variants "
            "draw differently; its results would "
            "mix two task sets — restore the files or start a new run"
        )
    return chosen


def _stored_tier(run: RunRecord) -> tuple[Tier, int, int | None]:
    """The run's stored tier, seed and cap, refused in one line when the database holds what
    the command line could never have stored (the database is input too)."""
    suite = run.config.get("suite") or "default"
    seed = run.config.get("task_seed", DEFAULT_SEED)
    variants = run.config.get("variants")

    def whole(value: Any, lo: int, hi: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi

    for name, value, ok in (
        ("suite", suite, suite in TIERS),
        ("task_seed", seed, whole(seed, 0, 2**63 - 1)),
        ("variants", variants, variants is None or whole(variants, 1, MAX_VARIANTS)),
    ):
        if not ok:
            raise ConfigError(
                f"run {run.run_id} stores {name} {str(value)[:40]!r}, which no run could have "
                "been started with; the database was altered — start a new run"
            )
    return cast(Tier, suite), seed, variants


def _norm(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return sorted(str(v) for v in value)
    if hasattr(value, "value"):  # an Enum option
        return value.value
    if isinstance(value, Path):
        return str(value)
    return value


def _show(value: Any) -> str:
    value = _norm(value)
    if isinstance(value, list):
        return ",".join(value) or "(none)"
    return "(not given)" if value is None else str(value)

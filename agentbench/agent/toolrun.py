"""Tool calls off the event loop, under a deadline.

A simulated tool call is synchronous Python; run on the event loop, one that loops would
stop every episode, the episode timeout and the handling of SIGTERM/Ctrl-C with it. So each
call runs in a thread of its own, and the episode awaits it:

- inside the thread the call runs under a work budget (sim/core/budget.py): past `Limits.seconds`,
  or past its steps or bytes, it ends itself and the model is answered with the error; at
  that deadline the loop also interrupts what no step reaches (the episode's DuckDB query);
- the episode waits at most `deadline_s(limits)` (half as long again, plus half a second); a
  call still running then (stuck where no budget reaches) is abandoned: `ToolCallStuck`, and
  the episode ends `timeout` naming the call; its budget is cancelled, which also interrupts
  the episode's SQL engine;
- when the episode is cancelled while it waits (its own time limit, or the run stopping), the
  call's budget is cancelled, so the thread ends at its next check.

The threads are daemons: an abandoned one never holds up the end of the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from typing import Any

from agentbench.sim.core.budget import Budget, Limits, bounded
from agentbench.tasks.env import SimulatedEnvironment, ToolResult


def deadline_s(limits: Limits) -> float:
    """How long the episode waits for a call: past the budget's own deadline, with room for a
    call that ends itself at that deadline."""
    return limits.seconds * 1.5 + 0.5


class ToolCallStuck(Exception):
    """A tool call did not return by its deadline and was abandoned."""


def describe_call(name: str, arguments: str | dict[str, Any] | None) -> str:
    """`name {arguments}` for an error line, the arguments cut to 200 characters (the model's
    text: control characters shown as `?`, so none reaches a terminal)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    head = " ".join((text or "")[:400].split())
    head = "".join(c if c.isprintable() else "?" for c in head)
    cut = len(head) > 200 or len(text or "") > 400
    return f"{name} {head[:200]}{'…' if cut else ''}"


async def run_tool(
    env: SimulatedEnvironment,
    name: str,
    arguments: str | dict[str, Any] | None,
    limits: Limits | None = None,
) -> ToolResult:
    """`env.execute(name, arguments)` in a worker thread, awaited within its deadline."""
    limits = limits or Limits()
    loop = asyncio.get_running_loop()
    done: asyncio.Future[ToolResult] = loop.create_future()
    budget = Budget(limits)

    def settle(result: ToolResult | None, error: BaseException | None) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            assert result is not None
            done.set_result(result)

    def work() -> None:
        result: ToolResult | None = None
        error: BaseException | None = None
        try:
            with bounded(budget):
                result = env.execute(name, arguments)
        except BaseException as exc:  # handed to the awaiting episode
            error = exc
        # the loop may be gone: the run ended while this call was abandoned
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, result, error)

    thread = threading.Thread(target=work, name=f"tool-call {name}", daemon=True)
    thread.start()
    # at the budget's deadline, interrupt what no step reaches (a query in DuckDB)
    expiry = loop.call_later(limits.seconds, budget.expire)
    deadline = deadline_s(limits)
    try:
        return await asyncio.wait_for(asyncio.shield(done), deadline)
    except TimeoutError:
        budget.cancel()
        done.cancel()  # what the thread returns later is dropped, never reported
        raise ToolCallStuck(
            f"tool call {describe_call(name, arguments)} did not return within "
            f"{deadline:g} s and was abandoned"
        ) from None
    except asyncio.CancelledError:
        budget.cancel()
        done.cancel()
        raise
    finally:
        expiry.cancel()

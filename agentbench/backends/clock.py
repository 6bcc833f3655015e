"""The clock of one call: when its first request byte was written, what the set-up before it
cost, and the idle timer that follows its stream (docs/design.md#timing-and-tokens).

`SendClock` is the transport's trace hook (httpcore's `trace` request extension, or the same
events from backends.wire): `t_send` is `send_request_headers.started`, after any pool wait, TCP
connect and TLS handshake; `start_clock` moves the accumulator's origin there and records the
set-up apart as `connect_ns`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any

from agentbench.backends.stream import StreamAccumulator


class SendClock:
    """When the request's first byte went out, from httpcore's trace hook (one per call).

    `t_send_ns` stays None when the transport sent no trace (a custom transport): the caller
    then falls back to the time it handed the request over, and `connect_s` is unknown."""

    __slots__ = ("connected", "t_send_ns")

    def __init__(self) -> None:
        self.t_send_ns: int | None = None
        self.connected = False  # a TCP connect happened for this call (a new connection)

    async def __call__(self, name: str, info: Mapping[str, Any]) -> None:
        if name.endswith("send_request_headers.started") and self.t_send_ns is None:
            self.t_send_ns = time.perf_counter_ns()
        elif name == "connection.connect_tcp.started":
            self.connected = True


class IdleTimer:
    """Re-arms the call's timeout scope after each stream event: `wait` later, never past the
    call deadline. A re-arm costs a timer handle, so it is set `slack` later than needed and
    skipped while it already falls in [wait, wait + slack] after the event: the idle timeout
    fires that long after the last event (slack: 1/20 of the wait, at most 1 s), never early."""

    __slots__ = ("armed", "deadline", "loop", "scope")

    def __init__(
        self, scope: asyncio.Timeout, loop: asyncio.AbstractEventLoop, deadline: float
    ) -> None:
        self.scope, self.loop, self.deadline = scope, loop, deadline
        self.armed = deadline

    def event(self, wait: float) -> None:
        due = self.loop.time() + wait
        low, high = min(self.deadline, due), min(self.deadline, due + min(1.0, wait / 20))
        if not low <= self.armed <= high:
            self.armed = high
            self.scope.reschedule(high)


def start_clock(acc: StreamAccumulator, clock: SendClock, handed_ns: int) -> None:
    """Move the call's clock to the first byte written; the set-up before it is connect_s."""
    if clock.t_send_ns is None:
        return  # no trace from this transport: t_send stays when the request was handed over
    acc.t_send_ns = clock.t_send_ns
    acc.connect_ns = clock.t_send_ns - handed_ns
    acc.connection_reused = not clock.connected

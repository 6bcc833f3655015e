"""Times and quantities the way Kubernetes writes them.

Ages are declared relative to the cluster's `now` ("14m", "2h5m", "3d"); objects carry RFC 3339
timestamps; kubectl prints ages with apimachinery's HumanDuration and describe dates as
RFC 1123 with a numeric zone.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import lru_cache

_DURATION = re.compile(r"(\d+(?:\.\d+)?)(y|w|d|h|ms|m|s)")
_UNIT_S = {
    "y": 365 * 86400.0,
    "w": 7 * 86400.0,
    "d": 86400.0,
    "h": 3600.0,
    "m": 60.0,
    "s": 1.0,
    "ms": 0.001,
}


def parse_duration_s(text: str) -> float | None:
    """Seconds in "1d2h", "14m", "90s"; None when it is not a duration."""
    text = text.strip().removesuffix(" ago")
    if not text or _DURATION.sub("", text) != "":
        return None
    return sum(float(n) * _UNIT_S[u] for n, u in _DURATION.findall(text))


def parse_time(text: str) -> datetime:
    """An ISO-8601 timestamp (naive means UTC). Raises ValueError otherwise."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            f"'{text}' is neither an age (14m, 2h5m, 3d, 1y20d) nor an ISO-8601 time"
        ) from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class Clock:
    """The cluster's `now`; turns declared ages into timestamps and timestamps into ages."""

    def __init__(self, now: str) -> None:
        self.now = parse_time(now)

    def at(self, when: str) -> datetime:
        """A declared time: an age before now ("2m11s") or an absolute timestamp."""
        seconds = parse_duration_s(when)
        if seconds is not None:
            return self.now - timedelta(seconds=seconds)
        return parse_time(when)

    def stamp(self, when: str | None) -> str | None:
        """RFC 3339 (what objects carry) for a declared time; None stays None."""
        return None if when is None else _stamp(self.now, when)

    def age(self, stamp: str | None) -> str:
        """HumanDuration from an object's timestamp to now; "<unknown>" without one."""
        if not stamp:
            return "<unknown>"
        return human_duration((self.now - parse_time(stamp)).total_seconds())

    def now_stamp(self) -> str:
        return rfc3339(self.now)


@lru_cache(maxsize=4096)
def _stamp(now: datetime, when: str) -> str:
    seconds = parse_duration_s(when)
    if seconds is not None:
        return rfc3339(now - timedelta(seconds=seconds))
    return rfc3339(parse_time(when))


def rfc3339(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def rfc1123(stamp: str) -> str:
    """describe's date layout: "Sun, 29 Nov 2026 10:02:11 +0000"."""
    return parse_time(stamp).strftime("%a, %d %b %Y %H:%M:%S +0000")


def human_duration(seconds_f: float) -> str:
    """apimachinery's duration.HumanDuration (kubectl's AGE column)."""
    seconds = int(seconds_f)
    if seconds < -1:
        return "<invalid>"
    if seconds < 0:
        return "0s"
    if seconds < 120:
        return f"{seconds}s"
    minutes = seconds // 60
    if minutes < 10:
        rest = seconds % 60
        return f"{minutes}m" if rest == 0 else f"{minutes}m{rest}s"
    if minutes < 180:
        return f"{minutes}m"
    hours = seconds // 3600
    if hours < 8:
        rest = minutes % 60
        return f"{hours}h" if rest == 0 else f"{hours}h{rest}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        rest = hours % 24
        return f"{hours // 24}d" if rest == 0 else f"{hours // 24}d{rest}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    years, days = hours // 24 // 365, (hours // 24) % 365
    if hours < 24 * 365 * 8:
        return f"{years}y" if days == 0 else f"{years}y{days}d"
    return f"{years}y"


_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}
_DECIMAL = {"k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}


def cpu_millis(quantity: str) -> int:
    """CPU in millicores: "250m" -> 250, "2" -> 2000."""
    quantity = str(quantity)
    if quantity.endswith("m"):
        return int(float(quantity[:-1]))
    return int(float(quantity) * 1000)


def memory_bytes(quantity: str) -> int:
    """Memory in bytes: "64Mi", "1G", "512"."""
    quantity = str(quantity)
    for suffix, factor in {**_BINARY, **_DECIMAL}.items():
        if quantity.endswith(suffix):
            return int(float(quantity[: -len(suffix)]) * factor)
    return int(float(quantity))


def mebibytes(value: int) -> str:
    """`kubectl top`'s memory column: whole Mi."""
    return f"{value // 2**20}Mi"

"""Sizes and times as the host's tools print them (`ls -h`, `df -h`, `journalctl`, `ls -l`)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4, "P": 1024**5}
_SIZE = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*([KMGTP]?)(i?B?|B)?\s*$", re.IGNORECASE)


def parse_size(value: int | str) -> int:
    """Bytes from an integer or `512M`, `40G`, `1.5Ti`, `18KiB` (binary multiples)."""
    if isinstance(value, int):
        return value
    match = _SIZE.match(value)
    if not match:
        raise ValueError(f"not a size: {value!r} (use bytes or e.g. 512M, 40G)")
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


def human(size: int) -> str:
    """coreutils' -h: one decimal below 10 (rounded up), whole numbers above: 4.0K 18K 1.2G."""
    if size < 1024:
        return str(size)
    value = float(size)
    for unit in "KMGTP":
        value /= 1024
        if value < 1024 or unit == "P":
            if value < 10:
                tenths = -(-int(value * 10 * 1000) // 1000)  # ceil to one decimal
                return f"{tenths / 10:.1f}{unit}"
            return f"{-(-int(value * 1000) // 1000)}{unit}"
    return str(size)


def parse_time(text: str) -> datetime:
    """An ISO 8601 time (`Z` or an offset; naive means UTC)."""
    stamp = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def ls_time(text: str, now: str) -> str:
    """`ls -l` style: `Nov 29 02:00` within six months of now, else `Nov 29  2025`."""
    stamp, current = parse_time(text), parse_time(now)
    if abs((current - stamp).days) < 182:
        return stamp.strftime("%b %e %H:%M")
    return stamp.strftime("%b %e  %Y")


def journal_time(text: str) -> str:
    """journalctl's short format: `Nov 29 02:00:01`."""
    return parse_time(text).strftime("%b %d %H:%M:%S")


def ago(now: datetime, since: datetime) -> str:
    """systemd's relative time: `7h 29min ago`, `3 days ago`, `42s ago`."""
    seconds = int((now - since).total_seconds())
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} day{'s' if days > 1 else ''} ago"
    if hours:
        return f"{hours}h {minutes}min ago" if minutes else f"{hours}h ago"
    if minutes:
        return f"{minutes}min {secs}s ago" if secs else f"{minutes}min ago"
    return f"{secs}s ago"

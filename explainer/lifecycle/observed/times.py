"""Times as kubectl prints them, read back: RFC 3339 stamps, describe's RFC 1123 dates, and ages.

kubectl prints an age with apimachinery's `HumanDuration` (`pkg/util/duration/duration.go`;
older releases `ShortHumanDuration`): "45s", "3m12s", "15m", "5h3m", "2d4h", "3y"; the "(10s ago)"
of RESTARTS and the AGE columns come from it.  `human_duration` is the same function; `parse_age`
reads any of its outputs back as the least number of seconds it can stand for, with the width of
the range it covers (an age of "15m" is anything from 900 s to 959 s).  docs/lifecycle-model.md §34.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone

from ..numbers import whole_number

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "y": 365 * 86_400}
_AGE_WHOLE = re.compile(r"(\d{1,9})([smhdy])(?:(\d{1,9})([smhdy]))?(?:(\d{1,9})([smhdy]))?")
AGE_TEXT = r"(?:\d{1,9}[smhdy]){1,3}"          # the shape of one age, for the readers' patterns
_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                       "Nov", "Dec"), 1)}
# "2022-02-17T21:51:05Z", "2023-01-01T00:00:00.123456Z", "2023-01-01T00:00:00+01:00"
_RFC3339 = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?\s*(Z|z|[+-]\d{2}:?\d{2})?$")
# "Thu, 17 Feb 2022 16:51:05 -0500" (time.RFC1123Z, what describe prints); "-0500" may be a zone name
_RFC1123 = re.compile(r"(?:[A-Z][a-z]{2},\s+)?(\d{1,2})\s+([A-Z][a-z]{2})\s+(\d{4})\s+(\d{2}):(\d{2}):(\d{2})"
                      r"(?:\s+([+-]\d{4}|[A-Z]{1,5}))?$")
DATE_TEXT = r"(?:[A-Z][a-z]{2},\s+)?\d{1,2}\s+[A-Z][a-z]{2}\s+\d{4}\s+\d{2}:\d{2}:\d{2}(?:\s+(?:[+-]\d{4}|[A-Z]{1,5}))?"


def human_duration(seconds: float) -> str:
    """apimachinery `duration.HumanDuration`: ~2-3 significant figures, "<invalid>" below -1 s."""
    s = int(seconds)                      # Go's int(d.Seconds()) truncates toward zero
    if s < -1:
        return "<invalid>"
    if s < 0:
        return "0s"
    if s < 120:
        return f"{s}s"
    minutes = s // 60
    if minutes < 10:
        rest = s % 60
        return f"{minutes}m" if rest == 0 else f"{minutes}m{rest}s"
    if minutes < 180:
        return f"{minutes}m"
    hours = s // 3600
    if hours < 8:
        m = minutes % 60
        return f"{hours}h" if m == 0 else f"{hours}h{m}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        h = hours % 24
        return f"{hours // 24}d" if h == 0 else f"{hours // 24}d{h}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        dy = (hours // 24) % 365
        return f"{hours // 24 // 365}y" if dy == 0 else f"{hours // 24 // 365}y{dy}d"
    return f"{hours // 24 // 365}y"


def parse_age(text: str) -> tuple[float, float] | None:
    """("15m") -> (900.0, 60.0): the least number of seconds the age stands for, and the width of the
    range (the true age is in [least, least + width)).  None for anything that is not an age."""
    m = _AGE_WHOLE.fullmatch(text.strip())
    if m is None:
        return (0.0, 1.0) if text.strip() == "<invalid>" else None
    total, unit = 0, 1
    for i in (1, 3, 5):
        if m.group(i) is not None:
            unit = _UNITS[m.group(i + 1)]
            total += int(m.group(i)) * unit
    return float(total), float(unit)


def parse_stamp(value: object) -> float | None:
    """An RFC 3339 timestamp (metav1.Time, MicroTime) as Unix seconds; None for null or anything else."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    m = _RFC3339.match(value.strip())
    if m is None:
        return None
    year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
    try:
        base = datetime(year, month, day, hour, minute, min(second, 59), tzinfo=timezone.utc).timestamp()
    except ValueError:
        return None
    frac = float(m.group(7)) if m.group(7) else 0.0
    return base + frac - _offset(m.group(8))


def parse_date(text: str) -> float | None:
    """describe's "Thu, 17 Feb 2022 16:51:05 -0500" (RFC 1123 with a numeric zone) as Unix seconds."""
    text = text.strip()
    if len(text) > 48:
        return None
    m = _RFC1123.match(text)
    if m is None:
        return parse_stamp(text)
    month = _MONTHS.get(m.group(2))
    if month is None:
        return None
    try:
        base = datetime(int(m.group(3)), month, int(m.group(1)), int(m.group(4)), int(m.group(5)),
                        min(int(m.group(6)), 59), tzinfo=timezone.utc).timestamp()
    except ValueError:
        return None
    zone = m.group(7)
    return base - (_offset(zone) if zone and zone[0] in "+-" else 0.0)


def _offset(zone: str | None) -> float:
    if not zone or zone in "Zz":
        return 0.0
    digits = zone[1:].replace(":", "")
    if len(digits) != 4 or whole_number(digits) is None:
        return 0.0
    seconds = int(digits[:2]) * 3600 + int(digits[2:]) * 60
    return seconds if zone[0] == "+" else -seconds

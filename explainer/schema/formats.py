"""Formats the API server's decoder enforces (int32, int64, date-time, byte), as checks for
jsonschema's FormatChecker and the compiled closures, and in words for the error messages."""
from __future__ import annotations

import base64
import binascii
import re
from datetime import datetime
from typing import Any

from .compiled import Check

_INT_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
_DATE_TIME_RE = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def _is_int(instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


def _int32(instance: Any) -> bool:
    low, high = _INT_RANGES["int32"]
    return not _is_int(instance) or low <= instance <= high


def _int64(instance: Any) -> bool:
    low, high = _INT_RANGES["int64"]
    return not _is_int(instance) or low <= instance <= high


def _date_time(instance: Any) -> bool:
    if not isinstance(instance, str):
        return True
    m = _DATE_TIME_RE.match(instance)
    if not m:
        return False
    try:
        datetime(*(int(g) for g in m.groups()[:6]))
    except ValueError:
        return False
    return True


def _byte(instance: Any) -> bool:
    if not isinstance(instance, str):
        return True
    try:
        base64.b64decode(instance, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


# format -> check; what jsonschema's FormatChecker is given, and the compiled closures too.
FORMAT_CHECKS: dict[str, Check] = {"int32": _int32, "int64": _int64, "date-time": _date_time, "byte": _byte}

FORMAT_WORDS = {
    "int32": "a 32-bit integer (-2147483648 to 2147483647)",
    "int64": "a 64-bit integer",
    "date-time": "an RFC 3339 date-time such as 2024-01-31T12:00:00Z",
    "byte": "base64-encoded data",
}

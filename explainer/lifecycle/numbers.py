"""Whole numbers written as text in a manifest, read safely (issue 27).

``str.isdigit()`` is true for "²" and "①", which ``int()`` refuses, and ``int()`` refuses any text of
more than 4,300 digits; a check with one and a conversion with the other answered a manifest such as
``targetPort: "²"`` with a traceback.  `whole_number` accepts ASCII digits only, of bounded length,
and returns None for anything else, so the caller treats it as the name or the odd value it is.
"""
from __future__ import annotations

from typing import Any

MAX_DIGITS = 18   # every count, port and number of seconds a manifest means fits in 18 digits


def whole_number(text: Any, max_digits: int = MAX_DIGITS) -> int | None:
    """``int(text)`` for text of 1 to ``max_digits`` ASCII digits (no sign, no spaces); None otherwise."""
    if not isinstance(text, str) or not 0 < len(text) <= max_digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def is_whole_number(text: Any, max_digits: int = MAX_DIGITS) -> bool:
    return whole_number(text, max_digits) is not None


INT64_MAX = 2 ** 63 - 1


def atoi_clamped(digits: str) -> int | None:
    """Go's ``strconv.Atoi`` of ASCII digits as the API server's validation uses it (`getPercentValue` ignores
    the error): past int64, ParseInt's value on ErrRange, the largest int64 -- without converting 5,000 digits.
    None for text that is not ASCII digits."""
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    significant = digits.lstrip("0")
    return INT64_MAX if len(significant) > 19 else min(int(digits), INT64_MAX)

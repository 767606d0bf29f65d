"""Kubernetes resource quantities ("500m", "1Gi", "1e3"): exact values, compared and printed as the API server does.

The grammar and the canonical form are k8s.io/apimachinery/pkg/api/resource/quantity.go (`ParseQuantity`,
`Quantity.String` / `CanonicalizeBytes`): a signed decimal number and an optional suffix, binary
(Ki Mi Gi Ti Pi Ei), decimal (n u m "" k M G T P E) or an exponent (e3, E-2).  Values are kept exact as
fractions, so "1Gi" > "1000Mi" and "500m" < "1" compare right.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

_QUANTITY = re.compile(r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$")
_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_DECIMAL_SUFFIX = {exp: suffix for suffix, exp in _DECIMAL.items()}


# Bounds of what is computed exactly: `int()` refuses more than 4,300 digits and 10 ** 999999999 takes
# minutes.  A quantity beyond them (no resource is 10^64 of anything) is read as no quantity at all.
MAX_QUANTITY_DIGITS = 64
MAX_QUANTITY_EXPONENT = 64


def sane_quantity(number: str, suffix: str | None) -> bool:
    """Whether a number and its suffix, as the quantity grammar split them, are small enough to compute."""
    if len(number) > MAX_QUANTITY_DIGITS:
        return False
    if suffix and suffix[0] in "eE":
        digits = suffix[1:].lstrip("+-")
        return len(digits) <= 3 and int(digits) <= MAX_QUANTITY_EXPONENT
    return True


@dataclass(frozen=True, slots=True)
class Quantity:
    value: Fraction
    binary: bool          # written with a binary suffix: printed in binary when that is exact

    def __str__(self) -> str:
        return canonical(self)


def parse_quantity(raw: Any) -> Quantity | None:
    """The quantity of a manifest value (a string, or a YAML number); None when it is not one."""
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, int):
        return Quantity(Fraction(raw), False)
    if isinstance(raw, float):
        raw = repr(raw)
    if not isinstance(raw, str):
        return None
    m = _QUANTITY.match(raw.strip())
    if not m or not sane_quantity(m.group(1), m.group(2)):
        return None
    number, suffix = Fraction(m.group(1)), m.group(2) or ""
    if suffix in _BINARY:
        return Quantity(number * 2 ** _BINARY[suffix], True)
    if suffix in _DECIMAL:
        return Quantity(number * Fraction(10) ** _DECIMAL[suffix], False)
    return Quantity(number * Fraction(10) ** int(suffix[1:]), False)


def canonical(q: Quantity) -> str:
    """`Quantity.String()`: binary with the largest exact suffix for a whole binary value of at
    least 1024, else decimal with the largest exact power-of-1000 suffix (rounded up to 1n)."""
    value = q.value
    if q.binary and abs(value) >= 1024 and value.denominator == 1:
        n, shift = int(value), 0
        while shift < 60 and n % 1024 == 0 and n != 0:
            n //= 1024
            shift += 10
        suffix = {v: k for k, v in _BINARY.items()}.get(shift, "")
        return f"{n}{suffix}"
    nanos = -((-value * 10 ** 9) // 1)        # the API server rounds up to nano units
    for exp in (18, 15, 12, 9, 6, 3, 0, -3, -6, -9):
        scaled = Fraction(nanos, 10 ** 9) / Fraction(10) ** exp
        if scaled.denominator == 1 and (scaled != 0 or exp == 0):
            return f"{int(scaled)}{_DECIMAL_SUFFIX[exp]}"
    return str(nanos)   # pragma: no cover - exp -9 always divides

"""Kubernetes resource quantities ("500m", "1Gi", "1e3"): exact values, compared and printed as the API server does.

The grammar and the canonical form are k8s.io/apimachinery/pkg/api/resource/quantity.go (`ParseQuantity`,
`Quantity.String` / `CanonicalizeBytes`): a signed decimal number and an optional suffix, binary
(Ki Mi Gi Ti Pi Ei), decimal (n u m "" k M G T P E) or an exponent (e3, E-2).  Values are kept exact as
fractions, so "1Gi" > "1000Mi" and "500m" < "1" compare right.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from explainer.lifecycle.records import record

_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_DECIMAL_SUFFIX = {exp: suffix for suffix, exp in _DECIMAL.items()}
_DIGITS = frozenset("0123456789")
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")      # parseQuantityString's "grab the elements of the suffix"
_NANO = Fraction(1, 10 ** 9)
_MAX_BINARY = Fraction(2 ** 63 - 1)            # maxAllowed: BinarySI values are capped there
# An exponent the API server accepts (it keeps the scale as a number) but that no resource needs: past it the
# exact value would take this process unbounded time and memory (10 ** 10**9), so such a text is not read.
MAX_EXPONENT = 1000
# The same for the digits of the number itself (issue 27): `int()` refuses more than 4,300 of them and a
# long numerator costs as much; the API server reads any count (inf.Dec), no resource needs more than 64
# significant ones, so a longer number, or an exponent longer than ParseInt's 19 digits, is not read.
MAX_QUANTITY_DIGITS = 64


@record
class Quantity:
    value: Fraction
    binary: bool          # written with a binary suffix: printed in binary when that is exact

    def __str__(self) -> str:
        return canonical(self)


def parse_quantity(raw: Any) -> Quantity | None:
    """The quantity of a manifest value (a string, or a YAML number) as the API server reads it
    (`Quantity.UnmarshalJSON`: trimmed, then `ParseQuantity`); None where it answers an error."""
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, int):
        return Quantity(Fraction(raw), False)
    if isinstance(raw, float):
        raw = repr(raw)
    if not isinstance(raw, str):
        return None
    return _parse(raw.strip())


def _parse(text: str) -> Quantity | None:
    """`ParseQuantity` of k8s.io/apimachinery/pkg/api/resource/quantity.go, step by step."""
    if not text:
        return None                                   # ErrFormatWrong
    parts = _split(text)
    if parts is None:
        return None
    negative, num, denom, suffix = parts
    if len(num) + len(denom) > MAX_QUANTITY_DIGITS:
        return None
    if suffix in _DECIMAL:                            # suffixHandler.interpret: the tables first
        scale, binary = Fraction(10) ** _DECIMAL[suffix], False
    elif suffix in _BINARY:
        scale, binary = Fraction(2 ** _BINARY[suffix]), True
    elif len(suffix) > 1 and suffix[0] in "eE" and _is_int(suffix[1:]):
        exponent = int(suffix[1:])
        if abs(exponent) > MAX_EXPONENT:
            return None
        scale, binary = Fraction(10) ** exponent, False
    else:
        return None                                   # ErrSuffix
    value = Fraction(int(num + denom), 10 ** len(denom)) * scale
    nanos = value / _NANO
    if nanos.denominator != 1:                        # rounded up to whole nano units (inf.RoundUp)
        value = -(-nanos.numerator // nanos.denominator) * _NANO
    if binary and value > _MAX_BINARY:
        value = _MAX_BINARY
    if binary and value < 1:
        binary = False                                # "This avoids rounding and hopefully confusion"
    return Quantity(-value if negative else value, binary)


def _split(s: str) -> tuple[bool, str, str, str] | None:
    """`parseQuantityString`: (negative, numerator digits, denominator digits, suffix); None for
    ErrFormatWrong.  Leading zeros go; "1.", ".5", "1.G", "+1Gi" are accepted as the API server accepts them."""
    pos, end, negative = 0, len(s), False
    if s[0] in "+-":
        negative, pos = s[0] == "-", 1
    while pos < end and s[pos] == "0":
        pos += 1
    start = pos
    while pos < end and s[pos] in _DIGITS:
        pos += 1
    num = s[start:pos] or "0"
    denom = ""
    if pos < end and s[pos] == ".":
        pos += 1
        start = pos
        while pos < end and s[pos] in _DIGITS:
            pos += 1
        denom = s[start:pos]
    suffix_start = pos
    while pos < end and s[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and s[pos] in "+-":
        pos += 1
    while pos < end and s[pos] in _DIGITS:
        pos += 1
    if pos < end:
        return None                                   # a character that is no part of a suffix
    return negative, num, denom, s[suffix_start:]


def _is_int(s: str) -> bool:
    """strconv.ParseInt(s, 10, 64) succeeds: an optional sign and decimal digits."""
    body = s[1:] if s[:1] in ("+", "-") else s
    if not body or len(body.lstrip("0")) > 19:        # 2 ** 63 has 19 digits; int() of 5,000 would raise
        return False
    return all(ch in _DIGITS for ch in body) and abs(int(s)) < 2 ** 63


def as_fraction(raw: Any) -> Fraction | None:
    """The exact value of a quantity, or None when the API server would refuse it."""
    q = parse_quantity(raw)
    return q.value if q is not None else None


def as_bytes(raw: Any) -> float | None:
    """A memory quantity in bytes (a float: for comparing sizes), or None when it is not one."""
    q = parse_quantity(raw)
    return float(q.value) if q is not None else None


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

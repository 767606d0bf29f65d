"""Sets of moments as sorted, disjoint half-open spans [start, end): what the traffic lane computes with.

``end`` may be ``math.inf`` (it lasts past the end of the simulation).  Every function is linear in the
number of spans, so a day of crash loops stays cheap.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

Span = tuple[float, float]
INF = math.inf


def spans_of(changes: Iterable[tuple[float, bool]]) -> list[Span]:
    """The spans where a value is true, from its changes ``(t, value)`` in time order; of several
    changes at one moment the last one counts, and the value is false before the first."""
    out: list[Span] = []
    start: float | None = None
    pending: dict[float, bool] = {}
    order: list[float] = []
    for t, value in changes:
        if t not in pending:
            order.append(t)
        pending[t] = value
    for t in order:
        value = pending[t]
        if value and start is None:
            start = t
        elif not value and start is not None:
            if t > start:
                out.append((start, t))
            start = None
    if start is not None:
        out.append((start, INF))
    return out


def shift(spans: list[Span], by: float) -> list[Span]:
    return [(a + by, b + by) for a, b in spans]


def intersect(xs: list[Span], ys: list[Span]) -> list[Span]:
    out: list[Span] = []
    i = j = 0
    while i < len(xs) and j < len(ys):
        a, b = max(xs[i][0], ys[j][0]), min(xs[i][1], ys[j][1])
        if a < b:
            out.append((a, b))
        if xs[i][1] < ys[j][1]:
            i += 1
        else:
            j += 1
    return out


def subtract(xs: list[Span], ys: list[Span]) -> list[Span]:
    """The moments of ``xs`` that are not in ``ys``."""
    out: list[Span] = []
    j = 0
    for a, b in xs:
        while j < len(ys) and ys[j][1] <= a:
            j += 1
        k, start = j, a
        while k < len(ys) and ys[k][0] < b:
            if ys[k][0] > start:
                out.append((start, ys[k][0]))
            start = max(start, ys[k][1])
            k += 1
        if start < b:
            out.append((start, b))
    return out


def covers(spans: list[Span], t: float) -> bool:
    """Whether ``t`` lies in one of ``spans`` (binary search)."""
    lo, hi = 0, len(spans)
    while lo < hi:
        mid = (lo + hi) // 2
        if spans[mid][1] <= t:
            lo = mid + 1
        else:
            hi = mid
    return lo < len(spans) and spans[lo][0] <= t

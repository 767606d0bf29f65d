"""The timeline's time axis: a fixed plot width, with long idle stretches cut into axis breaks.

The chart is drawn at one width (the page scales it with its viewBox), so the axis maps time
to x piecewise: linear where something happens, and a fixed-width break ("… 240 s …") over a
stretch where nothing happens that would otherwise squeeze the events into a corner.
"""
from __future__ import annotations

import math

from explainer.lifecycle.records import quick_init
from .model import _r, _secs, nice_step
from explainer.lifecycle.records import record

FIT_PLOT = 760.0        # the plot's width in the viewBox; the label column comes on top
BREAK_PX = 40.0         # what a break takes on the axis
BREAK_MIN_S = 12.0      # a quiet stretch shorter than this is never cut
BREAK_SHARE = 0.3       # ... nor one shorter than this share of the time that stays linear
MIN_TICK_PX = 56.0


@quick_init
@record
class AxisBreak:
    t0: float                    # the skipped stretch, from t0 to t1
    t1: float
    x0: float                    # where it is drawn (plot coordinates, from 0)
    x1: float
    label: str                   # "… 240 s …"


@quick_init
@record
class TimeAxis:
    """x(t) for t in [0, end]: linear at ``pps`` px/s except over ``breaks``."""

    end: float
    pps: float
    breaks: tuple[AxisBreak, ...]

    def x(self, t: float) -> float:
        """Plot x of ``t`` (0 at t = 0); inside a break, spread evenly over its width."""
        t = min(max(t, 0.0), self.end)
        skipped = 0.0
        for b in self.breaks:
            if t <= b.t0:
                break
            if t < b.t1:
                return _r(b.x0 + (t - b.t0) / (b.t1 - b.t0) * (b.x1 - b.x0))
            skipped += (b.t1 - b.t0) * self.pps - (b.x1 - b.x0)
        return _r(t * self.pps - skipped)

    @property
    def width(self) -> float:
        return self.x(self.end)

    def knots(self) -> list[list[float]]:
        """[t, x] pairs between which x is linear (what the browser script interpolates)."""
        out = [[0.0, 0.0]]
        for b in self.breaks:
            out += [[b.t0, self.x(b.t0)], [b.t1, self.x(b.t1)]]
        out.append([self.end, self.x(self.end)])
        return out

    def ticks(self) -> list[tuple[float, float]]:
        """(t, x) of the round-number ticks, none inside or too close to a break."""
        step = nice_step(1 / self.pps, MIN_TICK_PX)
        out: list[tuple[float, float]] = []
        last = -math.inf
        count = int(self.end / step + 1e-9) + 1
        n = 0
        breaks = self.breaks
        if not breaks:      # the common case, as below without the breaks: x is t * pps, within [0, end]
            pps, end, gap = self.pps, self.end, MIN_TICK_PX * 0.6
            for n in range(count):
                t = round(n * step, 6)
                x = _r(min(max(t, 0.0), end) * pps - 0.0)
                if x - last < gap:
                    continue
                out.append((t, x))
                last = x
            return out
        while n < count:
            t = round(n * step, 6)
            inside = None
            for b in breaks:
                if b.t0 - 1e-9 < t < b.t1 + 1e-9 and b.t1 - b.t0 > 0:
                    inside = b
                    break
            if inside is not None:
                # every later tick up to the break's end is inside it too (t grows with n): go past them
                past = inside.t1 + 1e-9
                n = max(n + 1, int(past / step) - 1)
                while n < count and round(n * step, 6) < past:
                    n += 1
                continue
            n += 1
            x = self.x(t)
            if breaks and _near_break(x, t, breaks):
                continue
            if x - last < MIN_TICK_PX * 0.6:
                continue
            out.append((t, x))
            last = x
        return out


def end_tick(axis: TimeAxis, ticks: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``ticks`` and, when no tick stands after the last break (a narrow plot: the round steps are wide), one
    at the axis's end, so that the stretch after the break says when it is (a chart fitted to a panel)."""
    if not axis.breaks or (ticks and ticks[-1][0] >= axis.breaks[-1].t1):
        return ticks
    x = axis.x(axis.end)
    if (ticks and x - ticks[-1][1] < MIN_TICK_PX * 0.6) or _near_break(x, axis.end, axis.breaks):
        return ticks
    return ticks + [(axis.end, x)]


def _near_break(x: float, t: float, breaks: tuple[AxisBreak, ...]) -> bool:
    """Whether a tick at ``x`` (time ``t``) comes within 24 px of a break's edge (but for a tick at
    the break's own ends)."""
    for b in breaks:
        if t != b.t0 and t != b.t1 and (abs(x - b.x0) < 24 or abs(x - b.x1) < 24):
            return True
    return False


def _nice_skip(gap: float) -> float:
    """The part of a quiet ``gap`` to cut: all but a few percent at either end, rounded down to a
    number a reader takes in at once ("… 18 s …", "… 240 s …", never "… 18.4 s …")."""
    want = gap - 2 * max(gap * 0.04, 0.5)
    for limit, unit in ((1200.0, 60.0), (50.0, 5.0), (5.0, 1.0)):
        if want >= limit:
            return math.floor(want / unit) * unit
    return math.floor(want * 10) / 10


def fit_axis(times: list[float], end: float, *, plot: float = FIT_PLOT, allow_breaks: bool = True,
             label: str = "… {s} s …") -> TimeAxis:
    """The axis for moments ``times`` within [0, ``end``], ``plot`` px wide.

    Quiet stretches are cut, the longest first, while one is longer than BREAK_MIN_S and than
    BREAK_SHARE of the time that stays linear; each keeps a little of itself on either side so
    that the bars visibly go on before and after the break.
    """
    end = max(end, 0.1)
    pts = sorted({0.0, end} | {t for t in times if 0.0 <= t <= end})
    gaps = sorted(((b - a, a, b) for a, b in zip(pts, pts[1:])), reverse=True)
    cuts: list[tuple[float, float]] = []
    linear = end
    most = min(8, int(plot / 2 / BREAK_PX))    # a narrow plot (a phone's) keeps half of itself for the time shown
    for gap, a, b in gaps if allow_breaks else ():
        if gap < BREAK_MIN_S or gap < BREAK_SHARE * (linear - gap) or len(cuts) >= most:
            break
        skip = _nice_skip(gap)
        if skip <= 0:
            break
        lead = (gap - skip) / 2
        cuts.append((a + lead, b - lead))
        linear -= skip
    cuts.sort()
    pps = max(plot - BREAK_PX * len(cuts), plot / 2) / max(linear, 0.1)
    breaks: list[AxisBreak] = []
    x = 0.0
    prev = 0.0
    for t0, t1 in cuts:
        x0 = x + (t0 - prev) * pps
        breaks.append(AxisBreak(round(t0, 6), round(t1, 6), _r(x0), _r(x0 + BREAK_PX),
                                label.format(s=_secs(round(t1 - t0, 3)))))
        x = x0 + BREAK_PX
        prev = t1
    return TimeAxis(end, pps, tuple(breaks))

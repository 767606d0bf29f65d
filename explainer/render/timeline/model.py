"""The timeline's vocabulary: geometry constants, the layout dataclasses, text measuring, labels.

Shared by the walk (`timeline.walk`), the placement (`timeline.place`), the layout
(`timeline.layout`) and the markup (`timeline.svg`); it imports none of them.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import unicodedata
from collections.abc import Callable

from explainer.lifecycle.records import quick_init
from explainer.lifecycle.records import record

Gettext = Callable[[str], str]


def _identity(s: str) -> str:
    return s


# ---- geometry constants (px) -------------------------------------------------------------------
MARGIN = 12
LANE_HEIGHT = 22
BAR_INSET = 5                 # a bar fills the lane minus this much above and below
GROUP_GAP = 8                 # between init containers, app containers and ephemeral containers
STRIP_ROW = 18
STRIP_GAP = 3
AXIS_ROW = 20
LEGEND_ROW = 20
GUIDE_ROW = 15
HEADING_ROW = 26
RIGHT_PAD = 56                # room after the last second for exit codes and labels
NAME_MAX = 190                # container names longer than this are cut (full name in the tooltip)
MIN_WIDTH, MAX_WIDTH = 700.0, 4000.0   # the plot area; the page scrolls horizontally
MIN_GAP_PX = 16.0             # the shortest interval between two events gets at least this
FONT = 12.0
SMALL = 10.5
NOTE_FONT, NOTE_LINE = 11.0, 14.0      # the note under the legend (.tl-note), a fitted chart's on lines this far apart
# A chart laid out for the width of its panel (issue 25; the page passes ``fit_width``): the plot takes what the
# label column leaves; below MIN_FIT_PLOT the names go on a row of their own above each lane ("stacked"), as a
# phone needs, with LABEL_ROW for that row and a narrower STACKED_RIGHT_PAD after the last second.
MIN_FIT_PLOT = 280.0
MIN_FIT_WIDTH = 200.0
LABEL_ROW = 15
NAME_INDENT = 5               # stacked: a name starts a little right of t = 0, clear of the cursor's line there
STACKED_RIGHT_PAD = 34
SLACK = 1.2                   # text_width is an estimate: a fitted chart, with no room to spare, allows this much
GUIDE_SLACK = 1.35            # ... and this much for a guide's bold label

STATES = ("waiting", "starting", "running", "ready", "terminating", "backoff", "exited")
ROLE_ORDER = {"init": 0, "sidecar": 0, "app": 1, "ephemeral": 2}


# ---- the layout --------------------------------------------------------------------------------
@quick_init
@record
class Lane:
    index: int
    name: str
    role: str                    # init | sidecar | app | ephemeral
    role_label: str
    label: str                   # the name, cut to fit the label column
    y: float
    height: float
    group: int                   # 0 init containers and sidecars, 1 app containers, 2 ephemeral
    tooltip: str


@quick_init
@record
class Bar:
    lane: int
    state: str                   # one of STATES
    t0: float
    t1: float
    x: float
    width: float
    y: float
    height: float
    css_class: str
    tooltip: str
    assumed: bool = False        # its end comes from an assumed duration


@quick_init
@record
class Marker:
    lane: int
    # poststart | startup-ok | startup-failed | liveness-failed | sigterm | sigkill | restart | exit |
    # image-pull-failed | image-updated
    kind: str
    t: float
    x: float                     # where the glyph is drawn (nudged right when glyphs collide)
    y: float                     # the lane's middle
    css_class: str
    tooltip: str
    label: str = ""              # exit code text
    label_x: float | None = None  # None: no room for the label (it stays in the tooltip)
    assumed: bool = False


@quick_init
@record
class StripRow:
    key: str                     # phase | status | ready
    label: str
    y: float
    height: float


@quick_init
@record
class Segment:
    row: str
    value: str
    t0: float
    t1: float
    x: float
    width: float
    y: float
    height: float
    css_class: str
    tooltip: str
    label: str                   # "" when the text does not fit
    transient: bool = False      # a value held for no time at all (drawn as a thin tick)
    label_x: float | None = None  # where the label starts (clear of axis breaks)
    assumed: bool = False        # its length comes from an assumption (drawn dotted)


@quick_init
@record
class Tick:
    t: float
    x: float
    label: str


@quick_init
@record
class Arrow:
    container: str
    waits_for: str
    condition: str
    guaranteed: bool
    points: tuple[tuple[float, float], ...]
    css_class: str
    tooltip: str


@quick_init
@record
class Guide:
    """A Pod-level moment (deleted, sandbox lost, deadline, kubectl debug) across all lanes."""

    kind: str
    t: float
    x: float
    y0: float
    y1: float
    label: str
    label_x: float               # the label's centre (kept inside the chart)
    label_y: float
    css_class: str
    tooltip: str


@quick_init
@record
class LegendItem:
    kind: str                    # bar | assumed | marker | arrow
    key: str                     # the state, marker kind or arrow style
    label: str
    x: float
    y: float
    css_class: str


@quick_init
@record
class TimelineLayout:
    pod: str
    width: float
    height: float
    plot_x: float
    plot_width: float
    px_per_second: float
    view_end: float
    end_time: float
    lanes_top: float
    lanes_bottom: float
    axis_y: float                # baseline of the tick labels above the lanes
    bottom_axis_y: float
    label_x: float               # where the container names start
    role_x: float                # right edge of the role labels
    heading_y: float
    lanes: tuple[Lane, ...]
    bars: tuple[Bar, ...]
    markers: tuple[Marker, ...]
    strip_rows: tuple[StripRow, ...]
    segments: tuple[Segment, ...]
    ticks: tuple[Tick, ...]
    arrows: tuple[Arrow, ...]
    guides: tuple[Guide, ...]
    legend: tuple[LegendItem, ...]
    axis_label: str
    note: str                    # "… continues to 300 s", or why nothing ran
    note_y: float
    simulated: bool
    breaks: tuple = ()           # AxisBreak: quiet stretches cut out of the axis (page x)
    knots: tuple = ()            # (t, x) between which x is linear: x_at() and the browser use them
    failures: tuple = ()         # timeline.traffic.FailureMark: requests arrive, nothing listens
    reaches: tuple = ()          # timeline.traffic.ReachMark: an endpoint change reaches the proxies
    deletions: tuple = ()        # timeline.traffic.DeletionMark: a deletion only the traffic row assumes
    stacked: bool = False        # names on a row above each lane and strip row, not in a column on the left
    fitted: bool = False         # laid out for a given width (the page's panel), not the default one
    observed: tuple = ()         # timeline.observed.ObsLane: what the cluster shows, under each container's lane
    obs_bars: tuple = ()         # timeline.observed.ObsBar
    obs_marks: tuple = ()        # timeline.observed.ObsMark

    def x_at(self, t: float) -> float:
        """The x of time ``t`` on this chart."""
        t = min(max(t, 0.0), self.view_end)
        pts = self.knots or ((0.0, self.plot_x), (self.view_end, self.plot_x + self.plot_width))
        for (ta, xa), (tb, xb) in zip(pts, pts[1:]):
            if t <= tb:
                return _r(xa + (xb - xa) * ((t - ta) / (tb - ta) if tb > ta else 0.0))
        return _r(pts[-1][1])


# ---- small helpers -----------------------------------------------------------------------------
@functools.lru_cache(maxsize=16384, typed=True)
def _r(v: float) -> float:
    """Round to 0.1 px; -0.0 becomes 0.0 so that golden files do not flip.  Cached (bounded, typed
    so that an int stays an int): a chart rounds a few hundred coordinates, mostly the same rows
    and columns again, and a cached answer costs half of `round`."""
    v = round(v, 1)
    return 0.0 if v == 0 else v


def _secs(t: float) -> str:
    return f"{t:g}"


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: float = FONT) -> float:
    """A close enough estimate of how wide ``text`` is in a sans-serif font (CJK counts double).
    Cached: every chart measures the same labels (states, roles, legend entries) again."""
    w = 0.0
    for ch in text:
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            w += size
        elif ch in "il.,:;|!'` ":
            w += size * 0.3
        elif ch.isupper() or ch in "mwMW@%":
            w += size * 0.7
        else:
            w += size * 0.56
    return w


def _cut(text: str, max_px: float, size: float = FONT) -> str:
    if text_width(text, size) <= max_px:
        return text
    out = ""
    for ch in text:
        if text_width(out + ch + "…", size) > max_px:
            break
        out += ch
    return out + "…"


def wrap_px(text: str, max_px: float, size: float = FONT) -> list[str]:
    """``text`` in lines of whole words, each within ``max_px`` by the estimate (a word longer than that is cut)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= max_px:
            lines[-1] += f" {word}"
        else:
            lines.append(_cut(word, max_px, size))
    return lines


def nice_step(seconds_per_px: float, min_px: float = 64.0) -> float:
    """The smallest step of 1, 2, 5 x 10^n seconds whose ticks are at least ``min_px`` apart."""
    want = seconds_per_px * min_px
    exp = math.floor(math.log10(want)) if want > 0 else 0
    for e in (exp, exp + 1):
        for m in (1, 2, 5):
            step = m * 10 ** e
            if step >= want - 1e-12:
                return float(step) if step >= 1 else round(step, 6)
    return float(10 ** (exp + 1))


# ---- labels (through gettext, so that makemessages finds the msgids) ----------------------------
def _role_labels(_: Gettext) -> dict[str, str]:
    return {"init": _("Init container"), "sidecar": _("Native sidecar"), "app": _("App container"),
            "ephemeral": _("Ephemeral container")}


def _state_labels(_: Gettext) -> dict[str, str]:
    return {"waiting": _("Waiting"), "starting": _("Starting"), "running": _("Running"),
            "ready": _("Ready"), "terminating": _("Terminating"), "backoff": _("Back-off"),
            "exited": _("Exited")}


def _marker_labels(_: Gettext) -> dict[str, str]:
    return {"poststart": _("postStart done"), "startup-ok": _("Startup probe passed"),
            "startup-failed": _("Startup probe failed"), "liveness-failed": _("Liveness probe failed"),
            "sigterm": _("SIGTERM"), "sigkill": _("SIGKILL"), "restart": _("Restart"),
            "exit": _("Exit code"), "image-pull-failed": _("Image pull failed"),
            "image-updated": _("Image updated")}


def _event_labels(_: Gettext) -> dict[str, str]:
    return {
        "sandbox_ready": _("Sandbox ready"), "image_pull_failed": _("Image pull failed"),
        "created": _("Created"), "started": _("Started"), "poststart_done": _("postStart done"),
        "startup_probe_ok": _("Startup probe passed"), "startup_probe_failed": _("Startup probe failed"),
        "ready": _("Ready"), "not_ready": _("Not ready"), "liveness_failed": _("Liveness probe failed"),
        "exited": _("Exited"), "backoff": _("Back-off"), "delete_requested": _("Pod deleted"),
        "prestop_started": _("preStop hook started"), "prestop_done": _("preStop hook done"),
        "terminating": _("SIGTERM"), "killed": _("SIGKILL"), "sandbox_lost": _("Sandbox lost"),
        "deadline_exceeded": _("Deadline exceeded"), "debug_requested": _("kubectl debug"),
        "image_updated": _("Image updated"), "all_containers_restarting": _("Restart all containers"),
    }


def _condition_text(condition: str, waits_for: str, _: Gettext) -> str:
    # only the one text asked for is translated (a chart asks once or twice per dependency)
    if condition == "exit0":
        text = _("{c} to exit 0")
    elif condition == "startupProbe":
        text = _("{c}'s startup probe to pass")
    elif condition == "postStart":
        text = _("{c}'s postStart hook to finish")
    elif condition == "created":
        text = _("{c} to be started")
    else:               # "started", and any other
        text = _("{c} to start")
    return text.format(c=waits_for)

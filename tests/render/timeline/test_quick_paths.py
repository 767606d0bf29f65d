"""The timeline's quick paths (issue 14) against plain references: escaping, zig-zags, axis ticks,
slot-built dataclasses, the walk's skipped events, the cursor's status points, the cached legend.

The golden files pin the output of the examples; these check the same equivalences on inputs the
goldens do not reach (any text, any coordinates, every fixture with random scenarios).
"""
from __future__ import annotations

import ast
import dataclasses
import inspect
import math
import random
import re
import textwrap
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explainer.explain import explain
from explainer.lifecycle.kubelet.trace import EVENT_TYPES, TraceEvent
from explainer.render.timeline import axis as timeline_axis, model as timeline_model, place as timeline_place
from explainer.render.timeline import layout_timeline
from explainer.render.timeline.axis import MIN_TICK_PX, TimeAxis
from explainer.render.timeline.frames import timeline_frames
from explainer.render.timeline.model import _condition_text, _identity, nice_step
from explainer.render.timeline.svg import _legend_markup, _n, _q, _svg_legend, _t, _zigzag
from explainer.render.timeline.walk import _WALKED, _collect, _walk, lane_containers
from tests.profiles import examples

ROOT = Path(__file__).resolve().parents[3]
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


# ---- escaping -----------------------------------------------------------------------------------
def reference_text(s: str) -> str:
    return escape(_INVALID_XML.sub("\ufffd", s))


def reference_attribute(s: str) -> str:
    return '"' + escape(_INVALID_XML.sub("\ufffd", s), {'"': "&quot;", "\n": "&#10;", "\t": "&#9;"}) + '"'


def test_every_character_is_escaped_as_the_standard_library_does() -> None:
    for code in range(0x10000):
        ch = chr(code)
        for s in (ch, f"a{ch}b&\n"):
            assert _t(s) == reference_text(s), hex(code)
            assert _q(s) == reference_attribute(s), hex(code)


TRICKY = st.sampled_from(list('<>&"\'\n\t\r\x00\x01\x0b\x1f\x7f\x85\u2028\ud800\udfff\ufffe\uffff\ufffd中'))


@settings(max_examples=examples(300), deadline=None)
@given(st.text(st.one_of(TRICKY, st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())),
               max_size=30))
def test_escaping_matches_the_standard_library(s: str) -> None:
    assert _t(s) == reference_text(s)
    assert _q(s) == reference_attribute(s)


# ---- the zig-zag of an axis break -----------------------------------------------------------------
def reference_zigzag(x: float, y0: float, y1: float) -> str:
    d = f"M{_n(x)} {_n(y0)}"
    y, side = y0, 1
    while y + 4 < y1:
        y += 4
        d += f"L{_n(x + 2.5 * side)} {_n(y)}"
        side = -side
    return d + f"L{_n(x)} {_n(y1)}"


COORD = st.one_of(st.floats(-50, 5000, allow_nan=False), st.integers(-50, 5000).map(float),
                  st.integers(0, 50000).map(lambda v: v / 10))


@settings(max_examples=examples(300), deadline=None)
@given(COORD, COORD, st.floats(-10, 400, allow_nan=False))
def test_zigzag_matches_a_plain_walk_down(x: float, y0: float, height: float) -> None:
    assert _zigzag(x, y0, y0 + height) == reference_zigzag(x, y0, y0 + height)


# ---- axis ticks without breaks -----------------------------------------------------------------------
def reference_ticks(axis: TimeAxis) -> list[tuple[float, float]]:
    """Every round-number tick that keeps MIN_TICK_PX * 0.6 from the last one kept."""
    step = nice_step(1 / axis.pps, MIN_TICK_PX)
    out: list[tuple[float, float]] = []
    last = -math.inf
    for n in range(int(axis.end / step + 1e-9) + 1):
        t = round(n * step, 6)
        x = axis.x(t)
        if x - last >= MIN_TICK_PX * 0.6:
            out.append((t, x))
            last = x
    return out


@settings(max_examples=examples(300), deadline=None)
@given(st.floats(0.1, 100000, allow_nan=False), st.floats(10, 8000, allow_nan=False))
def test_ticks_without_breaks_are_the_plain_walk(end: float, width: float) -> None:
    axis = TimeAxis(end, width / end, ())
    assert axis.ticks() == reference_ticks(axis)


# ---- the walk skips only events it draws nothing for ----------------------------------------------
def test_the_walk_lists_every_event_type_it_has_a_branch_for() -> None:
    tree = ast.parse(textwrap.dedent(inspect.getsource(_walk)))
    compared: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "k":
            for right in node.comparators:
                for const in ast.walk(right):
                    if isinstance(const, ast.Constant) and isinstance(const.value, str):
                        compared.add(const.value)
    assert compared == set(_WALKED)
    assert set(_WALKED) <= set(EVENT_TYPES)


@pytest.mark.parametrize("kind", sorted(set(EVENT_TYPES) - _WALKED))
def test_an_event_the_walk_does_not_draw_changes_nothing(kind: str) -> None:
    report = explain((ROOT / "explainer/examples/lifecycle-demo.yaml").read_text(encoding="utf-8"),
                     {"deleteAt": 30}).pods[0]
    containers = lane_containers(report)
    found = _collect(report, containers)
    for i, c in enumerate(containers):
        events = found.lane_events[i]
        extra = TraceEvent(events[1].t, c.name, kind, message="anything")   # type: ignore[arg-type]
        with_it = events[:1] + [extra] + events[1:]
        assert _walk(report, i, c, with_it, None, "why", 60.0, _identity) == \
            _walk(report, i, c, events, None, "why", 60.0, _identity)


# ---- every fixture, random scenarios --------------------------------------------------------------
def manifests() -> list[Path]:
    return sorted((ROOT / "explainer/examples").glob("*.yaml")) + sorted((ROOT / "tests/fixtures").glob("**/*.yaml"))


def test_every_fixture_with_random_scenarios() -> None:
    """The cursor's Pod status is the last status point up to each instant; the legend from the
    caches is the one computed afresh; strip ticks take the first bad value's class."""
    checked = 0
    for path in manifests():
        rnd = random.Random(path.name)
        scenario = {"deleteAt": rnd.choice([rnd.randint(0, 200), round(rnd.uniform(0, 100), 1)])}
        if rnd.random() < 0.3:
            scenario["until"] = rnd.choice([30, 600, 3600])
        result = explain(path.read_text(encoding="utf-8", errors="replace"), scenario)
        for report in result.pods[:2]:
            if report.simulation is None:
                continue
            checked += 1
            layout = layout_timeline(report)
            frames = timeline_frames(report, layout)
            for frame in frames["frames"]:
                before = [p for p in report.simulation.timeline if p.t <= frame["t"] + 1e-9]
                if before:
                    point = before[-1]
                    assert (frame["pod"]["phase"], frame["pod"]["status"], frame["pod"]["ready"]) == \
                        (point.phase, point.status, point.ready_count), path
                else:
                    assert frame["pod"] == {}, path
            fresh = timeline_place._legend_rows.__wrapped__(
                tuple((i.kind, i.key, i.label, i.css_class) for i in layout.legend), layout.legend[0].y,
                layout.width)
            assert fresh[0] == layout.legend, path
            assert _svg_legend(layout, "tlX") == [s.replace("\0", "tlX") for s in _legend_markup.__wrapped__(
                layout.legend)], path
            for seg in layout.segments:
                if seg.transient:
                    values = seg.value.split(" → ")
                    css = {"phase": timeline_place._phase_css, "status": timeline_place._status_css,
                           "ready": timeline_place._ready_css}[seg.row].__wrapped__
                    bad = [css(v) for v in values if "-bad" in css(v) or "-failed" in css(v)]
                    assert seg.css_class == (bad[0] if bad else css(values[-1])) + " tl-blip", path
    assert checked > 300


@pytest.mark.parametrize(("condition", "text"), [
    ("exit0", "init to exit 0"), ("started", "init to start"), ("startupProbe", "init's startup probe to pass"),
    ("postStart", "init's postStart hook to finish"), ("created", "init to be started"),
    ("anything else", "init to start"),
])
def test_condition_texts(condition: str, text: str) -> None:
    asked: list[str] = []

    def gettext(s: str) -> str:
        asked.append(s)
        return s

    assert _condition_text(condition, "init", gettext) == text
    assert len(asked) == 1

"""The Gantt timeline: lanes, bar states, markers, arrows, scale, escaping and golden SVGs."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from benchmarks.pods import generated_pod
from explainer.explain import PodReport, explain
from explainer.render.timeline import (
    STATES,
    TimelineLayout,
    layout_timeline,
    nice_step,
    render_timeline_svg,
    timeline_rows,
)
from explainer.render.timeline.axis import BREAK_PX, FIT_PLOT, fit_axis
from tests.conftest import load_manifest

SVG = "{http://www.w3.org/2000/svg}"
CRASHING = "containers: {app: {runSeconds: 2, exitCode: 1}}"
DEBUG = "debug: [{name: dbg, image: busybox, target: app, at: 20}]"


def report(name: str, scenario: str | None = None) -> PodReport:
    result = explain(load_manifest(name), scenario)
    assert result.ok, result.errors
    return result.pods[0]


def states_of(layout: TimelineLayout, lane: str) -> list[str]:
    """The bar states of one lane, left to right, repeated states merged."""
    index = next(l.index for l in layout.lanes if l.name == lane)
    out: list[str] = []
    for bar in sorted((b for b in layout.bars if b.lane == index), key=lambda b: b.t0):
        if not out or out[-1] != bar.state:
            out.append(bar.state)
    return out


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


# ---- lanes ----------------------------------------------------------------------------------------
def test_lanes_in_start_order_with_their_roles() -> None:
    layout = layout_timeline(report("seeds/lifecycle-demo", DEBUG))
    assert [(l.name, l.role, l.role_label) for l in layout.lanes] == [
        ("prepare", "init", "Init container"),
        ("helper", "sidecar", "Native sidecar"),
        ("app", "app", "App container"),
        ("dbg", "ephemeral", "Ephemeral container"),
    ]
    ys = [l.y for l in layout.lanes]
    assert ys == sorted(ys) and len(set(ys)) == 4
    assert [l.group for l in layout.lanes] == [0, 0, 1, 2]
    # the debug container's lane starts when kubectl debug asks for it, not at 0
    dbg = [b for b in layout.bars if b.lane == 3]
    assert dbg and min(b.t0 for b in dbg) == 20
    assert states_of(layout, "dbg")[-1] == "running"
    assert any(g.kind == "debug" and g.t == 20 for g in layout.guides)


def test_every_lane_shows_its_role_in_the_svg() -> None:
    root = parse(render_timeline_svg(report("seeds/lifecycle-demo", DEBUG)))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for label in ("Init container", "Native sidecar", "App container", "Ephemeral container"):
        assert label in texts
    for name in ("prepare", "helper", "app", "dbg"):
        assert name in texts


# ---- bars and markers -----------------------------------------------------------------------------
def test_startup_states_of_lifecycle_demo() -> None:
    layout = layout_timeline(report("seeds/lifecycle-demo", "deleteAt: 30"))
    assert states_of(layout, "prepare") == ["running", "exited"]
    assert states_of(layout, "helper") == ["waiting", "ready"]
    assert states_of(layout, "app") == ["waiting", "ready"]
    prepare_run = next(b for b in layout.bars if b.lane == 0 and b.state == "running")
    assert (prepare_run.t0, prepare_run.t1) == (0, 1)
    # prepare's 1 s is assumed: the bar is marked and says so
    assert prepare_run.assumed and "(assumed" in prepare_run.tooltip
    exits = [m for m in layout.markers if m.kind == "exit"]
    assert sorted((layout.lanes[m.lane].name, m.label) for m in exits) == [
        ("app", "143"), ("helper", "143"), ("prepare", "0")]
    assert {layout.lanes[m.lane].name for m in layout.markers if m.kind == "sigterm"} == {"app", "helper"}


def test_crashing_app_goes_through_backoff() -> None:
    layout = layout_timeline(report("pods/crashing_app", CRASHING))
    states = states_of(layout, "app")
    assert states[:5] == ["ready", "backoff", "ready", "backoff", "ready"]
    assert set(states) <= set(STATES)
    first_backoff = next(b for b in layout.bars if b.state == "backoff")
    assert (first_backoff.t0, first_backoff.t1) == (4, 14)
    assert "CrashLoopBackOff" in first_backoff.tooltip
    assert first_backoff.css_class == "tl-bar tl-backoff"
    restarts = [m.t for m in layout.markers if m.kind == "restart"]
    assert restarts == [2, 14, 36, 78, 160]
    assert {m.label for m in layout.markers if m.kind == "exit"} == {"1"}
    # the status strip tells the same story
    assert "CrashLoopBackOff" in {s.value for s in layout.segments if s.row == "status"}


def test_starting_until_the_startup_probe_passes() -> None:
    layout = layout_timeline(report("seeds/native-sidecar-probe", "containers: {proxy: {startupSeconds: 5}}"))
    proxy = [b for b in layout.bars if b.lane == 0]
    assert [(b.state, b.t0, b.t1) for b in proxy] == [("starting", 0, 6), ("ready", 6, 16)]
    assert [(m.kind, m.t) for m in layout.markers if m.lane == 0] == [("startup-ok", 6)]
    assert states_of(layout, "app") == ["waiting", "ready"]


def test_termination_shows_prestop_and_sigterm() -> None:
    layout = layout_timeline(report("seeds/web-app-pod", "deleteAt: 60"))
    envoy = [b for b in layout.bars if layout.lanes[b.lane].name == "envoy-sidecar" and b.state == "terminating"]
    # its own preStop would last 10 s, but app's preStop ends pause at 65 s, and every process of the
    # shared PID namespace with it (docs/lifecycle-model.md §30)
    assert [(b.t0, b.t1) for b in envoy] == [(60, 65)]
    assert "preStop" in envoy[0].tooltip and not envoy[0].assumed   # app's 5 s sleep is written, not assumed
    kinds = {(layout.lanes[m.lane].name, m.kind) for m in layout.markers}
    assert ("app", "poststart") in kinds and ("app", "startup-ok") in kinds
    assert any(g.kind == "deleted" and g.t == 60 for g in layout.guides)


# ---- dependency arrows ----------------------------------------------------------------------------
def test_arrows_for_init_then_sidecar_then_app() -> None:
    layout = layout_timeline(report("seeds/lifecycle-demo", "deleteAt: 30"))
    pairs = {(a.waits_for, a.container, a.condition, a.guaranteed) for a in layout.arrows}
    assert pairs == {("prepare", "helper", "exit0", True), ("helper", "app", "started", True)}
    lanes = {l.name: l for l in layout.lanes}
    x1 = layout.x_at(1)
    for a in layout.arrows:
        (xs, ys), (xe, ye) = a.points[0], a.points[-1]
        assert xs == pytest.approx(x1, abs=0.1) and xe == pytest.approx(x1, abs=0.1)
        assert lanes[a.waits_for].y < ys < ye <= lanes[a.container].y + lanes[a.container].height
        assert a.css_class == "tl-arrow"


def test_arrow_from_the_startup_probe_and_dashed_when_not_guaranteed() -> None:
    layout = layout_timeline(report("seeds/native-sidecar-probe", "containers: {proxy: {startupSeconds: 5}}"))
    (arrow,) = layout.arrows
    assert (arrow.waits_for, arrow.container, arrow.condition) == ("proxy", "app", "startupProbe")
    assert arrow.points[0][0] == pytest.approx(layout.x_at(6), abs=0.1)
    web = layout_timeline(report("seeds/web-app-pod"))
    dashed = [a for a in web.arrows if not a.guaranteed]
    assert dashed and all("tl-dashed" in a.css_class for a in dashed)
    assert ("app", "envoy-sidecar", "postStart") in {(a.waits_for, a.container, a.condition) for a in dashed}


# ---- window, scale, axis --------------------------------------------------------------------------
def test_window_stops_after_the_last_event_and_says_so() -> None:
    layout = layout_timeline(report("seeds/native-sidecar-probe", "containers: {proxy: {startupSeconds: 5}}"))
    assert layout.end_time == 300 and layout.view_end == 16
    assert "300" in layout.note
    whole = layout_timeline(report("seeds/lifecycle-demo", "deleteAt: 30"))
    assert whole.view_end == 30 and whole.note == ""
    explicit = layout_timeline(report("seeds/lifecycle-demo", "deleteAt: 30"), view_end=10)
    assert explicit.view_end == 10 and "30" in explicit.note
    assert all(b.t1 <= 10 for b in explicit.bars)


@pytest.mark.parametrize("name,scenario", [("seeds/lifecycle-demo", "deleteAt: 30"), ("pods/crashing_app", CRASHING),
                                           ("seeds/web-app-pod", "deleteAt: 60"), ("seeds/long-running-init", None)])
def test_plot_width_and_rounding(name: str, scenario: str | None) -> None:
    layout = layout_timeline(report(name, scenario))
    assert layout.plot_width == pytest.approx(FIT_PLOT, abs=0.2)      # fitted: one width, whatever the span
    numbers = [layout.width, layout.height, layout.plot_x]
    for b in layout.bars:
        numbers += [b.x, b.width, b.y, b.height]
    for m in layout.markers:
        numbers += [m.x, m.y]
    for a in layout.arrows:
        numbers += [v for p in a.points for v in p]
    assert all(v == round(v, 1) for v in numbers)
    assert layout.ticks[0].t == 0 and [t.x for t in layout.ticks] == sorted(t.x for t in layout.ticks)
    # between two breaks the ticks keep one step; none falls inside a break
    steps = {round(b.t - a.t, 6) for a, b in zip(layout.ticks, layout.ticks[1:])
             if not any(a.t < br.t0 and b.t > br.t1 for br in layout.breaks)}
    assert len(steps) == 1
    assert not any(br.t0 < t.t < br.t1 for br in layout.breaks for t in layout.ticks)


def test_nice_steps() -> None:
    assert nice_step(1 / 23.3) == 5
    assert nice_step(1 / 16) == 5
    assert nice_step(1 / 4) == 20
    assert nice_step(1 / 200) == 0.5
    assert nice_step(1.0) == 100


# ---- scale: 200 containers -------------------------------------------------------------------------
def test_two_hundred_containers() -> None:
    result = explain(generated_pod(200), "deleteAt: 120")
    assert result.ok
    r = result.pods[0]
    layout = layout_timeline(r)
    assert len(layout.lanes) == 200
    assert all(l.height >= 20 for l in layout.lanes)
    root = parse(render_timeline_svg(r))
    lane_stripes = [e for e in root.iter(f"{SVG}rect") if (e.get("class") or "").startswith("tl-role-")]
    assert len(lane_stripes) == 200
    assert float(root.get("width")) <= 4000 + 400


# ---- the SVG document --------------------------------------------------------------------------------
def test_standalone_accessible_svg() -> None:
    svg = render_timeline_svg(report("seeds/lifecycle-demo", "deleteAt: 30"))
    root = parse(svg)
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert root.find(f"{SVG}title").text == "Timeline of Pod lifecycle-demo"
    assert "Failed" in root.find(f"{SVG}desc").text
    style = root.find(f"{SVG}style").text
    assert "prefers-color-scheme: dark" in style
    assert "<script" not in svg and "href" not in svg and "http://" not in svg.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    # hover details: every bar and marker group carries a <title>
    groups = [g for g in root.iter(f"{SVG}g") if g.find(f"{SVG}rect") is not None or g.find(f"{SVG}path") is not None]
    assert groups and all(g.find(f"{SVG}title") is not None for g in groups if g.get("class") is None)
    # the legend names every state
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {"Waiting", "Starting", "Running", "Ready", "Terminating", "Back-off", "Exited", "Assumed duration"} <= texts


def test_escaping_of_manifest_and_scenario_text() -> None:
    manifest = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: evil}\nspec:\n  containers:\n"
        "    - name: app\n      image: '\"evil<script>alert(1)</script>\" & '' ]]>'\n"
    )
    scenario = "debug: [{name: dbg, image: \"<img src=x onerror=alert(1)> \\\"q\\\" 'q' &\", target: app, at: 5}]"
    result = explain(manifest, scenario)
    assert result.ok, result.errors
    r = result.pods[0]
    assert "<script>" in r.pod.containers[0].image and "<img" in r.simulation.debug_containers[0].image
    svg = render_timeline_svg(r, title='Pod <b>"evil"</b>')
    root = parse(svg)
    assert "<script" not in svg and "<img" not in svg and "<b>" not in svg
    assert "&lt;img src=x onerror=alert(1)&gt;" in svg
    assert root.find(f"{SVG}title").text == 'Pod <b>"evil"</b>'
    # the text survives, as text, in the hover details
    titles = "".join(t.text or "" for t in root.iter(f"{SVG}title"))
    assert "evil<script>alert(1)</script>" in titles and "<img src=x onerror=alert(1)>" in titles


def test_control_characters_do_not_break_the_xml() -> None:
    manifest = ("apiVersion: v1\nkind: Pod\nmetadata: {name: bell}\nspec:\n  containers:\n"
                "    - name: app\n      image: \"busybox\\a\\x01:1\"\n")
    result = explain(manifest, None)
    assert result.ok, result.errors
    parse(render_timeline_svg(result.pods[0]))


def test_fixed_labels_go_through_gettext() -> None:
    svg = render_timeline_svg(report("seeds/lifecycle-demo", DEBUG), gettext=lambda s: f"«{s}»")
    root = parse(svg)
    texts = {t.text for t in root.iter(f"{SVG}text")}
    for label in ("«Init container»", "«Native sidecar»", "«App container»", "«Ephemeral container»",
                  "«Phase»", "«Status»", "«Ready»", "«seconds»", "«Waiting»", "«Assumed duration»"):
        assert label in texts
    assert "«assumed»" in svg
    assert "prepare" in texts     # names from the manifest are never translated


def test_a_pod_that_never_runs_still_renders() -> None:
    result = explain(load_manifest("pods/ephemeral_in_spec"), None)
    r = result.pods[0]
    assert r.simulation is None
    layout = layout_timeline(r)
    assert layout.lanes and not layout.bars and layout.note
    assert timeline_rows(r) == []
    parse(render_timeline_svg(r))


# ---- the accessible table -------------------------------------------------------------------------
def test_rows_are_the_events() -> None:
    r = report("seeds/lifecycle-demo", DEBUG)
    rows = timeline_rows(r)
    assert len(rows) == len(r.simulation.events)
    assert set(rows[0]) >= {"t", "container", "role", "event", "detail"}
    assert rows[0]["event"] == "sandbox_ready" and rows[0]["container"] == ""
    first_exit = next(row for row in rows if row["event"] == "exited")
    assert first_exit["container"] == "prepare" and first_exit["role"] == "init"
    assert "exit code 0" in first_exit["detail"] and first_exit["detail"].endswith("(assumed)")
    debug = next(row for row in rows if row["event"] == "debug_requested")
    assert (debug["container"], debug["role"], debug["t"]) == ("dbg", "ephemeral", 20)
    assert [row["t"] for row in rows] == sorted(row["t"] for row in rows)


# ---- golden SVGs -------------------------------------------------------------------------------------
GOLDEN = [
    ("lifecycle-demo", "deleteAt: 30"),
    ("native-sidecar-probe", "containers: {proxy: {startupSeconds: 5}}"),
    # the traffic row (issue 22): the endpoint, the change reaching the proxies, the 502 window
    ("deploy-502-race", "deleteAt: 30"),
    ("deploy-prestop-drain", "deleteAt: 30"),
]


@pytest.mark.parametrize("name,scenario", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden_timeline(name: str, scenario: str, golden) -> None:
    svg = render_timeline_svg(report(f"seeds/{name}", scenario))
    parse(svg)
    golden(f"{name}/timeline.svg", svg)


# ---- fitted axis and breaks ------------------------------------------------------------------------
def test_a_quiet_stretch_becomes_a_marked_break() -> None:
    layout = layout_timeline(report("seeds/lifecycle-demo", "deleteAt: 30"))
    (brk,) = layout.breaks            # nothing happens between 1 s and 30 s
    assert 1 < brk.t0 < brk.t1 < 30 and brk.label == f"… {brk.t1 - brk.t0:g} s …"
    assert brk.x1 - brk.x0 == BREAK_PX
    assert layout.x_at(30) == pytest.approx(layout.plot_x + FIT_PLOT, abs=0.2)      # the end is in the picture
    # the first second (prepare runs) gets far more room than 1/30 of the plot
    assert layout.x_at(1) - layout.x_at(0) > FIT_PLOT / 10
    xs = [layout.x_at(t / 4) for t in range(121)]
    assert xs == sorted(xs)
    root = parse(render_timeline_svg(report("seeds/lifecycle-demo", "deleteAt: 30")))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert brk.label in texts and "Quiet time cut short" in texts


def test_axis_breaks_only_for_long_quiet_stretches() -> None:
    assert fit_axis([0, 1, 2, 3, 5, 8], 10).breaks == ()                 # busy throughout: linear
    axis = fit_axis([0, 0.1, 1, 300, 301, 600], 600)
    assert len(axis.breaks) == 2 and axis.width == pytest.approx(FIT_PLOT, abs=0.2)
    assert all(b.x1 - b.x0 == BREAK_PX for b in axis.breaks)
    assert axis.x(0.1) - axis.x(0) >= 1.3                                # drawn at least MIN_BAR_PX wide anyway
    assert fit_axis([0, 1, 300], 300, allow_breaks=False).breaks == ()



def test_break_labels_in_a_crash_loop_are_round_numbers() -> None:
    from explainer.render.timeline.axis import _nice_skip
    layout = layout_timeline(report("pods/crashing_app", "{containers: {app: {runSeconds: 2, exitCode: 1}},"
                                                         " deleteAt: 150}"))
    assert [b.label for b in layout.breaks] == ["… 18 s …", "… 36 s …", "… 60 s …"]
    assert [_nice_skip(g) for g in (13.0, 20.4, 75.0, 299.0, 2000.0)] == [11, 18, 65, 275, 1800]


def test_strip_labels_keep_clear_of_axis_breaks() -> None:
    from explainer.render.timeline import text_width
    for name, scenario in (("pods/crashing_app", "{containers: {app: {runSeconds: 2, exitCode: 1}}, deleteAt: 150}"),
                           ("seeds/web-app-pod", "{containers: {app: {runSeconds: 5, exitCode: 1}}, deleteAt: 200}")):
        layout = layout_timeline(report(name, scenario))
        assert layout.breaks
        labelled = [s for s in layout.segments if s.label]
        assert any(s.value == "CrashLoopBackOff" for s in labelled)
        for seg in labelled:
            x0, x1 = seg.label_x - 4, seg.label_x - 4 + text_width(seg.label, 10.5) + 8
            assert seg.x - 0.1 <= x0 and x1 <= seg.x + seg.width + 0.1, seg
            for b in layout.breaks:            # the gap a break paints over: b.x0 + 12 ... b.x1 - 12, zig-zags ±2.5
                assert x1 <= b.x0 + 9.5 or x0 >= b.x1 - 9.5, (seg.label, seg.label_x, b)
        root = parse(render_timeline_svg(report(name, scenario)))
        xs = {float(t.get("x")) for t in root.iter(f"{SVG}text") if t.get("class") == "tl-seg-text"}
        assert xs == {s.label_x for s in labelled}

def test_legend_lists_every_state_with_its_pattern() -> None:
    r = report("pods/crashing_app", CRASHING)
    layout = layout_timeline(r)
    keys = [i.key for i in layout.legend if i.kind == "bar"]
    assert keys == list(STATES) + ["exited-error"]
    svg = render_timeline_svg(r)
    root = parse(svg)
    fills = {e.get("fill") for e in root.iter(f"{SVG}rect") if e.get("class") == "tl-pattern"}
    assert any(f.endswith("-stripes)") for f in fills) and any(f.endswith("-hatch)") for f in fills)
    assert 'class="tl-m-cross"' in svg                                     # exit code 1 is crossed
    zh = render_timeline_svg(r, gettext=_zh())
    assert "出错退出" in zh and "Exited with error" not in zh


def _zh():
    from tests.test_i18n import catalogue
    cat = catalogue()
    return lambda s: cat.get(s) or s


# ---- the cursor's frames ---------------------------------------------------------------------------
def test_frames_give_each_containers_state_at_each_instant() -> None:
    from explainer.render.timeline.frames import timeline_frames
    r = report("seeds/lifecycle-demo", "deleteAt: 30")
    data = timeline_frames(r, layout_timeline(r))
    assert data["end"] == 30 and data["events"] == [0, 1, 30]
    first, second, last = data["frames"][0], data["frames"][1], data["frames"][-1]
    assert first["text"] == "prepare Running; helper Waiting; app Waiting; Pod Pending 0/2"
    assert [d["text"] for d in first["doing"]] == ["helper waits for prepare to exit 0", "app waits for helper to start"]
    assert second["t"] == 1
    assert second["text"] == ("prepare Exited with code 0 (Completed); helper Running, Ready; app Running, Ready;"
                              " Pod Running 2/2")
    assert [(c["name"], c["state"], c["label"], c["restarts"]) for c in last["containers"]] == [
        ("prepare", "exited", "Exited with code 0 (Completed)", 0),
        ("helper", "exited", "Exited with code 143 (Error)", 0),
        ("app", "exited", "Exited with code 143 (Error)", 0),
    ]
    assert last["text"] == ("prepare Exited with code 0 (Completed); helper Exited with code 143 (Error);"
                            " app Exited with code 143 (Error); Pod Failed 0/2")
    assert last["pod"]["status"] == "Error" and last["pod"]["phase"] == "Failed"


def test_frames_count_down_the_grace_period_during_prestop() -> None:
    from explainer.render.timeline.frames import timeline_frames
    r = report("seeds/web-app-pod", "deleteAt: 60")
    data = timeline_frames(r, layout_timeline(r))
    at_delete = next(f for f in data["frames"] if f["t"] == 60)
    prestop = [d for d in at_delete["doing"] if d["text"].startswith("preStop of")]
    assert prestop and all(d["until"] == 60 + 60 for d in prestop)      # terminationGracePeriodSeconds: 60
    assert any(c["state"] == "terminating" for c in at_delete["containers"])


# ---- colour is never the only signal: lightness, measured under simulated colour blindness ---------
# Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of Color Vision
# Deficiency", severity 1.0; the matrices act on linear RGB.
MACHADO = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
}
MIN_LIGHTNESS_STEP = 8.0        # CIE L*: a step anyone sees between two bars that touch
# The state changes a lane draws (bar next to bar), "error" being an exit with a non-zero code;
# test_every_state_change_drawn_is_in_the_table keeps this list honest.
LANE_CHANGES = {
    ("waiting", "starting"), ("waiting", "running"), ("waiting", "ready"), ("starting", "ready"),
    ("starting", "backoff"), ("starting", "terminating"), ("running", "ready"), ("running", "backoff"),
    ("running", "terminating"), ("running", "exited"), ("ready", "terminating"), ("ready", "backoff"),
    ("ready", "exited"), ("ready", "error"), ("terminating", "backoff"), ("terminating", "exited"),
    ("terminating", "error"),
}
# ... and the order the issue and the legend read them in: each state next to the following one.
READING_ORDERS = (("waiting", "starting", "running", "ready", "backoff", "terminating", "exited", "error"),
                  ("waiting", "starting", "running", "ready", "terminating", "backoff", "exited", "error"))


def _palette(css: str) -> dict[str, str]:
    import re
    out = {}
    for state in STATES:
        out[state] = re.search(r"\.tl-%s\{fill:(#[0-9a-f]{6})" % state, css).group(1)
    out["error"] = re.search(r"\.tl-exited\.tl-error\{fill:(#[0-9a-f]{6})", css).group(1)
    return out


def _lightness(colour: str, vision: str) -> float:
    """CIE L* of an sRGB colour as seen with ``vision``."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    rgb = [linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5)]
    seen = [min(max(sum(m * c for m, c in zip(row, rgb)), 0.0), 1.0) for row in MACHADO[vision]]
    y = 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2]
    f = y ** (1 / 3) if y > 216 / 24389 else (24389 / 27 * y + 16) / 116
    return 116 * f - 16


def _kind(bar) -> str:
    return "error" if "tl-error" in bar.css_class.split() else bar.state


def test_lightness_is_measured_right() -> None:
    assert _lightness("#ffffff", "normal") == pytest.approx(100, abs=0.01)
    assert _lightness("#000000", "protanopia") == 0
    assert _lightness("#777777", "normal") == pytest.approx(50.03, abs=0.05)
    # a grey stays the grey it was (each matrix row sums to 1); red darkens for a protanope
    assert _lightness("#777777", "deuteranopia") == pytest.approx(50.03, abs=0.05)
    assert _lightness("#d9737a", "protanopia") < _lightness("#d9737a", "normal") - 4


@pytest.mark.parametrize("vision", sorted(MACHADO))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_adjacent_states_differ_in_lightness(scheme: str, vision: str) -> None:
    from explainer.render.timeline.style import STYLE
    light, dark = STYLE.split("@media (prefers-color-scheme: dark)")
    palette = _palette(light if scheme == "light" else dark)
    pairs = set(LANE_CHANGES)
    for order in READING_ORDERS:
        pairs |= set(zip(order, order[1:]))
    pairs = {tuple(sorted(pair)) for pair in pairs}
    steps = {(a, b): abs(_lightness(palette[a], vision) - _lightness(palette[b], vision)) for a, b in pairs}
    too_close = {pair: round(step, 1) for pair, step in steps.items() if step < MIN_LIGHTNESS_STEP}
    assert not too_close, f"{scheme}, {vision}: adjacent states too close in lightness (ΔL*): {too_close}"


def test_every_state_change_drawn_is_in_the_table() -> None:
    """Walk the gallery and the fixtures through deletions, crashes and slow startups; every pair of
    states that meet on a lane must be one the lightness test checks."""
    from explainer.examples import BY_SLUG
    manifests = [ex.manifest() for ex in BY_SLUG.values()] + [
        load_manifest(f"pods/{name}") for name in ("apps_poststart", "sync_kill", "crashing_app_never")]
    seen: set[tuple[str, str]] = set()
    for manifest in manifests:
        first = explain(manifest)
        names = [lane.name for lane in layout_timeline(first.pods[0]).lanes]
        scenarios = [None, "deleteAt: 5", "deleteAt: 20"] + [
            f"{{containers: {{{name}: {spec}}}{extra}}}" for name in names
            for spec in ("{runSeconds: 2, exitCode: 1}", "{startupSeconds: 8}") for extra in ("", ", deleteAt: 12")]
        for scenario in scenarios:
            result = explain(manifest, scenario)
            if not result.ok:
                continue
            layout = layout_timeline(result.pods[0])
            for lane in layout.lanes:
                bars = sorted((b for b in layout.bars if b.lane == lane.index), key=lambda b: b.t0)
                seen |= {tuple(sorted((_kind(a), _kind(b)), key=["waiting", "starting", "running", "ready",
                                                                  "terminating", "backoff", "exited", "error"].index))
                         for a, b in zip(bars, bars[1:]) if abs(a.t1 - b.t0) < 1e-6 and _kind(a) != _kind(b)}
    assert len(seen) >= 12                         # the walk does reach crash loops, deletions, startups
    assert seen <= LANE_CHANGES, f"state changes drawn but not checked for lightness: {seen - LANE_CHANGES}"

"""The observed lanes of the Pod timeline (issue 23; docs/lifecycle-model.md §34-§36): a row under each container's
lane in the same encoding, marked as observed by label and pattern; inferred runs drawn as inferred; the time the
prediction leaves out (before the first container, image pulls) drawn and named as such; kubectl's printed columns
where they were printed; the same facts in the table, the story and the cursor's frames; a chart without an
observation stays as it was (the goldens of tests/render/timeline/test_layout.py)."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from explainer.examples import BY_SLUG
from explainer.explain import PodReport, explain
from explainer.render.observed_pieces import KIND_LABELS, story_steps
from explainer.render.timeline import layout_timeline, render_timeline_svg, timeline_rows
from explainer.render.timeline.frames import timeline_frames
from explainer.render.timeline.observed import OBS_ROW, pieces_of, story_of
from explainer.lifecycle.observed.divergence import KINDS

SVG = "{http://www.w3.org/2000/svg}"
OOM, LIVENESS, INIT = "observed-oom-crash-loop", "observed-liveness-kill", "observed-init-waits-for-service"


def case(slug: str, scenario: str | dict | None = None, observed: str | None = None) -> PodReport:
    example = BY_SLUG[slug]
    result = explain(example.manifest(), scenario, observed=observed if observed is not None else example.observed())
    assert result.ok, result.errors
    return result.pods[0]


def restarted_pod(restarts: int = 3) -> PodReport:
    """kubectl get pod -o yaml of a container restarted ``restarts`` times: only its last end is kept."""
    manifest = (BY_SLUG[LIVENESS].manifest()
                + 'status:\n  phase: Running\n  startTime: "2024-01-01T10:00:00Z"\n  containerStatuses:\n'
                  '  - name: liveness\n    image: registry.k8s.io/busybox\n    imageID: ""\n    ready: true\n'
                  f'    restartCount: {restarts}\n    started: true\n'
                  '    state: {running: {startedAt: "2024-01-01T10:04:00Z"}}\n'
                  '    lastState: {terminated: {exitCode: 137, reason: OOMKilled, startedAt: "2024-01-01T10:02:40Z",'
                  ' finishedAt: "2024-01-01T10:03:20Z"}}\n')
    result = explain(manifest)
    assert result.ok, result.errors
    return result.pods[0]


# ---- the rows -------------------------------------------------------------------------------------------------
def test_a_pod_without_an_observation_has_no_observed_row() -> None:
    r = explain(BY_SLUG[LIVENESS].manifest()).pods[0]
    layout = layout_timeline(r)
    assert layout.observed == () and layout.obs_bars == () and layout.obs_marks == ()
    assert [row.key for row in layout.strip_rows] == ["phase", "status", "ready"]
    svg = render_timeline_svg(r)
    assert "tl-obs" not in svg and "data-obs" not in svg and "observed" not in svg


def test_each_container_gets_a_row_under_its_lane_and_the_strip_an_observed_row_under_status() -> None:
    r = case(INIT)
    layout = layout_timeline(r)
    assert [row.key for row in layout.strip_rows] == ["phase", "status", "observed", "ready"]
    assert [o.name for o in layout.observed] == [lane.name for lane in layout.lanes]
    for lane, row in zip(layout.lanes, layout.observed):
        assert row.lane == lane.index and row.y == lane.y + lane.height and row.height == OBS_ROW
        assert row.label == "↳ observed"
    # the lanes below move down by the rows above them; the chart ends below the last row
    assert layout.lanes[1].y == layout.observed[0].y + OBS_ROW
    assert layout.lanes_bottom == layout.observed[-1].y + OBS_ROW
    root = ET.fromstring(render_timeline_svg(r))
    labels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tl-lane-label"]
    assert {g.get("data-obs") for g in labels} == {f"{OBS_ROW:g}"}     # the script collapses a lane with its row


def test_the_same_encoding_marked_as_observed_by_a_pattern_and_its_label() -> None:
    r = case(LIVENESS)
    layout = layout_timeline(r)
    bars = [(b.state, b.t0, b.t1) for b in layout.obs_bars]
    assert bars == [("pull", 2.0, 4.0), ("running", 4.0, 47.0)]
    running = next(b for b in layout.obs_bars if b.state == "running")
    assert "tl-running" in running.css_class                 # the predicted lanes' colour
    svg = render_timeline_svg(r)
    group = re.search(r'<g class="tl-item tl-obs-g tl-obs-item" data-obs="1"[^>]*>.*?</g>', svg, re.S).group(0)
    assert 'fill="url(#' in group and "-grain)" in group          # a pattern of its own, not only colour
    assert "(observed)" in group
    pull = re.search(r'<g class="tl-item tl-obs-g tl-obs-item" data-obs="0"[^>]*>.*?</g>', svg, re.S).group(0)
    assert "-unmod)" in pull and ">image pull</text>" in pull    # what the prediction leaves out, named
    assert "image pulls out" in pull


def test_the_time_before_the_first_container_is_drawn_as_left_out() -> None:
    layout = layout_timeline(case(LIVENESS))
    (setup,) = [s for s in layout.segments if s.row == "observed"]
    assert (setup.t0, setup.t1) == (0.0, 2.0) and "tl-obs-setup" in setup.css_class
    assert "leaves this time out" in setup.tooltip
    # a paste without Pulling events cannot tell the pull from the rest: the segment says so
    yaml_only = explain(BY_SLUG[LIVENESS].manifest()
                        + 'status:\n  phase: Running\n  startTime: "2024-01-01T10:00:00Z"\n  containerStatuses:\n'
                          '  - name: liveness\n    image: registry.k8s.io/busybox\n    imageID: ""\n    ready: true\n'
                          '    restartCount: 0\n    started: true\n'
                          '    state: {running: {startedAt: "2024-01-01T10:00:07Z"}}\n').pods[0]
    (setup,) = [s for s in layout_timeline(yaml_only).segments if s.row == "observed"]
    assert (setup.t0, setup.t1) == (0.0, 7.0) and setup.value == "sandbox, image pull"


def test_runs_a_status_cannot_show_are_drawn_as_inferred() -> None:
    r = restarted_pod(3)
    layout = layout_timeline(r)
    states = [b.state for b in sorted(layout.obs_bars, key=lambda b: b.t0)]
    assert states.count("inferred") == 2 and states.count("running") == 2
    inferred = [b for b in layout.obs_bars if b.state == "inferred"]
    assert all("tl-obs-inferred" in b.css_class and "Inferred" in b.tooltip for b in inferred)
    restarts = [m for m in layout.obs_marks if m.kind == "restart"]
    assert len(restarts) == 3 and sum(m.dashed for m in restarts) == 1     # into the second (inferred) run
    (end,) = [m for m in layout.obs_marks if m.kind == "exit"]
    assert (end.t, end.label) == (200.0, "137") and "OOMKilled" in end.tooltip and "tl-m-exit-error" in end.css_class
    # the current run is still so when the status was printed (its latest stamp), not later
    current = max(layout.obs_bars, key=lambda b: b.t0)
    assert current.t0 == 240.0 and "still so when the output was printed" in current.tooltip


def test_kubectl_columns_where_they_were_printed_and_a_status_printed_by_printpod() -> None:
    layout = layout_timeline(case(INIT))
    snaps = sorted((m.t, m.tooltip.split("\n")[0]) for m in layout.obs_marks if m.kind == "snapshot")
    assert [t for t, _ in snaps] == [16.0, 360.0, 540.0]
    assert "STATUS Init:0/2" in snaps[0][1] and "as kubectl get pod prints it" in snaps[0][1]   # describe's status
    assert "STATUS Init:0/2" in snaps[1][1] and "360 s to 420 s" in snaps[1][1]                # AGE 6m is coarse
    assert "STATUS Running" in snaps[2][1]
    seen = {m.lane: m.label for m in layout.obs_marks if m.kind == "seen"}
    assert seen == {0: "Running", 1: "Waiting (PodInitializing)", 2: "Waiting (PodInitializing)"}


def test_the_window_reaches_the_observation_and_says_where_the_prediction_ends() -> None:
    layout = layout_timeline(case(INIT))
    assert layout.end_time == 300 and layout.view_end >= 540
    assert layout.note == "The prediction ends at 300 s; what the cluster shows reaches 540 s."
    assert max(b.t1 for b in layout.bars) <= 300       # the predicted lanes stop where the prediction does


def test_events_that_say_what_the_kubelet_did_and_each_divergence_are_marked() -> None:
    layout = layout_timeline(case(LIVENESS))
    kinds = sorted((m.kind, m.t) for m in layout.obs_marks if m.lane == 0)
    assert kinds == [("differs", 47.0), ("kill", 47.0), ("probe-failed", 37.0), ("probe-failed", 47.0)]
    glyphs = sorted(m.x for m in layout.obs_marks if m.lane == 0 and m.t == 47.0)
    assert all(b - a >= 4.5 for a, b in zip(glyphs, glyphs[1:]))       # those of one moment do not overlap
    differs = next(m for m in layout.obs_marks if m.kind == "differs")
    assert "killed by its probe" in differs.tooltip and "predicted: RESTARTS 0 at 60 s" in differs.tooltip


def test_labels_keep_clear_of_axis_breaks() -> None:
    layout = layout_timeline(case(INIT))
    for m in layout.obs_marks:
        if m.label_x is not None and m.kind != "snapshot":
            assert not any(b.x0 < m.label_x < b.x1 for b in layout.breaks), m
    # kubectl's STATUS where it was printed is always written (over a break, if it must)
    assert all(m.label for m in layout.obs_marks if m.kind == "snapshot")


def test_every_divergence_kind_has_words() -> None:
    assert set(KINDS) == set(KIND_LABELS)


def test_legend_names_what_the_chart_shows() -> None:
    keys = {i.key for i in layout_timeline(case(LIVENESS)).legend if i.kind in ("obs", "obs-mark")}
    assert keys == {"observed", "unmodelled", "kill", "probe-failed", "snapshot", "differs"}
    keys = {i.key for i in layout_timeline(restarted_pod()).legend if i.kind in ("obs", "obs-mark")}
    assert "inferred" in keys


def test_a_row_with_nothing_placed_says_what_the_paste_holds_without_times() -> None:
    layout = layout_timeline(case(OOM))
    (row,) = layout.observed
    assert row.note == "RESTARTS 2 · ended OOMKilled, exit code 137 · no times in the paste"
    assert f">{row.note}</text>" in render_timeline_svg(case(OOM))


# ---- the table, the story, the cursor ---------------------------------------------------------------------------
def test_the_table_has_the_observed_rows_in_time_order() -> None:
    rows = timeline_rows(case(LIVENESS))
    assert [r["t"] for r in rows] == sorted(r["t"] for r in rows)
    observed = [(r["t"], r["event"]) for r in rows if r["event"].startswith("observed")]
    assert observed[:3] == [(0.0, "observed-setup"), (2.0, "observed-pull"), (4.0, "observed-running")]
    assert (47.0, "observed-kill") in observed and (60.0, "observed-snapshot") in observed
    kill = next(r for r in rows if r["event"] == "observed-kill")
    assert kill["container"] == "liveness" and kill["event_label"] == "Observed: Killing"
    assert "failed liveness probe" in kill["detail"]


def test_the_story_tells_what_the_cluster_shows_at_its_moments() -> None:
    steps = story_of(case(LIVENESS))
    said = [(s.t, str(s.text)) for s in steps]
    assert all(s.kind == "observed" for s in steps)
    assert said[0] == (2.0, "In the cluster no container started until 2 s: scheduling, the Pod's sandbox and "
                            "network. The prediction leaves this time out.")
    assert any("Unhealthy for liveness, 3 times until 47 s" in text for _t, text in said)
    assert any(text.startswith("Differs from the prediction (killed by its probe)") for _t, text in said)
    assert [t for t, _ in said] == sorted(t for t, _ in said)
    inferred = story_steps(pieces_of(restarted_pod(3), ["liveness"]))
    assert any("ran 2 more times before" in str(s.text) for s in inferred)


def test_the_cursor_reports_the_observed_lanes_and_the_last_printed_columns() -> None:
    r = case(LIVENESS)
    data = timeline_frames(r, layout_timeline(r))
    assert {2.0, 4.0, 37.0, 47.0, 60.0} <= set(data["events"])
    facts = {f["t"]: dict(f.get("facts", [])) for f in data["frames"]}
    assert facts[0.0] == {"Observed": "scheduling, sandbox", "Observed: liveness": "—"}
    assert facts[2.0]["Observed: liveness"] == "image pull"
    assert facts[4.0]["Observed: liveness"] == "Running"
    assert facts[60.0]["kubectl (observed)"] == "READY 1/1 · STATUS Running · RESTARTS 1 (printed at 60 s)"


# ---- markup -------------------------------------------------------------------------------------------------------
def test_hostile_output_is_escaped_in_the_chart() -> None:
    observed = ("Type     Reason     Age   From     Message\n"
                "----     ------     ----  ----     -------\n"
                "Normal   Scheduled  60s   sched    <script>alert(1)</script>\n"
                "Warning  Unhealthy  20s   kubelet  probe said <b>&amp;\"quoted\"</b>\n")
    svg = render_timeline_svg(case(LIVENESS, observed=observed))
    ET.fromstring(svg)
    assert "<b>" not in svg and "<script>" not in svg and "&lt;b&gt;&amp;amp;" in svg


@pytest.mark.parametrize("slug", [OOM, LIVENESS, INIT])
def test_every_case_parses_and_its_timed_pieces_carry_their_times(slug: str) -> None:
    root = ET.fromstring(render_timeline_svg(case(slug)))
    for g in root.iter(f"{SVG}g"):
        if "tl-obs-item" in (g.get("class") or ""):
            assert g.get("data-t") is not None or (g.get("data-t0") is not None and g.get("data-t1") is not None)
            assert g.find(f"{SVG}title") is not None


def test_golden_observed_timeline(golden) -> None:
    golden("observed-liveness-kill/timeline.svg", render_timeline_svg(case(LIVENESS)))


def test_no_time_is_called_left_out_where_the_first_runs_are_only_inferred() -> None:
    layout = layout_timeline(restarted_pod(3))
    assert not [s for s in layout.segments if s.row == "observed"]


def test_a_paste_of_thousands_of_events_draws_a_bounded_chart_and_says_so() -> None:
    rows = "".join(f"  Warning  BackOff  {i + 1}s (x{i} over 5m)  kubelet  Back-off\n" for i in range(3000))
    r = case(LIVENESS, observed="Events:\n  Normal  Scheduled  9000s  default-scheduler  ok\n" + rows)
    layout = layout_timeline(r)
    assert len([m for m in layout.obs_marks if m.kind == "backoff"]) <= 2 * 240
    assert "events of the paste are not drawn: the chart shows its first 120 and its last 120." in layout.note
    data = timeline_frames(r, layout)
    assert len(data["frames"]) < 600

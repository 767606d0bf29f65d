"""Crash loops at the back-off cap are summarised; counts and the status timeline stay exact (issue 11)."""
from __future__ import annotations

import json

from explainer.explain import explain
from explainer.lifecycle.kubelet.simulate import simulate
from explainer.lifecycle.kubelet.summarise import KEEP_CYCLES, summarise_crash_loops
from explainer.render.jsonable import explanation_to_dict
from explainer.render.story import story
from explainer.render.timeline import render_timeline_svg

POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n" \
      "  - {name: app, image: busybox}\n  - {name: web, image: nginx}\n"
DAY = {"until": 86400, "containers": {"app": {"runSeconds": 1, "exitCode": 1}}}


def _report(scenario: dict) -> object:
    return explain(POD, scenario, "1.34").pods[0]


def test_a_day_of_crash_looping_is_three_cycles_and_one_summary() -> None:
    report = _report(DAY)
    full = simulate(report.pod, explain(POD, DAY, "1.34").scenario, fast_forward=False)   # step by step
    sim = report.simulation
    assert sim.restart_counts == full.restart_counts and sim.restart_counts["app"] == 291
    assert sim.timeline == full.timeline and sim.final_phase == full.final_phase
    summaries = [e for e in sim.events if e.type == "backoff" and "more restarts" in e.message]
    assert len(summaries) == 1
    s = summaries[0]
    assert s.message == "restarts every 301 s until 86,400 s: 282 more restarts"
    assert s.container == "app" and s.reason == "CrashLoopBackOff" and s.restart_count == 291
    # the growing back-off (10 s ... 300 s) is kept in full, then KEEP_CYCLES cycles at the cap
    backoffs = [e for e in sim.events if e.type == "backoff" and e is not s]
    assert [float(e.message.split("back-off ")[1].split("s")[0]) for e in backoffs] == \
        [10, 20, 40, 80, 160] + [300] * (KEEP_CYCLES + 1)
    assert len(sim.events) < 80 < len(full.events) // 20
    assert any("summarised" in str(n) for n in sim.notes)
    assert any("summarised" in str(n) for n in report.notes)   # the page and the JSON show it


def test_the_summary_reaches_the_story_the_svg_and_the_json() -> None:
    report = _report(DAY)
    steps = [s.text.render() for s in story(report.pod, report.simulation)]
    assert "app is in CrashLoopBackOff: restarts every 301 s until 86,400 s: 282 more restarts." in steps
    assert len(steps) < 80
    svg = render_timeline_svg(report)
    assert "282 more restarts" in svg and len(svg) < 300_000   # the status rows stay exact
    data = explanation_to_dict(explain(POD, DAY, "1.34"))
    assert data["pods"][0]["restartCounts"]["app"] == 291 and len(json.dumps(data)) < 200_000


def test_a_growing_back_off_and_a_short_loop_are_not_summarised() -> None:
    sim = _report({"until": 1000, "containers": {"app": {"runSeconds": 1, "exitCode": 1}}}).simulation
    assert not any("more restarts" in e.message for e in sim.events)
    assert summarise_crash_loops(sim) is sim


def test_what_breaks_the_loop_is_kept() -> None:
    scenario = {"until": 20000, "deleteAt": 10000, "containers": {"app": {"runSeconds": 1, "exitCode": 1}}}
    sim = _report(scenario).simulation
    summary = next(e for e in sim.events if "more restarts" in e.message)
    assert "until 10,0" in summary.message   # the loop ends where the deletion comes
    after = [e.type for e in sim.events if e.t >= 10000]
    assert "delete_requested" in after and "terminating" in after


def test_twenty_containers_for_a_day_stay_small() -> None:
    cs = "".join(f"  - {{name: c{i}, image: busybox}}\n" for i in range(20))
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n" + cs
    scenario = {"until": 86400, "containers": {f"c{i}": {"runSeconds": 1, "exitCode": 1} for i in range(20)}}
    expl = explain(manifest, scenario, "1.34")
    sim = expl.pods[0].simulation
    assert all(n == 291 for n in sim.restart_counts.values())
    assert len(sim.events) < 2_000
    assert len(render_timeline_svg(expl.pods[0])) < 1_000_000

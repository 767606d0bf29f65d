"""The fast-forward over steady crash loops gives what the step-by-step simulation gives (issue 11).

Every case is simulated twice, with the fast-forward (fastforward.py) and without it, and the two must
agree on the restart counts, the final phase, the whole status timeline, the end, the notes, the events
up to the jump and the summarised events (what the JSON, the story and the SVG show).
"""
from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explainer.explain import explain
from explainer.lifecycle import defaults as d
from explainer.lifecycle.kubelet.fastforward import FF_PERIODS
from explainer.lifecycle.kubelet.simulate import Simulation, simulate
from explainer.lifecycle.kubelet.summarise import KEEP_CYCLES, summarise_crash_loops
from tests.profiles import examples


def _manifest(apps: list[dict[str, Any]], init: list[dict[str, Any]] = (), policy: str = "Always",
              extra: dict[str, Any] | None = None) -> str:
    spec: dict[str, Any] = {"restartPolicy": policy,
                            "containers": [{"name": a["name"], "image": "busybox", **a.get("spec", {})} for a in apps]}
    if init:
        spec["initContainers"] = [{"name": c["name"], "image": "busybox", **c.get("spec", {})} for c in init]
    spec.update(extra or {})
    return yaml.safe_dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "loop"}, "spec": spec})


def _both(manifest: str, scenario: dict[str, Any], version: str = "1.37") -> tuple[Simulation, Simulation]:
    expl = explain(manifest, scenario, version)
    report = expl.pods[0]
    assert report.admitted, report.errors
    kw = {"container_restart_rules": False, "version": version}
    fast = simulate(report.pod, expl.scenario, **kw)
    full = simulate(report.pod, expl.scenario, fast_forward=False, **kw)
    return fast, full


FOLD_NOTE = "The Pod's status repeats every"   # fastforward.MAX_TIMELINE_POINTS: the note of a folded timeline


def _assert_folded(fast: Simulation, full: Simulation) -> None:
    """The status timeline: every point of the full run, the skipped periods' too, but those a jump leaves out
    past the timeline's bound (fastforward.MAX_TIMELINE_POINTS): up to the first fold's ``kept_until`` the
    two are the same point for point; after it, each point the fast run keeps is one of the full run's, in
    order, and no more are missing than the folds say (fewer when the horizon cuts the last period short)."""
    folds = [jump for jump in fast.fast_forwards if jump.points_left_out]
    if not folds:
        assert fast.timeline == full.timeline
        return
    head = sum(1 for point in full.timeline if point.t <= folds[0].kept_until)
    assert fast.timeline[:head] == full.timeline[:head]
    # after the fold: the same moments and states (a point is written when it differs from the last one
    # kept, so an instant whose earlier points were left out may show one more step of its restart count)
    seen = {(point.t, point.status, point.phase, point.ready_count) for point in full.timeline[head:]}
    assert {(point.t, point.status, point.phase, point.ready_count) for point in fast.timeline[head:]} <= seen
    assert fast.timeline[-1] == full.timeline[-1]
    assert 0 < len(full.timeline) - len(fast.timeline) <= sum(jump.points_left_out for jump in folds)


def _assert_same(fast: Simulation, full: Simulation) -> None:
    assert not full.fast_forwards
    assert fast.restart_counts == full.restart_counts
    assert fast.final_phase == full.final_phase
    assert fast.timeline[-1] == full.timeline[-1]
    _assert_folded(fast, full)
    assert (fast.end_time, fast.until, fast.truncated) == (full.end_time, full.until, full.truncated)
    folds = sum(1 for jump in fast.fast_forwards if jump.points_left_out)
    assert sum(1 for n in fast.notes if str(n).startswith(FOLD_NOTE)) == folds
    assert [str(n) for n in fast.notes if not str(n).startswith(FOLD_NOTE)] == [str(n) for n in full.notes]
    first_jump = fast.fast_forwards[0].event_index if fast.fast_forwards else len(fast.events)
    assert fast.events[:first_jump] == full.events[:first_jump]
    # after the summary of the steady loops, the answers are the same event for event
    assert summarise_crash_loops(fast).events == summarise_crash_loops(full).events


CRASH = {"runSeconds": 1, "exitCode": 1}

# (apps with their scenario behaviour, init containers, restartPolicy, scenario extras, jumps expected)
CASES = {
    "one app, a day": ([{"name": "a", "b": CRASH}], [], "Always", {"until": 86400}, True),
    "runs 0 s": ([{"name": "a", "b": {"runSeconds": 0, "exitCode": 1}}], [], "Always", {"until": 5000}, True),
    "runs 2.5 s, exit 3": ([{"name": "a", "b": {"runSeconds": 2.5, "exitCode": 3}}], [], "Always",
                           {"until": 7777}, True),
    "OnFailure": ([{"name": "a", "b": {"runSeconds": 30, "exitCode": 2}}], [], "OnFailure", {"until": 9000}, True),
    "Always, exit 0": ([{"name": "a", "b": {"runSeconds": 5, "exitCode": 0}}], [], "Always", {"until": 6000}, True),
    "OnFailure, exit 0 ends": ([{"name": "a", "b": {"runSeconds": 5, "exitCode": 0}}], [], "OnFailure",
                               {"until": 6000}, False),
    "Never": ([{"name": "a", "b": CRASH}], [], "Never", {"until": 6000}, False),
    "beside a server": ([{"name": "a", "b": CRASH}, {"name": "web", "b": {}}], [], "Always", {"until": 12000}, True),
    "five in step": ([{"name": f"c{i}", "b": CRASH} for i in range(5)], [], "Always", {"until": 20000}, True),
    "two periods": ([{"name": "a", "b": {"runSeconds": 1, "exitCode": 1}},
                     {"name": "b", "b": {"runSeconds": 2, "exitCode": 1}}], [], "Always", {"until": 20000}, False),
    "a plain init container loops": ([{"name": "a", "b": {}}], [{"name": "i", "b": CRASH}], "Always",
                                     {"until": 15000}, True),
    "node cap 30 s": ([{"name": "a", "b": CRASH}], [], "Always",
                      {"until": 3000, "crashLoopBackOff": {"maxContainerRestartPeriod": 30}}, True),
    "node cap 4 s, two in step": ([{"name": "a", "b": CRASH}, {"name": "b", "b": CRASH}], [], "Always",
                                  {"until": 600, "crashLoopBackOff": {"maxContainerRestartPeriod": 4}}, True),
    "deleted later": ([{"name": "a", "b": CRASH}], [], "Always", {"until": 20000, "deleteAt": 15000}, True),
    "node reboot later": ([{"name": "a", "b": CRASH}], [], "Always", {"until": 20000, "sandboxLostAt": 9001}, True),
    "runs change later": ([{"name": "a", "b": {"runs": [{"runSeconds": 1, "exitCode": 1}] * 3
                                                       + [{"runSeconds": 200, "exitCode": 1}]}}], [], "Always",
                          {"until": 20000}, True),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_fast_forward_gives_the_full_simulation(name: str) -> None:
    apps, init, policy, extra, jumps = CASES[name]
    scenario = {**extra, "containers": {c["name"]: c["b"] for c in [*apps, *init] if c["b"]}}
    fast, full = _both(_manifest(apps, init, policy), scenario)
    _assert_same(fast, full)
    assert bool(fast.fast_forwards) == jumps
    for jump in fast.fast_forwards:
        assert jump.restarts and all(n > 0 for n in jump.restarts.values())


def test_deadline_and_probes_bound_or_prevent_the_jump() -> None:
    manifest = _manifest([{"name": "a"}], extra={"activeDeadlineSeconds": 8000})
    fast, full = _both(manifest, {"until": 20000, "containers": {"a": CRASH}})
    _assert_same(fast, full)
    assert fast.fast_forwards and all(j.at + j.shift < 8000 for j in fast.fast_forwards)
    liveness = {"livenessProbe": {"httpGet": {"path": "/", "port": 80}, "periodSeconds": 10, "failureThreshold": 3}}
    manifest = _manifest([{"name": "a", "spec": liveness}])
    fast, full = _both(manifest, {"until": 20000, "containers": {"a": {"failingProbes": ["liveness"]}}})
    _assert_same(fast, full)      # a container killed by its probe over and over loops too


def test_debug_container_and_image_update_bound_the_jump() -> None:
    manifest = _manifest([{"name": "a"}, {"name": "web"}])
    scenario = {"until": 20000, "containers": {"a": CRASH},
                "debug": [{"name": "dbg", "at": 12000, "image": "busybox", "target": "web"}],
                "imageUpdates": [{"container": "a", "at": 16000, "image": "busybox:2"}]}
    fast, full = _both(manifest, scenario)
    _assert_same(fast, full)
    assert fast.fast_forwards and fast.fast_forwards[0].at + fast.fast_forwards[0].shift < 12000


def _restarts_in(until: float, run: float, initial: float, cap: float) -> int:
    """Restarts of a container that runs ``run`` s and fails, counted from the back-off schedule:
    the first restart at once, then 10, 20, 40 ... s, at most ``cap`` (`doBackOff`)."""
    restarts, exit_at, delay = 0, run, 0.0
    while exit_at + delay <= until:
        restarts += 1
        exit_at += delay + run
        delay = initial if delay == 0 else min(delay * 2, cap)
    return restarts


def test_five_hundred_containers_for_a_day_have_exact_counts() -> None:
    n = 500
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n" + \
        "".join(f"  - {{name: c{i}, image: busybox}}\n" for i in range(n))
    scenario = {"until": 86400, "containers": {f"c{i}": CRASH for i in range(n)}}
    expl = explain(manifest, scenario, "1.34")
    sim = expl.pods[0].simulation
    expected = _restarts_in(86400, 1, d.CRASH_LOOP_INITIAL_SECONDS, d.CRASH_LOOP_MAX_SECONDS)
    assert expected == 291
    assert not sim.truncated and set(sim.restart_counts.values()) == {expected}
    assert sim.final_phase == "Running" and sim.timeline[-1].restarts == n * expected
    assert sim.fast_forwards and sum(sim.fast_forwards[0].restarts.values()) > n * 250
    summaries = [e for e in sim.events if "more restarts" in e.message]
    assert len(summaries) == n and len(sim.events) < 64 * n
    # the cost is measured by `make bench` (benchmarks/bench.py, bounded-cost rows), not here


def test_the_independent_count_matches_the_step_by_step_run() -> None:
    for until, run, cap in [(3000, 1, 300), (5000, 7, 300), (2000, 1, 30)]:
        scenario = {"until": until, "containers": {"a": {"runSeconds": run, "exitCode": 1}}}
        if cap != 300:
            scenario["crashLoopBackOff"] = {"maxContainerRestartPeriod": cap}
        fast, full = _both(_manifest([{"name": "a"}]), scenario)
        assert fast.restart_counts["a"] == full.restart_counts["a"] == _restarts_in(until, run, 10, cap)


# ---- generated Pods ---------------------------------------------------------------------------------
_RUN = st.sampled_from([0, 0.5, 1, 1, 2, 3, 10, 45, None])
_BEHAVIOUR = st.fixed_dictionaries({"runSeconds": _RUN, "exitCode": st.sampled_from([0, 1, 1, 2, 137])})


@st.composite
def _cases(draw: Any) -> tuple[str, dict[str, Any]]:
    n = draw(st.integers(1, 5))
    same = draw(st.booleans())     # all in step (the common case for a jump) or each its own
    shared = draw(_BEHAVIOUR)
    apps = []
    behaviours: dict[str, Any] = {}
    for i in range(n):
        b = shared if same else draw(_BEHAVIOUR)
        apps.append({"name": f"c{i}"})
        if b["runSeconds"] is not None:
            behaviours[f"c{i}"] = b
    init = []
    if draw(st.integers(0, 4)) == 0:
        init = [{"name": "setup"}]
        behaviours["setup"] = {"runSeconds": draw(_RUN.filter(lambda r: r is not None)),
                               "exitCode": draw(st.sampled_from([0, 1]))}
    policy = draw(st.sampled_from(["Always", "Always", "OnFailure", "Never"]))
    scenario: dict[str, Any] = {"until": draw(st.integers(600, 20000)), "containers": behaviours}
    cap = draw(st.sampled_from([None, None, 4, 30, 60, 300]))
    if cap is not None:
        scenario["crashLoopBackOff"] = {"maxContainerRestartPeriod": cap}
    if draw(st.integers(0, 3)) == 0:
        scenario["deleteAt"] = draw(st.integers(300, 20000))
    return _manifest(apps, init, policy), scenario


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_cases())
def test_generated_pods_fast_forward_to_the_full_simulation(case: tuple[str, dict[str, Any]]) -> None:
    manifest, scenario = case
    fast, full = _both(manifest, scenario)
    _assert_same(fast, full)


_PROBE = {"httpGet": {"path": "/", "port": 80}, "periodSeconds": 10, "failureThreshold": 3}


@st.composite
def _busy_cases(draw: Any) -> tuple[str, dict[str, Any]]:
    """Loops beside probes, hooks, a sidecar, image pull back-off, deletion and node reboot."""
    apps, behaviours = [], {}
    for i in range(draw(st.integers(1, 4))):
        spec: dict[str, Any] = {}
        b: dict[str, Any] = {}
        if draw(st.booleans()):
            b = {"runSeconds": draw(st.sampled_from([0, 1, 3, 20])), "exitCode": draw(st.sampled_from([0, 1]))}
        for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
            if draw(st.integers(0, 3)) == 0:
                spec[probe] = _PROBE
        if "livenessProbe" in spec and draw(st.booleans()):
            b["failingProbes"] = ["liveness"]
        if draw(st.integers(0, 3)) == 0:
            spec["lifecycle"] = {"postStart": {"exec": {"command": ["true"]}}}
            b["postStartSeconds"] = draw(st.sampled_from([0, 2, 5]))
        if draw(st.integers(0, 4)) == 0:
            spec["lifecycle"] = {**spec.get("lifecycle", {}), "preStop": {"exec": {"command": ["true"]}}}
            b["preStopSeconds"] = 3
        if draw(st.integers(0, 6)) == 0:
            b["imagePull"] = "fails"
        apps.append({"name": f"c{i}", "spec": spec})
        if b:
            behaviours[f"c{i}"] = b
    init = []
    if draw(st.booleans()):
        init = [{"name": "side", "spec": {"restartPolicy": "Always"}}]
        if draw(st.booleans()):
            behaviours["side"] = {"runSeconds": draw(st.sampled_from([1, 5])), "exitCode": 1}
    scenario: dict[str, Any] = {"until": draw(st.integers(600, 15000)), "containers": behaviours}
    if draw(st.booleans()):
        scenario["crashLoopBackOff"] = {"maxContainerRestartPeriod": draw(st.sampled_from([4, 30, 60]))}
    if draw(st.integers(0, 3)) == 0:
        scenario["deleteAt"] = draw(st.integers(100, 15000))
    if draw(st.integers(0, 4)) == 0:
        scenario["sandboxLostAt"] = draw(st.integers(100, 15000))
    return _manifest(apps, init, draw(st.sampled_from(["Always", "OnFailure", "Never"]))), scenario


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_busy_cases())
def test_loops_beside_probes_hooks_and_sidecars_fast_forward_to_the_full_simulation(
        case: tuple[str, dict[str, Any]]) -> None:
    fast, full = _both(*case)
    _assert_same(fast, full)


def test_jumps_come_after_enough_cycles_to_be_summarised() -> None:
    assert FF_PERIODS > KEEP_CYCLES + 1


# ---- the node's 1 s cap: bounded work and a bounded status timeline (issue 27) -------------------------
EXIT_1 = {"command": ["sh", "-c", "exit 1"]}


def _one_second_cap(n: int, until: int, runs: list[float] | None = None) -> tuple[str, dict[str, Any]]:
    apps = [{"name": f"c{i}", "spec": EXIT_1} for i in range(n)]
    scenario: dict[str, Any] = {"until": until, "crashLoopBackOff": {"maxContainerRestartPeriod": 1}}
    if runs:
        scenario["containers"] = {f"c{i}": {"runSeconds": r, "exitCode": 1} for i, r in enumerate(runs)}
    return _manifest(apps), scenario


def test_a_day_at_the_1_s_cap_keeps_exact_counts_and_a_bounded_timeline() -> None:
    from explainer.lifecycle.kubelet.fastforward import MAX_TIMELINE_POINTS
    manifest, scenario = _one_second_cap(40, 86_400)
    sim = explain(manifest, scenario, "1.35").pods[0].simulation
    assert sim is not None and not sim.truncated
    assert len(set(sim.restart_counts.values())) == 1 and min(sim.restart_counts.values()) > 40_000
    # was 5.2 million points (10 s, 2.3 GB): the repeated periods past the bound are folded, and said so
    assert len(sim.timeline) <= MAX_TIMELINE_POINTS + 1_000
    folds = [j for j in sim.fast_forwards if j.points_left_out]
    assert folds and folds[0].kept_until < folds[0].at + folds[0].shift
    assert any("status points from" in str(n) for n in sim.notes)
    assert sim.timeline[-1].restarts == sum(sim.restart_counts.values())   # the points after it stay exact


def test_a_fold_keeps_the_points_before_it_and_after_it_as_the_step_by_step_run_has_them(monkeypatch) -> None:
    from explainer.lifecycle.kubelet import fastforward
    monkeypatch.setattr(fastforward, "MAX_TIMELINE_POINTS", 300)
    fast, full = _both(*_one_second_cap(3, 3_600))
    jump = next(j for j in fast.fast_forwards if j.points_left_out)
    assert fast.restart_counts == full.restart_counts and fast.final_phase == full.final_phase
    # the points left out are those after kept_until up to the end of the jump
    before = [p for p in fast.timeline if p.t <= jump.kept_until]
    after = [p for p in fast.timeline if p.t > jump.at + jump.shift]
    assert before == [p for p in full.timeline if p.t <= jump.kept_until]
    assert after == [p for p in full.timeline if p.t > jump.at + jump.shift]
    assert len(full.timeline) - len(fast.timeline) == jump.points_left_out


def test_containers_out_of_step_stop_at_the_work_bound_and_say_so() -> None:
    runs = [1 + i * 0.125 for i in range(200)]      # no common period to jump: every sync walks them all
    sim = explain(*_one_second_cap(200, 86_400, runs), "1.35").pods[0].simulation
    assert sim is not None and sim.truncated and sim.end_time < 86_400
    assert any("syncs had looked at 3,000,000 containers" in str(n) for n in sim.notes)


def test_a_timeline_past_its_bound_is_folded_and_otherwise_the_full_runs():
    """Hypothesis found it: four containers that exit at once under a 4 s back-off cap for 8,000 s make more
    status points than fastforward.MAX_TIMELINE_POINTS; the jump keeps whole periods up to the bound and
    leaves the rest out, and every point it keeps, the counts and the phase are the full run's."""
    quick = {"runSeconds": 0, "exitCode": 0}
    manifest = _manifest([{"name": "c0"}, {"name": "c1"}, {"name": "c2"}], [{"name": "setup"}])
    fast, full = _both(manifest, {"until": 8000, "containers": {n: quick for n in ("c0", "c1", "c2", "setup")},
                                  "crashLoopBackOff": {"maxContainerRestartPeriod": 4}})
    assert any(jump.points_left_out for jump in fast.fast_forwards)
    assert len(full.timeline) > len(fast.timeline)
    _assert_same(fast, full)

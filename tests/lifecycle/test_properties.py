"""Property tests: invariants of the simulation over generated Pods and scenarios.

Plain functions, no Django.  A generated case is a valid Pod (or Job) written as YAML
text, so every run also goes through intake, plus a scenario given as data.  The
properties are the promises of issue 2: the simulation ends, time never goes backwards,
no container starts before what it waits for, nothing happens to a container after its
SIGKILL until it starts again, and nothing starts once the Pod is being deleted.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explainer.explain import explain
from explainer.lifecycle.model import Pod
from explainer.lifecycle.manifest.parse import parse_manifest
from explainer.lifecycle.scenario.document import scenario_from_data
from explainer.lifecycle.kubelet.simulate import Simulation, simulate
from explainer.lifecycle.kubelet.trace import TraceEvent
from explainer.render.jsonable import explanation_to_dict
from tests.profiles import examples

SETTINGS = settings(max_examples=examples(150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# The event types of the JSON contract (issue 2, "Outputs"); generated scenarios use no
# activeDeadlineSeconds and no kubectl debug, so nothing else may appear.
CONTRACT_TYPES = {
    "sandbox_ready", "image_pull_failed", "created", "started", "poststart_done",
    "startup_probe_ok", "startup_probe_failed", "ready", "not_ready", "liveness_failed",
    "exited", "backoff", "delete_requested", "prestop_started", "prestop_done", "terminating",
    "killed", "sandbox_lost",
}
PHASES = {"Pending", "Running", "Succeeded", "Failed"}
EXIT_SIGKILL = 137

# ---- strategies ---------------------------------------------------------------------------

# DNS-1123 labels: a letter, then letters, digits and inner dashes
_NAME = st.builds(lambda head, tail: head + tail.strip("-"),
                  st.sampled_from("abcdefghijklmnopqrstuvwxyz"),
                  st.text(alphabet="abcxyz019-", max_size=8))


def _probe(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    fields: dict[str, st.SearchStrategy[Any]] = {
        "exec": st.just({"command": ["cat", "/tmp/healthy"]}),
        "initialDelaySeconds": st.integers(0, 10),
        "periodSeconds": st.integers(1, 10),
        "failureThreshold": st.integers(1, 5),
    }
    if kind == "readinessProbe":
        fields["successThreshold"] = st.integers(1, 3)
    return st.fixed_dictionaries(fields)


def _sleep_hook(low: int, high: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.integers(low, high).map(lambda n: {"exec": {"command": ["sh", "-c", f"sleep {n}"]}})


@st.composite
def _container(draw: st.DrawFn, name: str, role: str) -> dict[str, Any]:
    """One container; probes and hooks only where the API server allows them (not plain init)."""
    c: dict[str, Any] = {"name": name, "image": draw(st.sampled_from(["busybox:1.36", "example.com/app:1"]))}
    if draw(st.booleans()):
        c["command"] = ["sh", "-c", f"sleep {draw(st.integers(0, 40))}"]
    if role == "sidecar":
        c["restartPolicy"] = "Always"
    if role != "init":
        for kind in ("startupProbe", "readinessProbe", "livenessProbe"):
            if draw(st.booleans()):
                c[kind] = draw(_probe(kind))
        lifecycle: dict[str, Any] = {}
        if draw(st.booleans()):
            lifecycle["postStart"] = draw(_sleep_hook(0, 10))
        if draw(st.booleans()):
            lifecycle["preStop"] = draw(_sleep_hook(0, 40))
        if lifecycle:
            c["lifecycle"] = lifecycle
    return c


@st.composite
def pod_manifests(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A valid Pod or Job as YAML text: plain inits, interleaved native sidecars, app containers."""
    roles = ["init"] * draw(st.integers(0, 4)) + ["sidecar"] * draw(st.integers(0, 3))
    init_roles = draw(st.permutations(roles)) if roles else []
    n_apps = draw(st.integers(1, 4))
    names = draw(st.lists(_NAME, min_size=len(init_roles) + n_apps, max_size=len(init_roles) + n_apps,
                          unique=True))
    init = [draw(_container(names[i], role)) for i, role in enumerate(init_roles)]
    apps = [draw(_container(names[len(init_roles) + i], "app")) for i in range(n_apps)]
    kind = draw(st.sampled_from(["Pod", "Job"]))
    policy = draw(st.sampled_from(["OnFailure", "Never"] if kind == "Job" else ["Always", "OnFailure", "Never"]))
    spec: dict[str, Any] = {"restartPolicy": policy,
                            "terminationGracePeriodSeconds": draw(st.integers(0, 60))}
    if init:
        spec["initContainers"] = init
    spec["containers"] = apps
    if kind == "Pod":
        doc = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "generated"}, "spec": spec}
    else:
        doc = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "generated"},
               "spec": {"backoffLimit": 0, "template": {"spec": spec}}}
    return yaml.safe_dump(doc, sort_keys=False), doc


def _behaviour() -> st.SearchStrategy[dict[str, Any]]:
    optional = {
        "runSeconds": st.one_of(st.integers(0, 50), st.just("forever")),
        "exitCode": st.sampled_from([0, 1]),
        "startupSeconds": st.integers(0, 30),
        "failingProbes": st.lists(st.sampled_from(["startup", "readiness", "liveness"]), unique=True),
        "preStopSeconds": st.integers(0, 60),
        "stopSeconds": st.one_of(st.integers(0, 60), st.just("never")),
    }
    return st.fixed_dictionaries({}, optional=optional)


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, Pod, dict[str, Any]]:
    """(manifest text, its Pod, scenario data) for one generated run."""
    text, _doc = draw(pod_manifests())
    intake = parse_manifest(text)
    assert not intake.errors, intake.errors
    (pod,) = intake.pods
    names = [c.name for c in pod.init_containers + pod.containers]
    chosen = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    scenario: dict[str, Any] = {"until": draw(st.integers(50, 400)),
                                "containers": {n: draw(_behaviour()) for n in chosen}}
    if draw(st.booleans()):
        scenario["deleteAt"] = draw(st.integers(0, 120))
        if draw(st.booleans()):
            scenario["deleteGracePeriodSeconds"] = draw(st.integers(0, 60))
    if draw(st.sampled_from([False, False, False, True])):   # now and then: the node reboots
        scenario["sandboxLostAt"] = draw(st.integers(0, 200))
    return text, pod, scenario


@dataclass
class Run:
    text: str
    pod: Pod
    scenario: dict[str, Any]
    sim: Simulation

    @property
    def events(self) -> list[TraceEvent]:
        return self.sim.events


def _run(case: tuple[str, Pod, dict[str, Any]]) -> Run:
    text, pod, scenario = case
    return Run(text, pod, scenario, simulate(pod, scenario_from_data(scenario)))


def _first(events: list[TraceEvent], name: str, kind: str, exit_code: int | None = None) -> int | None:
    """Index of the first event of ``kind`` for container ``name`` (with that exit code)."""
    for i, e in enumerate(events):
        if e.container == name and e.type == kind and (exit_code is None or e.exit_code == exit_code):
            return i
    return None


def _describe(run: Run) -> str:
    lines = [run.text, f"scenario: {run.scenario}"]
    lines += [f"{e.t:>8} {e.container or '-':12} {e.type:20} rc={e.restart_count} exit={e.exit_code} "
              f"{e.reason or ''}" for e in run.events[:400]]
    return "\n".join(lines)


# ---- properties ---------------------------------------------------------------------------

@SETTINGS
@given(cases())
def test_simulation_ends_with_a_bounded_number_of_events(case) -> None:
    run = _run(case)
    assert len(run.events) < 50_000, _describe(run)
    assert not run.sim.truncated, _describe(run)
    assert {e.type for e in run.events} <= CONTRACT_TYPES, _describe(run)


@SETTINGS
@given(cases())
def test_event_times_never_decrease_and_stay_within_until(case) -> None:
    run = _run(case)
    times = [e.t for e in run.events]
    assert times == sorted(times), _describe(run)
    assert all(t <= run.scenario["until"] for t in times), _describe(run)
    assert all(t >= 0 for t in times), _describe(run)


@SETTINGS
@given(cases())
def test_each_plain_init_container_waits_for_the_previous_one_to_exit_0(case) -> None:
    run = _run(case)
    plain = [c.name for c in run.pod.init_containers if c.role == "init"]
    for before, after in zip(plain, plain[1:]):
        started = _first(run.events, after, "started")
        if started is None:
            continue
        done = _first(run.events, before, "exited", exit_code=0)
        assert done is not None and done < started, (
            f"{after} started before {before} exited 0\n" + _describe(run))


@SETTINGS
@given(cases())
def test_no_app_container_starts_before_every_init_is_done_and_every_sidecar_started(case) -> None:
    run = _run(case)
    if "sandboxLostAt" in run.scenario:
        return    # a new sandbox runs the init containers again; first starts no longer line up
    firsts = [i for i in (_first(run.events, c.name, "started") for c in run.pod.containers) if i is not None]
    if not firsts:
        return
    first_app = min(firsts)
    for c in run.pod.init_containers:
        if c.role == "init":
            gate = _first(run.events, c.name, "exited", exit_code=0)
            what = "exited 0"
        else:
            gate = _first(run.events, c.name, "startup_probe_ok" if c.startup_probe else "started")
            what = "passed its startupProbe" if c.startup_probe else "started"
        assert gate is not None and gate < first_app, (
            f"an app container started before {c.name} {what}\n" + _describe(run))


@SETTINGS
@given(cases())
def test_a_sidecars_successor_starts_only_once_the_sidecar_has_started(case) -> None:
    """The container after a sidecar waits for it to be started (startupProbe passed, if any).

    Only the first start is checked: the start pass that starts the successor may be
    blocked by a postStart hook while the sidecar exits, and once the Pod is initialized
    app containers no longer wait for sidecars (the kubelet does not re-gate them).
    """
    run = _run(case)
    init = run.pod.init_containers
    for i, c in enumerate(init):
        if c.role != "sidecar":
            continue
        successors = [init[i + 1]] if i + 1 < len(init) else list(run.pod.containers)
        gate_kind = "startup_probe_ok" if c.startup_probe else "started"
        gate = _first(run.events, c.name, gate_kind)
        for nxt in successors:
            started = _first(run.events, nxt.name, "started")
            if started is None:
                continue
            assert gate is not None and gate < started, (
                f"{nxt.name} started before sidecar {c.name} had {gate_kind}\n" + _describe(run))
            if c.startup_probe:
                assert _first(run.events, c.name, "started") < gate


@SETTINGS
@given(cases())
def test_nothing_happens_to_a_container_after_sigkill_until_it_starts_again(case) -> None:
    run = _run(case)
    allowed = {"not_ready", "backoff", "created", "image_pull_failed"}
    killed: dict[str, bool] = {}
    exited_after_kill: dict[str, bool] = {}
    for e in run.events:
        name = e.container
        if name is None:
            continue
        if e.type == "started":
            killed[name] = False
            continue
        if e.type == "killed":
            assert not killed.get(name), f"{name} killed twice\n" + _describe(run)
            killed[name], exited_after_kill[name] = True, False
            continue
        if not killed.get(name):
            continue
        if e.type == "exited" and not exited_after_kill[name]:
            assert e.exit_code == EXIT_SIGKILL, f"{name} exited {e.exit_code} after SIGKILL\n" + _describe(run)
            exited_after_kill[name] = True
            continue
        assert e.type in allowed, f"{name}: {e.type} at t={e.t} after its SIGKILL\n" + _describe(run)


@SETTINGS
@given(cases())
def test_nothing_starts_once_the_pod_is_being_deleted(case) -> None:
    run = _run(case)
    deleted = None
    for i, e in enumerate(run.events):
        if e.type == "delete_requested":
            deleted = i
            break
    if deleted is None:
        return
    late = [e for e in run.events[deleted:] if e.type == "started"]
    assert not late, f"{late[0].container} started at t={late[0].t} after the delete\n" + _describe(run)


@SETTINGS
@given(cases())
def test_restart_counts_never_decrease(case) -> None:
    run = _run(case)
    last: dict[str, int] = {}
    for e in run.events:
        if e.container is None or e.restart_count is None:
            continue
        assert e.restart_count >= last.get(e.container, 0), _describe(run)
        last[e.container] = e.restart_count
    for name, n in run.sim.restart_counts.items():
        assert n >= last.get(name, 0)


@SETTINGS
@given(cases())
def test_status_timeline_is_ordered_and_the_final_phase_is_a_phase(case) -> None:
    run = _run(case)
    times = [p.t for p in run.sim.timeline]
    assert times == sorted(times), _describe(run)
    assert run.sim.timeline, "the timeline has at least the initial point"
    assert {p.phase for p in run.sim.timeline} <= PHASES
    assert run.sim.final_phase in PHASES


@SETTINGS
@given(cases())
def test_explain_output_is_valid_json(case) -> None:
    text, _pod, scenario = case
    expl = explain(text, scenario)
    assert not expl.errors, [e.one_line() for e in expl.errors]
    data = explanation_to_dict(expl)
    again = json.loads(json.dumps(data, allow_nan=False))
    assert again["schemaVersion"] == 1
    assert len(again["pods"]) == 1

"""The scenario document: how containers behave, what happens to the Pod, and the defaults."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.explain import explain
from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.manifest.parse import parse_pod
from explainer.lifecycle.scenario.document import Behaviour, Run, Scenario, behaviour_for, parse_scenario
from explainer.lifecycle.kubelet.simulate import simulate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DEFAULTS = (FIXTURES / "scenarios" / "defaults.yaml").read_text(encoding="utf-8")
SIDECAR = (FIXTURES / "scenarios" / "native_sidecar.yaml").read_text(encoding="utf-8")

APP = """\
apiVersion: v1
kind: Pod
metadata:
  name: single
spec:
  terminationGracePeriodSeconds: 10
  containers:
  - name: app
    image: busybox:1.36
"""


def _behaviours(manifest: str, scenario: str) -> dict[str, Behaviour]:
    pod = parse_pod(manifest)
    sc = parse_scenario(scenario)
    return {c.name: behaviour_for(c, pod, sc) for c in pod.all_containers}


# ---- reading the document ---------------------------------------------------------------------

def test_an_empty_scenario_is_the_empty_scenario() -> None:
    assert parse_scenario("") == Scenario()
    assert parse_scenario(None) == Scenario()
    assert parse_scenario("# nothing to say\n") == Scenario()


def test_the_documented_fields_are_read() -> None:
    sc = parse_scenario('kubernetesVersion: "1.30"\ndeleteAt: 30\ndeleteGracePeriodSeconds: 5\n'
                        "sandboxLostAt: 90\nuntil: 300\ncontainers:\n  app:\n    runSeconds: 2\n")
    assert (sc.kubernetes_version, sc.delete_at, sc.delete_grace, sc.sandbox_lost_at, sc.until) == (
        "1.30", 30.0, 5, 90.0, 300.0)
    assert sc.containers == {"app": {"runSeconds": 2}}
    assert sc.lines == {"app": 7}


def test_a_json_scenario_is_accepted() -> None:
    sc = parse_scenario('{"deleteAt": 12, "containers": {"app": {"runSeconds": "forever"}}}')
    assert sc.delete_at == 12.0
    assert sc.containers["app"]["runSeconds"] == "forever"


# scenario text, message substring, line, path
BAD_DOCUMENTS = [
    ("until: 50\ncrashAt: 10\n", "Unknown scenario field 'crashAt'", 2, "crashAt"),
    ("containers:\n  app:\n    runFor: 3\n", "Unknown field 'runFor' for container 'app'", 3,
     "containers.app.runFor"),
    ("deleteAt: later\n", "deleteAt must be a number of seconds", 1, "deleteAt"),
    ("sandboxLostAt: -5\n", "sandboxLostAt must be a number of seconds, 0 or more", 1, "sandboxLostAt"),
    ("until: 1000000\n", "up to 86400", 1, "until"),
    ("deleteGracePeriodSeconds: 2.5\n", "whole number", 1, "deleteGracePeriodSeconds"),
    ("containers: [app]\n", "containers must map container names to behaviour", 1, "containers"),
    ("containers:\n  app: 3\n", "The behaviour of 'app' must be a mapping", 2, "containers.app"),
    ("- deleteAt: 3\n", "The scenario must be a mapping", 1, ""),
    ("containers: {app: [\n", "Scenario: YAML syntax error", 2, None),
]


@pytest.mark.parametrize("text, substring, line, path", BAD_DOCUMENTS,
                         ids=[row[3] or "syntax" for row in BAD_DOCUMENTS])
def test_bad_scenario_documents_are_errors_with_line_and_path(text, substring, line, path) -> None:
    with pytest.raises(ManifestError) as info:
        parse_scenario(text)
    (rec,) = info.value.records
    assert substring in rec.message
    assert rec.line == line
    assert rec.path == path
    assert rec.kind == "scenario"


# ---- bad values (checked against the manifest by explain) --------------------------------------

# behaviour YAML (under containers.app), message substring, path
BAD_VALUES = [
    ("runSeconds: soon", "runSeconds must be a number of seconds or forever, not 'soon'", "containers.app.runSeconds"),
    ("runSeconds: -3", "runSeconds must be a number of seconds", "containers.app.runSeconds"),
    ("runSeconds: never", "not 'never'", "containers.app.runSeconds"),
    ("stopSeconds: forever", "stopSeconds must be a number of seconds or never", "containers.app.stopSeconds"),
    ("exitCode: 300", "exitCode must be a whole number from 0 to 255", "containers.app.exitCode"),
    ("exitCode: one", "exitCode must be a whole number", "containers.app.exitCode"),
    ("failingProbes: [readyness]", "failingProbes of 'app'", "containers.app.failingProbes"),
    ("imagePull: maybe", "imagePull of 'app' must be ok or fails", "containers.app.imagePull"),
    ("runs: []", "runs of 'app' must be a non-empty list", "containers.app.runs"),
    ("runs: [{runSeconds: x}]", "runSeconds must be a number of seconds or forever, not 'x'",
     "containers.app.runs[0].runSeconds"),
]


@pytest.mark.parametrize("behaviour, substring, path", BAD_VALUES, ids=[row[0] for row in BAD_VALUES])
def test_bad_values_are_scenario_errors_and_nothing_is_simulated(behaviour, substring, path) -> None:
    expl = explain(APP, f"containers:\n  app:\n    {behaviour}\n")
    assert expl.pods == []
    (rec,) = expl.errors
    assert substring in rec.message
    assert rec.path == path
    assert rec.kind == "scenario"


def test_bad_values_point_at_their_line() -> None:
    (rec,) = explain(APP, "containers:\n  app:\n    runSeconds: soon\n").errors
    assert rec.line == 3


def test_an_unknown_container_name_is_a_scenario_error() -> None:
    expl = explain(APP, "until: 60\ncontainers:\n  api:\n    runSeconds: 3\n")
    assert expl.pods == []
    (rec,) = expl.errors
    assert rec.kind == "scenario"
    assert rec.path == "containers.api"
    assert rec.line == 3
    assert "'api'" in rec.message and "app" in rec.message


# ---- runs, words and defaults -------------------------------------------------------------------

def test_runs_list_repeats_its_last_entry() -> None:
    b = _behaviours(APP, "containers:\n  app:\n    runs:\n"
                         "    - {runSeconds: 1, exitCode: 1}\n"
                         "    - {runSeconds: 2, exitCode: 3}\n"
                         "    - {runSeconds: forever}\n")["app"]
    assert b.runs == (Run(1.0, 1), Run(2.0, 3), Run(None, 0))
    assert [b.run(n) for n in range(5)] == [Run(1.0, 1), Run(2.0, 3), Run(None, 0), Run(None, 0), Run(None, 0)]
    assert "runSeconds" not in b.assumed


def test_runs_drive_the_simulation_crash_twice_then_run() -> None:
    pod = parse_pod(APP)
    sc = parse_scenario("until: 100\ncontainers:\n  app:\n    runs:\n"
                        "    - {runSeconds: 1, exitCode: 1}\n    - {runSeconds: 1, exitCode: 1}\n"
                        "    - {runSeconds: forever}\n")
    sim = simulate(pod, sc)
    starts = [(e.t, e.restart_count) for e in sim.events if e.container == "app" and e.type == "started"]
    exits = [(e.t, e.exit_code) for e in sim.events if e.container == "app" and e.type == "exited"]
    assert starts == [(0.0, 0), (1.0, 1), (12.0, 2)]   # first restart at once, then 10 s back-off
    assert exits == [(1.0, 1), (2.0, 1)]
    assert sim.restart_counts["app"] == 2
    assert sim.final_phase == "Running"


@pytest.mark.parametrize("behaviour, field, expected", [
    ("runSeconds: forever", "runs", (Run(None, 0),)),
    ("runSeconds: 7\n    exitCode: 2", "runs", (Run(7.0, 2),)),
    ("stopSeconds: never", "stop_seconds", None),
    ("stopSeconds: 4", "stop_seconds", 4.0),
    ("preStopSeconds: forever", "pre_stop_seconds", None),
    ("preStopSeconds: 3", "pre_stop_seconds", 3.0),
    ("startupSeconds: 12", "startup_seconds", 12.0),
    ("failingProbes: [liveness, startup]", "failing_probes", frozenset({"liveness", "startup"})),
    ("imagePull: fails", "image_pull_fails", True),
])
def test_scenario_values_and_words(behaviour: str, field: str, expected) -> None:
    b = _behaviours(APP, f"containers:\n  app:\n    {behaviour}\n")["app"]
    assert getattr(b, field) == expected


def test_stop_seconds_never_means_only_sigkill_stops_it() -> None:
    pod = parse_pod(APP)
    sim = simulate(pod, parse_scenario("deleteAt: 5\nuntil: 60\ncontainers:\n  app:\n    stopSeconds: never\n"))
    app = [(e.t, e.type, e.exit_code) for e in sim.events if e.container == "app"]
    assert (5.0, "terminating", None) in app
    killed = app.index((15.0, "killed", None))
    assert app[killed + 1] == (15.0, "exited", 137)
    assert not any(kind == "exited" for _t, kind, _code in app[:killed])


def test_defaults_are_guessed_from_the_manifest_and_marked_assumed() -> None:
    b = _behaviours(DEFAULTS, "")
    # `sleep 5` is read from the command: a fact of the manifest, not an assumption
    assert b["wait-five"].runs[0].seconds == 5
    assert "runSeconds" not in b["wait-five"].assumed
    # a plain init container without a command: 1 s, exit 0, assumed
    assert b["prepare"].runs == (Run(1.0, 0),)
    assert "runSeconds" in b["prepare"].assumed and "exitCode" in b["prepare"].assumed
    # an app container without a command runs until stopped, assumed
    assert b["app"].runs == (Run(None, 0),)
    assert "runSeconds" in b["app"].assumed


def test_scenario_values_are_not_assumed() -> None:
    b = _behaviours(DEFAULTS, "containers:\n  prepare:\n    runSeconds: 3\n    exitCode: 0\n"
                              "    stopSeconds: 1\n")
    assert b["prepare"].runs == (Run(3.0, 0),)
    assert not {"runSeconds", "exitCode", "stopSeconds"} & set(b["prepare"].assumed)


def test_assumed_values_reach_the_trace() -> None:
    sim = explain(DEFAULTS).pods[0].simulation
    assert sim is not None
    started = {e.container: e.assumed for e in sim.events if e.type == "started"}
    assert started == {"prepare": True, "wait-five": False, "app": True}
    prepare_exit = next(e for e in sim.events if e.container == "prepare" and e.type == "exited")
    assert prepare_exit.t == 1.0 and prepare_exit.assumed


def test_the_scenario_version_is_used_when_no_version_is_given() -> None:
    expl = explain(SIDECAR, 'kubernetesVersion: "1.27"\n')
    assert expl.version == "1.27"
    assert any(e.path == "spec.initContainers[0].restartPolicy" for e in expl.errors)
    assert explain(SIDECAR, 'kubernetesVersion: "1.27"\n', "1.33").errors == []

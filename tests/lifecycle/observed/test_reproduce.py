""""Make the prediction match" (docs/lifecycle-model.md §36): the scenario an observation writes is one the
scenario reader accepts, and explaining again with it makes each reproducible difference go away, while
keeping what the scenario already said."""
from __future__ import annotations

import dataclasses

import pytest

from explainer.explain import explain
from explainer.lifecycle.observed import scenario_for
from explainer.lifecycle.observed.reproduce import base_data
from explainer.lifecycle.scenario.document import parse_scenario, scenario_from_data
from tests.lifecycle.observed.cases import CASES
from tests.lifecycle.observed.test_divergence import MANIFESTS, TEACHING
from tests.lifecycle.observed.test_read_real import paste

INPUTS = {**{k: ((MANIFESTS / m).read_text(encoding="utf-8"), [paste(p) for p in ps]) for k, (m, ps) in
             TEACHING.items()},
          **{k: (m, [o]) for k, (m, o) in CASES.items()}}


@pytest.mark.parametrize("case", sorted(INPUTS))
def test_explaining_again_with_the_written_scenario_removes_what_it_reproduces(case: str) -> None:
    manifest, observed = INPUTS[case]
    first = explain(manifest, observed=observed).pods[0].observed
    reproducible = [(d.kind, d.container) for d in first.divergences if d.reproducible]
    scenario_from_data(first.scenario)              # raises ManifestError if it were not a valid scenario
    if not reproducible:
        assert "containers" not in first.scenario and "until" not in first.scenario
        return
    again = explain(manifest, first.scenario, observed=observed)
    assert not again.errors, again.errors
    left = [(d.kind, d.container) for d in again.pods[0].observed.divergences]
    assert not set(reproducible) & set(left), (reproducible, left, first.scenario)
    assert first.scenario["until"] >= 600


def test_the_oom_case_writes_oom_killed_runs_and_the_prediction_crash_loops_to_the_cap() -> None:
    manifest, observed = INPUTS["oom crash loop"]
    scenario = explain(manifest, observed=observed).pods[0].observed.scenario
    assert scenario["containers"]["memory-demo-2-ctr"]["runs"] == [
        {"runSeconds": 1.0, "exitCode": 137, "reason": "OOMKilled"}]
    sim = explain(manifest, scenario).pods[0].simulation
    backoffs = [e for e in sim.events if e.type.value == "backoff"]
    assert {e.reason for e in sim.events if e.type.value == "exited"} == {"OOMKilled"}
    assert any("300" in e.message for e in backoffs)      # what comes next: the back-off at its cap


def test_a_container_that_crashed_and_now_runs_crashes_so_often_then_runs_on() -> None:
    manifest, observed = CASES["crashed"]
    runs = explain(manifest, observed=observed).pods[0].observed.scenario["containers"]["app"]["runs"]
    assert runs == [{"runSeconds": 2.0, "exitCode": 1}] * 3 + [{"runSeconds": "forever"}]


def test_the_scenario_in_effect_is_kept_and_extended() -> None:
    manifest, observed = CASES["oom-killed"]
    given = {"deleteAt": 900, "containers": {"app": {"preStopSeconds": 5}}, "featureGates": {"X": True}}
    written = explain(manifest, given, observed=observed).pods[0].observed.scenario
    assert written["deleteAt"] == 900 and written["featureGates"] == {"X": True}
    assert written["containers"]["app"]["preStopSeconds"] == 5 and "runs" in written["containers"]["app"]
    assert scenario_for([], 100.0, given) == given        # nothing to reproduce: the scenario as it was


def test_a_scenario_object_gives_back_its_data() -> None:
    sc = parse_scenario("deleteAt: 30\ncontainers: {app: {runSeconds: 5}}\ncrashLoopBackOff: "
                        "{maxContainerRestartPeriod: 60}\n")
    data = base_data(sc)
    assert data == {"deleteAt": 30.0, "containers": {"app": {"runSeconds": 5}},
                    "crashLoopBackOff": {"maxContainerRestartPeriod": 60.0}}
    assert dataclasses.replace(scenario_from_data(data), lines={}) == dataclasses.replace(sc, lines={})

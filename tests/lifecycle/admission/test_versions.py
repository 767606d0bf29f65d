"""Versions 1.25-1.37, their feature gates and node settings (issue 12 points 4-6, issue 26; docs/lifecycle-model.md
§3, §20-21, §33)."""
from __future__ import annotations

import pytest

from explainer.lifecycle import defaults as d
from explainer.lifecycle.admission.versions import crash_loop_backoff, gate_enabled
from tests.lifecycle.engine import count, run

GATE_TABLE = [
    # gate, 1.34, 1.35, 1.36, 1.37 (issue 12's table; kube_features.go)
    ("ContainerRestartRules", False, True, True, True),
    ("RestartAllContainersOnContainerExits", False, False, True, True),
    ("ContainerStopSignals", False, False, False, False),
    ("KubeletCrashLoopBackOffMax", False, True, True, True),
    ("ReduceDefaultCrashLoopBackOffDecay", False, False, False, False),
    ("SidecarContainers", True, True, True, True),
]


@pytest.mark.parametrize("gate,v134,v135,v136,v137", GATE_TABLE)
def test_feature_gate_defaults(gate: str, v134: bool, v135: bool, v136: bool, v137: bool) -> None:
    assert [gate_enabled(gate, v) for v in ("1.34", "1.35", "1.36", "1.37")] == [v134, v135, v136, v137]


def test_supported_versions_and_default() -> None:
    assert d.SUPPORTED_VERSIONS == tuple(f"1.{m}" for m in range(25, 38))
    assert d.DEFAULT_VERSION == "1.37"


def test_a_gate_that_does_not_exist_yet_cannot_be_turned_on() -> None:
    assert not gate_enabled("RestartAllContainersOnContainerExits", "1.34", {"RestartAllContainersOnContainerExits": True})
    assert gate_enabled("SidecarContainers", "1.37", {"SidecarContainers": False})     # GA: locked on


@pytest.mark.parametrize("version,gates,max_period,expected", [
    ("1.37", {}, None, (10, 300)),
    ("1.37", {}, 30, (10, 30)),
    ("1.37", {}, 5, (5, 5)),                                   # below 10 s: initial = maximum
    ("1.37", {"ReduceDefaultCrashLoopBackOffDecay": True}, None, (1, 60)),
    ("1.37", {"ReduceDefaultCrashLoopBackOffDecay": True}, 30, (1, 30)),
    ("1.34", {}, 30, (10, 300)),                               # KubeletCrashLoopBackOffMax alpha, off
    ("1.34", {"KubeletCrashLoopBackOffMax": True}, 30, (10, 30)),
    ("1.31", {"KubeletCrashLoopBackOffMax": True}, 30, (10, 300)),   # not there yet
])
def test_crash_loop_backoff_settings(version: str, gates: dict, max_period: float | None,
                                     expected: tuple[int, int]) -> None:
    assert crash_loop_backoff(version, gates, max_period) == expected


CRASH = "containers: {app: {runSeconds: 0, exitCode: 1}}\nuntil: 400\n"


@pytest.mark.parametrize("version,extra,starts,note", [
    ("1.37", "", [0, 0, 10, 30, 70, 150, 310], None),
    ("1.37", "crashLoopBackOff: {maxContainerRestartPeriod: 30}\n", [0, 0, 10, 30, 60, 90, 120], "up to 30s"),
    # At a 4 s cap the loop is steady at once: the output folds it after three cycles (issue 11).
    ("1.37", "crashLoopBackOff: {maxContainerRestartPeriod: 4s}\n", [0, 0, 4, 8, 12], "4s, doubling up to 4s"),
    ("1.36", "featureGates: {ReduceDefaultCrashLoopBackOffDecay: true}\n", [0, 0, 1, 3, 7, 15, 31], "1s, doubling"),
    ("1.34", "crashLoopBackOff: {maxContainerRestartPeriod: 30}\n", [0, 0, 10, 30, 70, 150, 310], "ignores"),
])
def test_node_back_off_settings_in_the_timeline(version: str, extra: str, starts: list[int], note: str | None) -> None:
    pod = run("pods/crashing_app", CRASH + extra, version)
    assert [e["t"] for e in pod["events"] if e["type"] == "started"][:7] == starts
    if note:
        assert any(note in n for n in pod["notes"]), pod["notes"]


@pytest.mark.parametrize("value", [0, 301, "abc", True, {"x": 1}])
def test_bad_max_restart_period_is_a_clear_scenario_error(value: object) -> None:
    from explainer.explain import explain

    out = explain(open("tests/fixtures/pods/crashing_app.yaml").read(),
                  {"crashLoopBackOff": {"maxContainerRestartPeriod": value}})
    assert out.errors and out.errors[0].kind == "scenario"
    assert out.errors[0].path == "crashLoopBackOff.maxContainerRestartPeriod"
    assert out.errors[0].message.startswith("maxContainerRestartPeriod must be from 1 to 300 seconds")


def test_sidecars_are_not_restarted_during_termination_on_1_37() -> None:
    """KEP-4438 is not merged in 1.35-1.37: a sidecar that dies while the Pod terminates stays down."""
    scenario = ("deleteAt: 30\ncontainers: {trainer: {stopSeconds: 10}, proxy: {runSeconds: 33, exitCode: 1}}\n"
                "until: 120\n")
    pod = run("pods/restart_all", scenario, "1.37")
    assert count(pod, "proxy", "started") == 1
    assert any(e["container"] == "proxy" and e["type"] == "exited" and e["t"] == 35 for e in pod["events"])


@pytest.mark.parametrize("version", ["1.35", "1.37"])
def test_resize_policy_is_accepted_and_the_story_says_what_a_resize_does(version: str) -> None:
    from explainer.explain import explain
    from explainer.render.story import story
    from tests.conftest import load_manifest

    out = explain(load_manifest("pods/resize_restart"), None, version)
    assert out.ok
    text = " ".join(s.text.render() for s in story(out.pods[0].pod, out.pods[0].simulation))
    assert "resizePolicy says RestartContainer for memory: an in-place resize of that resource restarts" in text


@pytest.mark.parametrize("version", ["1.29", "1.33", "1.35", "1.37"])
def test_native_sidecars_stay_ga_on_every_new_version(version: str) -> None:
    pod = run("pods/job_native_sidecar", None, version)
    assert pod["admitted"] is True
    assert not any(f["id"] == "native-sidecar-unsupported" for f in pod["findings"])
    assert pod["finalPhase"] == "Succeeded" and count(pod, "log-agent", "started") == 1


def test_the_rules_page_feature_table_comes_from_the_gate_table() -> None:
    from explainer.lifecycle.admission.features import feature_table

    rows = {r["slug"]: r for r in feature_table(lambda s: s)}
    assert [g["cells"] for g in rows["restart-all-containers"]["gates"]] == [["–", "alpha, off", "beta, on",
                                                                              "beta, on"]]
    assert [g["cells"] for g in rows["unchanged"]["gates"]] == [["beta, on", "GA", "GA", "GA"]]
    assert [g["gate"] for g in rows["crash-loop-back-off"]["gates"]] == ["KubeletCrashLoopBackOffMax",
                                                                         "ReduceDefaultCrashLoopBackOffDecay"]


@pytest.mark.parametrize("written,version", [("1.30", "1.30"), ("'1.30'", "1.30"), ("1.37", "1.37"), ("1.35", "1.35")])
def test_scenario_version_unquoted_or_quoted(written: str, version: str) -> None:
    from explainer.lifecycle.scenario.document import parse_scenario

    assert parse_scenario(f"kubernetesVersion: {written}").kubernetes_version == version


# ---- 1.25 and 1.26 (docs/lifecycle-model.md §33) --------------------------------------------------------------

@pytest.mark.parametrize("version", ["1.25", "1.26"])
def test_no_gate_the_model_reads_exists_before_1_27(version: str) -> None:
    """kube_features.go of 1.25 and 1.26: none of §3.1's kubelet gates is there yet (SidecarContainers is 1.28,
    InPlacePodVerticalScaling 1.27), and a scenario cannot turn one on; the one controller gate the rollouts
    read, MaxUnavailableStatefulSet, is alpha since 1.24 (off)."""
    from explainer.lifecycle.admission.versions import GATES, gate_exists
    assert [g for g in GATES if gate_exists(g, version)] == ["MaxUnavailableStatefulSet"]
    assert not gate_enabled("MaxUnavailableStatefulSet", version)
    assert not gate_enabled("SidecarContainers", version, {"SidecarContainers": True})


@pytest.mark.parametrize("version,killed_at,end_phase", [
    # grace 10, preStop 8, a program that ignores SIGTERM, deleted at 20 (killContainer before k/k #115835)
    ("1.25", 38, "Running"), ("1.26", 38, "Running"),
    ("1.27", 30, "Failed"), ("1.37", 30, "Failed"),
])
def test_the_override_after_prestop_and_the_phase_of_a_deleted_pod(version: str, killed_at: float,
                                                                   end_phase: str) -> None:
    """Before 1.27 the pod worker's override replaced the grace period after preStop: the stop call got the
    whole 10 s again, so SIGKILL comes 18 s after the deletion; and a deleted Pod left the API in the phase
    it had (Running), where from 1.27 it is moved to Failed first."""
    pod = run("pods/legacy_override", "deleteAt: 20", version)
    (kill,) = [e for e in pod["events"] if e["type"] == "killed"]
    assert kill["t"] == killed_at
    assert pod["finalPhase"] == end_phase
    assert pod["statusTimeline"][-1]["status"] == ("Terminating" if end_phase == "Running" else "Error")


@pytest.mark.parametrize("version,killed_at,prestop", [("1.26", 1, False), ("1.27", 3, True)])
def test_a_grace_period_of_0_before_and_from_1_27(version: str, killed_at: float, prestop: bool) -> None:
    """grace 0: before 1.27 no grace is left for preStop and the stop call gets the 1 s floor; from 1.27 the
    floor applies first, preStop gets 1 s and SIGTERM the 2 s minimum."""
    pod = run("pods/legacy_override", "deleteAt: 20\ndeleteGracePeriodSeconds: 0", version)
    (kill,) = [e for e in pod["events"] if e["type"] == "killed"]
    assert kill["t"] == 20 + killed_at
    assert (count(pod, "app", "prestop_started") == 1) is prestop


def test_a_native_sidecar_is_an_unknown_field_in_1_25() -> None:
    from explainer.explain import explain
    from tests.conftest import load_manifest
    errors = explain(load_manifest("seeds/lifecycle-demo"), None, "1.25").errors
    assert any("restartPolicy" in e.message and "1.25" in e.message for e in errors)


def test_1_24_is_refused_with_the_reason_and_the_nearest_version() -> None:
    from explainer.explain import explain
    (error,) = explain("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: b}]}",
                       None, "1.24").errors
    assert "schemas" in error.message and "Choose 1.25" in error.message


def test_1_25_no_longer_serves_batch_v1beta1_cronjobs() -> None:
    from explainer.explain import explain
    text = ("apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: '* * * * *'\n"
            "  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n"
            "          containers: [{name: a, image: busybox}]\n")
    assert any("no matches for kind" in e.message for e in explain(text, None, "1.25").errors)

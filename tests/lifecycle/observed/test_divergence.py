"""Divergences (docs/lifecycle-model.md §36): the three teaching cases from kubernetes.io pages, and one small
observation per kind, each explained and saying whether the scenario can reproduce it."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.explain import explain
from explainer.lifecycle.observed.divergence import KINDS
from tests.lifecycle.observed.cases import CASES
from tests.lifecycle.observed.test_read_real import paste

MANIFESTS = Path(__file__).resolve().parents[2] / "fixtures" / "observed" / "manifests"
TEACHING = {
    "oom crash loop": ("memory-demo-2.yaml", ["memory-oomkilled-table-and-laststate.txt"]),
    "liveness kill": ("liveness-exec.yaml", ["probes-events-after.txt", "probes-get-pod.txt"]),
    "init container waiting on a Service": ("myapp-pod.yaml", ["init-containers-waiting-on-service.txt"]),
}


def teaching(case: str):
    manifest, pastes = TEACHING[case]
    expl = explain((MANIFESTS / manifest).read_text(encoding="utf-8"), observed=[paste(p) for p in pastes])
    assert not expl.errors
    return expl.pods[0]


def test_an_oom_crash_loop_is_the_memory_limit() -> None:
    report = teaching("oom crash loop")
    (d,) = report.observed.divergences
    assert (d.kind, d.container, d.reproducible) == ("oom-killed", "memory-demo-2-ctr", True)
    assert "memory limit (100Mi)" in str(d.explanation) and "OOMKilled" in str(d.observed)
    assert str(d.predicted) == "RESTARTS 0 at 40 s" and str(d.observed).startswith("RESTARTS 2")
    assert report.observed.columns.status == "Running" and report.observed.columns.restarts == "2"


def test_a_liveness_kill_is_the_probe() -> None:
    report = teaching("liveness kill")
    (d,) = report.observed.divergences
    assert (d.kind, d.container, d.t, d.reproducible) == ("liveness-kill", "liveness", 47.0, True)
    assert "exec cat /tmp/healthy" in str(d.explanation) and "failingProbes: [liveness]" in str(d.explanation)
    assert any("Unhealthy happened 3 times from 37 s to 47 s" in str(n) for n in report.notes)
    lane = report.observed.lanes["liveness"]
    assert [(s.state, s.start, s.end) for s in lane] == [("pulling", 2.0, 4.0), ("running", 4.0, 47.0)]


def test_an_init_container_waiting_on_a_service_holds_the_pod() -> None:
    report = teaching("init container waiting on a Service")
    (d,) = report.observed.divergences
    assert (d.kind, d.container, d.t, d.reproducible) == ("still-running", "init-myservice", 1.0, True)
    assert "still running at 360 s" in str(d.explanation) and "Init:0/2" in str(d.explanation)
    assert report.observed.columns.status == "Running"       # the last get -f row, later than the describe
    assert any("compared at 300 s" in str(n) for n in report.notes)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_kind_of_divergence(kind: str) -> None:
    manifest, observed = CASES[kind]
    expl = explain(manifest, observed=observed)
    assert not expl.errors, expl.errors
    found = expl.pods[0].observed.divergences
    assert kind in [d.kind for d in found], [(d.kind, str(d.explanation)) for d in found]
    d = next(d for d in found if d.kind == kind)
    assert str(d.explanation).strip()
    says = "can reproduce" in str(d.explanation) or "can make the prediction match" in str(d.explanation)
    assert says == d.reproducible
    assert bool(d.scenario) == d.reproducible


def test_every_kind_has_a_case() -> None:
    """Two are teaching cases above (liveness-kill, still-running), "restarted" is the test below."""
    assert set(KINDS) - set(CASES) == {"restarted", "liveness-kill", "still-running"}


def test_restarts_the_paste_does_not_explain() -> None:
    row = "NAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   4          10m\n"
    expl = explain(CASES["crashed"][0], observed=row)
    (d,) = expl.pods[0].observed.divergences
    assert (d.kind, str(d.observed), d.reproducible) == ("restarted", "RESTARTS 4 at 600 s", True)


def test_a_restart_count_one_off_in_the_same_crash_loop_is_not_a_divergence() -> None:
    manifest = CASES["crashed"][0]
    scenario = {"containers": {"app": {"runs": [{"runSeconds": 30, "exitCode": 1}]}}}
    expl = explain(manifest, scenario, observed=CASES["crashed"][1])
    assert [d.kind for d in expl.pods[0].observed.divergences] == []


def test_matching_observation_has_no_divergence_and_the_kubectl_columns() -> None:
    expl = explain(paste("debug-running-pod-yaml.txt"))
    obs = expl.pods[0].observed
    assert obs.divergences == [] and (obs.columns.ready, obs.columns.status, obs.columns.restarts) == (
        "1/1", "Running", "0")
    assert [s.kind for s in obs.sources] == ["pod"]


def test_restarts_say_how_long_ago_when_the_paste_says_when_it_was_printed() -> None:
    """A describe's events count back from when it was printed: Start Time plus the Scheduled event's age
    is that moment, so RESTARTS is printPod's "N (X ago)"; an object alone does not say it."""
    describe = """Name:         liveness-exec
Start Time:   Wed, 01 May 2024 10:00:00 +0000
Status:       Running
Containers:
  liveness:
    State:          Running
      Started:      Wed, 01 May 2024 10:10:10 +0000
    Last State:     Terminated
      Reason:       Error
      Exit Code:    137
      Started:      Wed, 01 May 2024 10:08:40 +0000
      Finished:     Wed, 01 May 2024 10:09:25 +0000
    Ready:          True
    Restart Count:  4
Events:
  Type    Reason     Age   From               Message
  ----    ------     ----  ----               -------
  Normal  Scheduled  12m   default-scheduler  Successfully assigned default/liveness-exec to node01
"""
    manifest = (MANIFESTS / "liveness-exec.yaml").read_text(encoding="utf-8")
    columns = explain(manifest, observed=describe).pods[0].observed.columns
    assert (columns.ready, columns.status, columns.restarts) == ("1/1", "Running", "4 (2m35s ago)")
    from_object = explain(paste("debug-running-pod-yaml.txt").replace("restartCount: 0", "restartCount: 2")
                          .replace("lastState: {}", "lastState: {terminated: {exitCode: 1, finishedAt: "
                                                    "'2022-02-17T21:51:03Z'}}"))
    assert from_object.pods[0].observed.columns.restarts == "2"


def test_a_workloads_pod_is_found_by_its_name_and_the_others_are_named() -> None:
    deployment = """apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx-deployment}
spec:
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers: [{name: nginx, image: nginx}]
"""
    pastes = [paste("debug-running-pod-get-pods.txt"), paste("debug-running-pod-old-describe.txt")]
    report = explain(deployment, observed=pastes).pods[0]
    assert report.observed.name == "nginx-deployment-1370807587-fz9sd"     # the described one
    notes = [str(n) for n in report.notes]
    assert any("other Pods of the same workload" in n and "nginx-deployment-1006230814-6winp" in n for n in notes)
    assert report.observed.columns.status == "Pending"


def test_a_paste_about_another_pod_in_a_manifest_of_several_is_nobodys() -> None:
    two = "\n---\n".join(f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {n}}}\nspec:\n  containers: "
                         f"[{{name: c, image: nginx}}]" for n in ("a", "b"))
    expl = explain(two, observed=paste("probes-get-pod.txt"))
    for pod in expl.pods:
        assert pod.observed.view is None and pod.observed.divergences == []
        assert any("Nothing in the observed output is about this Pod" in str(n) for n in pod.notes)


def test_events_of_an_earlier_pod_of_the_same_name_are_left_out() -> None:
    """A StatefulSet's db-0 recreated: its events carry the new uid; the old Pod's are not its."""
    import json as _json
    pod = _json.loads(CASES["deleted"][1])
    pod["metadata"]["uid"] = "new-uid"
    pod["metadata"].pop("deletionTimestamp")
    events = [{"apiVersion": "v1", "kind": "Event", "reason": "Killing", "type": "Normal",
               "involvedObject": {"kind": "Pod", "name": "web", "uid": uid, "fieldPath": "spec.containers{app}"},
               "firstTimestamp": "2024-05-01T10:00:30Z", "lastTimestamp": "2024-05-01T10:00:30Z"}
              for uid in ("old-uid", "new-uid")]
    observed = _json.dumps(pod) + "\n---\n" + _json.dumps({"apiVersion": "v1", "kind": "List", "items": events})
    report = explain(CASES["deleted"][0], observed=observed).pods[0].observed
    assert [(e.reason, e.first) for e in report.view.events] == [("Killing", 30.0)]


def test_a_deletion_names_the_disruption_target_reason() -> None:
    import json as _json
    pod = _json.loads(CASES["deleted"][1])
    pod["status"]["conditions"] = [{"type": "DisruptionTarget", "status": "True", "reason": "EvictionByEvictionAPI"}]
    report = explain(CASES["deleted"][0], observed=_json.dumps(pod)).pods[0].observed
    (d,) = report.divergences
    assert (d.kind, d.t, d.scenario) == ("deleted", 60.0, {"deleteAt": 60.0, "deleteGracePeriodSeconds": 30})
    assert "DisruptionTarget condition says why: EvictionByEvictionAPI" in str(d.explanation)

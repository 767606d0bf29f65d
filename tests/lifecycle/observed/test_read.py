"""The readers, shape by shape: objects and fragments, both Event APIs, describe's layouts, tables,
commands and prompts, several snapshots, and lines nothing can read (docs/lifecycle-model.md §34)."""
from __future__ import annotations

import json

from explainer.lifecycle.observed import read_observed
from explainer.lifecycle.observed.model import ABSOLUTE, AGO, SINCE
from explainer.lifecycle.manifest.yamlload import Limits

POD_JSON = json.dumps({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "web", "creationTimestamp": "2024-05-01T10:00:00Z",
                 "deletionTimestamp": "2024-05-01T10:05:30Z", "deletionGracePeriodSeconds": 30},
    "spec": {"initContainers": [{"name": "proxy", "image": "envoy", "restartPolicy": "Always"}],
             "containers": [{"name": "app", "image": "app"}]},
    "status": {"phase": "Running", "startTime": "2024-05-01T10:00:01Z",
               "conditions": [{"type": "Ready", "status": "False", "lastTransitionTime": "2024-05-01T10:05:00Z"}],
               "initContainerStatuses": [{"name": "proxy", "ready": True, "started": True, "restartCount": 0,
                                          "state": {"running": {"startedAt": "2024-05-01T10:00:03Z"}}}],
               "containerStatuses": [{"name": "app", "ready": False, "restartCount": 4,
                                      "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                                      "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled",
                                                                   "startedAt": "2024-05-01T10:04:00Z",
                                                                   "finishedAt": "2024-05-01T10:04:30Z"}}}]}},
    indent=2)


def test_a_pod_as_json_with_its_spec_and_status() -> None:
    obs = read_observed(POD_JSON)
    (snap,) = obs.snapshots
    (proxy,), (app,) = snap.init, snap.apps
    assert [s.kind for s in obs.sources] == ["pod"]
    assert snap.spec.init == (("proxy", True),) and snap.deleting and snap.grace == 30
    assert (proxy.started, app.reason, app.last.reason, app.last.exit_code, app.restart_count) == (
        True, "CrashLoopBackOff", "OOMKilled", 137, 4)
    assert app.last.finished.value - app.last.started.value == 30


def test_events_of_both_apis_with_series_and_deprecated_fields() -> None:
    text = """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Event
  involvedObject: {kind: Pod, name: web, fieldPath: "spec.containers{app}"}
  reason: BackOff
  type: Warning
  message: Back-off restarting failed container app in pod web
  count: 6
  firstTimestamp: "2024-05-01T10:01:00Z"
  lastTimestamp: "2024-05-01T10:04:40Z"
- apiVersion: events.k8s.io/v1
  kind: Event
  regarding: {kind: Pod, name: web, fieldPath: "spec.initContainers{proxy}"}
  reason: Started
  type: Normal
  note: Started container proxy
  eventTime: "2024-05-01T10:00:03.500000Z"
  series: {count: 2, lastObservedTime: "2024-05-01T10:02:03.000000Z"}
- apiVersion: v1
  kind: Event
  involvedObject: {kind: ReplicaSet, name: web-1}
  reason: SuccessfulCreate
"""
    obs = read_observed(text)
    backoff, started = obs.events
    assert (backoff.container, backoff.count, backoff.last.value - backoff.first.value) == ("app", 6, 220)
    assert (started.container, started.count, started.first.slack, started.message) == (
        "proxy", 2, 0.001, "Started container proxy")
    assert started.last.value - started.first.value == 119.5


def test_a_paste_of_several_outputs_each_after_its_command() -> None:
    text = """```
$ kubectl get pod web
NAME   READY   STATUS             RESTARTS      AGE
web    1/2     CrashLoopBackOff   4 (20s ago)   5m
[root@master ~]# kubectl get events --field-selector involvedObject.name=web
LAST SEEN   TYPE      REASON      OBJECT    MESSAGE
20s         Warning   BackOff     pod/web   Back-off restarting failed container app in pod web_default
5m          Normal    Scheduled   pod/web   Successfully assigned default/web to node-1
PS C:\\> kubectl get pod web -o json
""" + POD_JSON + "\n```\n"
    obs = read_observed(text)
    assert [s.kind for s in obs.sources] == ["pod-table", "events-table", "pod"]
    (row,) = obs.rows
    assert (row.restarts, row.age.kind, row.age.value) == ("4 (20s ago)", SINCE, 300)
    assert [e.reason for e in obs.events] == ["BackOff", "Scheduled"] and not obs.unread


def test_kubectl_events_and_get_events_wide_and_old() -> None:
    text = """LAST SEEN            TYPE      REASON    OBJECT    MESSAGE
2m (x3 over 5m)      Warning   BackOff   pod/web   Back-off restarting failed container
LAST SEEN   TYPE     REASON    OBJECT    SUBOBJECT                SOURCE    MESSAGE        FIRST SEEN   COUNT   NAME
1m          Normal   Pulled    pod/web   spec.containers{app}     kubelet   Pulled image   9m           4       web.17a1b2c3d4e5f6a7
LAST SEEN   FIRST SEEN   COUNT     NAME                   KIND      SUBOBJECT               TYPE      REASON    SOURCE              MESSAGE
30s         10m          12        web.15ea92d8cdd043b9   Pod       spec.containers{app}    Warning   BackOff   kubelet, node-1     Back-off restarting failed container
"""
    obs = read_observed(text)
    assert [(e.reason, e.count, e.container, e.first.value, e.last.value) for e in obs.events] == [
        ("BackOff", 3, None, 300, 120), ("Pulled", 4, "app", 540, 60), ("BackOff", 12, "app", 600, 30)]
    assert [e.pod for e in obs.events] == ["web"] * 3 and len(obs.sources) == 3


def test_describe_of_two_pods_gives_two_snapshots_with_their_own_events() -> None:
    text = """Name:         a
Status:       Running
Containers:
  c:
    State:          Running
      Started:      Thu, 17 Feb 2022 16:51:05 -0500
    Ready:          True
    Restart Count:  0
Events:
  Type    Reason     Age   From               Message
  ----    ------     ----  ----               -------
  Normal  Scheduled  34s   default-scheduler  Successfully assigned default/a to n
Name:         b
Status:       Pending
Events:       <none>
"""
    obs = read_observed(text)
    assert [(s.name, s.phase) for s in obs.snapshots] == [("a", "Running"), ("b", "Pending")]
    assert [(e.pod, e.reason) for e in obs.events] == [("a", "Scheduled")]


def test_a_terminating_pod_in_describe() -> None:
    obs = read_observed("Name: web\nStatus: Terminating (lasts 12s)\nTermination Grace Period: 30s\n")
    (snap,) = obs.snapshots
    assert snap.deleting and snap.deleted.kind == AGO and snap.deleted.value == 12 and snap.phase is None


def test_lines_no_reader_can_place_are_unread_with_their_numbers() -> None:
    text = "Here is what I see:\n\nNAME READY STATUS RESTARTS AGE\nweb 1/1 Running 0 5s\nthen it broke\n"
    obs = read_observed(text)
    assert [(u.line, u.text) for u in obs.unread] == [(1, "Here is what I see:"), (5, "then it broke")]
    assert [r.name for r in obs.rows] == ["web"]


def test_yaml_that_does_not_parse_is_unread_with_the_readers_message() -> None:
    obs = read_observed("apiVersion: v1\nkind: Pod\nstatus: [unclosed\n")
    assert [u.line for u in obs.unread] == [1, 2, 3]
    assert "cannot be read" in str(obs.notes[0])


def test_several_texts_are_numbered_as_one() -> None:
    obs = read_observed(["NAME READY STATUS RESTARTS AGE\nweb 1/1 Running 0 5s\n", "what?\n"])
    assert obs.rows[0].line == 2 and obs.unread[0].line == 4


def test_the_size_limit_is_the_manifests() -> None:
    obs = read_observed("x" * 2000, Limits(max_bytes=1000, bytes_setting="--max-bytes"))
    assert obs.empty and "limit is 1,000 bytes (--max-bytes raises it)" in str(obs.errors[0])


def test_unread_lines_are_bounded() -> None:
    obs = read_observed("\n".join(f"nonsense {i}" for i in range(1000)))
    assert len(obs.unread) == 200 and obs.unread_more == 800


def test_absolute_times_in_describe_events() -> None:
    text = ("  FirstSeen\tLastSeen\tCount\tFrom\tSubobjectPath\tReason\tMessage\n"
            "  Thu, 09 Jul 2015 15:32:58 -0700\tThu, 09 Jul 2015 15:33:06 -0700\t2\t{kubelet n}\t"
            "spec.containers{nginx}\tpulled\tSuccessfully pulled image \"nginx\"\n")
    (ev,) = read_observed(text).events
    assert (ev.reason, ev.container, ev.count, ev.first.kind, ev.last.value - ev.first.value) == (
        "Pulled", "nginx", 2, ABSOLUTE, 8)

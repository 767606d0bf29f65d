"""Real pasted outputs from public pages and issues, each read and checked (issue 23's acceptance).

Every fixture under tests/fixtures/observed/real/ names the public page it follows in its header
("# after: URL") and what it shows; the header is not part of the paste.  Each is our own minimal text that
keeps the facts of kubectl's output the page showed (its layout, rows, reasons, times and the oddity the
file is for).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from explainer.lifecycle.observed import read_observed
from explainer.lifecycle.observed.model import ABSOLUTE, AGO, Observation

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "observed" / "real"


def paste(name: str) -> str:
    lines = (REAL / name).read_text(encoding="utf-8").split("\n")
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return "\n".join(lines)


def _kinds(obs: Observation) -> list[str]:
    return [s.kind for s in obs.sources]


def _events(obs: Observation) -> list[tuple]:
    return [(e.reason, e.count, e.container) for e in obs.events]


def probes_before(obs: Observation) -> None:
    assert _kinds(obs) == ["describe"]
    assert [e.reason for e in obs.events] == ["Scheduled", "Pulling", "Pulled", "Created", "Started"]
    assert [(e.first.kind, e.first.value) for e in obs.events] == [(AGO, 11), (AGO, 9), (AGO, 7), (AGO, 7), (AGO, 7)]


def probes_after(obs: Observation) -> None:
    unhealthy = next(e for e in obs.events if e.reason == "Unhealthy")
    assert (unhealthy.count, unhealthy.first.value, unhealthy.last.value, unhealthy.type) == (3, 20, 10, "Warning")
    assert obs.events[-1].reason == "Killing" and obs.events[-1].message.startswith("Container liveness failed")


def probes_get_pod(obs: Observation) -> None:
    (row,) = obs.rows
    assert (row.name, row.ready, row.status, row.restarts, row.age.value, row.age.slack) == \
        ("liveness-exec", "1/1", "Running", "1", 60, 60)


def memory(obs: Observation) -> None:
    assert _kinds(obs) == ["pod-table", "fragment", "pod-table"]
    assert [(r.status, r.restarts) for r in obs.rows] == [("OOMKilled", "1"), ("Running", "2")]
    (t,) = obs.terminations
    assert (t.reason, t.exit_code, t.started, t.finished.kind) == ("OOMKilled", 137, None, ABSOLUTE)


def memory_quoted(obs: Observation) -> None:
    assert _events(obs) == [("Created", 1, None), ("BackOff", 1, None)]
    assert obs.events[1].message == "Back-off restarting failed container" and not obs.unread


def running_describe(obs: Observation) -> None:
    (snap,) = obs.snapshots
    (c,) = snap.apps
    assert (snap.name, snap.phase, snap.owner) == ("nginx-deployment-67d4bdd6f5-w6kd7", "Running",
                                                   "ReplicaSet/nginx-deployment-67d4bdd6f5")
    assert snap.start_time.value == 1645134661      # Thu, 17 Feb 2022 16:51:01 -0500
    assert (c.name, c.state, c.ready, c.restart_count, c.started_at.value) == ("nginx", "running", True, 0,
                                                                                1645134665)
    assert [(x.type, x.status) for x in snap.conditions] == [("Initialized", "True"), ("Ready", "True"),
                                                            ("ContainersReady", "True"), ("PodScheduled", "True")]
    assert [e.reason for e in obs.events] == ["Scheduled", "Pulling", "Pulled", "Created", "Started"]
    assert all(e.pod == snap.name for e in obs.events) and not obs.unread


def running_yaml(obs: Observation) -> None:
    (snap,) = obs.snapshots
    assert (snap.kind, snap.phase, snap.start_time.value, snap.spec.apps, snap.spec.restart_policy) == \
        ("pod", "Running", 1645134661, ("nginx",), "Always")
    ready = next(c for c in snap.conditions if c.type == "Ready")
    assert ready.since.value == 1645134666 and snap.apps[0].started is True


def old_describe(obs: Observation) -> None:
    (snap,) = obs.snapshots
    (ev,) = obs.events
    assert (snap.phase, snap.owner, snap.apps[0].name, snap.apps[0].state) == (
        "Pending", "ReplicaSet/nginx-deployment-1370807587", "nginx", None)
    assert (ev.reason, ev.count, ev.first.value, ev.last.value, ev.type) == ("FailedScheduling", 7, 60, 48, "Warning")
    assert "kubernetes-node-wul5" in ev.message     # the message's two further lines are part of it
    assert not obs.unread


def get_pods(obs: Observation) -> None:
    assert [(r.name[-5:], r.status, r.age.value) for r in obs.rows] == [
        ("6winp", "Running", 420), ("fmgu3", "Running", 420), ("6ekbw", "Running", 60), ("fg172", "Pending", 60),
        ("fz9sd", "Pending", 60)]


def init_waiting(obs: Observation) -> None:
    assert _kinds(obs) == ["pod-table", "describe", "pod-table"]
    (snap,) = obs.snapshots
    assert [(c.name, c.role, c.state, c.reason) for c in snap.containers()] == [
        ("init-myservice", "init", "running", None), ("init-mydb", "init", "waiting", "PodInitializing"),
        ("myapp-container", "app", "waiting", "PodInitializing")]
    assert _events(obs)[1:] == [(r, 1, "init-myservice") for r in ("Pulling", "Pulled", "Created", "Started")]
    assert [r.status for r in obs.rows] == ["Init:0/2", "Running"] and not obs.unread


def debug_init(obs: Observation) -> None:
    (snap,) = obs.snapshots
    first, second = snap.init
    assert (first.state, first.reason, first.terminated.exit_code) == ("terminated", "Completed", 0)
    assert (second.state, second.reason, second.restart_count, second.last.reason, second.last.exit_code) == (
        "waiting", "CrashLoopBackOff", 3, "Error", 1)
    assert second.last.started is None      # "Started: ..." left out in the page
    assert obs.rows[0].status == "Init:1/2" and not obs.unread


def backoff_x72(obs: Observation) -> None:
    backoff = obs.events[-1]
    assert (backoff.reason, backoff.count, backoff.first.value, backoff.last.value) == ("BackOff", 72, 1200, 293)
    assert sum(e.count for e in obs.events if e.reason == "Started") == 5


def transitional(obs: Observation) -> None:
    assert [(e.reason, e.count) for e in obs.events] == [("Created", 1), ("Started", 1), ("SandboxChanged", 2),
                                                         ("BackOff", 3), ("Pulled", 3)]
    assert obs.events[-1].first.value == 7200 and not obs.unread


def wordpress(obs: Observation) -> None:
    (snap,) = obs.snapshots
    (c,) = snap.apps
    assert (snap.name, snap.phase, c.name, c.state, c.restart_count, c.ready) == (
        "wordpress-5bbd7fd785-p4s9r", "Running", "wordpress", "running", 19, True)
    assert (c.last.reason, c.last.exit_code, c.last.finished.value - c.last.started.value) == ("Error", 1, 227)
    assert not obs.unread


def exit_137(obs: Observation) -> None:
    (snap,) = obs.snapshots
    (c,) = snap.apps
    assert (c.name, c.state, c.last.reason, c.last.exit_code, c.restart_count) == (None, "running", "Error", 137, 1)
    assert [u.text for u in obs.unread] == ["wk64c"]      # a bare name is no describe line: said, not guessed


def get_events(obs: Observation) -> None:
    assert [(e.pod, e.reason) for e in obs.events] == [("nginx-deployment-7759cfdc55-2xczh", r)
                                                       for r in ("Pulling", "Pulled", "Created", "Started")]
    assert obs.events[0].first.value == 277 and not obs.unread    # the ReplicaSet and Deployment rows are left out


def watch(obs: Observation) -> None:
    assert len(obs.rows) == 19
    assert [r.restarts for r in obs.rows][-1] == "7" and obs.rows[11].status == "CrashLoopBackOff"
    assert obs.rows[-1].age.value == 465


def watch_wide(obs: Observation) -> None:
    assert [(r.status, r.restarts, r.age.value) for r in obs.rows] == [
        ("CrashLoopBackOff", "12", 2580), ("Running", "13", 2640), ("Completed", "13", 2640),
        ("CrashLoopBackOff", "13", 2700)]


def v1beta1(obs: Observation) -> None:
    (ev,) = obs.events
    assert (ev.pod, ev.reason, ev.count, ev.last.value - ev.first.value, ev.message[:4]) == (
        "pvc", "FailedScheduling", 25, 29, "0/1 ")


def replicaset_event(obs: Observation) -> None:
    assert _kinds(obs) == ["events"] and not obs.events and not obs.unread


def describe_2015(obs: Observation) -> None:
    (snap,) = obs.snapshots
    (ev,) = obs.events
    assert (snap.apps[0].restart_count, snap.apps[0].ready) == (5, False)
    assert (ev.reason, ev.first.kind, ev.first.value) == ("Scheduled", ABSOLUTE, 1436298831)   # "scheduled"


def oomkilled_zh(obs: Observation) -> None:
    (snap,) = obs.snapshots
    (c,) = snap.apps
    assert (c.state, c.reason, c.last.reason, c.last.exit_code, c.restart_count) == (
        "waiting", "CrashLoopBackOff", "OOMKilled", 1, 3)
    assert c.last.finished.value - c.last.started.value == 20
    assert [u.line for u in obs.unread] == [1]


def all_namespaces(obs: Observation) -> None:
    (row,) = obs.rows
    (snap,) = obs.snapshots
    assert (row.name, row.status, row.age.value) == ("fluentd-elasticsearch-e2e-test-mml-minion-siao",
                                                      "ImagePullBackOff", 1920)
    assert (snap.apps[0].state, snap.apps[0].reason, snap.phase) == ("waiting", "ImagePullBackOff", "Pending")


CASES: dict[str, Callable[[Observation], None]] = {
    "probes-events-before.txt": probes_before, "probes-events-after.txt": probes_after,
    "probes-get-pod.txt": probes_get_pod, "memory-oomkilled-table-and-laststate.txt": memory,
    "memory-describe-quoted-events.txt": memory_quoted, "debug-running-pod-describe.txt": running_describe,
    "debug-running-pod-yaml.txt": running_yaml, "debug-running-pod-old-describe.txt": old_describe,
    "debug-running-pod-get-pods.txt": get_pods, "init-containers-waiting-on-service.txt": init_waiting,
    "debug-init-containers-describe.txt": debug_init, "backoff-x72-events.txt": backoff_x72,
    "transitional-last-column.txt": transitional, "lost-indentation-wordpress.txt": wordpress,
    "lost-indentation-exit-137.txt": exit_137, "get-events-deployment.txt": get_events,
    "get-pod-watch-probe-restarts.txt": watch, "get-pods-watch-wide-misaligned.txt": watch_wide,
    "events-v1beta1-json.txt": v1beta1, "events-v1-replicaset-json.txt": replicaset_event,
    "describe-2015-absolute-times.txt": describe_2015, "oomkilled-fragment-zh.txt": oomkilled_zh,
    "all-namespaces-image-pull.txt": all_namespaces,
}


def test_every_fixture_has_a_check_and_names_the_page_it_follows() -> None:
    names = sorted(p.name for p in REAL.glob("*.txt"))
    assert names == sorted(CASES) and len(names) >= 15
    for name in names:
        head = (REAL / name).read_text(encoding="utf-8").split("\n", 1)[0]
        assert head.startswith("# after: https://"), name


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_real_paste_reads(name: str) -> None:
    CASES[name](read_observed(paste(name)))


DESCRIBE_ONLY = [n for n in sorted(CASES) if set(_kinds(read_observed(paste(n)))) == {"describe"}]


def test_most_describe_pastes_are_tried_without_indentation() -> None:
    assert len(DESCRIBE_ONLY) >= 8


@pytest.mark.parametrize("name", DESCRIBE_ONLY)
def test_a_describe_without_its_indentation_reads_the_same(name: str) -> None:
    """Leading white space lost in a paste: the same snapshots and events (describe is read by its keys;
    YAML needs its indentation, and a table's rows have none to lose)."""
    flat = read_observed("\n".join(line.lstrip() for line in paste(name).split("\n")))
    CASES[name](flat)

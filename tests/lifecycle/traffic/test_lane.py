"""Traffic: the endpoint's conditions, the proxies' view and the failure windows (docs/lifecycle-model.md §27).

Every row deletes the Pod at 20 s.  The propagation is 5 s unless the row says otherwise (§27.4), so a change
of the endpoint at t reaches the proxies at t + 5.  The readinessProbes of the fixtures first pass at 2 s
(initialDelaySeconds 2), so the Pod is routed from 7 s; without a probe it is Ready at its start (0 s).
"""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from explainer.explain import explain
from explainer.lifecycle.manifest.parse import parse_manifest
from explainer.lifecycle.scenario.document import parse_scenario
from explainer.lifecycle.traffic.serving import other_ready_replicas, serving_for
from tests.conftest import load_manifest
from tests.lifecycle.engine import run
from tests.profiles import examples

SERVED = ["0-7 not-ready", "7-20 serving", "20-25 draining", "25- gone"]   # several replicas, 5 s, probe at 2 s

TABLE = [
    # id, fixture, scenario, the lane, the failure windows (from-to reason container)
    # Deleted at 20: the endpoint is no longer ready at 20, the proxies learn it at 25; the program exits at
    # SIGTERM at 20 (no preStop): requests in [20, 25) find nothing listening.
    ("probe", "traffic_web", "deleteAt: 20", SERVED, ["20-25 sigterm web"]),
    # A slower path (a cloud load balancer): routed from 2 + 10 = 12, until 20 + 10 = 30.
    ("probe, propagation 10 s", "traffic_web", "{deleteAt: 20, trafficPropagationSeconds: 10}",
     ["0-12 not-ready", "12-20 serving", "20-30 draining", "30- gone"], ["20-30 sigterm web"]),
    # No readinessProbe: Ready at its start (0), routed from 5; the same window at the deletion.
    ("no probe", "traffic_no_probe", "deleteAt: 20", ["0-5 not-ready", "5-20 serving", "20-25 draining", "25- gone"],
     ["20-25 sigterm web"]),
    # ... and when the program needs 8 s to listen (startupSeconds), requests from 5 to 8 find nothing.
    ("no probe, 8 s to listen", "traffic_no_probe", "{deleteAt: 20, containers: {web: {startupSeconds: 8}}}",
     ["0-5 not-ready", "5-20 serving", "20-25 draining", "25- gone"],
     ["5-8 not-listening-yet web", "20-25 sigterm web"]),
    # preStop sleep 2 < 5: SIGTERM at 22, the proxies still route until 25.
    ("preStop shorter than propagation", "traffic_prestop", "deleteAt: 20", SERVED, ["22-25 sigterm web"]),
    # preStop 5 = propagation: SIGTERM at 25, when the proxies stop: no window.
    ("preStop as long as propagation", "traffic_prestop", "{deleteAt: 20, containers: {web: {preStopSeconds: 5}}}",
     SERVED, []),
    # preStop 8 > 5: SIGTERM at 28, long after the proxies stopped at 25.
    ("preStop longer than propagation", "traffic_prestop", "{deleteAt: 20, containers: {web: {preStopSeconds: 8}}}",
     SERVED, []),
    # One replica (no other ready endpoint): kube-proxy keeps using the serving terminating endpoint
    # (KEP-1669) until the Pod stops being Ready at SIGTERM (28), and learns that at 33.
    ("preStop longer, lone Pod", "traffic_prestop",
     "{deleteAt: 20, containers: {web: {preStopSeconds: 8}}, rollout: {otherReadyReplicas: 0}}",
     ["0-7 not-ready", "7-20 serving", "20-28 serving", "28-33 draining", "33- gone"], ["28-33 sigterm web"]),
    # Without preStop a lone Pod stops being Ready at 20 too: the same window as with several replicas.
    ("no preStop, lone Pod", "traffic_web", "{deleteAt: 20, rollout: {otherReadyReplicas: 0}}", SERVED,
     ["20-25 sigterm web"]),
    # A shell loop ignores SIGTERM: it listens until SIGKILL at 20 + 30 = 50, after the proxies stopped at 25.
    ("SIGTERM ignored", "traffic_ignores_sigterm", "deleteAt: 20", SERVED, []),
    # ... alone, it stays serving (Ready) until the SIGKILL at 50: the proxies route until 55.
    ("SIGTERM ignored, lone Pod", "traffic_ignores_sigterm", "{deleteAt: 20, rollout: {otherReadyReplicas: 0}}",
     ["0-7 not-ready", "7-20 serving", "20-50 serving", "50-55 draining", "55- gone"], ["50-55 killed echo"]),
    # ... with a 3 s grace period the SIGKILL (23) comes before the proxies stop (25).
    ("SIGTERM ignored, 3 s grace", "traffic_ignores_sigterm", "{deleteAt: 20, deleteGracePeriodSeconds: 3}",
     SERVED, ["23-25 killed echo"]),
    # publishNotReadyAddresses: the endpoint is ready from the IP (0) on, so routed from 5, and stays ready
    # while terminating, until the Pod is gone (its 10 s preStop, SIGTERM and exit at 30): routed until 35.
    ("publishNotReadyAddresses", "traffic_publish", "deleteAt: 20",
     ["0-5 not-ready", "5-20 serving", "20-30 serving", "30-35 draining", "35- gone"], ["30-35 sigterm db"]),
    # ... and a database that needs 9 s to listen gets requests from 5 (its probe would have waited).
    ("publishNotReadyAddresses, 9 s to listen", "traffic_publish",
     "{deleteAt: 20, containers: {db: {startupSeconds: 9}}}",
     ["0-5 not-ready", "5-20 serving", "20-30 serving", "30-35 draining", "35- gone"],
     ["5-9 not-listening-yet db", "30-35 sigterm db"]),
    # A readiness gate nothing sets: never Ready, never routed; gone at the deletion.
    ("readiness gates", "traffic_gates", "deleteAt: 20", ["0-20 not-ready", "20- gone"], []),
    # A bare Pod (an assumed Service): nothing else serves, so its 10 s preStop only postpones the window.
    ("bare Pod", "traffic_bare_pod", "deleteAt: 20",
     ["0-7 not-ready", "7-20 serving", "20-30 serving", "30-35 draining", "35- gone"], ["30-35 sigterm solo"]),
]


def _lane(traffic: dict[str, Any]) -> list[str]:
    return [f"{i['from']:g}-{'' if i['to'] is None else format(i['to'], 'g')} {i['state']}"
            for i in traffic["intervals"]]


def _windows(traffic: dict[str, Any]) -> list[str]:
    return [f"{w['from']:g}-{w['to']:g} {w['reason']} {w['container']}" for w in traffic["failureWindows"]]


@pytest.mark.parametrize("case,fixture,scenario,lane,windows", TABLE, ids=[row[0] for row in TABLE])
def test_traffic_table(case: str, fixture: str, scenario: str, lane: list[str], windows: list[str]) -> None:
    traffic = run(f"pods/{fixture}", scenario)["traffic"]
    assert _lane(traffic) == lane
    assert _windows(traffic) == windows
    assert traffic["deletionAt"] == 20 and traffic["deletionAssumed"] is False


def test_endpoint_conditions_follow_pod_to_endpoint() -> None:
    """KEP-1672 / podToEndpoint: serving = Ready, terminating = deleted, ready = serving and not terminating."""
    traffic = run("pods/traffic_prestop", "{deleteAt: 20, containers: {web: {preStopSeconds: 8}}}")["traffic"]
    rows = [(e["from"], e["to"], e["ready"], e["serving"], e["terminating"]) for e in traffic["endpoints"]]
    # not Ready until the probe at 2; Ready until the deletion; serving and terminating until SIGTERM at 28,
    # when the program exits, the Pod's phase is terminal and it leaves the EndpointSlice
    assert rows == [(0, 2, False, False, False), (2, 20, True, True, False), (20, 28, False, True, True)]
    published = run("pods/traffic_publish", "deleteAt: 20")["traffic"]["endpoints"]
    assert [e["ready"] for e in published] == [True, True, True]   # publishNotReadyAddresses: always ready


def test_notes_name_every_assumption() -> None:
    notes = " ".join(run("pods/traffic_no_probe", "deleteAt: 20")["traffic"]["notes"])
    assert "5 s after it happens" in notes and "web has no readinessProbe" in notes
    gates = " ".join(run("pods/traffic_gates", "deleteAt: 20")["traffic"]["notes"])
    assert "target-health.elbv2.k8s.aws/k8s-web-0123456789" in gates and "never becomes Ready" in gates
    ignored = " ".join(run("pods/traffic_ignores_sigterm", "deleteAt: 20")["traffic"]["notes"])
    assert "echo ignores SIGTERM: it keeps listening until SIGKILL at 50 s" in ignored
    lone = run("pods/traffic_bare_pod", "deleteAt: 20")["traffic"]
    assert lone["serviceAssumed"] and lone["services"] == [""] and lone["otherReadyReplicas"] == 0
    assert any("only another ready replica prevents it" in n for n in lone["notes"])
    published = " ".join(run("pods/traffic_publish", "deleteAt: 20")["traffic"]["notes"])
    assert "db sets publishNotReadyAddresses" in published


def test_without_a_deletion_the_lane_shows_the_assumed_one() -> None:
    """§27.6: once everything has started and the first Ready (2 s) has reached the proxies (+5 s), plus 1 s."""
    traffic = run("pods/traffic_web")["traffic"]
    assert traffic["deletionAt"] == 8 and traffic["deletionAssumed"] is True
    assert _lane(traffic) == ["0-7 not-ready", "7-8 serving", "8-13 draining", "13- gone"]
    assert any("deletes nothing" in n for n in traffic["notes"])


def test_propagation_is_assumed_unless_the_scenario_says() -> None:
    assert run("pods/traffic_web", "deleteAt: 20")["traffic"]["propagationAssumed"] is True
    given_p = run("pods/traffic_web", "{deleteAt: 20, trafficPropagationSeconds: 2}")["traffic"]
    assert given_p["propagationSeconds"] == 2 and given_p["propagationAssumed"] is False
    assert not any("assumed to reach" in n for n in given_p["notes"])


@pytest.mark.parametrize("manifest,expected", [
    # a Job's Pod: nothing serves behind a Service
    ("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n"
     "      containers: [{name: j, image: busybox, ports: [{containerPort: 80}]}]\n", None),
    # no port, no probe, no Service: nothing would select it
    ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: busybox}]\n", None),
])
def test_no_lane_where_no_service_would_select_the_pod(manifest: str, expected: None) -> None:
    assert explain(manifest).pods[0].traffic is expected


def _pod(text: str):   # type: ignore[no-untyped-def]
    intake = parse_manifest(text)
    return intake.pods[0], tuple(intake.services)


DEPLOYMENT = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: d}}\nspec:\n  replicas: {replicas}\n"
              "  strategy: {strategy}\n  selector: {{matchLabels: {{a: b}}}}\n  template:\n"
              "    metadata: {{labels: {{a: b}}}}\n    spec:\n      containers: [{{name: c, image: x, ports: [{{containerPort: 80}}]}}]\n")


@pytest.mark.parametrize("replicas,strategy,expected", [
    # RollingUpdate 25%/25% with 3 replicas: ResolveFenceposts gives surge ceil(0.75) = 1, unavailable
    # floor(0.75) = 0, so an old Pod goes only while 3 others are available
    (3, "{type: RollingUpdate}", 3),
    # 10 replicas: unavailable floor(2.5) = 2, so at least 8 stay; replicas - 1 = 9 is more
    (10, "{type: RollingUpdate}", 9),
    # one replica, maxUnavailable 1 and no surge: the old Pod goes first, alone
    (1, "{type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}", 0),
    # one replica with the defaults: surge 1, unavailable 0: the new Pod is ready first
    (1, "{type: RollingUpdate}", 1),
    # Recreate deletes every old Pod at once
    (4, "{type: Recreate}", 0),
])
def test_other_ready_replicas_of_a_deployment(replicas: int, strategy: str, expected: int) -> None:
    pod, _ = _pod(DEPLOYMENT.format(replicas=replicas, strategy=strategy))
    assert other_ready_replicas(pod, parse_scenario(None))[0] == expected


def test_other_ready_replicas_of_other_kinds_and_the_scenario() -> None:
    sts, _ = _pod(load_manifest("pods/traffic_publish").split("---\n", 1)[1])
    assert other_ready_replicas(sts, parse_scenario(None))[0] == 2                      # replicas - 1
    assert other_ready_replicas(sts, parse_scenario("rollout: {replicas: 1}"))[0] == 0
    assert other_ready_replicas(sts, parse_scenario("rollout: {otherReadyReplicas: 7}"))[0] == 7
    bare, _ = _pod(load_manifest("pods/traffic_bare_pod"))
    assert other_ready_replicas(bare, parse_scenario(None))[0] == 0
    ds, _ = _pod("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {a: b}}\n"
                 "  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers: [{name: c, image: x}]\n")
    assert other_ready_replicas(ds, parse_scenario(None))[0] == 2                       # 3 nodes assumed
    assert other_ready_replicas(ds, parse_scenario("rollout: {nodes: 5}"))[0] == 4


def test_find_port_follows_find_port() -> None:
    """FindPort: a name by name and protocol (containers, then native sidecars); a number as it is."""
    text = ("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  selector: {a: b}\n  ports:\n"
            "    - {name: web, port: 80, targetPort: http}\n    - {name: dns, port: 53, targetPort: dns, protocol: UDP}\n"
            "    - {name: admin, port: 9000, targetPort: admin}\n    - {name: raw, port: 7000, targetPort: 7000}\n---\n"
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: b, c: d}}\nspec:\n"
            "  initContainers: [{name: side, image: x, restartPolicy: Always, ports: [{name: admin, containerPort: 9000}]}]\n"
            "  containers: [{name: app, image: x, ports: [{name: http, containerPort: 8080}, {name: dns, containerPort: 53}]}]\n")
    pod, services = _pod(text)
    serving = serving_for(pod, services)
    assert serving is not None and not serving.assumed
    assert [(r.port.target if r.port else None, r.container, r.assumed) for r in serving.routes] == [
        ("http", "app", False),
        ("dns", None, False),       # declared as TCP (the default), asked for as UDP: no endpoint port
        ("admin", "side", False),   # a native sidecar's port
        (7000, "app", True),        # a number nobody declares: taken to be the first app container's
    ]
    other_namespace = text.replace("metadata: {name: s}", "metadata: {name: s, namespace: x}").replace(
        "metadata: {name: p,", "metadata: {name: p, namespace: y,")
    pod, services = _pod(other_namespace)
    assert serving_for(pod, services).assumed   # a Service of another namespace selects nothing here


# ---- the closed form of §27.5, for any preStop, propagation and replica count -----------------------------

@settings(max_examples=examples(60), deadline=None)
@given(pre=st.integers(min_value=0, max_value=20), p=st.integers(min_value=0, max_value=80).map(lambda n: n / 8),
       others=st.integers(min_value=0, max_value=3))
def test_windows_at_the_deletion_have_the_closed_form(pre: int, p: float, others: int) -> None:
    """A program that exits at SIGTERM, deleted at 20 with a preStop of ``pre`` seconds: with other ready
    Pods the window is [20 + pre, 20 + p) when pre < p; alone, [20 + pre, 20 + pre + p) whatever pre is."""
    scenario = (f"{{deleteAt: 20, trafficPropagationSeconds: {p}, containers: {{web: {{preStopSeconds: {pre}}}}}, "
                f"rollout: {{otherReadyReplicas: {others}}}}}")
    traffic = run("pods/traffic_prestop", scenario)["traffic"]
    got = [(w["from"], w["to"]) for w in traffic["failureWindows"] if w["from"] >= 20]
    if p == 0:
        expected = []
    elif others:
        expected = [(20 + pre, 20 + p)] if pre < p else []
    else:
        expected = [(20 + pre, 20 + pre + p)]
    assert got == expected
    lane = traffic["intervals"]
    assert lane[0]["from"] == 0 and lane[-1]["to"] is None and lane[-1]["state"] == "gone"
    assert all(a["to"] == b["from"] for a, b in zip(lane, lane[1:]))   # contiguous


def test_a_service_may_select_on_the_labels_a_controller_adds() -> None:
    """One Service per StatefulSet Pod (statefulset.kubernetes.io/pod-name) selects a Pod of the template;
    an ordinal beyond the replicas does not; a Deployment's pod-template-hash is a value no manifest shows."""
    sts = ("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 3\n  serviceName: db\n"
           "  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n"
           "      containers: [{name: db, image: x, ports: [{containerPort: 5432}]}]\n")
    per_pod = ("apiVersion: v1\nkind: Service\nmetadata: {{name: db-{n}}}\nspec:\n"
               "  selector: {{app: db, statefulset.kubernetes.io/pod-name: db-{n}}}\n  ports: [{{port: 5432}}]\n---\n")
    pod, services = _pod(per_pod.format(n=2) + per_pod.format(n=3) + sts)
    assert [s.name for s in serving_for(pod, services).services] == ["db-2"]
    hashed = DEPLOYMENT.format(replicas=2, strategy="{type: RollingUpdate}")
    pod, services = _pod("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n"
                         "  selector: {a: b, pod-template-hash: 5d8f7c}\n  ports: [{port: 80}]\n---\n" + hashed)
    assert [s.name for s in serving_for(pod, services).services] == ["s"]


def test_a_crash_loop_gives_a_window_per_crash_and_the_jumped_cycles_are_said() -> None:
    """No readinessProbe: Ready at each start, so routed 5 s later, when a run of 2 s has already crashed:
    every later cycle is a window [start + 5, start + 7) (exited).  Cycles the fast-forward jumped over are not
    listed (docs/lifecycle-model.md §7.6)."""
    text = DEPLOYMENT.format(replicas=2, strategy="{type: RollingUpdate}")
    report = explain(text, "{containers: {c: {runSeconds: 2, exitCode: 1}}, until: 86400, deleteAt: 86000}").pods[0]
    traffic = report.traffic
    # the first restart is immediate (docs/lifecycle-model.md §7.4): runs [0, 2) and [2, 4) are one Ready stretch, routed [5, 9)
    assert (traffic.failure_windows[0].start, traffic.failure_windows[0].end) == (5, 9)
    assert str(traffic.failure_windows[0].text).startswith("c exited at 4 s, but the proxies send it requests from 5 s")
    assert {w.reason for w in traffic.failure_windows} == {"exited"}
    assert all(w.end - w.start == 2 for w in traffic.failure_windows[1:])
    jumped = [n for n in traffic.notes if "jumped over" in str(n)]
    assert jumped and report.simulation.fast_forwards

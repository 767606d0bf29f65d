"""The comparison's summary is read off the two runs' events (issue 25, "Compare that sees every change"):
pairs of manifests that behave differently in one way each, each told in the words a reader needs (what
moved, by how much, before and after), and pairs that differ only in ways that change no behaviour, which
say so.  The base Pod is tests/fixtures/compare/base.yaml; each pair changes one thing of it (or of its
scenario)."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from explainer.comparison import diff
from explainer.comparison.moments import first_difference
from explainer.comparison.words import difference_sentences
from explainer.explain import explain
from explainer.render.compare import compare, comparison_to_dict
from tests.conftest import load_manifest
from tests.profiles import examples

BASE = load_manifest("compare/base")
DELETED = {"deleteAt": 40}
SAME = "No difference: both manifests behave the same way."


def edit(old: str, new: str, text: str = BASE) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


PRESTOP = "      lifecycle:\n        preStop: {sleep: {seconds: 5}}\n"
SHIPPER = ("    - name: shipper\n      image: fluent/fluent-bit:3.0\n"
           "      resources: {requests: {cpu: 50m, memory: 64Mi}, limits: {memory: 64Mi}}\n")
NATIVE_SHIPPER = edit(SHIPPER, "", edit("  containers:\n", (
    "    - name: shipper\n      image: fluent/fluent-bit:3.0\n      restartPolicy: Always\n"
    "      resources: {requests: {cpu: 50m, memory: 64Mi}, limits: {memory: 64Mi}}\n  containers:\n")))
LIVENESS = edit("      lifecycle:", "      livenessProbe: {httpGet: {path: /live, port: 8080}, periodSeconds: 5}\n"
                                     "      lifecycle:")
POSTSTART = edit("        preStop:", "        postStart: {exec: {command: [sh, -c, 'echo hi']}}\n        preStop:")
NEVER_STOPS = {**DELETED, "containers": {"shipper": {"stopSeconds": "never"}}}
STARTUP = "Init:0/1 → PodInitializing → Running"

# name -> (before manifest, before scenario, after manifest, after scenario, sentences the summary holds)
DIFFERENT: dict[str, tuple[str, Any, str, Any, list[str]]] = {
    "the grace period, with a container that ignores SIGTERM": (
        BASE, NEVER_STOPS, edit("terminationGracePeriodSeconds: 30", "terminationGracePeriodSeconds: 10"),
        NEVER_STOPS,
        ["terminationGracePeriodSeconds is now 10 s instead of 30 s.",
         "The deletion now takes 10 s instead of 30 s (from the request until the last container has exited).",
         "The first exit of shipper now comes 20 s sooner (at 50 s instead of 70 s)."]),
    "the grace period, with containers that stop in time": (
        BASE, DELETED, edit("terminationGracePeriodSeconds: 30", "terminationGracePeriodSeconds: 60"), DELETED,
        ["terminationGracePeriodSeconds is now 60 s instead of 30 s.",
         "The deletion still takes 5 s: every container has exited before either grace period ends."]),
    "a classic sidecar made native": (
        BASE, DELETED, NATIVE_SHIPPER, DELETED,
        ["shipper is now a native sidecar (before, an app container).",
         "The kubelet now begins to stop shipper 5 s later (at 45 s instead of 40 s).",
         "The first exit of shipper now comes 5 s later (at 45 s instead of 40 s).",
         "The Pod's Ready condition now turns false 5 s later (at 45 s instead of 40 s).",
         "kubectl's STATUS column now goes Init:0/2 → Init:1/2 → PodInitializing → Running → Terminating → Error "
         "(before: Init:0/1 → PodInitializing → Running → Terminating → Error)."]),
    "an earlier deletion": (
        BASE, DELETED, BASE, {"deleteAt": 20},
        ["The Pod is now deleted at 20 s instead of 40 s.",
         "The kubelet now begins to stop web, shipper 20 s sooner (at 20 s instead of 40 s).",
         "The first exit of web now comes 20 s sooner (at 25 s instead of 45 s).",
         "The first exit of shipper now comes 20 s sooner (at 20 s instead of 40 s).",
         "The Pod's Ready condition now turns false 20 s sooner (at 20 s instead of 40 s)."]),
    "no deletion": (
        BASE, DELETED, BASE, {"until": 60},
        ["The Pod now ends as Running (phase Running) instead of Error (phase Failed).",
         "The Pod is no longer deleted (before, at 40 s).",
         "The kubelet no longer begins to stop web, shipper (before, it did at 40 s).",
         f"kubectl's STATUS column now goes {STARTUP} (before: {STARTUP} → Terminating → Error)."]),
    "a slower init container": (
        BASE, DELETED, BASE, {**DELETED, "containers": {"migrate": {"runSeconds": 6}}},
        ["web, shipper now start 5 s later (at 6 s instead of 1 s) because init container migrate takes longer "
         "(6 s instead of 1 s).",
         "The Pod now becomes Ready 5 s later (at 8 s instead of 3 s)."]),
    "a longer readiness delay": (
        BASE, DELETED, edit("initialDelaySeconds: 2", "initialDelaySeconds: 12"), DELETED,
        ["The kubelet now reports web Ready 10 s later (at 13 s instead of 3 s).",
         "The Pod now becomes Ready 10 s later (at 13 s instead of 3 s)."]),
    "an app slower to become healthy": (
        BASE, DELETED, BASE, {**DELETED, "containers": {"web": {"startupSeconds": 9}}},
        ["The kubelet now reports web Ready 10 s later (at 13 s instead of 3 s)."]),
    "a crash": (
        BASE, DELETED, BASE,
        {**DELETED, "containers": {"web": {"runs": [{"runSeconds": 5, "exitCode": 1}, {"runSeconds": "forever"}]}}},
        ["The first exit of web now comes 39 s sooner (at 6 s instead of 45 s), with exit code 1 instead of 143.",
         "The Pod's Ready condition now turns false 34 s sooner (at 6 s instead of 40 s).",
         "Restarts of web: 1 instead of 0.",
         f"kubectl's STATUS column now goes {STARTUP} → Error → Running → Terminating → Error (before: {STARTUP} → "
         "Terminating → Error)."]),
    "a longer preStop": (
        BASE, DELETED, edit("seconds: 5", "seconds: 15"), DELETED,
        ["The deletion now takes 15 s instead of 5 s (from the request until the last container has exited).",
         "The first exit of web now comes 10 s later (at 55 s instead of 45 s)."]),
    "no preStop": (
        BASE, DELETED, edit(PRESTOP, ""), DELETED,
        ["The deletion now takes 0 s instead of 5 s (from the request until the last container has exited).",
         "The first exit of web now comes 5 s sooner (at 40 s instead of 45 s)."]),
    "an app slow to stop": (
        BASE, DELETED, BASE, {**DELETED, "containers": {"web": {"stopSeconds": 8}}},
        ["The deletion now takes 13 s instead of 5 s (from the request until the last container has exited).",
         "The first exit of web now comes 8 s later (at 53 s instead of 45 s)."]),
    "a sidecar that ignores SIGTERM": (
        BASE, DELETED, BASE, NEVER_STOPS,
        ["The deletion now takes 30 s instead of 5 s (from the request until the last container has exited).",
         "The first exit of shipper now comes 30 s later (at 70 s instead of 40 s), with exit code 137 instead of "
         "143.",
         "The Pod's Ready condition now turns false 5 s later (at 45 s instead of 40 s)."]),
    "another exit code on SIGTERM": (
        BASE, DELETED, BASE, {**DELETED, "containers": {"shipper": {"stopExitCode": 0}}},
        ["The first exit of shipper now has exit code 0 instead of 143 (at 40 s)."]),
    "a new container": (
        BASE, DELETED, edit("  containers:\n", "  containers:\n    - name: metrics\n      image: example/metrics:1\n"),
        DELETED,
        ["New container metrics, which starts at 1 s.", "New pitfall: No resource requests (metrics)."]),
    "a container removed": (
        BASE, DELETED, edit(SHIPPER, ""), DELETED,
        ["container shipper is removed.",
         "The Pod's Ready condition now turns false 5 s later (at 45 s instead of 40 s)."]),
    "liveness failures": (
        LIVENESS, {"until": 60}, LIVENESS, {"until": 60, "containers": {"web": {"failingProbes": ["liveness"]}}},
        ["The Pod now ends as CrashLoopBackOff (phase Running) instead of Running (phase Running).",
         "The kubelet now begins to stop web, at 11 s (before, never).",
         "The first exit of web now comes at 16 s (before, there was none).",
         "The Pod's Ready condition now turns false at 16 s (before, once true it stayed true).",
         "Restarts of web: 2 instead of 0."]),
    "an init container that fails": (
        BASE, DELETED, BASE, {**DELETED, "containers": {"migrate": {"exitCode": 1}}},
        ["web, shipper no longer start (before, they started at 1 s) because init container migrate never "
         "completes.",
         "The first exit of migrate now has exit code 1 instead of 0 (at 1 s).",
         "The last exit of migrate now comes 33 s later (at 34 s instead of 1 s), with exit code 1 instead of 0.",
         "Restarts of migrate: 3 instead of 0."]),
    "an active deadline": (
        BASE, {"until": 60},
        edit("  terminationGracePeriodSeconds: 30", "  terminationGracePeriodSeconds: 30\n  activeDeadlineSeconds: 20"),
        {"until": 60},
        ["The Pod now ends as Error (phase Failed) instead of Running (phase Running).",
         "The kubelet now begins to stop web, shipper, at 20 s (before, never).",
         "The first exit of web now comes at 25 s (before, there was none).",
         "The first exit of shipper now comes at 20 s (before, there was none).",
         f"kubectl's STATUS column now goes {STARTUP} → DeadlineExceeded → Error (before: {STARTUP})."]),
    "a shorter grace period for the deletion": (
        BASE, DELETED, BASE, {**DELETED, "deleteGracePeriodSeconds": 2},
        ["The deletion's grace period is now 2 s instead of 30 s.",
         "The deletion now takes 2 s instead of 5 s (from the request until the last container has exited).",
         "The first exit of web now comes 3 s sooner (at 42 s instead of 45 s)."]),
    "a slower postStart hook": (
        POSTSTART, DELETED, POSTSTART, {**DELETED, "containers": {"web": {"postStartSeconds": 4}}},
        ["shipper now starts 4 s later (at 5 s instead of 1 s) because the postStart hook of container web takes "
         "longer (4 s instead of 0 s).",
         "The kubelet now reports web Ready 5 s later (at 8 s instead of 3 s)."]),
    "an image update": (
        BASE, {"until": 60}, BASE, {"until": 60, "imageUpdates": [{"container": "web", "image": "nginx:1.28", "at": 20}]},
        ["The kubelet now begins to stop web, at 20 s (before, never).",
         "The first exit of web now comes at 25 s (before, there was none).",
         "Restarts of web: 1 instead of 0."]),
    "a node reboot": (
        BASE, {"until": 60}, BASE, {"until": 60, "sandboxLostAt": 30},
        ["The first exit of web, shipper now comes at 30 s (before, there was none).",
         "Restarts of migrate: 1 instead of 0.", "Restarts of shipper: 1 instead of 0.",
         "Restarts of web: 1 instead of 0."]),
}

# name -> (after manifest, after scenario): against BASE under DELETED, each changes no behaviour
NO_CHANGE: dict[str, tuple[str, Any]] = {
    "comments": ("# a note\n" + edit("  containers:\n", "  containers:   # the app and its shipper\n"), DELETED),
    "key order": (edit("      image: nginx:1.27\n      ports: [{containerPort: 8080}]\n",
                       "      ports: [{containerPort: 8080}]\n      image: nginx:1.27\n"), DELETED),
    "block style instead of flow style": (edit("  labels: {app: shop}\n", "  labels:\n    app: shop\n"), DELETED),
    "a label": (edit("  labels: {app: shop}\n", "  labels: {app: shop, team: payments}\n"), DELETED),
    "an annotation": (edit("  labels: {app: shop}\n", "  labels: {app: shop}\n  annotations: {owner: payments}\n"),
                      DELETED),
    "the same Pod as JSON": (json.dumps(__import__("yaml").safe_load(BASE)), DELETED),
    "restartPolicy Always written out": (edit("  initContainers:", "  restartPolicy: Always\n  initContainers:"),
                                         DELETED),
    "another image tag": (edit("image: nginx:1.27", "image: nginx:1.27.3"), DELETED),
    "an environment variable": (edit("      image: fluent/fluent-bit:3.0\n",
                                     "      image: fluent/fluent-bit:3.0\n      env: [{name: LOG_LEVEL, value: info}]\n"),
                                DELETED),
    "a quoted image": (edit("image: example/migrate:1.0", 'image: "example/migrate:1.0"'), DELETED),
    "a port's name": (edit("ports: [{containerPort: 8080}]", "ports: [{containerPort: 8080, name: http}]"), DELETED),
    "the deletion's grace period written out as the Pod's own": (BASE, {**DELETED, "deleteGracePeriodSeconds": 30}),
}


def summary(before: str, sb: Any, after: str, sa: Any) -> list[str]:
    left, right = explain(before, sb), explain(after, sa)
    assert left.ok and right.ok, (left.errors, right.errors)
    return [t.render() for t in compare(left, right).summary]


def test_there_are_twenty_pairs_that_differ_and_ten_that_do_not() -> None:
    assert len(DIFFERENT) >= 20 and len(NO_CHANGE) >= 10


@pytest.mark.parametrize("name", DIFFERENT)
def test_a_pair_that_behaves_differently_says_what_moved_and_by_how_much(name: str) -> None:
    before, sb, after, sa, expected = DIFFERENT[name]
    text = summary(before, sb, after, sa)
    assert SAME not in text
    for sentence in expected:
        assert sentence in text, (sentence, text)


@pytest.mark.parametrize("name", NO_CHANGE)
def test_a_pair_that_behaves_the_same_says_so(name: str) -> None:
    after, sa = NO_CHANGE[name]
    assert summary(BASE, DELETED, after, sa) == [SAME]


def test_the_production_example_with_a_shorter_grace_period_and_a_native_fluent_bit() -> None:
    """The issue's own case: it said "No difference" while the timelines below differed."""
    production = load_manifest("seeds/web-app-pod")
    shipper = ("    - name: fluentbit-sidecar\n      image: fluent/fluent-bit:3.0\n"
               "      volumeMounts: [{ name: app-logs, mountPath: /var/log/app, readOnly: true }]\n")
    proposal = edit(shipper, "", production).replace("terminationGracePeriodSeconds: 60",
                                                     "terminationGracePeriodSeconds: 30")
    proposal = edit("  containers:\n", shipper.replace("      image: fluent/fluent-bit:3.0\n",
                                                       "      image: fluent/fluent-bit:3.0\n      restartPolicy: Always\n")
                    + "  containers:\n", proposal)
    text = summary(production, "deleteAt: 60\n", proposal, "deleteAt: 60\n")
    assert text[:6] == [
        "fluentbit-sidecar is now a native sidecar (before, an app container).",
        "terminationGracePeriodSeconds is now 30 s instead of 60 s.",
        "The deletion still takes 5 s: every container has exited before either grace period ends.",
        "The kubelet no longer begins to stop fluentbit-sidecar (before, it did at 60 s).",
        "The first exit of fluentbit-sidecar now comes 5 s later (at 65 s instead of 60 s), with exit code 137 "
        "instead of 143.",
        "The Pod's Ready condition now turns false 5 s later (at 65 s instead of 60 s)."]
    assert text[6].startswith("kubectl's STATUS column now goes Init:0/4 → Init:1/4 → Init:2/4 → Init:3/4 → ")


def test_a_moment_that_moves_with_the_start_is_left_to_the_start_sentence() -> None:
    (pair,) = diff(explain(BASE, DELETED), explain(BASE, {**DELETED, "containers": {"migrate": {"runSeconds": 6}}})).pods
    ready = next(m for m in pair.moments if (m.container, m.kind) == ("web", "ready"))
    assert (ready.before, ready.after, ready.delta, ready.with_start) == (3.0, 8.0, 5.0, True)
    stopping = next(m for m in pair.moments if (m.container, m.kind) == ("web", "stopping"))
    assert not stopping.changed            # the deletion does not move with the start
    assert not any("reports web Ready" in t.render() for t in pair.summary)


def test_the_json_holds_every_moment_the_roles_the_deletion_and_the_status_columns() -> None:
    data = json.loads(json.dumps(comparison_to_dict(compare(explain(BASE, DELETED), explain(NATIVE_SHIPPER, DELETED)))))
    (pod,) = data["pods"]
    assert pod["roles"] == [{"container": "shipper", "before": "app", "after": "sidecar"}]
    exited = next(m for m in pod["moments"] if (m["container"], m["moment"]) == ("shipper", "exited"))
    assert exited == {"container": "shipper", "moment": "exited", "before": 40.0, "after": 45.0, "delta": 5.0,
                      "exitCodeBefore": 143, "exitCodeAfter": 143, "changed": True, "withStart": False}
    assert pod["terminationGracePeriodSeconds"] == {"before": 30, "after": 30}
    assert pod["deletion"] == {"requestedBefore": 40.0, "requestedAfter": 40.0, "gracePeriodBefore": 30,
                               "gracePeriodAfter": 30, "endedBefore": 45.0, "endedAfter": 45.0,
                               "lengthBefore": 5.0, "lengthAfter": 5.0}
    assert pod["statusColumn"]["before"] == ["Init:0/1", "PodInitializing", "Running", "Terminating", "Error"]
    assert pod["statusColumn"]["after"][:2] == ["Init:0/2", "Init:1/2"]
    assert {"kind", "name", "summary", "findings", "sharing", "starts", "final", "viewEnd"} <= set(pod)   # kept


def test_runs_that_differ_in_nothing_named_say_where_their_events_part() -> None:
    left, right = explain(BASE, DELETED), explain(BASE, {**DELETED, "containers": {"web": {"preStopExitCode": 1}}})
    first = first_difference(left.pods[0], right.pods[0])
    assert first is not None
    (sentence,) = difference_sentences(left.pods[0], right.pods[0])
    assert sentence.render().startswith("The runs differ from their events on: at 45 s, web: ")
    assert first_difference(left.pods[0], left.pods[0]) is None


DELETE_AT = st.sampled_from([None, 10, 25, 40])
SECONDS = st.sampled_from([None, 1, 3, 8])


@st.composite
def scenarios(draw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"until": 90}
    if (t := draw(DELETE_AT)) is not None:
        out["deleteAt"] = t
    containers: dict[str, Any] = {}
    for name, key in (("migrate", "runSeconds"), ("web", "stopSeconds"), ("web", "startupSeconds"),
                      ("shipper", "stopSeconds")):
        if (v := draw(SECONDS)) is not None:
            containers.setdefault(name, {})[key] = v
    if containers:
        out["containers"] = containers
    return out


@settings(max_examples=examples(30), deadline=None)
@given(scenarios(), scenarios())
def test_runs_whose_events_differ_are_never_called_the_same(sb: dict[str, Any], sa: dict[str, Any]) -> None:
    left, right = explain(BASE, sb), explain(BASE, sa)
    text = [t.render() for t in compare(left, right).summary]
    differ = first_difference(left.pods[0], right.pods[0]) is not None
    assert (text == [SAME]) == (not differ), (sb, sa, text)


def test_a_pod_never_ready_on_one_side_gets_one_sentence_about_ready_not_two() -> None:
    before, sb, after, sa, _expected = DIFFERENT["an init container that fails"]
    text = summary(before, sb, after, sa)
    assert "The Pod never becomes Ready any more (before, it was Ready at 3 s)." in text
    assert not any(t.startswith("The Pod's Ready condition") for t in text)

"""compare(): findings new/fixed/unchanged, sharing changes, start-time shifts and their causes,
outcome changes, the summary, and both timelines on one time axis (issue 5, "Compare")."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from explainer.explain import explain
from explainer.render.compare import compare, comparison_to_dict, pair_pods, shared_axis_svgs
from tests.conftest import load_manifest

TMP = load_manifest("seeds/tmp-without-volume")
# The fix of the counter-example: an emptyDir both containers mount at /tmp.
TMP_FIXED = TMP.replace(
    '      command: ["sh", "-c", "echo token > /tmp/token"]\n',
    '      command: ["sh", "-c", "echo token > /tmp/token"]\n'
    "      volumeMounts: [{name: tmp, mountPath: /tmp}]\n",
).replace(
    '      command: ["sh", "-c", "cat /tmp/token; sleep 3600"]\n',
    '      command: ["sh", "-c", "cat /tmp/token; sleep 3600"]\n'
    "      volumeMounts: [{name: tmp, mountPath: /tmp}]\n"
    "  volumes: [{name: tmp, emptyDir: {}}]\n",
)
SLOW_INIT = {"containers": {"generate-config": {"runSeconds": 5}}}
JOB = load_manifest("seeds/job-classic-sidecar")
JOB_NATIVE = JOB.replace(
    "      containers:\n        - name: worker\n          image: example/worker:1.0\n\n"
    "        - name: log-sidecar\n          image: example/log-agent:1.0\n",
    "      initContainers:\n        - name: log-sidecar\n          image: example/log-agent:1.0\n"
    "          restartPolicy: Always\n      containers:\n        - name: worker\n"
    "          image: example/worker:1.0\n",
)
TWO_PORTS = """apiVersion: v1
kind: Pod
metadata: {name: ports}
spec:
  containers:
    - name: web
      image: nginx:1.27
      ports: [{containerPort: 8080}]
    - name: metrics
      image: example/metrics:1
      ports: [{containerPort: %d}]
"""


def sentences(comparison) -> list[str]:
    return [t.render() for t in comparison.summary]


def test_fixture_edits_apply() -> None:
    assert TMP_FIXED != TMP and "emptyDir" in TMP_FIXED
    assert JOB_NATIVE != JOB and "restartPolicy: Always" in JOB_NATIVE


def test_adding_the_volume_fixes_the_finding_and_shares_the_volume() -> None:
    c = compare(explain(TMP), explain(TMP_FIXED))
    (pair,) = c.pods
    fixed = {(f.id, f.container) for f in pair.fixed}
    assert ("file-shared-without-volume", "app") in fixed
    assert not any(f.id == "file-shared-without-volume" for f in pair.unchanged + pair.new)
    unchanged = {(f.id, f.container) for f in pair.unchanged}
    assert ("missing-resources", "app") in unchanged            # what stays is not reported as new
    (change,) = [s for s in pair.sharing if s.topic == "volume"]
    assert (change.change, change.subject, change.containers) == ("added", "tmp", ("fetch-token", "app"))
    text = sentences(c)
    assert "Volume tmp is now shared by fetch-token, app." in text
    assert any(s.startswith("Fixed pitfall: ") and s.endswith("(app).") for s in text)


def test_the_reverse_comparison_reports_a_new_finding_and_a_volume_no_longer_shared() -> None:
    c = compare(explain(TMP_FIXED), explain(TMP))
    (pair,) = c.pods
    assert [(f.id, f.container) for f in pair.new if f.id == "file-shared-without-volume"] == [
        ("file-shared-without-volume", "app")]
    assert all(f.id != "file-shared-without-volume" for f in pair.fixed)
    assert "Volume tmp is no longer shared (before, fetch-token, app shared it)." in sentences(c)


def test_a_slower_init_container_shifts_the_app_and_says_why() -> None:
    c = compare(explain(load_manifest("seeds/init-example")),
                explain(load_manifest("seeds/init-example"), SLOW_INIT))
    (pair,) = c.pods
    starts = {s.container: s for s in pair.starts}
    assert (starts["app"].before, starts["app"].after, starts["app"].delta) == (1.0, 5.0, 4.0)
    assert not starts["generate-config"].changed
    assert ("app now starts 4 s later (at 5 s instead of 1 s) because init container generate-config "
            "takes longer (5 s instead of 1 s).") in sentences(c)
    assert "The Pod now becomes Ready 4 s later (at 5 s instead of 1 s)." in sentences(c)
    assert not pair.new and not pair.fixed and not pair.sharing


def test_the_cause_is_the_root_of_a_chain_of_init_containers() -> None:
    manifest = load_manifest("seeds/web-app-pod")
    c = compare(explain(manifest), explain(manifest, {"containers": {"migrate-db": {"runSeconds": 5}}}))
    text = sentences(c)
    shifted = [s for s in text if "now start" in s]
    assert len(shifted) == 1, text           # app and both classic sidecars: one sentence
    assert "4 s later (at 7 s instead of 3 s) because init container migrate-db takes longer " \
           "(5 s instead of 1 s)." in shifted[0]
    starts = {s.container: s for s in c.pods[0].starts}
    assert starts["fetch-assets"].delta == 4.0 and starts["wait-for-db"].delta == 0.0


def test_a_faster_init_container_makes_the_app_start_sooner() -> None:
    manifest = load_manifest("seeds/init-example")
    c = compare(explain(manifest, SLOW_INIT), explain(manifest))
    assert ("app now starts 4 s sooner (at 1 s instead of 5 s) because init container generate-config "
            "finishes sooner (1 s instead of 5 s).") in sentences(c)


def test_an_init_container_that_now_fails_keeps_the_app_from_starting() -> None:
    manifest = load_manifest("seeds/init-example")
    failing = {"containers": {"generate-config": {"runSeconds": 1, "exitCode": 1}}}
    c = compare(explain(manifest), explain(manifest, failing))
    (app,) = [s for s in c.pods[0].starts if s.container == "app"]
    assert app.before == 1.0 and app.after is None and app.changed
    assert any(s.startswith("app no longer starts (before, it started at 1 s) because init container "
                            "generate-config never completes") for s in sentences(c)), sentences(c)


def test_a_native_sidecar_lets_the_job_complete() -> None:
    c = compare(explain(JOB), explain(JOB_NATIVE))
    text = sentences(c)
    assert text[0].startswith("The Job now completes: the Pod reaches Succeeded at ")
    assert "(before, it ended as NotReady, phase Running)." in text[0]
    assert "job-sidecar-blocks-completion" in {f.id for f in c.pods[0].fixed}
    assert c.pods[0].final_after.phase == "Succeeded" and c.pods[0].final_before.phase == "Running"


def test_pid_namespace_sharing_changes() -> None:
    shared = load_manifest("seeds/process-sharing-example")
    apart = shared.replace("shareProcessNamespace: true", "shareProcessNamespace: false")
    assert apart != shared
    c = compare(explain(shared), explain(apart))
    (change,) = [s for s in c.pods[0].sharing if s.topic == "namespace"]
    assert (change.subject, change.change) == ("pid", "removed")
    assert ("The PID namespace is now separate for each container (before: shared by all containers of "
            "the Pod).") in sentences(c)
    back = compare(explain(apart), explain(shared))
    assert ("The PID namespace is now shared by all containers of the Pod (before: separate for each "
            "container).") in sentences(back)


def test_port_conflicts_added_and_removed() -> None:
    ok, clash = TWO_PORTS % 9090, TWO_PORTS % 8080
    c = compare(explain(ok), explain(clash))
    (change,) = [s for s in c.pods[0].sharing if s.topic == "port"]
    assert (change.change, change.subject, change.containers) == ("added", "8080/TCP", ("web", "metrics"))
    assert "Port conflict: web, metrics now use port 8080/TCP at the same time." in sentences(c)
    assert "The port conflict on 8080/TCP between web, metrics is gone." in sentences(compare(explain(clash),
                                                                                             explain(ok)))


def test_the_same_input_has_no_difference() -> None:
    manifest = load_manifest("seeds/lifecycle-demo")
    c = compare(explain(manifest), explain(manifest))
    assert sentences(c) == ["No difference: both manifests behave the same way."]
    assert c.same and not c.pods[0].changed_starts


def test_version_change_is_reported() -> None:
    manifest = load_manifest("seeds/lifecycle-demo")
    c = compare(explain(manifest, None, "1.33"), explain(manifest, None, "1.34"))
    assert sentences(c)[0] == "Kubernetes version: 1.34 instead of 1.33."


def test_pods_pair_by_kind_and_name_then_by_position() -> None:
    a, b, j = (explain(load_manifest(f"seeds/{s}")).pods[0]
               for s in ("init-example", "lifecycle-demo", "job-classic-sidecar"))
    assert pair_pods([a, b], [b, a]) == [(a, a), (b, b)]
    renamed = explain(load_manifest("seeds/init-example").replace("name: init-example", "name: renamed")).pods[0]
    assert pair_pods([a], [renamed]) == [(a, renamed)]
    assert pair_pods([a, j], [a]) == [(a, a), (j, None)]
    c = compare(explain(load_manifest("seeds/init-example")),
                explain(load_manifest("seeds/init-example") + "---\n" + load_manifest("seeds/lifecycle-demo")))
    assert [(p.left is None, p.right is None) for p in c.pods] == [(False, False), (True, False)]
    assert "Pod lifecycle-demo: Pod lifecycle-demo is new." in sentences(c)


def test_a_pod_the_api_server_now_rejects() -> None:
    manifest = load_manifest("seeds/init-example")
    broken = manifest.replace("    - name: app\n      image: alpine:3.20\n", "    - name: app\n")
    assert broken != manifest
    c = compare(explain(manifest), explain(broken))
    assert sentences(c)[0].startswith("The API server would now reject Pod init-example, so it never runs: ")


def test_sentences_go_through_gettext() -> None:
    c = compare(explain(TMP), explain(TMP_FIXED))
    seen: list[str] = []

    def fake(msgid: str) -> str:
        seen.append(msgid)
        return msgid.replace("now shared", "NOW SHARED")

    assert "Volume tmp is NOW SHARED by fetch-token, app." in [t.render(fake) for t in c.summary]
    assert "Volume {volume} is now shared by {containers}." in seen


def test_comparison_json_is_plain_data() -> None:
    c = compare(explain(load_manifest("seeds/init-example")),
                explain(load_manifest("seeds/init-example"), SLOW_INIT))
    data = json.loads(json.dumps(comparison_to_dict(c)))
    assert data["summary"] == sentences(c)
    (pod,) = data["pods"]
    app = next(s for s in pod["starts"] if s["container"] == "app")
    assert (app["before"], app["after"], app["delta"]) == (1.0, 5.0, 4.0)
    assert app["cause"] == "init container generate-config takes longer (5 s instead of 1 s)"
    assert set(pod["findings"]) == {"new", "fixed", "unchanged"}


def _root(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_both_timelines_share_one_time_axis() -> None:
    before = explain(load_manifest("seeds/init-example"))
    after = explain(load_manifest("seeds/init-example").replace("generate-config", "a-much-longer-init-name"))
    c = compare(before, after)
    pair = c.pods[0]
    left, right = shared_axis_svgs(pair.left, pair.right, pair.view_end)
    l_root, r_root = _root(left), _root(right)          # both parse as XML
    assert l_root.get("viewBox").split()[2] == r_root.get("viewBox").split()[2]
    assert l_root.get("width") == r_root.get("width")
    assert l_root.get("data-view-end") == r_root.get("data-view-end") == f"{pair.view_end:g}"
    assert l_root.get("data-time-origin") == r_root.get("data-time-origin")
    shown = [re.search(r"Shown: 0 to ([0-9.]+) s", s).group(1) for s in (left, right)]
    assert shown[0] == shown[1]
    # the side with the shorter names is moved right so that t = 0 is at the same x
    assert 'transform="translate(0 0)"' in right and 'transform="translate(0 0)"' not in left
    ids = set(re.findall(r'id="([^"]+)"', left)) & set(re.findall(r'id="([^"]+)"', right))
    assert not ids                                      # one page holds both: no duplicate ids


def test_the_window_covers_the_longer_side() -> None:
    manifest = load_manifest("seeds/init-example")
    c = compare(explain(manifest), explain(manifest, {"containers": {"generate-config": {"runSeconds": 40}}}))
    pair = c.pods[0]
    assert pair.view_end >= 40
    left, right = shared_axis_svgs(pair.left, pair.right, pair.view_end)
    assert f"Shown: 0 to {pair.view_end:g} s" in left and f"Shown: 0 to {pair.view_end:g} s" in right


def test_a_side_without_simulation_has_no_picture() -> None:
    manifest = load_manifest("seeds/init-example")
    broken = manifest.replace("    - name: app\n      image: alpine:3.20\n", "    - name: app\n")
    pair = compare(explain(manifest), explain(broken)).pods[0]
    left, right = shared_axis_svgs(pair.left, pair.right, pair.view_end)
    assert left.startswith("<svg") and right == ""

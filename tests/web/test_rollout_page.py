"""Traffic and rollouts on the page, through the real pipeline (issue 22): each workload's article has its
rollout section (picture, numbers, tables, story), the Pod timeline its traffic row; the what-if panel's
controls reach both, with and without htmx; the JSON API, permalinks and their exports carry the scenario;
compare shows both sides' rollouts on one axis, and the rollout from one manifest to the other."""
from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from django.utils import translation

from explainer.examples import BY_SLUG
from explainer.web.models import Permalink

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
SURGE = BY_SLUG["rollout-surge-vs-unavailable"].manifest()
RACE = BY_SLUG["deploy-502-race"].manifest()


def ok(response) -> str:
    body = response.content.decode()
    assert response.status_code == 200, body[:2000]
    return body


def post(client: Client, manifest: str, *, htmx: bool = True, **fields: str) -> str:
    data = {"manifest": manifest, "version": "1.37", **fields}
    return ok(client.post("/", data, **(HX if htmx else {})))


def rollout_data(body: str, n: int = 1) -> dict:
    m = re.search(rf'data-timeline="rollout-{n}" data-tl="([^"]*)"', body)
    assert m, f"no rollout-{n} section with its cursor data"
    return json.loads(html.unescape(m.group(1)))


def test_each_workload_has_its_rollout_section(client: Client) -> None:
    body = ok(client.get("/?example=rollout-surge-vs-unavailable"))
    for n, name in ((1, "api-surge"), (2, "api-unavailable")):
        data = rollout_data(body, n)
        assert [lane["role"] for lane in data["lanes"]].count("new") == 4
        assert f"kubectl rollout restart deployment/{name}" in body
    assert body.count('class="panel story rollout-story"') == 2
    assert "Capacity floor</dt><dd>4" in body and "Capacity floor</dt><dd>3" in body
    assert "The Pods as a table" in body and "The counts as a table" in body
    # the what-if panel offers the rollout's and the traffic's values, the propagation shown as assumed
    assert 'name="rollout_replicas"' in body and 'placeholder="4"' in body
    assert 'name="traffic_propagation"' in body and "assumed: 5 s" in body
    assert 'name="n.api.never_ready"' in body and 'name="n.api.startup"' in body


def test_a_pod_has_no_rollout_section(client: Client) -> None:
    body = ok(client.get("/?example=lifecycle-demo"))
    assert 'data-timeline="rollout-' not in body and 'name="rollout_replicas"' not in body


def test_the_timeline_has_the_traffic_row_and_its_failure_window(client: Client) -> None:
    body = ok(client.get("/?example=deploy-502-race"))
    timeline = body.split('data-timeline="pod-1"')[1].split("</section>")[0]
    assert "tl-traffic-serving" in timeline and "tl-fail-g" in timeline and "✕ requests fail" in timeline
    assert "Traffic: Draining" in timeline                        # the table twin
    assert "What the traffic row rests on" in timeline            # the core's notes
    story = body.split('data-story="pod-1"')[1].split("</section>")[0]
    assert "Clients get errors (502, 503, connection refused)." in story


def test_the_what_if_controls_change_the_answer_with_htmx(client: Client) -> None:
    body = post(client, SURGE, **{"n.api.never_ready": "on"})
    assert "<html" not in body
    assert "Stalled at" in body and "ro-guide-stalled" in body
    assert re.search(r'name="n\.api\.never_ready" checked', body)           # the box stays ticked
    assert "never_ready" in body and "failingProbes" in body                 # the scenario in effect
    body = post(client, SURGE, rollout_replicas="6")
    assert rollout_data(body)["lanes"].count({"name": "api-surge-new-6", "role": "new"}) == 1
    assert 'name="rollout_replicas" value="6"' in body


def test_without_javascript_the_form_posts_and_the_page_comes_back(client: Client) -> None:
    body = post(client, RACE, htmx=False, traffic_propagation="1")
    assert "<html" in body and body.count('id="what-if"') == 1
    assert "trafficPropagationSeconds: 1" in body                             # "In effect:"
    fail = re.search(r'class="tl-item tl-fail-g" data-t0="([\d.]+)" data-t1="([\d.]+)"', body)
    assert fail and float(fail.group(2)) - float(fail.group(1)) == 1          # one second of failures, not five
    assert 'name="traffic_propagation" value="1"' in body


def test_in_simplified_chinese(client: Client) -> None:
    client.cookies["django_language"] = "zh-hans"
    body = ok(client.get("/?example=statefulset-update"))
    assert "发布（rollout）" in body and "容量下限" in body and "流量与发布" in body
    with translation.override("zh-hans"):
        assert "at the pace the controller allows" not in body


def test_the_api_and_permalinks_carry_the_scenario(client: Client) -> None:
    scenario = {"trafficPropagationSeconds": 2, "rollout": {"replicas": 6,
                                                            "newRevision": {"containers": {"web": {"startupSeconds": 20}}}}}
    answer = client.post("/api/v1/explain", json.dumps({"manifest": RACE, "scenario": scenario,
                                                        "kubernetesVersion": "1.37"}),
                         content_type="application/json")
    assert answer.status_code == 200, answer.content[:500]
    pod = answer.json()["pods"][0]
    assert pod["traffic"]["propagationSeconds"] == 2 and not pod["traffic"]["propagationAssumed"]
    assert pod["rollout"]["replicas"] == 6
    link, _token = Permalink.store(RACE, scenario, "1.37")
    page = ok(client.get(f"/p/{link.id}/"))
    assert rollout_data(page)["lanes"].count({"name": "shop-web-new-6", "role": "new"}) == 1
    assert f"/p/{link.id}/rollout.svg" in page
    svg = client.get(f"/p/{link.id}/rollout.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml" and b"surge ceiling" in svg.content
    exported = json.loads(client.get(f"/p/{link.id}.json").content)
    assert exported["pods"][0]["rollout"]["replicas"] == 6
    plain, _token = Permalink.store(BY_SLUG["lifecycle-demo"].manifest(), None, "1.37")
    assert client.get(f"/p/{plain.id}/rollout.svg").status_code == 404


def _deployment(surge: int, unavailable: int) -> str:
    return re.sub(r"rollingUpdate: \{ maxSurge: 1, maxUnavailable: 0 \}",
                  f"rollingUpdate: {{ maxSurge: {surge}, maxUnavailable: {unavailable} }}",
                  SURGE.split("\n---\n")[0])


def test_compare_puts_two_strategies_side_by_side(client: Client) -> None:
    left, _t = Permalink.store(_deployment(1, 0), None, "1.37")
    right, _t = Permalink.store(_deployment(0, 1), None, "1.37")
    body = ok(client.get(f"/compare/?left={left.id}&right={right.id}"))
    section = body.split('class="panel compare-rollout"')[1].split("</section>")[0]
    assert "on one time axis" in section
    assert re.search(r"maxSurge 1, maxUnavailable 0 vs maxSurge 0, maxUnavailable 1: done at [\d.]+ s vs done at [\d.]+ s, "
                     r"capacity floor 4 vs 3, at most \d+ vs \d+ Pods\.", section)
    assert section.count("<svg") == 3                 # each side's own, and the one from before to after
    # ... and the page's summary says it too
    summary = body.split('class="panel compare-summary"')[1].split("</section>")[0]
    assert "capacity floor 4 vs 3" in summary


def test_compare_gives_the_rollout_from_the_first_manifest_to_the_second(client: Client) -> None:
    before = SURGE.split("\n---\n")[0]
    after = before.replace("image: ghcr.io/example/api:2.4", "image: ghcr.io/example/api:2.5").replace(
        "initialDelaySeconds: 5", "initialDelaySeconds: 20")          # the new version starts slower
    left, _t = Permalink.store(before, None, "1.37")
    right, _t = Permalink.store(after, None, "1.37")
    body = ok(client.get(f"/compare/?left={left.id}&right={right.id}"))
    section = body.split('class="panel compare-rollout"')[1].split("</section>")[0]
    assert "Applying the “after” over the “before”" in section
    between = section.split('class="timeline compare-between"')[1].split("</div>")[0]
    assert f"From {left.id} to {right.id}: the rollout of api-surge" in between
    # each new Pod is Ready 20 s after it starts (not 5): four of them one after the other
    done = re.search(r"Complete at</dt><dd>([\d.]+) s", section)
    assert done and float(done.group(1)) >= 80
    assert section.count("<svg") == 3                 # the rollout between, and each side's own

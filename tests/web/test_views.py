"""The explainer page: full page and htmx fragment, bad input, examples, rules, languages."""
from __future__ import annotations

import re

import pytest
from django.test import Client

from explainer.examples import EXAMPLES
from tests.conftest import load_manifest

HX = {"HTTP_HX_REQUEST": "true"}


def post(client: Client, manifest: str, htmx: bool = False, **extra: str):
    data = {"manifest": manifest, "version": "1.34", **extra}
    return client.post("/", data, **(HX if htmx else {}))


def assert_ok(response) -> str:
    body = response.content.decode()
    assert response.status_code == 200, body[:2000]
    return body


def test_empty_page_has_the_editor_and_the_gallery(client: Client) -> None:
    body = assert_ok(client.get("/"))
    assert 'id="manifest"' in body and 'id="result"' in body
    for ex in EXAMPLES:
        assert f"?example={ex.slug}" in body


def test_htmx_post_returns_the_result_fragment_only(client: Client) -> None:
    body = assert_ok(post(client, load_manifest("seeds/lifecycle-demo"), htmx=True))
    assert "<html" not in body
    assert 'id="result"' in body
    assert "lifecycle-demo" in body and "<svg" in body
    assert 'hx-swap-oob="true"' in body     # the what-if panel follows the new containers


def test_plain_post_returns_the_full_page_with_the_same_result(client: Client) -> None:
    body = assert_ok(post(client, load_manifest("seeds/lifecycle-demo")))
    assert "<html" in body and 'id="result"' in body
    assert "What happens, step by step" in body
    assert body.count('id="what-if"') == 1


def test_timeline_diagram_findings_and_story_are_shown(client: Client) -> None:
    body = assert_ok(post(client, load_manifest("seeds/long-running-init"), htmx=True))
    assert "init-never-completes" in body
    assert body.count("<svg") >= 2
    assert "Init container proxy starts" in body


@pytest.mark.parametrize("manifest,expected", [
    ("apiVersion: v1\nkind: Pod\nmetadata: {name: x\n", "line"),
    ("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: {}\n", "spec.containers"),
    ("- just\n- a list\n", "not a Kubernetes object"),
    ("\x00\x01\x02", "binary file"),
])
def test_bad_input_is_shown_next_to_the_editor_not_a_500(client: Client, manifest: str, expected: str) -> None:
    body = assert_ok(post(client, manifest, htmx=True))
    assert "error-panel" in body
    assert expected in body


def test_empty_and_oversized_manifests_get_a_form_error(client: Client, settings) -> None:
    settings.MAX_MANIFEST_BYTES = 1000
    body = assert_ok(post(client, "x: " + "y" * 2000))
    assert "the limit is 1,000 bytes" in body
    body = assert_ok(post(client, "   "))
    assert "Paste a Kubernetes manifest" in body


def test_what_if_controls_change_the_explanation(client: Client) -> None:
    manifest = load_manifest("seeds/lifecycle-demo")
    calm = assert_ok(post(client, manifest, htmx=True))
    assert "CrashLoopBackOff" not in calm
    body = assert_ok(post(client, manifest, htmx=True, **{"c.app.crashes": "3", "delete_at": "200"}))
    assert "CrashLoopBackOff" in body
    assert "deleteAt: 200" in body          # the scenario in effect is shown as YAML
    dbg = assert_ok(post(client, manifest, htmx=True, debug_at="20", debug_target="app"))
    assert "Ephemeral container debugger joins" in dbg


def test_scenario_yaml_errors_are_reported(client: Client) -> None:
    body = assert_ok(post(client, load_manifest("seeds/lifecycle-demo"), htmx=True,
                          scenario="containers:\n  nope: {runSeconds: 1}\n"))
    assert "nope" in body and "error-panel" in body


@pytest.mark.parametrize("slug", [e.slug for e in EXAMPLES])
def test_each_example_loads_and_explains(client: Client, slug: str) -> None:
    body = assert_ok(client.get(f"/?example={slug}"))
    assert 'class="pod"' in body
    assert "error-panel" not in body
    assert re.search(r'<textarea[^>]*id="manifest"[^>]*>\s*# Seed', body)


def test_unknown_example_is_404(client: Client) -> None:
    assert client.get("/?example=nope").status_code == 404


def test_rules_page_lists_every_rule(client: Client) -> None:
    from explainer.findings import RULES
    body = assert_ok(client.get("/rules/"))
    for rule in RULES:
        assert f'id="{rule.ID}"' in body


def test_manifest_text_is_escaped_everywhere(client: Client) -> None:
    body = assert_ok(post(client, load_manifest("pods/hostile_names"), htmx=True))
    assert "<script>alert" not in body
    assert "&lt;script&gt;" in body and "&amp;lt;" not in body     # escaped once, not twice


@pytest.mark.parametrize("scenario,controls", [
    ("containers: [1]", {"c.app.run": "3"}),
    ("containers: abc", {"c.app.run": "3"}),
    ("containers: {app: 5}", {"c.app.run": "3"}),
    ("containers: {app: {runs: []}}", {"c.app.run": "3"}),
    ("", {"c.app.crashes": "inf"}),
    ("", {"c.app.crashes": "nan", "delete_at": "1e400"}),
    ("", {"c.app.crashes": "1000000"}),
])
def test_odd_what_if_input_is_an_error_message_or_capped_never_a_500(client: Client, scenario: str,
                                                                     controls: dict[str, str]) -> None:
    body = assert_ok(post(client, load_manifest("seeds/lifecycle-demo"), htmx=True, scenario=scenario, **controls))
    assert 'id="result"' in body
    if scenario:
        assert "error-panel" in body


def test_crashes_are_capped() -> None:
    from explainer.web.whatif import MAX_CRASHES, scenario_from_post
    scenario = scenario_from_post({"c.app.crashes": "1000000"})
    assert len(scenario["containers"]["app"]["runs"]) == MAX_CRASHES + 1


def test_rules_page_has_a_section_per_version_feature(client: Client) -> None:
    body = assert_ok(client.get("/rules/"))
    for slug in ("restart-rules", "restart-all-containers", "stop-signals", "crash-loop-back-off", "unchanged"):
        assert f'id="model-{slug}"' in body
    assert "<td>alpha, off</td><td>beta, on</td><td>beta, on</td><td>beta, on</td>" in body   # ContainerRestartRules


def test_version_selector_offers_1_25_to_1_37_with_1_37_chosen(client: Client) -> None:
    body = assert_ok(client.get("/"))
    options = re.findall(r'<option value="(1\.\d+)"', body)
    assert sorted(options, key=lambda v: int(v.split(".")[1])) == [f"1.{m}" for m in range(25, 38)]
    assert re.search(r'<option value="1\.37"[^>]*selected', body)


@pytest.mark.parametrize("scenario", ["", "deleteAt: 5\ncontainers: {app: {note: '<b>&</b>'}}\n"])
def test_the_scenario_box_is_written_as_the_form_widget_would_render_it(client: Client, scenario: str) -> None:
    from explainer.web.forms import ExplainForm
    data = {"manifest": load_manifest("seeds/lifecycle-demo"), "version": "1.34", "scenario": scenario}
    body = assert_ok(client.post("/", data, **HX))
    assert str(ExplainForm(data)["scenario"]) in body
    assert str(ExplainForm()["scenario"]) in assert_ok(client.get("/"))

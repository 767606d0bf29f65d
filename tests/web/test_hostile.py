"""Hostile and broken input gets a clear 4xx from the API and a clear message on the page
(issue 6).  How fast, and with how much memory, is measured by `make bench`."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.hostile import CASES, OBSERVED_CASES, many_containers

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", list(CASES))
def test_api_answers_hostile_input_with_a_clear_4xx(client: Client, name: str) -> None:
    manifest = CASES[name]()
    response = client.post("/api/v1/explain", json.dumps({"manifest": manifest}), content_type="application/json")
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    body = response.json()
    assert body["error"].strip()
    assert all(e.get("message", "").strip() for e in body["errors"])


@pytest.mark.parametrize("name", list(CASES))
def test_page_shows_a_message_for_hostile_input(client: Client, name: str) -> None:
    response = client.post("/", {"manifest": CASES[name](), "version": "1.34"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    if response.status_code == 413:          # refused before it is read: the limit is the message
        assert "the limit is" in body
    else:
        assert response.status_code == 200 and "error-panel" in body


def test_five_hundred_containers_is_the_limit_and_is_explained(client: Client) -> None:
    response = client.post("/api/v1/explain", json.dumps({"manifest": many_containers(500)}),
                           content_type="application/json")
    assert response.status_code == 200
    assert len(response.json()["pods"][0]["containers"]) == 500


# ---- numbers that str.isdigit() accepts and int() refuses (issue 27) -------------------------------
ODD_NUMBERS = ["²", "١٢", "9" * 5000]


@pytest.mark.parametrize("line", ODD_NUMBERS)
def test_fix_with_an_odd_line_number_is_a_400(client: Client, line: str) -> None:
    response = client.post("/fix/", {"manifest": "kind: Pod\n", "version": "1.34", "rule": "missing-resources",
                                     "line": line})
    assert response.status_code == 400 and response.json()["error"]


@pytest.mark.parametrize("pod", ODD_NUMBERS)
def test_an_export_with_an_odd_pod_index_is_a_404(client: Client, pod: str) -> None:
    from explainer.web.models import Permalink
    link, _token = Permalink.store("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                                   "  - {name: a, image: a}\n", None, "1.34")
    for export in ("timeline.svg", "sharing.dot"):
        response = client.get(f"/p/{link.id}/{export}", {"pod": pod})
        assert response.status_code == 404, (export, response.status_code)


@pytest.mark.parametrize("length", ["²", "9" * 5000])
def test_an_odd_content_length_is_no_500(client: Client, length: str) -> None:
    assert client.get("/rules/", CONTENT_LENGTH=length).status_code == 200


def test_a_scenario_over_its_limit_is_called_a_scenario(client: Client) -> None:
    scenario = "# " + "x" * 70_000 + "\nuntil: 5\n"
    response = client.post("/api/v1/explain", json.dumps({"manifest": "kind: Pod\n", "scenario": scenario}),
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"].startswith("The scenario is 70,012 bytes")
    page = client.post("/", {"manifest": "kind: Pod\n", "version": "1.34", "scenario": scenario},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "The scenario is 70,01" in page and "The manifest is" not in page


@pytest.mark.parametrize("match", ODD_NUMBERS)
def test_make_the_prediction_match_with_an_odd_pod_index_is_no_500(client: Client, match: str) -> None:
    from explainer.examples import BY_SLUG
    example = BY_SLUG["observed-liveness-kill"]
    response = client.post("/", {"manifest": example.manifest(), "version": "1.34", "observed": example.observed(),
                                 "match": match}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200


@pytest.mark.parametrize("name", list(OBSERVED_CASES))
def test_page_reads_hostile_observed_output_with_a_message_or_its_panel(client: Client, name: str) -> None:
    """The second field (issue 23): the worst a paste of kubectl's output may hold gets the limit's message or
    the panel, with what could not be read listed; never a failure, and whatever it held printed as text."""
    from explainer.examples import BY_SLUG
    manifest = BY_SLUG["observed-liveness-kill"].manifest()
    response = client.post("/", {"manifest": manifest, "version": "1.34", "observed": OBSERVED_CASES[name](),
                                 "match": "0"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    if response.status_code == 413:          # refused before it is read: the limit is the message
        assert "the limit is" in body
        return
    assert response.status_code == 200
    assert "error-panel" in body or 'id="observed-1"' in body
    assert "<script" not in body.split('id="result"')[1]

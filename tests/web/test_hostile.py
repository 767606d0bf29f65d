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

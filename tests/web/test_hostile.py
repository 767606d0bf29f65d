"""Hostile and broken input gets a clear 4xx from the API and a clear message on the page
(issue 6).  How fast, and with how much memory, is measured by `make bench`."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.hostile import CASES, many_containers

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

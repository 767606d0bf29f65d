"""The index page."""
from __future__ import annotations

from django.test import Client


def test_index_shows_the_title(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200, response.content.decode()
    assert "Pod Lifecycle Explainer" in response.content.decode()

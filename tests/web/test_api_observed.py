"""The JSON API's ``observed`` (issue 23): explain compares it, permalinks carry it (a credential in it is
caught and can be redacted), the OpenAPI describes every field, and bad values are clear 4xx answers."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from explainer.web.models import Permalink
from tests.web.test_api import EXPLAIN, OPENAPI, PERMALINKS, _validator, assert_error, post_json

pytestmark = [pytest.mark.django_db]

OBSERVED = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "observed"
MANIFEST = (OBSERVED / "manifests" / "liveness-exec.yaml").read_text(encoding="utf-8")
EVENTS = (OBSERVED / "real" / "probes-events-after.txt").read_text(encoding="utf-8")
WITH_SECRET = """Name: liveness-exec
Containers:
  liveness:
    Environment:
      DB_PASSWORD:  hunter2hunter2
    Mounts:         <none>
"""


def test_explain_compares_the_observed_output(client: Client) -> None:
    answer = post_json(client, EXPLAIN, {"manifest": MANIFEST, "observed": EVENTS}).json()
    observed = answer["pods"][0]["observed"]
    assert [d["kind"] for d in observed["divergences"]] == ["liveness-kill"]
    _validator(client.get(OPENAPI).json(), "Explanation").validate(answer)


def test_a_form_body_takes_observed_too(client: Client) -> None:
    response = client.post(EXPLAIN, {"manifest": MANIFEST, "observed": EVENTS})
    assert response.json()["pods"][0]["observed"]["divergences"][0]["kind"] == "liveness-kill"


def test_every_observed_field_is_in_the_openapi(client: Client) -> None:
    schemas = client.get(OPENAPI).json()["components"]["schemas"]
    observed = schemas["Observed"]
    assert set(observed["required"]) == set(observed["properties"]) == {
        "sources", "kubectl", "restartCounts", "terminations", "events", "divergences", "unread"}
    for name in ("terminations", "events", "divergences", "unread", "sources"):
        item = observed["properties"][name]["items"]
        assert set(item["required"]) == set(item["properties"]), name
        assert all(p.get("description") or p.get("enum") or p.get("$ref") or p.get("type")
                   for p in item["properties"].values())
    assert schemas["Pod"]["properties"]["observed"] == {"$ref": "#/components/schemas/Observed"}
    assert "observed" in schemas["ExplainRequest"]["properties"]


@pytest.mark.parametrize(("value", "status", "fragment"), [
    (7, 400, "observed must be a string"), ("a\x00b", 400, "NUL"), ("x" * (1024 * 1024 + 1), 413, "observed output is"),
])
def test_bad_observed_values_are_clear(client: Client, value: object, status: int, fragment: str) -> None:
    body = assert_error(post_json(client, EXPLAIN, {"manifest": MANIFEST, "observed": value}), status)
    assert fragment in body["error"] and body["errors"][0]["path"] == "observed"


def test_a_permalink_carries_the_observed_output(client: Client) -> None:
    plain = post_json(client, PERMALINKS, {"manifest": MANIFEST}).json()
    created = post_json(client, PERMALINKS, {"manifest": MANIFEST, "observed": EVENTS})
    assert created.status_code == 201, created.content
    link = created.json()
    assert link["id"] != plain["id"]                         # an input without observed keeps its old id
    again = post_json(client, PERMALINKS, {"manifest": MANIFEST, "observed": EVENTS}).json()
    assert again["id"] == link["id"] and "deleteToken" not in again
    stored = client.get(f"{PERMALINKS}/{link['id']}").json()
    assert stored["observed"].startswith("# after:")
    assert stored["explanation"]["pods"][0]["observed"]["divergences"][0]["kind"] == "liveness-kill"
    assert client.get(f"{PERMALINKS}/{plain['id']}").json()["observed"] is None
    _validator(client.get(OPENAPI).json(), "Permalink").validate(stored)
    assert Permalink.objects.get(pk=link["id"]).explanation().pods[0].observed is not None


def test_credentials_in_the_observed_output_are_caught_and_can_be_redacted(client: Client) -> None:
    body = post_json(client, PERMALINKS, {"manifest": MANIFEST, "observed": WITH_SECRET})
    assert body.status_code == 409
    assert body.json()["secrets"] == [{"line": 5, "what": "the environment variable DB_PASSWORD (in the observed "
                                                          "output)"}]
    link = post_json(client, PERMALINKS, {"manifest": MANIFEST, "observed": WITH_SECRET, "secrets": "redact"}).json()
    stored = client.get(f"{PERMALINKS}/{link['id']}").json()
    assert stored["redacted"] and "hunter2" not in stored["observed"] and "DB_PASSWORD:  <redacted>" in stored["observed"]


def test_a_stored_observed_output_has_the_stored_limit(client: Client, settings) -> None:
    settings.MAX_STORED_BYTES = 1000
    body = assert_error(post_json(client, PERMALINKS, {"manifest": MANIFEST, "observed": "x" * 2000}), 413)
    assert "observed output is 2,000 bytes" in body["error"] and "EXPLAINER_MAX_STORED_BYTES" in body["error"]

"""`pods[].rollout` through the JSON API: the answer matches the OpenAPI schema, and the schema names every
field the answer carries (docs/lifecycle-model.md §26)."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.conftest import load_manifest
from tests.web.test_api import EXPLAIN, _openapi, _validator, post_json

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize("fixture,scenario", [
    ("rollout/web-deployment", None),
    ("rollout/web-deployment", {"rollout": {"newRevision": {"containers": {"app": {"failingProbes": ["readiness"]}}}}}),
    ("rollout/db-statefulset", {"rollout": {"replicas": 2}}),
    ("rollout/agent-daemonset", {"rollout": {"nodes": 2}}),
])
def test_the_answer_matches_the_schema(client: Client, fixture: str, scenario: dict | None) -> None:
    doc = _openapi(client)
    answer = post_json(client, EXPLAIN, {"manifest": load_manifest(fixture), "scenario": scenario}).json()
    _validator(doc, "Explanation").validate(answer)
    rollout = answer["pods"][0]["rollout"]
    schemas = doc["components"]["schemas"]
    assert set(rollout) <= set(schemas["Rollout"]["properties"])
    assert set(rollout["pods"][0]) <= set(schemas["RolloutPod"]["properties"])
    assert set(rollout["counts"][0]) <= set(schemas["RolloutCount"]["properties"])
    if rollout["stalled"]:
        assert set(rollout["stalled"]) <= set(schemas["Rollout"]["properties"]["stalled"]["anyOf"][1]["properties"])


def test_a_pod_has_a_null_rollout(client: Client) -> None:
    answer = post_json(client, EXPLAIN, {"manifest": load_manifest("seeds/web-app-pod")}).json()
    assert answer["pods"][0]["rollout"] is None
    _validator(_openapi(client), "Explanation").validate(answer)


def test_a_bad_rollout_scenario_is_a_400_with_a_line(client: Client) -> None:
    response = post_json(client, EXPLAIN, {"manifest": load_manifest("rollout/web-deployment"),
                                           "scenario": "rollout:\n  replicas: -1\n"})
    assert response.status_code == 400
    [record] = response.json()["errors"]
    assert record["line"] == 2 and "rollout.replicas" in record["message"]

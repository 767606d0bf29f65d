"""The JSON contract's additions of issue 22, part 1: pods[].traffic and the top-level findings about Services,
checked against the OpenAPI schemas the API publishes (explainer/web/openapi/document.py)."""
from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from explainer.explain import explain
from explainer.lifecycle.traffic.states import TRAFFIC_STATES, WINDOW_REASONS
from explainer.render.jsonable import explanation_to_dict
from explainer.web.openapi.document import openapi_document
from tests.conftest import load_manifest


def _validator(name: str) -> Draft202012Validator:
    root = Resource.from_contents({"components": openapi_document()["components"]},
                                  default_specification=DRAFT202012)
    return Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{name}"},
                                registry=Registry().with_resource("urn:openapi", root))


def _answer(fixture: str, scenario: str | None = None) -> dict[str, Any]:
    out = explanation_to_dict(explain(load_manifest(fixture), scenario))
    return json.loads(json.dumps(out))   # as a client reads it


def test_traffic_is_the_contract_shape_and_matches_the_schema() -> None:
    answer = _answer("pods/traffic_prestop", "deleteAt: 20")
    _validator("Explanation").validate(answer)
    traffic = answer["pods"][0]["traffic"]
    assert {"propagationSeconds", "intervals", "failureWindows"} <= set(traffic)   # the issue's contract
    assert traffic["propagationSeconds"] == 5
    assert traffic["intervals"][0] == {"from": 0, "to": 7, "state": "not-ready"}
    assert traffic["intervals"][-1] == {"from": 25, "to": None, "state": "gone"}
    assert traffic["failureWindows"] == [{"from": 22, "to": 25, "reason": "sigterm", "container": "web"}]
    assert traffic["services"] == ["web"] and traffic["routes"] == [
        {"service": "web", "port": 80, "targetPort": "http", "container": "web"}]
    assert {i["state"] for i in traffic["intervals"]} <= set(TRAFFIC_STATES)


def test_the_schema_enums_are_the_cores() -> None:
    schemas = openapi_document()["components"]["schemas"]
    traffic = schemas["Traffic"]["properties"]
    assert traffic["intervals"]["items"]["properties"]["state"]["enum"] == list(TRAFFIC_STATES)
    assert traffic["failureWindows"]["items"]["properties"]["reason"]["enum"] == list(WINDOW_REASONS)
    assert TRAFFIC_STATES == ("not-ready", "serving", "draining", "gone")
    assert schemas["Pod"]["properties"]["traffic"] == {"anyOf": [{"$ref": "#/components/schemas/Traffic"},
                                                                 {"type": "null"}]}


def test_traffic_is_null_where_no_service_would_select_the_pod() -> None:
    answer = _answer("seeds/job-classic-sidecar")
    _validator("Explanation").validate(answer)
    assert [p["traffic"] for p in answer["pods"]] == [None]


def test_a_rejected_pod_has_no_traffic() -> None:
    answer = _answer("pods/invalid_init_fields")
    assert answer["pods"][0]["admitted"] is False and answer["pods"][0]["traffic"] is None


def test_findings_about_a_service_are_top_level_and_name_it() -> None:
    answer = _answer("findings/service-target-port-missing/fires")
    _validator("Explanation").validate(answer)
    (f,) = answer["findings"]
    assert f["id"] == "service-target-port-missing" and f["severity"] == "error"
    assert f["object"] == {"kind": "Service", "name": "api", "document": 0}
    assert (f["line"], f["path"], f["container"]) == (11, "spec.ports[0].targetPort", None)
    assert all(x["id"] != "service-target-port-missing" for p in answer["pods"] for x in p["findings"])
    assert answer["suppressedFindings"] == []


def test_an_annotation_on_the_service_silences_its_finding() -> None:
    text = load_manifest("findings/service-selects-no-pod/fires").replace(
        "metadata:\n  name: frontend\nspec:\n  selector:",
        "metadata:\n  name: frontend\n  annotations:\n    ignore-check.podlife.io/service-selects-no-pod: "
        "\"its Pods are in another repository\"\nspec:\n  selector:", 1)
    answer = json.loads(json.dumps(explanation_to_dict(explain(text))))
    _validator("Explanation").validate(answer)
    assert answer["findings"] == []
    (quiet,) = answer["suppressedFindings"]
    assert quiet["id"] == "service-selects-no-pod" and quiet["object"]["name"] == "frontend"
    assert quiet["suppression"]["reason"] == "its Pods are in another repository"
    assert quiet["suppression"]["line"] == 8   # the annotation's own line

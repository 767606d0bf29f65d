"""The JSON API (issue 5 "JSON API", issue 6 "Security"): every endpoint, its errors, CSRF, OpenAPI.

Marked `postgres`: `make test` runs this module again against a real PostgreSQL server.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from explainer.explain import explain
from explainer.lifecycle.kubelet.trace import EVENT_TYPES
from explainer.render.jsonable import explanation_to_dict
from explainer.lifecycle.errors import ErrorRecord
from explainer.web.models import Permalink
from tests.conftest import load_manifest

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

EXPLAIN, PERMALINKS, OPENAPI = "/api/v1/explain", "/api/v1/permalinks", "/api/v1/openapi.json"
DEMO = load_manifest("seeds/lifecycle-demo")
SECRET_POD = load_manifest("pods/secret_env")


def post_json(client: Client, url: str, body: Any, **extra: Any):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data, content_type="application/json", **extra)


def assert_error(response, status: int, *, records: bool = True) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["error"], str) and body["error"]
    assert isinstance(body.get("errors", []), list)
    for record in body.get("errors", []):
        assert "message" in record
        if records:
            assert {"message", "line", "column", "path", "kind"} <= set(record)
    return body


# ---- POST /api/v1/explain --------------------------------------------------------------------
def test_urls_are_named_and_have_no_trailing_slash() -> None:
    assert reverse("api:explain") == EXPLAIN
    assert reverse("api:permalinks") == PERMALINKS
    assert reverse("api:permalink", args=["abc"]) == "/api/v1/permalinks/abc"
    assert reverse("api:openapi") == OPENAPI


def test_explain_answers_the_cli_json_contract(client: Client) -> None:
    scenario = {"deleteAt": 30, "containers": {"app": {"stopSeconds": 4}}}
    response = post_json(client, EXPLAIN, {"manifest": DEMO, "scenario": scenario, "kubernetesVersion": "1.33"})
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json() == explanation_to_dict(explain(DEMO, scenario, "1.33"))


def test_explain_takes_the_scenario_as_yaml_text_and_a_form_body(client: Client) -> None:
    text = "deleteAt: 30\ncontainers:\n  app: {stopSeconds: 4}\n"
    expected = explanation_to_dict(explain(DEMO, text, "1.32"))
    as_json = post_json(client, EXPLAIN, {"manifest": DEMO, "scenario": text, "kubernetesVersion": "1.32"})
    as_form = client.post(EXPLAIN, {"manifest": DEMO, "scenario": text, "kubernetesVersion": "1.32"})
    assert as_json.status_code == as_form.status_code == 200
    assert as_json.json() == as_form.json() == expected


def test_explain_defaults_to_the_newest_version(client: Client) -> None:
    body = post_json(client, EXPLAIN, {"manifest": DEMO}).json()
    assert body == explanation_to_dict(explain(DEMO))


def test_a_pod_the_api_server_rejects_is_a_valid_question(client: Client) -> None:
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: [{name: a}]\n"
    response = post_json(client, EXPLAIN, {"manifest": manifest})
    assert response.status_code == 200
    body = response.json()
    assert body == explanation_to_dict(explain(manifest))
    assert body["pods"][0]["admitted"] is False and body["errors"][0]["kind"] == "validation"


@pytest.mark.parametrize("body, kind", [
    ({"manifest": "kind: Pod\nspec: [\n"}, "syntax"),
    ({"manifest": "- just\n- a list\n"}, "structure"),
    ({"manifest": DEMO, "scenario": {"deleteAt": "soon"}}, "scenario"),
    ({"manifest": DEMO, "scenario": "containers: [\n"}, "scenario"),
    ({"manifest": DEMO, "scenario": {"containers": {"nobody": {"runSeconds": 1}}}}, "scenario"),
])
def test_bad_input_is_400_with_located_errors(client: Client, body: dict[str, Any], kind: str) -> None:
    error = assert_error(post_json(client, EXPLAIN, body), 400)
    assert error["errors"] and error["errors"][0]["kind"] == kind


@pytest.mark.parametrize("body, fragment", [
    ('{"manifest": "a"', "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ({}, "manifest is required"),
    ({"manifest": "   "}, "manifest is required"),
    ({"manifest": 42}, "manifest must be a string"),
    ({"manifest": DEMO, "scenario": [1]}, "scenario must be an object or YAML text"),
    ({"manifest": DEMO, "kubernetesVersion": "1.2"}, "not supported"),
])
def test_bad_requests_are_400(client: Client, body: Any, fragment: str) -> None:
    error = assert_error(post_json(client, EXPLAIN, body), 400)
    assert fragment in error["error"]


def test_bad_json_points_at_the_line(client: Client) -> None:
    error = assert_error(post_json(client, EXPLAIN, '{\n"manifest": "a",\n}'), 400)
    assert error["errors"][0]["line"] == 3 and error["errors"][0]["kind"] == "syntax"


def test_a_too_large_body_or_manifest_is_413(client: Client) -> None:
    # A body over the request limit is refused before it is read (by the site's middleware, or
    # by the API itself when the site allows larger requests).
    big = "#" * (settings.MAX_MANIFEST_BYTES * 4 + 10)
    error = assert_error(post_json(client, EXPLAIN, {"manifest": big}), 413, records=False)
    assert "bytes" in error["error"]
    assert_error(client.post(EXPLAIN, {"manifest": big}), 413, records=False)     # a form body too
    manifest = DEMO + "#" * settings.MAX_MANIFEST_BYTES
    error = assert_error(post_json(client, EXPLAIN, {"manifest": manifest}), 413)
    assert "the limit is" in error["error"] and error["errors"][0]["path"] == "manifest"


def test_the_api_checks_the_body_size_itself_too(client: Client, settings) -> None:
    settings.MAX_REQUEST_BYTES = 10 ** 9          # the middleware lets it through
    big = "#" * (settings.MAX_MANIFEST_BYTES * 4 + 10)
    error = assert_error(post_json(client, EXPLAIN, {"manifest": big}), 413)
    assert f"larger than {settings.MAX_MANIFEST_BYTES * 4:,} bytes" in error["error"]


def test_permalink_creation_is_rate_limited(client: Client, settings) -> None:
    settings.SHARE_RATE_LIMIT = 2
    codes = [post_json(client, PERMALINKS, {"manifest": DEMO + f"# {i}\n"}).status_code for i in range(3)]
    assert codes == [201, 201, 429]
    assert "Too many" in assert_error(post_json(client, PERMALINKS, {"manifest": DEMO}), 429)["error"]
    assert post_json(client, EXPLAIN, {"manifest": DEMO}).status_code == 200     # explaining is not limited


def test_wrong_methods_and_unknown_endpoints_answer_json(client: Client) -> None:
    response = client.get(EXPLAIN)
    assert_error(response, 405)
    assert response["Allow"] == "POST"
    assert_error(client.put(PERMALINKS, "{}", content_type="application/json"), 405)
    assert_error(client.post(OPENAPI), 405)
    assert_error(client.post("/api/v1/permalinks/abc", "{}", content_type="application/json"), 405)
    assert_error(client.get("/api/v1/nothing-here"), 404)
    assert_error(client.get("/api/v1/explain/"), 404)


def test_an_unexpected_failure_is_json_without_a_traceback(client: Client, monkeypatch) -> None:
    def boom(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr("explainer.web.api.explain", boom)
    error = assert_error(post_json(client, EXPLAIN, {"manifest": DEMO}), 500)
    assert "secret internals" not in json.dumps(error) and "Traceback" not in json.dumps(error)


# ---- CSRF: cookie-based use is checked, cookie-less clients need no token --------------------
def test_cookie_less_clients_need_no_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    assert post_json(client, EXPLAIN, {"manifest": DEMO}).status_code == 200
    assert post_json(client, PERMALINKS, {"manifest": DEMO}).status_code == 201


def test_a_browser_session_must_send_the_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    client.get("/")                                        # the page sets the csrftoken cookie
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    rejected = post_json(client, EXPLAIN, {"manifest": DEMO})
    assert "CSRF" in assert_error(rejected, 403)["error"]
    assert_error(post_json(client, PERMALINKS, {"manifest": DEMO}), 403)
    assert not Permalink.objects.exists()
    accepted = post_json(client, EXPLAIN, {"manifest": DEMO}, HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 200
    assert client.get(OPENAPI).status_code == 200          # reading needs no token


def test_delete_from_a_browser_session_needs_the_csrf_token() -> None:
    link, token = Permalink.store(DEMO, None, "1.34")
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    response = client.delete(f"{PERMALINKS}/{link.id}", HTTP_X_DELETE_TOKEN=token)
    assert_error(response, 403)
    assert Permalink.objects.filter(pk=link.id).exists()


# ---- permalinks ------------------------------------------------------------------------------
def test_create_is_idempotent_and_gives_the_token_once(client: Client) -> None:
    body = {"manifest": DEMO, "scenario": {"deleteAt": 30}, "kubernetesVersion": "1.33"}
    first = post_json(client, PERMALINKS, body)
    assert first.status_code == 201
    created = first.json()
    assert set(created) >= {"id", "url", "deleteToken"}
    assert created["url"] == f"http://testserver/p/{created['id']}/"
    assert first["Location"].endswith(f"/api/v1/permalinks/{created['id']}")
    again = post_json(client, PERMALINKS, {**body, "manifest": DEMO.replace("\n", "\r\n")})
    assert again.status_code == 200
    assert again.json()["id"] == created["id"] and "deleteToken" not in again.json()
    assert Permalink.objects.count() == 1
    link = Permalink.objects.get()
    assert link.token_matches(created["deleteToken"])
    assert (link.scenario_data, link.version) == ({"deleteAt": 30}, "1.33")


def test_the_api_and_the_share_form_give_the_same_link(client: Client) -> None:
    created = post_json(client, PERMALINKS, {"manifest": DEMO, "scenario": "deleteAt: 30\n",
                                             "kubernetesVersion": "1.34"}).json()
    page = client.post("/share/", {"manifest": DEMO, "version": "1.34", "scenario": "deleteAt: 30\n"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert f"/p/{created['id']}/" in page


def test_credentials_answer_409_until_the_client_decides(client: Client) -> None:
    conflict = assert_error(post_json(client, PERMALINKS, {"manifest": SECRET_POD}), 409)
    assert conflict["secrets"] == [{"line": 10, "what": "env DB_PASSWORD of app"}]
    assert not Permalink.objects.exists()
    assert_error(post_json(client, PERMALINKS, {"manifest": SECRET_POD, "secrets": "maybe"}), 400)
    stored = post_json(client, PERMALINKS, {"manifest": SECRET_POD, "secrets": "redact"})
    assert stored.status_code == 201 and stored.json()["redacted"] is True
    link = Permalink.objects.get(pk=stored.json()["id"])
    assert "hunter2" not in link.manifest and "<redacted>" in link.manifest and link.redacted
    kept = post_json(client, PERMALINKS, {"manifest": SECRET_POD, "secrets": "keep"})
    assert kept.status_code == 201 and "hunter2" in Permalink.objects.get(pk=kept.json()["id"]).manifest


def test_create_errors(client: Client) -> None:
    assert_error(post_json(client, PERMALINKS, "not json"), 400)
    assert_error(post_json(client, PERMALINKS, {"scenario": {}}), 400)
    assert_error(post_json(client, PERMALINKS, {"manifest": DEMO, "scenario": {"deleteAt": -1}}), 400)
    too_big = DEMO + "#" * settings.MAX_STORED_BYTES
    error = assert_error(post_json(client, PERMALINKS, {"manifest": too_big}), 413)
    assert f"{settings.MAX_STORED_BYTES:,}" in error["error"]
    assert not Permalink.objects.exists()


def test_read_a_permalink(client: Client) -> None:
    created = post_json(client, PERMALINKS, {"manifest": DEMO, "scenario": "deleteAt: 30\n"}).json()
    response = client.get(f"{PERMALINKS}/{created['id']}")
    assert response.status_code == 200
    body = response.json()
    link = Permalink.objects.get(pk=created["id"])
    assert body["id"] == created["id"] and body["kind"] == "explain"
    assert body["manifest"] == link.manifest and body["scenario"] == {"deleteAt": 30}
    assert body["kubernetesVersion"] == "1.37" and body["redacted"] is False
    assert body["url"] == created["url"] and body["created"].startswith(str(link.created.year))
    assert body["explanation"] == explanation_to_dict(explain(link.manifest, {"deleteAt": 30}, "1.37"))
    assert "deleteToken" not in body and "delete_token_hash" not in json.dumps(body)


def test_unknown_ids_are_404_json(client: Client) -> None:
    assert "No permalink" in assert_error(client.get(f"{PERMALINKS}/doesnotexist"), 404)["error"]
    assert_error(client.delete(f"{PERMALINKS}/doesnotexist", HTTP_X_DELETE_TOKEN="x"), 404)


def test_delete_with_the_token_then_get_is_404(client: Client) -> None:
    created = post_json(client, PERMALINKS, {"manifest": DEMO}).json()
    url = f"{PERMALINKS}/{created['id']}"
    assert "does not match" in assert_error(client.delete(url, HTTP_X_DELETE_TOKEN="wrong"), 403)["error"]
    assert_error(client.delete(url), 400)                                  # no token at all
    assert client.get(url).status_code == 200
    response = client.delete(url, HTTP_X_DELETE_TOKEN=created["deleteToken"])
    assert response.status_code == 204 and response.content == b""
    assert_error(client.get(url), 404)
    assert client.get(f"/p/{created['id']}/").status_code == 404
    # storing it again makes it anew, with a new token
    again = post_json(client, PERMALINKS, {"manifest": DEMO})
    assert again.status_code == 201 and again.json()["deleteToken"] != created["deleteToken"]


def test_delete_with_the_token_in_a_json_body(client: Client) -> None:
    created = post_json(client, PERMALINKS, {"manifest": DEMO}).json()
    url = f"{PERMALINKS}/{created['id']}"
    wrong = client.delete(url, json.dumps({"deleteToken": "nope"}), content_type="application/json")
    assert_error(wrong, 403)
    right = client.delete(url, json.dumps({"deleteToken": created["deleteToken"]}), content_type="application/json")
    assert right.status_code == 204
    assert not Permalink.objects.filter(pk=created["id"]).exists()


def test_read_a_compare_permalink(client: Client) -> None:
    left, _ = Permalink.store(load_manifest("seeds/init-example"), None, "1.34")
    right, _ = Permalink.store(load_manifest("seeds/init-example"), {"containers": {"generate-config":
                                                                                   {"runSeconds": 5}}}, "1.34")
    link, token = Permalink.store_compare(left.id, right.id)
    body = client.get(f"{PERMALINKS}/{link.id}").json()
    assert body["kind"] == "compare" and (body["left"], body["right"]) == (left.id, right.id)
    assert body["url"] == f"http://testserver/c/{link.id}/"
    assert any("app now starts 4 s later" in s for s in body["comparison"]["summary"])


# ---- OpenAPI -----------------------------------------------------------------------------------
def _openapi(client: Client) -> dict[str, Any]:
    response = client.get(OPENAPI)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    return response.json()


def test_openapi_describes_the_four_routes(client: Client) -> None:
    doc = _openapi(client)
    assert doc["openapi"].startswith("3.1.")
    assert doc["info"]["title"] and doc["info"]["version"]
    paths = doc["paths"]
    assert {method for method in paths["/api/v1/explain"] if method != "parameters"} == {"post"}
    assert {method for method in paths["/api/v1/permalinks"]} == {"post"}
    assert {method for method in paths["/api/v1/permalinks/{id}"] if method != "parameters"} == {"get", "delete"}
    assert {method for method in paths["/api/v1/openapi.json"]} == {"get"}
    assert "400" in paths["/api/v1/explain"]["post"]["responses"]
    assert {"201", "200", "409", "413"} <= set(paths["/api/v1/permalinks"]["post"]["responses"])
    assert {"204", "403", "404"} <= set(paths["/api/v1/permalinks/{id}"]["delete"]["responses"])
    assert "validation" in doc["info"]["description"] and "200" in doc["info"]["description"]
    for path, item in paths.items():                     # every operation answers, every $ref resolves
        for method, op in item.items():
            if method == "parameters":
                continue
            assert op["responses"] and op["operationId"], (path, method)
    refs = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                refs.add(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    schemas = doc["components"]["schemas"]
    for ref in refs:
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in schemas, ref
    for name, schema in schemas.items():
        Draft202012Validator.check_schema(schema)
    assert schemas["Event"]["properties"]["type"]["enum"] == list(EVENT_TYPES)
    assert {"schemaVersion", "kubernetesVersion", "pods", "skipped", "errors"} <= set(
        schemas["Explanation"]["properties"])
    assert {"name", "source", "admitted", "containers", "events", "statusTimeline", "finalPhase",
            "restartCounts", "findings", "sharing", "errors"} <= set(schemas["Pod"]["properties"])


def _validator(doc: dict[str, Any], name: str) -> Draft202012Validator:
    root = Resource.from_contents({"components": doc["components"]}, default_specification=DRAFT202012)
    registry = Registry().with_resource("urn:openapi", root)
    schema = {"$ref": f"urn:openapi#/components/schemas/{name}"}
    return Draft202012Validator(schema, registry=registry)


@pytest.mark.parametrize("slug", ["lifecycle-demo", "process-sharing-example", "job-classic-sidecar",
                                  "web-app-pod", "tmp-without-volume"])
def test_answers_match_the_openapi_schemas(client: Client, slug: str) -> None:
    doc = _openapi(client)
    manifest = load_manifest(f"seeds/{slug}")
    answer = post_json(client, EXPLAIN, {"manifest": manifest, "scenario": {"deleteAt": 20}}).json()
    _validator(doc, "Explanation").validate(answer)
    created = post_json(client, PERMALINKS, {"manifest": manifest}).json()
    _validator(doc, "PermalinkCreated").validate(created)
    _validator(doc, "Permalink").validate(client.get(f"{PERMALINKS}/{created['id']}").json())
    _validator(doc, "Error").validate(post_json(client, EXPLAIN, {"manifest": "a: ["}).json())
    _validator(doc, "Error").validate(post_json(client, PERMALINKS, {"manifest": SECRET_POD}).json())


@pytest.mark.parametrize("version", ["1.35", "1.36", "1.37"])
def test_explain_accepts_the_new_versions(client: Client, version: str) -> None:
    response = post_json(client, EXPLAIN, {"manifest": DEMO, "kubernetesVersion": version})
    assert response.status_code == 200 and response.json()["kubernetesVersion"] == version


def test_explain_without_a_version_uses_1_37_and_1_38_is_not_supported(client: Client) -> None:
    assert post_json(client, EXPLAIN, {"manifest": DEMO}).json()["kubernetesVersion"] == "1.37"
    assert "1.27, 1.28" in assert_error(post_json(client, EXPLAIN, {"manifest": DEMO, "kubernetesVersion": "1.38"}),
                                        400)["error"]


SURROGATE_BODIES = {
    "manifest": '{"manifest": "apiVersion: v1\\nkind: Pod # \\ud800\\n"}',
    "version": '{"manifest": "kind: Pod", "kubernetesVersion": "1.3\\ud800"}',
    "scenario key": '{"manifest": "kind: Pod", "scenario": {"\\udfff": 1}}',
    "scenario value": '{"manifest": "kind: Pod", "scenario": {"containers": {"app": {"imagePull": "\\ud800"}}}}',
    "secrets decision": '{"manifest": "kind: Pod", "secrets": "\\ud83d"}',
}


@pytest.mark.parametrize("where", sorted(SURROGATE_BODIES))
@pytest.mark.parametrize("url", [EXPLAIN, PERMALINKS])
def test_lone_surrogates_anywhere_in_a_json_body_answer_400_json(client: Client, where: str, url: str) -> None:
    response = client.post(url, SURROGATE_BODIES[where], content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert "surrogate" in response.json()["error"]


@pytest.mark.parametrize(("body", "where"), [
    (SURROGATE_BODIES["manifest"], "manifest"),
    (SURROGATE_BODIES["version"], "kubernetesVersion"),
    (SURROGATE_BODIES["scenario key"], "scenario.\\udfff"),
    (SURROGATE_BODIES["scenario value"], "scenario.containers.app.imagePull"),
    ('{"manifest": "kind: Pod", "scenario": {"debug": [{"name": "a"}, {"name": "b", "image": "x\\udc00"}]}}',
     "scenario.debug[1].image"),
    ('{"manifest": "kind: Pod", "scenario": {"debug": [{"name": "\\ud83d\\ude00"}, {"name": "\\ud83d"}]}}',
     "scenario.debug[1].name"),   # a pair is text; the lone half after it is not
])
def test_a_lone_surrogate_is_named_where_it_is(client: Client, body: str, where: str) -> None:
    error = post_json(client, EXPLAIN, body).json()
    assert error["error"].endswith(f"in {where}: that is not text. Send valid Unicode."), error["error"]
    assert error["errors"][0]["path"] == where


@pytest.mark.parametrize("body", [
    '{"manifest": "apiVersion: v1\\nkind: Pod\\nmetadata: {name: \\"\\ud83d\\ude00\\"}\\n"}',  # a pair: an emoji
    '{"manifest": "apiVersion: v1\\nkind: Pod\\nmetadata: {name: a}\\n# \\\\ud800 written out\\n"}',  # a backslash, then text
])
def test_what_only_looks_like_a_lone_surrogate_is_read(client: Client, body: str) -> None:
    response = post_json(client, EXPLAIN, body)
    assert "surrogate" not in response.content.decode(), response.content[:300]


def test_a_lone_surrogate_in_a_delete_token_answers_400_json(client: Client) -> None:
    link, _token = Permalink.store(load_manifest("seeds/init-example"), None, "1.34")
    response = client.delete(f"/api/v1/permalinks/{link.id}", '{"deleteToken": "\\ud800"}',
                             content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]


def test_the_api_error_path_answers_json_even_when_the_message_cannot_be_utf8() -> None:
    from explainer.web.api import error_response
    response = error_response(400, "bad \ud800 version", [ErrorRecord("x \udfff", path="kubernetesVersion")])
    assert response.status_code == 400 and json.loads(response.content)["error"] == "bad \ud800 version"


def test_an_unexpected_failure_outside_the_api_handler_is_still_json(client: Client, monkeypatch) -> None:
    from explainer.web import api

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("broken before the handler")

    monkeypatch.setattr(api._CsrfCheck, "process_view", broken)   # runs outside the handler's own guard
    client.raise_request_exception = False
    client.cookies["csrftoken"] = "x" * 32
    response = client.post(EXPLAIN, '{"manifest": "kind: Pod"}', content_type="application/json")
    assert response.status_code == 500 and response["Content-Type"] == "application/json"
    assert "Internal error" in response.json()["error"] and b"<html" not in response.content.lower()


def test_a_long_answer_is_cut_to_the_limit_and_says_so_in_the_schema(client: Client, settings) -> None:
    settings.MAX_ANSWER_BYTES = 200_000
    cs = "".join(f"  - {{name: c{i}, image: busybox}}\n" for i in range(4))
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n" + cs
    scenario = {"until": 86400, "containers": {f"c{i}": {"runSeconds": 1, "exitCode": 1} for i in range(4)}}
    response = client.post(EXPLAIN, {"manifest": manifest, "scenario": scenario}, content_type="application/json")
    assert response.status_code == 200 and len(response.content) <= 200_000
    body = response.json()
    assert body["answerTruncated"]["limit"] == 200_000
    assert body["pods"][0]["restartCounts"] == {f"c{i}": 291 for i in range(4)}
    errors = list(_validator(_openapi(client), "Explanation").iter_errors(body))
    assert not errors, errors[:3]

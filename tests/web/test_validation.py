"""What the API server rejects, what only the schema requires, size limits and empty input, on the page and
in the API (issue 13): the same explanation as the CLI, in both languages."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.conftest import load_manifest
from tests.test_podlife_limits import install_manifest

pytestmark = pytest.mark.django_db
API = "/api/v1/explain"


def page(client: Client, manifest: str, version: str = "1.34", language: str = "en") -> str:
    response = client.post("/", {"manifest": manifest, "version": version}, HTTP_HX_REQUEST="true",
                           HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_a_removed_api_version_is_shown_with_its_line(client: Client) -> None:
    body = page(client, load_manifest("validation/batch_v1beta1_cronjob"))
    assert 'data-line="4"' in body and "no matches for kind &quot;CronJob&quot; in version &quot;batch/v1beta1&quot;" \
        in body and "removed in Kubernetes 1.25; migrate to batch/v1" in body
    body = page(client, load_manifest("validation/batch_v1beta1_cronjob"), language="zh-hans")
    assert "已在 Kubernetes 1.25 中移除；请迁移到 batch/v1" in body


def test_requests_above_limits_are_an_error_on_the_page(client: Client) -> None:
    body = page(client, load_manifest("validation/requests_over_limits"))
    assert "must be less than or equal to memory limit of 800Mi" in body and 'data-line="32"' in body


def test_a_schema_only_field_is_a_warning_and_the_pod_is_explained(client: Client) -> None:
    body = page(client, load_manifest("validation/statefulset_without_service_name"), version="1.30")
    assert "warning-panel" in body and "1 field only the published schema requires" in body
    assert "error-panel" not in body and "<svg" in body
    assert "warning-panel" not in page(client, load_manifest("validation/statefulset_without_service_name"),
                                       version="1.33")
    response = client.post(API, {"manifest": load_manifest("validation/statefulset_without_service_name"),
                                 "kubernetesVersion": "1.30"}, content_type="application/json")
    assert response.status_code == 200 and response.json()["warnings"][0]["path"] == "spec"


@pytest.mark.parametrize("manifest", ["# nothing here yet\n", "---\n---\n"])
def test_an_input_of_only_comments_says_there_is_nothing_to_explain(client: Client, manifest: str) -> None:
    body = page(client, manifest)
    assert "Nothing to explain: the input is empty" in body and "pick an example below" not in body
    assert "没有可解释的内容" in page(client, manifest, language="zh-hans")
    response = client.post(API, {"manifest": manifest}, content_type="application/json")
    assert response.status_code == 200 and response.json()["nothingToExplain"] is True


@pytest.mark.parametrize("language,words", [("en", "EXPLAINER_MAX_MANIFEST_BYTES raises it"),
                                            ("zh-hans", "可用 EXPLAINER_MAX_MANIFEST_BYTES 提高上限")])
def test_a_real_install_manifest_over_the_web_limit_names_the_setting(client: Client, settings, language: str,
                                                                      words: str) -> None:
    manifest = install_manifest()          # ~1.5 MB: over the web's 1 MiB default
    assert settings.MAX_MANIFEST_BYTES == 1048576 < len(manifest.encode())
    body = client.post("/", {"manifest": manifest, "version": "1.34"}, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in body
    response = client.post(API, {"manifest": manifest}, content_type="application/json")
    assert response.status_code == 413 and "EXPLAINER_MAX_MANIFEST_BYTES raises it" in response.json()["error"]


def test_every_web_size_limit_names_its_setting(client: Client, settings) -> None:
    settings.MAX_PODS = 1
    response = client.post(API, {"manifest": load_manifest("validation/mysql_statefulset") + "\n---\n"
                                 + load_manifest("validation/statefulset_without_service_name")},
                           content_type="application/json")
    assert "(EXPLAINER_MAX_PODS raises it)" in response.json()["error"]
    settings.MAX_PODS, settings.MAX_CONTAINERS = 50, 1
    response = client.post(API, {"manifest": load_manifest("validation/mysql_statefulset")},
                           content_type="application/json")
    assert "(EXPLAINER_MAX_CONTAINERS raises it)" in response.json()["error"]
    settings.MAX_REQUEST_BYTES = 10
    response = client.post(API, {"manifest": "x" * 100}, content_type="application/json")
    assert response.status_code == 413 and "EXPLAINER_MAX_REQUEST_BYTES" in response.json()["error"]

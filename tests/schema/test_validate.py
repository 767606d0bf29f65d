"""explainer.schema.validate: every schema error of an object, with its line and path."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from explainer.lifecycle.errors import ErrorRecord
from explainer.lifecycle.manifest.yamlload import load_documents
from explainer.schema import SUPPORTED_SCHEMA_VERSIONS, has_schema, normalise_version, validate_document

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "schema"


def load_manifest(name: str) -> str:
    return (FIXTURES / f"{name.removeprefix('schema/')}.yaml").read_text(encoding="utf-8")


def _data(name: str) -> Any:
    return load_documents(load_manifest(f"schema/{name}"))[0].data


def _check(name: str, version: str, at: tuple[Any, ...] = ()) -> list[ErrorRecord]:
    return validate_document(_data(name), 3, version, at)


def _brief(records: list[ErrorRecord]) -> list[tuple[int | None, str | None, str]]:
    return [(r.line, r.path, r.message) for r in records]


def test_supported_versions_found_on_disk() -> None:
    assert SUPPORTED_SCHEMA_VERSIONS[0] == "1.25"
    assert SUPPORTED_SCHEMA_VERSIONS[-1] == "1.37"
    assert {f"1.{n}" for n in range(27, 38)} <= set(SUPPORTED_SCHEMA_VERSIONS)
    assert list(SUPPORTED_SCHEMA_VERSIONS) == sorted(SUPPORTED_SCHEMA_VERSIONS, key=lambda v: int(v.split(".")[1]))


@pytest.mark.parametrize("given", ["1.34", "v1.34.0", "1.34.0"])
def test_version_spellings(given: str) -> None:
    assert normalise_version(given) == "1.34"


@pytest.mark.parametrize("given", ["1.19", "2.0", "latest", "1.34.x", ""])
def test_unknown_version_is_a_value_error(given: str) -> None:
    with pytest.raises(ValueError, match="no Kubernetes schema"):
        validate_document(_data("valid_pod"), 0, given)


def test_valid_pod_has_no_errors() -> None:
    assert _check("valid_pod", "1.34") == []


def test_unknown_field_with_its_line() -> None:
    [rec] = _check("unknown_field", "1.34")
    assert rec == ErrorRecord(
        'unknown field "imagePullPolcy" (not in the Kubernetes 1.34 schema); did you mean "imagePullPolicy"?',
        line=9, column=5, path="spec.containers[0].imagePullPolcy",
        kind="schema", reason="Unknown field", document=3)


def test_wrong_type_with_its_line() -> None:
    [rec] = _check("wrong_type", "1.34")
    assert (rec.line, rec.column) == (10, 7)
    assert rec.path == "spec.containers[0].ports[0].containerPort"
    assert rec.message == 'must be integer, not string ("8080")'
    assert rec.kind == "schema"


def test_every_error_is_reported_sorted_by_line() -> None:
    assert _brief(_check("multiple_errors", "1.34")) == [
        (5, "metadata.labels", "must be mapping, not list"),
        (7, "spec.restartPolicyy", 'unknown field "restartPolicyy" (not in the Kubernetes 1.34 schema); did you mean "restartPolicy"?'),
        (9, "spec.containers[0]", 'missing required field "name"'),
        (11, "spec.containers[0].ports[0].containerPort",
         "must be a 32-bit integer (-2147483648 to 2147483647), not 99999999999"),
        (14, "spec.containers[1].command", 'must be list, not string ("echo hi")'),
        (15, "spec.containers[1].tty", 'must be boolean, not string ("yes")'),
        (16, "spec.containers[1].colour", 'unknown field "colour" (not in the Kubernetes 1.34 schema)'),
        (17, "spec.containers[1].shape", 'unknown field "shape" (not in the Kubernetes 1.34 schema)'),
    ]


# restartPolicy on init containers (native sidecars) entered the API in 1.28.
@pytest.mark.parametrize("version,rejected", [
    ("1.27", True), ("1.28", False), ("1.29", False), ("1.30", False), ("1.33", False), ("1.37", False),
])
def test_init_container_restart_policy_by_version(version: str, rejected: bool) -> None:
    records = _check("native_sidecar", version)
    if rejected:
        assert _brief(records) == [(
            9, "spec.initContainers[0].restartPolicy",
            f'unknown field "restartPolicy" (not in the Kubernetes {version} schema)')]
    else:
        assert records == []


# The sleep action of lifecycle hooks entered the API in 1.29.
@pytest.mark.parametrize("version,rejected", [
    ("1.27", True), ("1.28", True), ("1.29", False), ("1.30", False), ("1.37", False),
])
def test_prestop_sleep_by_version(version: str, rejected: bool) -> None:
    records = _check("prestop_sleep", version)
    if rejected:
        assert _brief(records) == [(
            11, "spec.containers[0].lifecycle.preStop.sleep",
            f'unknown field "sleep" (not in the Kubernetes {version} schema)')]
    else:
        assert records == []


def test_deployment_uses_its_own_schema() -> None:
    assert _brief(_check("deployment", "1.34")) == [
        (6, "spec.replicas", 'must be integer, not string ("3")'),
        (23, "spec.template.spec.containers[0].port",
         'unknown field "port" (not in the Kubernetes 1.34 schema); did you mean "ports"?'),
    ]


def test_cronjob_uses_its_own_schema() -> None:
    assert _brief(_check("cronjob", "1.34")) == [
        (19, "spec.jobTemplate.spec.template.spec.containers[0].retries",
         'unknown field "retries" (not in the Kubernetes 1.34 schema)'),
    ]


def test_custom_resource_has_no_schema_and_no_errors() -> None:
    data = _data("crd")
    assert not has_schema(data["kind"], data["apiVersion"], "1.34")
    assert validate_document(data, 0, "1.34") == []


@pytest.mark.parametrize("kind,api_version,expected", [
    ("Pod", "v1", True),
    ("Deployment", "apps/v1", True),
    ("CronJob", "batch/v1", True),
    ("Ingress", "networking.k8s.io/v1", True),
    ("Deployment", "apps.example.com/v1", False),  # same file name, another group
    ("Deployment", "v1", False),
    ("PodSpec", "v1", False),  # a file exists, but it is no kind
    ("Certificate", "cert-manager.io/v1", False),
    ("../../../etc/passwd", "v1", False),
    ("Pod", "../v1", False),
    (None, "v1", False),
    ("Pod", 1, False),
])
def test_has_schema(kind: Any, api_version: Any, expected: bool) -> None:
    assert has_schema(kind, api_version, "1.34") is expected


def test_object_without_kind_or_api_version_is_left_to_the_caller() -> None:
    data = load_documents("metadata:\n  name: x\nspec:\n  bogus: 1\n")[0].data
    assert validate_document(data, 0, "1.34") == []
    data = load_documents("kind: Pod\nspec:\n  bogus: 1\n")[0].data
    assert validate_document(data, 0, "1.34") == []


def test_list_items_are_validated_at_their_path() -> None:
    data = _data("list")
    assert validate_document(data, 0, "1.34", at=("items", 0)) == []
    [rec] = validate_document(data, 0, "1.34", at=("items", 1))
    assert rec.path == "items[1].spec.containers[0].imagePullPolcy"
    assert (rec.line, rec.column) == (20, 7)


def test_null_int_or_string_is_accepted() -> None:
    text = load_manifest("schema/valid_pod").replace("port: http", "port: null")
    assert validate_document(load_documents(text)[0].data, 0, "1.34") == []


def test_int_or_string_of_the_wrong_type() -> None:
    text = load_manifest("schema/valid_pod").replace("port: http", "port: [80]")
    [rec] = validate_document(load_documents(text)[0].data, 0, "1.34")
    assert (rec.line, rec.path) == (38, "spec.containers[0].readinessProbe.httpGet.port")
    assert rec.message == "must be string or integer, not list"


@pytest.mark.parametrize("typo, field", [("imagee", "image"), ("comand", "command"), ("livenesProbe", "livenessProbe"),
                                         ("IMAGE", "image"), ("volumeMount", "volumeMounts")])
def test_unknown_fields_suggest_the_field_of_that_object_they_misspell(typo: str, field: str) -> None:
    data = load_documents(f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n"
                          f"  - name: a\n    image: b\n    {typo}: [x]\n")[0].data
    if typo == "IMAGE":
        data = load_documents("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n"
                              "  - name: a\n    IMAGE: b\n")[0].data
    messages = [e.message for e in validate_document(data, 0, "1.34") if e.reason == "Unknown field"]
    assert messages == [f'unknown field "{typo}" (not in the Kubernetes 1.34 schema); did you mean "{field}"?']


def test_an_unknown_field_like_no_other_gets_no_guess() -> None:
    data = load_documents("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n"
                          "  - name: a\n    image: b\n    colour: red\n")[0].data
    (rec,) = validate_document(data, 0, "1.34")
    assert "did you mean" not in rec.message

"""Fields only the published OpenAPI schema requires are warnings, not errors (docs/lifecycle-model.md §5.3):
the Pod is explained, and the CLI text, JSON, SARIF and GitHub outputs carry the warning."""
from __future__ import annotations

import json

import pytest

from explainer.cli import run as cli
from explainer.explain import explain
from explainer.render.jsonable import explanation_to_dict
from explainer.render.sarif import to_sarif
from explainer.render.text import explanation_as_text
from explainer.schema.validate import SCHEMA_ONLY_REQUIRED, _definitions
from tests.conftest import FIXTURES_DIR, load_manifest

STATEFULSET = "validation/statefulset_without_service_name"
JOB = "validation/job_pod_failure_policy_exit_codes"


@pytest.mark.parametrize("version,warned", [(v, v <= "1.32") for v in
                                            ("1.27", "1.28", "1.30", "1.32", "1.33", "1.37")])
def test_a_statefulset_without_service_name_is_explained_with_a_warning_before_1_33(version: str,
                                                                                     warned: bool) -> None:
    expl = explain(load_manifest(STATEFULSET), None, version)
    assert not expl.errors and expl.pods[0].admitted and expl.pods[0].simulation is not None
    assert [(w.path, w.line, w.kind) for w in expl.warnings] == ([("spec", 9, "schema-only")] if warned else [])
    if warned:
        assert '"serviceName" is required only by the published OpenAPI schema of Kubernetes ' + version \
            in expl.warnings[0].message and "PR #130233" in expl.warnings[0].message


@pytest.mark.parametrize("version,warned", [("1.27", True), ("1.28", True), ("1.29", False), ("1.37", False)])
def test_a_pod_failure_policy_rule_with_exit_codes_only_is_not_an_error(version: str, warned: bool) -> None:
    expl = explain(load_manifest(JOB), None, version)
    assert not expl.errors and expl.pods[0].admitted
    assert [w.path for w in expl.warnings] == (["spec.podFailurePolicy.rules[0]"] if warned else [])


def test_a_pattern_without_status_is_a_warning_up_to_1_34() -> None:
    text = ("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  podFailurePolicy:\n    rules:\n"
            "    - action: Ignore\n      onPodConditions: [{type: DisruptionTarget}]\n  template:\n    spec:\n"
            "      restartPolicy: Never\n      containers: [{name: a, image: b}]\n")
    assert [w.line for w in explain(text, None, "1.34").warnings] == [8]
    assert not explain(text, None, "1.35").warnings and not explain(text, None, "1.34").errors


def test_a_probe_header_without_value_is_a_warning_in_every_version() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: b\n"
            "    readinessProbe:\n      httpGet: {path: /, port: 80, httpHeaders: [{name: X-Probe}]}\n")
    for version in ("1.27", "1.37"):
        expl = explain(text, None, version)
        assert not expl.errors and [w.path for w in expl.warnings] == \
            ["spec.containers[0].readinessProbe.httpGet.httpHeaders[0]"]


def test_a_field_the_api_server_requires_stays_an_error() -> None:
    text = ("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  serviceName: s\n"
            "  template:\n    spec:\n      containers: [{name: a, image: b}]\n")
    expl = explain(text, None, "1.30")
    assert [e.message for e in expl.errors] == ['missing required field "selector"'] and not expl.warnings


def test_every_schema_only_entry_names_a_definition_that_requires_the_field_somewhere() -> None:
    for definition, field in SCHEMA_ONLY_REQUIRED:
        assert any(field in (_definitions(v)["$defs"].get(definition) or {}).get("required", ())
                   for v in ("1.27", "1.28", "1.32", "1.34")), (definition, field)


def test_the_warning_is_in_every_output_and_fails_nothing(tmp_path) -> None:
    expl = explain(load_manifest(STATEFULSET), None, "1.30")
    data = explanation_to_dict(expl)
    assert data["errors"] == [] and data["warnings"][0]["kind"] == "schema-only"
    assert data["pods"][0]["warnings"] == data["warnings"]
    assert "warning: line 9 (spec): \"serviceName\" is required only" in explanation_as_text(expl)
    results = to_sarif([("s.yaml", expl)])["runs"][0]["results"]
    inputs = [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
              for r in results if r["ruleId"] in ("schema-validation", "api-server-validation")]
    assert inputs == [("schema-validation", "warning", 9)]
    path = str(FIXTURES_DIR / f"{STATEFULSET}.yaml")
    outcome = cli.run([path], None, "1.30", "github", "warning", 1 << 20)   # its findings are info
    assert outcome.code == cli.EXIT_OK and outcome.stdout.startswith("::warning file=")
    outcome = cli.run([path], None, "1.30", "json", None, 1 << 20)
    assert outcome.code == cli.EXIT_OK and json.loads(outcome.stdout)["warnings"]

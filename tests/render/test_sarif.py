"""SARIF 2.1.0 output: valid against the official schema, rules per finding id, results at the right line."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from explainer.explain import Explanation, explain
from explainer.findings import RULES, catalogue
from explainer.render.sarif import FINGERPRINT, INPUT_RULE_OF_KIND, camel_case, to_sarif
from tests.conftest import load_manifest

ROOT = Path(__file__).resolve().parents[2]
# Fetched by `make setup` (npm pack of the package that ships the official schema).
SCHEMA_PATH = ROOT / ".cache" / "sarif-schema-2.1.0.json"
COUNTER_EXAMPLES = ["long-running-init", "job-classic-sidecar", "tmp-without-volume", "classic-sidecar-order"]
INPUT_RULES = {"manifest-syntax", "api-server-validation", "schema-validation", "scenario"}


@cache
def _validator() -> jsonschema.protocols.Validator:
    if not SCHEMA_PATH.exists():
        pytest.fail(f"{SCHEMA_PATH.relative_to(ROOT)} is missing: "
                    "run `make setup` (it fetches the SARIF schema with npm)")
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _validate(log: dict[str, Any]) -> None:
    # Through JSON and back, as a consumer reads it.
    errors = sorted(_validator().iter_errors(json.loads(json.dumps(log))), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def _seed(name: str) -> tuple[str, Explanation]:
    return f"explainer/examples/{name}.yaml", explain(load_manifest(f"seeds/{name}"))


@cache
def _counter_examples() -> tuple[list[tuple[str, Explanation]], dict[str, Any]]:
    files = [_seed(n) for n in COUNTER_EXAMPLES]
    return files, to_sarif(files)


def test_schema_is_the_official_2_1_0() -> None:
    _validator()
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert "2.1.0" in schema["title"]
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]


def test_counter_examples_validate_against_the_sarif_schema() -> None:
    _, log = _counter_examples()
    _validate(log)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "pod-lifecycle-explainer"
    assert driver["informationUri"].startswith("https://")
    assert driver["semanticVersion"].count(".") == 2
    assert run["invocations"] == [{"executionSuccessful": True}]


def test_one_rule_per_catalogue_id_and_the_input_rules() -> None:
    _, log = _counter_examples()
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids))
    assert set(ids) == {rule.ID for rule in RULES} | INPUT_RULES
    levels = {"error": "error", "warning": "warning", "info": "note"}
    by_id = {r["id"]: r for r in rules}
    for entry in catalogue():
        rule = by_id[entry["id"]]
        assert rule["name"] == camel_case(entry["id"]) and "-" not in rule["name"]
        assert rule["shortDescription"]["text"] == entry["title"]
        assert rule["fullDescription"]["text"] == entry["what"]
        assert entry["what"] in rule["help"]["text"] and entry["fix"] in rule["help"]["text"]
        assert "```yaml\n" in rule["help"]["markdown"]
        assert rule["helpUri"] == entry["references"][0]
        assert rule["defaultConfiguration"]["level"] == levels[entry["severity"]]
        assert rule["properties"]["tags"][:2] == ["kubernetes", "pod-lifecycle"]
    assert camel_case("init-never-completes") == "InitNeverCompletes"


def test_rule_index_and_rule_id_agree() -> None:
    files, log = _counter_examples()
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert run["results"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        loc = result["locations"][0]["physicalLocation"]
        assert run["artifacts"][loc["artifactLocation"]["index"]]["location"]["uri"] == loc["artifactLocation"]["uri"]


@pytest.mark.parametrize("name", COUNTER_EXAMPLES)
def test_every_finding_of_a_counter_example_is_a_result_at_its_line(name: str) -> None:
    files, log = _counter_examples()
    path, expl = files[COUNTER_EXAMPLES.index(name)]
    results = [r for r in log["runs"][0]["results"]
               if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == path]
    got = sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"],
                  r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"], r["level"]) for r in results)
    levels = {"error": "error", "warning": "warning", "info": "note"}
    want = sorted((f["id"], f["line"], f"{rep.pod.source.kind}/{rep.pod.name}/containers/{f['container']}",
                   levels[f["severity"]])
                  for rep in expl.pods for f in (x.to_dict() for x in rep.findings))
    assert want and got == want
    assert all(f["line"] for rep in expl.pods for f in (x.to_dict() for x in rep.findings))


@pytest.mark.parametrize("name, rule_id, line, container", [
    ("long-running-init", "init-never-completes", 10, "Pod/long-running-init/containers/proxy"),
    ("job-classic-sidecar", "job-sidecar-blocks-completion", 15, "Job/job-classic-sidecar/containers/log-sidecar"),
    ("tmp-without-volume", "file-shared-without-volume", 14, "Pod/tmp-without-volume/containers/app"),
    ("classic-sidecar-order", "sidecar-start-order-assumed", 8, "Pod/classic-sidecar-order/containers/proxy"),
])
def test_the_pitfall_of_each_counter_example(name: str, rule_id: str, line: int, container: str) -> None:
    _, log = _counter_examples()
    hits = [r for r in log["runs"][0]["results"] if r["ruleId"] == rule_id and
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == f"explainer/examples/{name}.yaml"]
    assert len(hits) == 1
    (hit,) = hits
    assert hit["locations"][0]["physicalLocation"]["region"] == {"startLine": line}
    assert hit["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == container
    assert "\nFix:\n" in hit["message"]["text"]


def test_fingerprints_are_stable_and_distinct() -> None:
    files, log = _counter_examples()
    again = to_sarif(files)
    prints = [r["partialFingerprints"][FINGERPRINT] for r in log["runs"][0]["results"]]
    assert prints == [r["partialFingerprints"][FINGERPRINT] for r in again["runs"][0]["results"]]
    assert len(prints) == len(set(prints))


def test_input_problems_are_results_of_the_input_rules() -> None:
    syntax = explain(load_manifest("invalid/syntax_error"))
    rejected = explain(load_manifest("scenarios/native_sidecar"), version="1.27")
    bad_scenario = explain(load_manifest("scenarios/native_sidecar"), "containers: {nope: {runSeconds: 1}}")
    log = to_sarif([("tests/fixtures/invalid/syntax_error.yaml", syntax), ("-", rejected),
                    ("pods\\native_sidecar.yaml", bad_scenario)], execution_successful=True)
    _validate(log)
    run = log["runs"][0]
    by_uri: dict[str, list[dict[str, Any]]] = {}
    for r in run["results"]:
        by_uri.setdefault(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], []).append(r)
    assert set(by_uri) == {"tests/fixtures/invalid/syntax_error.yaml", "stdin", "pods/native_sidecar.yaml"}
    (syn,) = by_uri["tests/fixtures/invalid/syntax_error.yaml"]
    assert syn["ruleId"] == "manifest-syntax" and syn["level"] == "error"
    region = syn["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == 9 and region["startColumn"] >= 1
    assert "logicalLocations" not in syn["locations"][0]
    validation = [r for r in by_uri["stdin"] if r["ruleId"] == "api-server-validation"]
    assert validation and all(r["locations"][0]["physicalLocation"]["region"]["startLine"] == 10 for r in validation)
    assert validation[0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "Pod/with-sidecar"
    assert [r["ruleId"] for r in by_uri["pods/native_sidecar.yaml"]] == ["scenario"]
    assert set(INPUT_RULE_OF_KIND.values()) == INPUT_RULES


def test_an_empty_run_still_validates() -> None:
    log = to_sarif([], execution_successful=False)
    _validate(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_a_finding_about_a_service_is_a_result_at_its_line() -> None:
    files = [("svc.yaml", explain(load_manifest("findings/service-selects-no-pod/fires")))]
    log = to_sarif(files)
    _validate(log)
    (result,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "service-selects-no-pod"]
    location = result["locations"][0]
    assert location["physicalLocation"]["region"]["startLine"] == 8
    assert location["logicalLocations"][0]["fullyQualifiedName"] == "Service/frontend"
    assert result["level"] == "warning" and result["properties"]["kind"] == "Service"

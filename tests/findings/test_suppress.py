"""Suppressions: the ignore-check.podlife.io/<rule-id> annotation and disabled rules."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.render.jsonable import explanation_to_dict
from explainer.render.sarif import to_sarif
from explainer.cli import run as cli
from tests.conftest import FIXTURES_DIR, load_manifest
from tests.render.test_sarif import _validate

# (fixture, rules silenced -> (reason, annotation line), rules still reported)
CASES = [
    ("suppress/deployment-template-annotation",
     {"missing-resources": ("sized by the namespace LimitRange", 14), "readiness-probe-missing": ("", 15)},
     set()),
    ("suppress/job-object-annotation",
     {"job-sidecar-blocks-completion": ("the proxy quits on /quitquitquit, sent by the worker", 8)},
     {"missing-resources", "sidecar-start-order-assumed"}),
]


@pytest.mark.parametrize("fixture,silenced,reported", CASES, ids=[c[0] for c in CASES])
def test_annotation_moves_the_rule_aside_with_its_reason(fixture: str, silenced: dict, reported: set) -> None:
    (pod,) = explain(load_manifest(fixture)).pods
    assert {f.id for f in pod.findings} == reported
    assert {s.finding.id: (s.suppression.reason, s.suppression.line) for s in pod.suppressed} == silenced
    as_json = explanation_to_dict(explain(load_manifest(fixture)))["pods"][0]
    assert {f["id"]: f["suppression"]["reason"] for f in as_json["suppressedFindings"]} == \
        {rule: reason for rule, (reason, _) in silenced.items()}
    assert all(f["suppression"]["kind"] == "annotation" for f in as_json["suppressedFindings"])


def test_the_same_manifest_without_the_annotation_reports_the_rules() -> None:
    text = load_manifest("suppress/job-object-annotation")
    bare = "\n".join(line for line in text.splitlines() if "ignore-check" not in line and "annotations:" not in line)
    (pod,) = explain(bare).pods
    assert {"job-sidecar-blocks-completion", "missing-resources"} <= {f.id for f in pod.findings}
    assert pod.suppressed == []


def test_an_annotation_naming_no_rule_is_reported() -> None:
    (pod,) = explain(load_manifest("suppress/deployment-template-annotation")).pods
    notes = [str(n) for n in pod.notes]
    assert any("ignore-check.podlife.io/no-such-rule (line 16) names no rule" in n for n in notes), notes


def test_sarif_shows_the_suppression_and_stays_valid() -> None:
    path = str(FIXTURES_DIR / "suppress" / "job-object-annotation.yaml")
    log = to_sarif([(path, explain(load_manifest("suppress/job-object-annotation")))])
    _validate(log)
    (silenced,) = [r for r in log["runs"][0]["results"] if r.get("suppressions")]
    assert silenced["ruleId"] == "job-sidecar-blocks-completion"
    assert silenced["suppressions"] == [{
        "kind": "inSource", "status": "accepted",
        "justification": "the proxy quits on /quitquitquit, sent by the worker",
        "location": silenced["suppressions"][0]["location"]}]
    assert silenced["suppressions"][0]["location"]["physicalLocation"]["region"]["startLine"] == 8


def test_a_suppressed_error_does_not_fail_the_build() -> None:
    path = str(FIXTURES_DIR / "suppress" / "job-object-annotation.yaml")
    assert cli.run([path], None, None, "json", "error", 1 << 20).code == cli.EXIT_OK
    assert cli.run([path], None, None, "json", "info", 1 << 20).code == cli.EXIT_FAIL_ON


def test_disabled_rules_do_not_run() -> None:
    text = load_manifest("suppress/job-object-annotation")
    (pod,) = explain(text, disabled=frozenset({"missing-resources"})).pods
    assert "missing-resources" not in {f.id for f in pod.findings}
    assert {s.finding.id for s in pod.suppressed} == {"job-sidecar-blocks-completion"}

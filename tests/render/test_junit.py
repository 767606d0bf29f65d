"""JUnit XML output: one suite per file, one case per (rule, Pod), failures for findings, counts that add up.

No JUnit XSD ships in a package we install, so the checks are structural: what CI report readers
(Jenkins, GitLab, GitHub test reporters) rely on.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache

from explainer.explain import Explanation, explain
from explainer.findings import INPUT_RULES, POD_RULES
from explainer.render.junit import to_junit
from tests.conftest import load_manifest

COUNTER_EXAMPLES = ["long-running-init", "job-classic-sidecar", "tmp-without-volume", "classic-sidecar-order"]
RULE_IDS = [rule.ID for rule in POD_RULES]          # a test case per Pod
INPUT_IDS = sorted(rule.ID for rule in INPUT_RULES)  # a test case per Service (findings/inputs.py)


def _files() -> list[tuple[str, Explanation]]:
    files = [(f"explainer/examples/{n}.yaml", explain(load_manifest(f"seeds/{n}"))) for n in COUNTER_EXAMPLES]
    files.append(("tests/fixtures/invalid/syntax_error.yaml", explain(load_manifest("invalid/syntax_error"))))
    files.append(("-", explain(load_manifest("scenarios/native_sidecar"), version="1.27")))
    return files


@cache
def _parsed() -> tuple[list[tuple[str, Explanation]], str, ET.Element]:
    files = _files()
    xml = to_junit(files)
    return files, xml, ET.fromstring(xml.encode("utf-8"))


def _check_counts(el: ET.Element, cases: list[ET.Element]) -> None:
    errors = sum(1 for c in cases if c.find("error") is not None)
    failures = sum(1 for c in cases if c.find("error") is None and c.find("failure") is not None)
    skipped = sum(1 for c in cases if c.find("skipped") is not None)
    assert (int(el.get("tests")), int(el.get("failures")), int(el.get("errors")), int(el.get("skipped"))) == (
        len(cases), failures, errors, skipped)


def test_it_parses_with_a_testsuites_root_and_one_suite_per_file() -> None:
    files, xml, root = _parsed()
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [p if p != "-" else "stdin" for p, _ in files]
    for suite in suites:
        assert {child.tag for child in suite} <= {"properties", "testcase"}
        for case in suite.findall("testcase"):
            assert case.get("classname", "").startswith("podlifecycle.") and case.get("name")
            assert {child.tag for child in case} <= {"failure", "error", "skipped"}


def test_counts_add_up_per_suite_and_in_total() -> None:
    _, _, root = _parsed()
    suites = root.findall("testsuite")
    for suite in suites:
        _check_counts(suite, suite.findall("testcase"))
    _check_counts(root, [c for s in suites for c in s.findall("testcase")])
    assert int(root.get("failures")) > 0 and int(root.get("errors")) > 0


def test_one_case_per_rule_and_pod_with_a_failure_per_finding() -> None:
    files, _, root = _parsed()
    for (path, expl), suite in zip(files, root.findall("testsuite"), strict=True):
        for report in expl.pods:
            classname = f"podlifecycle.{report.pod.source.kind}.{report.pod.name}"
            cases = [c for c in suite.findall("testcase") if c.get("classname") == classname]
            assert [c.get("name") for c in cases] == ["manifest"] + RULE_IDS
            by_rule = {c.get("name"): c for c in cases}
            findings = [f.to_dict() for f in report.findings]
            for rule_id in RULE_IDS:
                want = [f for f in findings if f["id"] == rule_id]
                got = by_rule[rule_id].findall("failure")
                assert len(got) == len(want), (path, rule_id)
                for failure, f in zip(got, want, strict=True):
                    assert failure.get("type") == f["severity"]
                    assert failure.get("message") == f["title"]
                    assert f["explanation"] in failure.text and f"line {f['line']}" in failure.text
                    assert f["fix"].strip().splitlines()[0] in failure.text


def test_the_counter_examples_fail_their_rule() -> None:
    _, _, root = _parsed()
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    for name, classname, rule_id in [
        ("long-running-init", "podlifecycle.Pod.long-running-init", "init-never-completes"),
        ("job-classic-sidecar", "podlifecycle.Job.job-classic-sidecar", "job-sidecar-blocks-completion"),
        ("tmp-without-volume", "podlifecycle.Pod.tmp-without-volume", "file-shared-without-volume"),
        ("classic-sidecar-order", "podlifecycle.Pod.classic-sidecar-order", "sidecar-start-order-assumed"),
    ]:
        (case,) = [c for c in suites[f"explainer/examples/{name}.yaml"].findall("testcase")
                   if c.get("classname") == classname and c.get("name") == rule_id]
        assert case.find("failure") is not None


def test_input_problems_are_errors_of_a_manifest_case() -> None:
    _, _, root = _parsed()
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    syntax = suites["tests/fixtures/invalid/syntax_error.yaml"]
    (case,) = syntax.findall("testcase")
    assert (case.get("classname"), case.get("name")) == ("podlifecycle.manifest", "manifest")
    (error,) = case.findall("error")
    assert error.get("type") == "syntax" and "line 9" in error.text
    rejected = suites["stdin"]
    (pod_manifest,) = [c for c in rejected.findall("testcase")
                       if c.get("classname") == "podlifecycle.Pod.with-sidecar" and c.get("name") == "manifest"]
    kinds = [e.get("type") for e in pod_manifest.findall("error")]
    assert "validation" in kinds and set(kinds) <= {"validation", "schema"}
    assert int(rejected.get("errors")) == 1


def test_a_clean_file_has_only_passing_cases_and_skips_other_kinds() -> None:
    text = load_manifest("ci/repo/apps/web")
    root = ET.fromstring(to_junit([("apps/web.yaml", explain(text))]))
    (suite,) = root.findall("testsuite")
    assert suite.get("failures") == "0" and suite.get("errors") == "0"
    assert suite.get("skipped") == "0"   # the Service is checked by the input rules
    assert int(suite.get("tests")) == 1 + 1 + len(RULE_IDS) + len(INPUT_IDS)
    service = [c.get("name") for c in suite.findall("testcase") if c.get("classname") == "podlifecycle.Service.web"]
    assert service == INPUT_IDS


def test_a_finding_about_a_service_fails_its_case() -> None:
    text = load_manifest("findings/service-target-port-missing/fires")
    root = ET.fromstring(to_junit([("api.yaml", explain(text))]))
    (case,) = [c for c in root.iter("testcase")
               if c.get("classname") == "podlifecycle.Service.api" and c.get("name") == "service-target-port-missing"]
    (failure,) = case.findall("failure")
    assert failure.get("type") == "error" and "Service: api" in failure.text and "line 11" in failure.text


def test_text_that_xml_cannot_carry_is_replaced() -> None:
    expl = explain("kind: Pod\nmetadata: {name: x}\nspec: [\n")
    broken = [type(e)("bad \x01 byte \x1b[31m", e.line, e.column, e.path, e.kind) for e in expl.errors]
    expl.errors = broken
    root = ET.fromstring(to_junit([("weird\x07name.yaml", expl)]))
    assert root.find("testsuite").get("name") == "weird\ufffdname.yaml"
    assert "\ufffd" in root.find("testsuite/testcase/error").get("message")


def test_no_files_is_an_empty_report() -> None:
    root = ET.fromstring(to_junit([]))
    assert root.tag == "testsuites" and root.get("tests") == "0" and root.findall("testsuite") == []

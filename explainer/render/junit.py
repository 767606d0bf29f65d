"""JUnit XML for CI test reports: a suite per file, a test case per (rule, Pod) and per (input rule, Service),
failures for findings.

Each file gets a ``manifest`` test case (errors for problems that stop the whole file), and each
Pod a ``manifest`` test case (errors the API server or the schema would raise for that Pod) plus
one test case per rule of the catalogue, failed by each finding of that rule in that Pod.
Counts follow the usual convention: ``failures`` and ``errors`` count test cases, not elements.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from ..explain import Explanation, PodReport
from ..findings import catalogue
from ..lifecycle.errors import ErrorRecord

TOOL_NAME = "pod-lifecycle-explainer"
PREFIX = "podlifecycle"
# Characters XML 1.0 cannot carry, even escaped.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def display_path(path: str) -> str:
    return "stdin" if path == "-" else path.replace("\\", "/")


def _x(value: Any) -> str:
    text = value.render() if hasattr(value, "render") else ("" if value is None else str(value))
    return _NOT_XML.sub("\ufffd", text)


def to_junit(files: list[tuple[str, Explanation]]) -> str:
    """The JUnit XML document (a <testsuites> root) for every (path, explanation) pair."""
    rule_ids = [entry["id"] for entry in catalogue() if entry["scope"] == "pod"]   # the input rules: per Service
    root = ET.Element("testsuites", name=TOOL_NAME)
    for path, expl in files:
        root.append(_suite(path, expl, rule_ids))
    _count(root, root.findall("testsuite"))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _suite(path: str, expl: Explanation, rule_ids: list[str]) -> ET.Element:
    suite = ET.Element("testsuite", name=_x(display_path(path)))
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="kubernetesVersion", value=_x(expl.version))
    loose = [e for e in expl.errors if e.pod is None]
    _testcase(suite, f"{PREFIX}.manifest", "manifest", [_error(e) for e in loose])
    for report in expl.pods:
        classname = f"{PREFIX}.{_x(report.pod.source.kind)}.{_x(report.pod.name)}"
        _testcase(suite, classname, "manifest", [_error(e) for e in report.errors])
        findings = [f.to_dict() for f in report.findings]
        ids = rule_ids + sorted({f["id"] for f in findings} - set(rule_ids))
        for rule_id in ids:
            _testcase(suite, classname, rule_id, [_failure(f, report) for f in findings if f["id"] == rule_id])
    input_ids = {entry["id"] for entry in catalogue() if entry["scope"] == "input"}
    findings_of: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for inp in expl.findings:
        findings_of.setdefault((inp.kind, inp.name), []).append(inp.to_dict())
    for s in expl.skipped:
        classname = f"{PREFIX}.{_x(s.kind)}.{_x(s.name)}"
        found = findings_of.pop((s.kind, s.name), [])
        if s.kind == "Service":   # an object the input rules check: a test case per input rule
            for rule_id in sorted(input_ids):
                _testcase(suite, classname, rule_id, [_failure(f, None) for f in found if f["id"] == rule_id])
            continue
        case = ET.SubElement(suite, "testcase", classname=classname, name="skipped")
        ET.SubElement(case, "skipped", message=_x(s.reason))
    _count(suite, suite.findall("testcase"))
    return suite


def _testcase(suite: ET.Element, classname: str, name: str, problems: list[ET.Element]) -> None:
    case = ET.SubElement(suite, "testcase", classname=classname, name=_x(name))
    case.extend(problems)


def _failure(f: dict[str, Any], report: PodReport | None) -> ET.Element:
    el = ET.Element("failure", type=_x(f["severity"]), message=_x(f["title"]))
    where = f"line {f['line']}" if f.get("line") else "line unknown"
    if f.get("path"):
        where += f" ({f['path']})"
    about = f"Pod: {report.pod.source.kind}/{report.pod.name}" if report is not None else \
        f"{f['object']['kind']}: {f['object']['name']}"
    body = [_x(f["explanation"]), "", about]
    if f.get("container"):
        body.append(f"Container: {f['container']}")
    body += [f"Where: {where}", "Fix:", _x(f["fix"]).rstrip("\n")]
    refs = [_x(r) for r in f.get("references") or []]
    if refs:
        body += ["References:"] + [f"  {r}" for r in refs]
    el.text = "\n".join(_x(b) for b in body) + "\n"
    return el


def _error(e: ErrorRecord) -> ET.Element:
    el = ET.Element("error", type=_x(e.kind), message=_x(e.message))
    el.text = _x(e.one_line()) + (f"\nReason: {_x(e.reason)}" if e.reason else "") + "\n"
    return el


def _count(el: ET.Element, children: list[ET.Element]) -> None:
    """tests / failures / errors / skipped of a suite (from its cases) or of the root (from suites)."""
    if el.tag == "testsuite":
        tests = len(children)
        errors = sum(1 for c in children if c.find("error") is not None)
        failures = sum(1 for c in children if c.find("error") is None and c.find("failure") is not None)
        skipped = sum(1 for c in children if c.find("skipped") is not None)
    else:
        tests, failures, errors, skipped = (sum(int(s.get(k, "0")) for s in children)
                                            for k in ("tests", "failures", "errors", "skipped"))
    el.set("tests", str(tests))
    el.set("failures", str(failures))
    el.set("errors", str(errors))
    el.set("skipped", str(skipped))

"""The QoS class, computed as ComputePodQOS does (docs/lifecycle-model.md §25), on the Kubernetes docs'
own QoS and pod-level-resources examples and on table rows."""
from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from explainer.explain import explain
from explainer.lifecycle.quantity import as_fraction
from explainer.render.jsonable import explanation_to_dict
from explainer.render.text import pod_as_text

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
QOS_FILES = sorted((FIXTURES / "qos").glob("*.yaml")) + [
    FIXTURES / "findings" / "cases" / n for n in
    ("limits_only_guaranteed.yaml", "limits_cpu_only.yaml", "init_limits_only_app_bare.yaml",
      "requests_memory_only.yaml")]


def _expected(text: str) -> str:
    return re.search(r"^# qos: (\w+)$", text, re.M).group(1)


@pytest.mark.parametrize("path", QOS_FILES, ids=lambda p: p.stem)
def test_the_docs_examples_get_the_class_the_docs_give(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expl = explain(text)
    assert [r.qos.qos_class for r in expl.pods] == [_expected(text)]
    assert explanation_to_dict(expl)["pods"][0]["qosClass"] == _expected(text)
    assert f"QoS class {_expected(text)}" in "\n".join(pod_as_text(expl.pods[0]))


@pytest.mark.parametrize("text,value", [
    ("500m", Fraction(1, 2)), ("1", Fraction(1)), ("0.1", Fraction(1, 10)), ("1.5Gi", Fraction(3 * 2**29)),
    ("128Mi", Fraction(128 * 2**20)), ("2e3", Fraction(2000)), ("1k", Fraction(1000)), ("100M", Fraction(10**8)),
    (2, Fraction(2)), ("abc", None), ("1Mb", None), (True, None)])
def test_quantities_parse_as_resource_quantity_does(text: object, value: Fraction | None) -> None:
    assert as_fraction(text) == value


POD = """apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
{spec}"""


@pytest.mark.parametrize("spec,version,qos", [
    # limits only on every container, init included: requests default to them -> Guaranteed
    ("  initContainers:\n  - {name: i, image: x, resources: {limits: {cpu: 100m, memory: 32Mi}}}\n"
     "  containers:\n  - {name: a, image: x, resources: {limits: {cpu: '1', memory: 1Gi}}}", "1.37", "Guaranteed"),
    # an init container without limits: not every container limits both -> Burstable
    ("  initContainers:\n  - {name: i, image: x}\n"
     "  containers:\n  - {name: a, image: x, resources: {limits: {cpu: '1', memory: 1Gi}}}", "1.37", "Burstable"),
    # requests below limits -> Burstable; equal written in other units -> Guaranteed
    ("  containers:\n  - {name: a, image: x, resources: {requests: {cpu: 500m}, limits: {cpu: '1', memory: 1Gi}}}",
     "1.37", "Burstable"),
    ("  containers:\n  - {name: a, image: x, resources: {requests: {cpu: '0.5', memory: 1024Mi}, "
     "limits: {cpu: 500m, memory: 1Gi}}}", "1.37", "Guaranteed"),
    # zero quantities do not count; other resources do not count
    ("  containers:\n  - {name: a, image: x, resources: {limits: {cpu: '0', ephemeral-storage: 1Gi}}}",
     "1.37", "BestEffort"),
    # a cpu limit only: Burstable (memory unlimited)
    ("  containers:\n  - {name: a, image: x, resources: {limits: {cpu: 100m}}}", "1.37", "Burstable"),
    # pod-level limits only: pod requests default to them -> Guaranteed with the gate on ...
    ("  resources: {limits: {cpu: '1', memory: 1Gi}}\n  containers:\n  - {name: a, image: x}", "1.34", "Guaranteed"),
    # ... but containers' own requests are what the pod-level request defaults to
    ("  resources: {limits: {cpu: '1', memory: 1Gi}}\n  containers:\n"
     "  - {name: a, image: x, resources: {requests: {cpu: 100m}}}", "1.34", "Burstable"),
    # ... and with the gate off (1.33 default) the API server drops spec.resources: the containers decide
    ("  resources: {limits: {cpu: '1', memory: 1Gi}}\n  containers:\n  - {name: a, image: x}", "1.33", "BestEffort"),
])
def test_qos_table(spec: str, version: str, qos: str) -> None:
    expl = explain(POD.format(spec=spec), None, version)
    assert expl.pods[0].qos.qos_class == qos


def test_pod_level_example_before_the_gate_is_decided_by_the_containers() -> None:
    text = (FIXTURES / "qos" / "pod-level-resize.yaml").read_text(encoding="utf-8")
    assert explain(text, None, "1.37").pods[0].qos.qos_class == "Guaranteed"
    assert explain(text, None, "1.33").pods[0].qos.qos_class == "Burstable"   # pause requests, nginx nothing
    on = explain(text, {"featureGates": {"PodLevelResources": True}}, "1.33")
    assert on.pods[0].qos.qos_class == "Guaranteed"


def test_the_json_contract_documents_the_field() -> None:
    from explainer.web.openapi.document import openapi_document
    pod = openapi_document()["components"]["schemas"]["Pod"]["properties"]["qosClass"]
    assert set(json.dumps(pod).split('"')) >= {"Guaranteed", "Burstable", "BestEffort"}

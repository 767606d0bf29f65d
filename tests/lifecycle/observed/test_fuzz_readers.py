"""Fuzzing the readers (issue 23): mangled pastes never crash them, nor the pipeline that compares them;
hostile pastes are bounded like manifests (`make bench` times them)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from explainer.explain import explain
from explainer.lifecycle.observed import read_observed
from explainer.lifecycle.observed.model import Observation
from explainer.lifecycle.observed.read.paste import MAX_UNREAD
from explainer.lifecycle.manifest.yamlload import Limits
from explainer.render.jsonable import explanation_to_dict
from tests.hostile import OBSERVED_CASES
from tests.lifecycle.observed.test_read import POD_JSON
from tests.profiles import examples

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "observed" / "real"
LINES = [line for p in sorted(REAL.glob("*.txt")) for line in p.read_text(encoding="utf-8").split("\n")
         if not line.startswith("# ")]
MANIFEST = """apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  initContainers: [{name: proxy, image: envoy, restartPolicy: Always}]
  containers:
  - name: app
    image: app
    livenessProbe: {httpGet: {path: /healthz, port: 8080}}
    readinessProbe: {httpGet: {path: /ready, port: 8080}}
"""

noise = st.one_of(st.text(max_size=60), st.sampled_from([
    "", "...", "[...]", "```", "$ kubectl describe pod web", "kubectl get events -o yaml", "---", "{", "}", "- ",
    "Events:", "Containers:", "State: Terminated", "Last State: Waiting", "Exit Code: x", "Restart Count: -1",
    "NAME READY STATUS RESTARTS AGE", "LAST SEEN TYPE REASON OBJECT MESSAGE", "10s (x3 over", "<invalid>",
    "Normal", "Warning BackOff 99999999999y kubelet", "spec.containers{", "\u202e", "\t\t\t", "web 1/1",
    "status:", "  lastState: {terminated: {exitCode: [], finishedAt: 7}}", "items: 5", "kind: List",
]))


@st.composite
def pastes(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.one_of(st.sampled_from(LINES), noise), min_size=0, max_size=60))
    mangle = draw(st.sampled_from(["none", "strip", "squeeze", "cut"]))
    if mangle == "strip":
        lines = [line.lstrip() for line in lines]
    elif mangle == "squeeze":
        lines = [" ".join(line.split()) for line in lines]
    elif mangle == "cut":
        lines = [line[: draw(st.integers(0, max(0, len(line))))] for line in lines]
    return "\n".join(lines)


def _check(obs: Observation) -> None:
    assert len(obs.unread) <= MAX_UNREAD
    for s in obs.sources:
        assert s.lines[0] <= s.lines[1]


@settings(max_examples=examples(300), deadline=None)
@given(pastes())
def test_reading_any_paste_never_crashes(text: str) -> None:
    _check(read_observed(text))


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pastes())
def test_explaining_with_any_paste_never_crashes(text: str) -> None:
    expl = explain(MANIFEST, observed=text)
    assert not expl.errors, expl.errors
    observed = explanation_to_dict(expl)["pods"][0].get("observed")
    assert (observed is None) == (not text.strip())     # blank: nothing was observed
    json.dumps(observed)
    if observed is None:
        return
    for d in observed["divergences"]:
        assert d["explanation"] and isinstance(d["reproducible"], bool)


values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-2**40, 2**40), st.text(max_size=20),
                                st.sampled_from(["2024-05-01T10:00:00Z", "Running", "OOMKilled", "Always"])),
                      lambda inner: st.one_of(st.lists(inner, max_size=3),
                                              st.dictionaries(st.text(max_size=10), inner, max_size=3)),
                      max_leaves=8)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


@st.composite
def mutated_pods(draw: st.DrawFn) -> str:
    doc = json.loads(POD_JSON)
    for _ in range(draw(st.integers(1, 5))):
        path = draw(st.sampled_from(_paths(doc)))
        if not path:
            continue
        parent = doc
        for seg in path[:-1]:
            parent = parent[seg]
        if draw(st.booleans()):
            parent[path[-1]] = draw(values)
        elif isinstance(parent, dict):
            parent.pop(path[-1], None)
    return json.dumps(doc)


@settings(max_examples=examples(200), deadline=None)
@given(mutated_pods())
def test_a_mangled_pod_object_never_crashes_the_reader_nor_explain(text: str) -> None:
    _check(read_observed(text))
    expl = explain(MANIFEST, observed=text)
    json.dumps(explanation_to_dict(expl))


@pytest.mark.parametrize("name", list(OBSERVED_CASES))
def test_hostile_pastes_are_bounded(name: str) -> None:
    text = OBSERVED_CASES[name]()
    obs = read_observed(text, Limits())
    _check(obs)
    if len(text.encode("utf-8", "surrogatepass")) > Limits().max_bytes:
        assert obs.errors and obs.empty
    expl = explain(MANIFEST, observed=text)
    json.dumps(explanation_to_dict(expl))
    if obs.errors:
        assert expl.errors[0].kind == "limit" and expl.errors[0].path == "observed"

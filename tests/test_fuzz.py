"""Fuzzing (issue 6): mutated manifests and scenarios never crash the core or the views.

Hypothesis mutates the teaching examples: values replaced by values of other types, keys
removed, lists emptied or multiplied, deep nesting, huge and negative numbers, odd text.
Every outcome must be an explanation or errors that each carry a message.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from explainer.examples import EXAMPLES
from explainer.explain import explain
from explainer.render.jsonable import explanation_to_dict
from explainer.render.text import explanation_as_text
from tests.profiles import examples

BASES = [doc for e in EXAMPLES for doc in yaml.safe_load_all(e.manifest()) if doc]   # a Service of the input too

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-2**40, max_value=2**40),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
    st.sampled_from(["Always", "Never", "OnFailure", "forever", "never", "sleep infinity", "<script>", "", "1.2.3",
                     "sh", "-c", "while true; do sleep 1; done", "\u202e", "a" * 300]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=12), inner, max_size=4)),
                      max_leaves=12)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def _set(root: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    node = root
    for seg in path[:-1]:
        node = node[seg]
    node[path[-1]] = value
    return root


@st.composite
def mutated(draw: st.DrawFn) -> str:
    doc = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "delete", "empty", "multiply", "nest"]))
        parent = doc
        try:
            for seg in path[:-1]:
                parent = parent[seg]
        except (KeyError, IndexError, TypeError):
            continue
        if action == "replace" or not path:
            doc = _set(doc, path, draw(values))
        elif action == "delete" and isinstance(parent, dict):
            parent.pop(path[-1], None)
        elif action == "empty":
            doc = _set(doc, path, draw(st.sampled_from([[], {}, "", 0])))
        elif action == "multiply" and isinstance(parent, list):
            parent.extend([parent[path[-1]]] * draw(st.integers(1, 3)))
        elif action == "nest":
            deep: Any = draw(scalars)
            for _ in range(draw(st.integers(1, 60))):
                deep = [deep]
            doc = _set(doc, path, deep)
    as_json = draw(st.booleans())
    return json.dumps(doc) if as_json else yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


scenarios = st.one_of(
    st.none(),
    st.fixed_dictionaries({}, optional={
        "deleteAt": st.one_of(st.floats(-5, 500), st.text(max_size=5)),
        "until": st.one_of(st.floats(0, 2000), st.none()),
        "sandboxLostAt": st.floats(0, 300),
        "containers": st.dictionaries(st.sampled_from(["app", "helper", "prepare", "proxy", "nope"]),
                                      st.dictionaries(st.sampled_from(["runSeconds", "exitCode", "runs", "stopSeconds",
                                                                       "failingProbes", "startupSeconds", "bogus"]),
                                                      values, max_size=3), max_size=3),
        "debug": st.lists(st.fixed_dictionaries({"name": st.text(max_size=8), "at": st.floats(0, 100)}), max_size=2),
    }).map(lambda d: yaml.safe_dump(d)),
)


def _check(expl) -> None:
    for e in expl.errors:
        assert isinstance(e.message, str) and e.message.strip()
    json.dumps(explanation_to_dict(expl))
    explanation_as_text(expl)


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), scenarios)
def test_no_exception_escapes_the_core(manifest: str, scenario: str | None) -> None:
    _check(explain(manifest, scenario))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400).map(lambda b: b.decode("latin-1")), st.sampled_from(["1.27", "1.34", "9.99", ""]))
def test_arbitrary_text_is_input_not_a_crash(text: str, version: str) -> None:
    _check(explain(text, None, version or None))


@pytest.mark.django_db
@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutated(), scenarios)
def test_no_500_from_the_views(client, manifest: str, scenario: str | None) -> None:
    response = client.post("/", {"manifest": manifest, "version": "1.34", "scenario": scenario or ""},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="result"' in body

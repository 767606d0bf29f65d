"""explainer.schema.compiled: "valid" only when jsonschema finds nothing, and fast on real manifests."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explainer.examples import EXAMPLES
from explainer.lifecycle.manifest.yamlload import load_documents
from explainer.schema.compiled import Compiler
from explainer.schema.validate import _definitions, _FORMAT_CHECKS, _proves_valid, _schema, _validator
from tests.profiles import examples

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SEEDS = sorted((FIXTURES / "schema").glob("*.yaml")) + sorted((FIXTURES / "pods").glob("*.yaml"))


def _objects() -> list[dict[str, Any]]:
    found = []
    for text in [p.read_text(encoding="utf-8") for p in SEEDS] + [e.manifest() for e in EXAMPLES]:
        for doc in load_documents(text):
            if isinstance(doc.data, dict) and _schema("1.34", doc.data.get("kind"), doc.data.get("apiVersion")):
                found.append(doc.data)
    return found


OBJECTS = _objects()


def _jsonschema_valid(obj: dict[str, Any], version: str = "1.34") -> bool:
    return not any(True for _ in _validator(version, obj["kind"], obj["apiVersion"]).iter_errors(obj))


def _proven(obj: dict[str, Any], version: str = "1.34") -> bool:
    return _proves_valid(version, obj["kind"], obj["apiVersion"])(obj)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.slug for e in EXAMPLES])
def test_every_teaching_example_is_proven_valid_without_jsonschema(example: Any) -> None:
    for doc in load_documents(example.manifest()):
        assert _jsonschema_valid(doc.data) and _proven(doc.data)


@pytest.mark.parametrize("version", ["1.27", "1.34", "1.37"])
def test_the_answer_agrees_with_jsonschema_on_every_fixture(version: str) -> None:
    for obj in OBJECTS:
        if _proven(obj, version):
            assert _jsonschema_valid(obj, version), obj.get("metadata")


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(allow_nan=False),
                    st.sampled_from(["", "Always", "TCP", "8080", "2024-01-31T12:00:00Z", "!!", "aGk="]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["name", "x", "port", "image"]), inner,
                                                  max_size=3)), max_leaves=6)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _nodes(v, path + (i,))
    return out


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_mutated_manifest_is_never_called_valid_when_jsonschema_finds_an_error(data: Any) -> None:
    obj = copy.deepcopy(data.draw(st.sampled_from(OBJECTS)))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_nodes(obj)[1:]))
        parent = obj
        for seg in path[:-1]:
            parent = parent[seg]
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = data.draw(VALUES)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            key = data.draw(st.sampled_from(["name", "image", "ports", "x", 1, "restartPolicy", "sleep"]))
            parent[path[-1]][key] = data.draw(VALUES)
    if not isinstance(obj.get("kind"), str) or not isinstance(obj.get("apiVersion"), str) \
            or _schema("1.34", obj["kind"], obj["apiVersion"]) is None:
        return
    if _proven(obj):
        assert _jsonschema_valid(obj)


@pytest.mark.parametrize("schema,value,expected", [
    ({"type": "integer"}, 2.0, True),          # jsonschema counts 2.0 as an integer
    ({"type": "integer"}, True, False),
    ({"type": ["number", "null"]}, None, True),
    ({"enum": ["a", "b"]}, "b", True),
    ({"enum": ["a", 1]}, 1, False),            # not proven: only string enums are compiled
    ({"minimum": 3}, 5, False),                 # an unknown keyword: jsonschema decides
    ({"oneOf": [{"type": ["string", "null"]}, {"type": ["integer", "null"]}]}, None, False),
    ({"oneOf": [{"type": ["string", "null"]}, {"type": ["integer", "null"]}]}, 80, True),
    ({"format": "int32", "type": "integer"}, 2**31, False),
    ({"format": "double"}, "x", True),          # a format jsonschema does not check
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": False}, {"a": "x", "b": 1}, False),
    ({"additionalProperties": {"type": "string"}}, {"k": "v", 1: "w"}, True),
    ({"$ref": "#/$defs/nowhere"}, {}, False),
    ({"description": "only an annotation", "x-kubernetes-list-type": "map"}, [1], True),
])
def test_keyword_table(schema: dict[str, Any], value: Any, expected: bool) -> None:
    compiler = Compiler(_definitions("1.34")["$defs"], _FORMAT_CHECKS)
    assert compiler.check(schema)(value) is expected

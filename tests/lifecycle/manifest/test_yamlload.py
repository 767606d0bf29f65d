"""load_documents: YAML/JSON text -> documents with lines, bounded work on hostile input.

Every bad input is a ``ManifestError`` carrying a line (and a column or path where there
is one), never another exception, a hang or a memory blow-up.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.manifest.parse import parse_manifest
from explainer.lifecycle.manifest.yamlload import LList, LMap, Limits, load_documents, position
from tests.profiles import examples

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
INVALID = FIXTURES / "invalid"

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: small
spec:
  containers:
  - name: app
    image: busybox:1.36
"""


# Hostile inputs are refused after bounded work: CPU seconds of this process, which a busy machine
# changes little (wall time is what `make bench` measures); each takes a few milliseconds.
CPU_BOUND = 1.0


def _invalid(name: str) -> str:
    return (INVALID / name).read_text(encoding="utf-8")


def _load_error(text: str, limits: Limits = Limits()) -> ManifestError:
    with pytest.raises(ManifestError) as info:
        load_documents(text, limits)
    return info.value


def test_every_invalid_fixture_says_what_is_wrong_on_its_first_line() -> None:
    for path in sorted(INVALID.glob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# ") and len(first) > 10, f"{path.name}: first line must say what is wrong"


# fixture, message substring, line, column, path, kind
READER_ERRORS = [
    ("syntax_error.yaml", "mapping values are not allowed", 9, 19, None, "syntax"),
    ("tab_indentation.yaml", "cannot start any token", 8, 1, None, "syntax"),
    ("duplicate_key.yaml", "Duplicate key 'name' (first set at line 5)", 6, 3, "metadata.name", "syntax"),
    ("billion_laughs.yaml", "billion laughs", 12, None, None, "limit"),
]


@pytest.mark.parametrize("fixture, substring, line, column, path, kind", READER_ERRORS,
                         ids=[row[0].removesuffix(".yaml") for row in READER_ERRORS])
def test_unreadable_input_is_an_error_with_its_line(fixture, substring, line, column, path, kind) -> None:
    err = _load_error(_invalid(fixture))
    (rec,) = err.records
    assert substring in rec.message
    assert rec.line == line
    if column is not None:
        assert rec.column == column
    assert rec.path == path
    assert rec.kind == kind
    assert f"line {line}" in str(err)


def test_a_syntax_error_quotes_the_offending_line() -> None:
    rec = _load_error(_invalid("syntax_error.yaml")).records[0]
    assert "image: busybox: 1.36" in rec.message


def test_billion_laughs_is_rejected_fast() -> None:
    text = _invalid("billion_laughs.yaml")
    start = time.process_time()
    err = _load_error(text)
    assert time.process_time() - start < CPU_BOUND
    assert err.records[0].kind == "limit"


def test_alias_budget_is_configurable() -> None:
    text = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: [*a, *a, *a]\n"
    assert load_documents(text)[0].data["b"][2] == list(range(1, 11))
    assert _load_error(text, Limits(max_nodes=20)).records[0].kind == "limit"


@pytest.mark.parametrize("text", [
    pytest.param("- " * 10_000 + "x\n", id="block-sequences"),
    pytest.param("".join(" " * i + "- \n" for i in range(0, 300, 2)) + " " * 300 + "x\n", id="indented-blocks"),
    pytest.param("a: " + "{a: " * 150 + "1" + "}" * 150 + "\n", id="150-flow-mappings"),
    pytest.param("[" * 900 + "]" * 900, id="900-flow-sequences"),
])
def test_deep_nesting_is_rejected_as_a_limit(text: str) -> None:
    start = time.process_time()
    rec = _load_error(text).records[0]
    assert time.process_time() - start < CPU_BOUND
    assert rec.kind == "limit"
    assert "Nesting deeper than 100 levels" in rec.message
    assert rec.line is not None


@pytest.mark.parametrize("text", [
    pytest.param("[" * 10_000 + "]" * 10_000, id="flow-sequences"),
    pytest.param("{a: " * 10_000 + "1" + "}" * 10_000, id="flow-mappings"),
])
def test_ten_thousand_deep_flow_nesting_is_rejected(text: str) -> None:
    start = time.process_time()
    rec = _load_error(text).records[0]
    assert time.process_time() - start < CPU_BOUND
    assert "nesting depth" in rec.message or "Nesting deeper" in rec.message
    assert rec.line == 1
    assert len(rec.message) < 400, "the message quotes at most a short piece of the line"


def test_ten_thousand_deep_flow_nesting_is_a_limit_error() -> None:
    rec = _load_error("[" * 10_000 + "]" * 10_000).records[0]
    assert rec.kind == "limit"


def test_two_mebibytes_are_rejected_with_a_size_message() -> None:
    text = POD + "# " + "x" * (2 * 1024 * 1024) + "\n"
    start = time.process_time()
    rec = _load_error(text).records[0]
    assert time.process_time() - start < CPU_BOUND
    assert rec.kind == "limit"
    assert "bytes" in rec.message and "1,048,576" in rec.message
    assert f"{len(text.encode()):,}" in rec.message


def test_the_size_limit_counts_bytes_and_is_configurable() -> None:
    text = POD + "# " + "é" * 300 + "\n"       # 300 characters, 600 bytes
    assert load_documents(text, Limits(max_bytes=1000))
    rec = _load_error(text, Limits(max_bytes=len(text) + 10)).records[0]
    assert rec.kind == "limit" and "bytes" in rec.message


@pytest.mark.parametrize("text", [
    pytest.param("apiVersion: v1\x00\x01kind: Pod\n", id="nul-in-text"),
    pytest.param("\x00\x00\x00\x00", id="only-nul"),
    pytest.param(bytes(range(256)).decode("latin-1"), id="all-bytes"),
    pytest.param("\x7fELF\x02\x01\x01\x00\x00\x00", id="elf-header"),
])
def test_binary_data_is_an_error_not_an_exception(text: str) -> None:
    rec = _load_error(text).records[0]
    assert rec.kind == "syntax"
    assert rec.line == 1


def test_binary_data_names_the_character_and_offset() -> None:
    rec = _load_error("apiVersion: v1\x00\x01kind: Pod\n").records[0]
    assert "binary" in rec.message and "offset 14" in rec.message


@settings(max_examples=examples(150), deadline=None)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300).map(lambda b: b.decode("latin-1"))))
def test_arbitrary_text_either_loads_or_is_a_manifest_error(text: str) -> None:
    try:
        parse_manifest(text)
    except ManifestError as exc:
        assert exc.records and exc.records[0].message


def test_multi_line_json_is_accepted_with_lines() -> None:
    text = (FIXTURES / "scenarios" / "pod.json").read_text(encoding="utf-8")
    (doc,) = load_documents(text)
    assert doc.index == 0 and doc.line == 1
    assert doc.data["metadata"]["name"] == "from-json"
    assert position(doc.data, ("spec", "containers", 0, "ports", 0, "containerPort"))[0] == 14


def test_json_errors_give_a_line() -> None:
    text = '{\n  "apiVersion": "v1",\n  "kind": "Pod",\n  "metadata": {"name": "x"},,\n}\n'
    rec = _load_error(text).records[0]
    assert rec.kind == "syntax"
    assert rec.line == 4


def test_duplicate_keys_in_json_are_an_error() -> None:
    text = (INVALID / "duplicate_key.json").read_text(encoding="utf-8")
    rec = _load_error(text).records[0]
    assert "Duplicate key 'name'" in rec.message
    assert rec.line == 2


def test_json_input_keeps_the_depth_limit_and_lines() -> None:
    text = '{"a": 1,\n "deep": ' + "[" * 500 + "]" * 500 + "}"
    rec = _load_error(text).records[0]
    assert rec.kind == "limit" and rec.line == 2


def test_json_with_tabs_and_escaped_slashes_reads_as_yaml_with_lines() -> None:
    text = '{\n\t"kind": "Pod",\n\t"url": "http:\\/\\/example.com\\/x",\n\t"n": [1,\t2]\n}'
    data = load_documents(text)[0].data
    assert data == {"kind": "Pod", "url": "http://example.com/x", "n": [1, 2]}
    assert data.pos["url"][0] == 3


def test_documents_keep_index_and_line() -> None:
    text = (FIXTURES / "scenarios" / "multi_document.yaml").read_text(encoding="utf-8")
    docs = load_documents(text)
    assert [d.index for d in docs] == list(range(6))
    assert [d.data["kind"] for d in docs] == ["Service", "ConfigMap", "Deployment", "CronJob", "List", "Job"]
    # a document starts at its `---` line (the first one at its first line of content)
    assert [d.line for d in docs] == [3, 13, 20, 40, 56, 76]


def test_maps_and_lists_remember_where_they_stood() -> None:
    (doc,) = load_documents(POD)
    assert isinstance(doc.data, LMap) and isinstance(doc.data["spec"]["containers"], LList)
    assert position(doc.data, ("spec", "containers", 0, "image")) == (8, 5)
    assert position(doc.data, ("metadata", "name")) == (4, 3)
    assert position(doc.data, ("spec", "nothing-here")) == (5, 1)


# an explicit tag whose text does not fit it: the line and column of the value, never an exception
@pytest.mark.parametrize("value, shown", [
    ("!!int abc", "'abc' cannot be read as !!int"),
    ("!!int 0x", "'0x' cannot be read as !!int"),
    ("!!float x", "'x' cannot be read as !!float"),
    ("!!bool maybe", "'maybe' cannot be read as !!bool"),
])
def test_a_tagged_value_that_does_not_fit_its_tag_is_an_error_with_its_place(value: str, shown: str) -> None:
    rec = _load_error(POD.replace("name: small", f"name: {value}")).records[0]
    assert shown in rec.message and (rec.line, rec.column, rec.kind) == (4, 9, "syntax")


def test_the_quoted_line_is_what_the_user_wrote() -> None:
    """No repr(): a backslash stays one backslash, quotes stay as they are (issue 25)."""
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n  - name: a\n"
            "    image: busybox\n    command: [\"sh\", \"-c\", \"printf 'a\\n' > /f\"] x: [\n")
    rec = _load_error(text).records[0]
    assert rec.message.endswith("The line reads: “command: [\"sh\", \"-c\", \"printf 'a\\n' > /f\"] x: [”"), rec.message
    assert "\\\\n" not in rec.message

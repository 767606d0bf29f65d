"""yamlfast: the C-composed reader builds exactly what the event reader builds, or gives up.

The event reader (``yamlload._read_events``) is the authority.  For every input the fast reader
either returns ``None`` or the same documents: the same types (LMap, LList, str, int, float,
bool, None), values, ``line``/``column``/``pos`` everywhere, and ``Document(index, line)``;
and ``load_documents`` gives the same data or the same error (message, line, column, path, kind)
as the event reader alone.
"""
from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explainer.lifecycle.manifest import yamlload
from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.manifest.yamlload import Document, LList, LMap, Limits, load_documents
from tests.profiles import examples

TESTS = Path(__file__).resolve().parents[2]
EXAMPLES = TESTS.parent / "explainer" / "examples"
SHARED = TESTS.parent.parent / "shared"     # public manifests, when they are there (../shared/corpus, realworld)
FIXTURES = sorted(p for p in TESTS.rglob("*") if p.suffix in (".yaml", ".yml", ".json")) + sorted(
    EXAMPLES.glob("*.yaml")) + sorted(p for p in SHARED.rglob("*") if p.suffix in (".yaml", ".yml"))


def assert_same(fast: Any, slow: Any, where: str = "") -> None:
    """Equal data, types and positions, all the way down (keys in the same order, of the same type)."""
    assert type(fast) is type(slow), f"{where}: {type(fast).__name__} != {type(slow).__name__}"
    if isinstance(slow, LMap):
        assert (fast.line, fast.column) == (slow.line, slow.column), where
        assert [(k, type(k)) for k in fast] == [(k, type(k)) for k in slow], where
        assert list(fast.pos.items()) == list(slow.pos.items()), where
        for (key, value), other in zip(fast.items(), slow.values()):
            assert_same(value, other, f"{where}.{key}")
    elif isinstance(slow, LList):
        assert (fast.line, fast.column) == (slow.line, slow.column), where
        assert fast.pos == slow.pos and len(fast) == len(slow), where
        for i, (item, other) in enumerate(zip(fast, slow)):
            assert_same(item, other, f"{where}[{i}]")
    elif isinstance(slow, float) and math.isnan(slow):
        assert math.isnan(fast), where
    else:
        assert fast == slow, f"{where}: {fast!r} != {slow!r}"


def assert_same_documents(fast: list[Document], slow: list[Document]) -> None:
    assert [(d.index, d.line) for d in fast] == [(d.index, d.line) for d in slow]
    for f, s in zip(fast, slow):
        assert_same(f.data, s.data, f"document {s.index}")


def _outcome(read: Any, text: str, limits: Limits) -> tuple[str, Any]:
    try:
        return "read", read(text, limits)
    except ManifestError as exc:
        return "error", exc.records
    except Exception as exc:   # today's reader lets a few constructor errors through (`!!int x`): keep them
        return "raised", (type(exc), str(exc))


def check(text: str, limits: Limits = Limits()) -> list[Document] | None:
    """The fast reader's documents (None when it gave up), after checking them against the event
    reader, and ``load_documents`` against the event reader alone; JSON read as load_documents does."""
    text = yamlload._json_as_yaml(text) if text.lstrip()[:1] in ("{", "[") else text
    fast = yamlload._read_fast(text, limits)
    slow = _outcome(yamlload._read_events, text, limits)
    both = _outcome(yamlload._load, text, limits)
    assert both[0] == slow[0]
    if slow[0] == "read":
        assert_same_documents(both[1], slow[1])
    else:
        assert fast is None, "the fast reader read what the event reader refuses"
        assert both[1] == slow[1]
    if fast is not None:
        assert_same_documents(fast, slow[1])
    return fast


@pytest.mark.parametrize("path", FIXTURES, ids=[str(p.relative_to(TESTS.parent) if p.is_relative_to(TESTS.parent)
                                                   else p.relative_to(SHARED.parent)) for p in FIXTURES])
def test_every_fixture_and_example_reads_the_same_both_ways(path: Path) -> None:
    check(path.read_text(encoding="utf-8"))


def test_the_fast_reader_reads_almost_every_fixture() -> None:
    read = [p.name for p in FIXTURES if check(p.read_text(encoding="utf-8")) is not None]
    assert len(read) >= 0.95 * len(FIXTURES) - 20     # those with aliases, errors or a BOM go the slow way
    assert "lifecycle-demo.yaml" in read and "multi_document.yaml" in read and "pod.json" in read


# text, does the fast reader read it (else it leaves it to the event reader)
TABLE = [
    ("", True),
    ("a: 1\n" + "# x\n" * 15_000, True),                 # 60 kB: under FAST_MAX_CHARS
    ("a: 1\n" + "# x\n" * 17_000, False),                # 68 kB: a large text keeps the event reader's linear time
    ("# only a comment\n", True),
    ("---\n", True),
    ("---", True),
    ("--- \n--- a\n...\n---\n", True),
    ("a: 1\n---\n", True),
    ("# head\n\n--- # first\nkind: Pod\n...\n# between\n--- !!str x\n---\n- 1\n", True),
    ("%YAML 1.1\n---\na: 1\n...\n%YAML 1.1\n%TAG ! tag:yaml.org,2002:\n---\n!str b\n", True),
    ("a: 1\r\n---\r\nb: [1, 2]\r\n--- |\r\n  x\r\n", True),
    ("a: 1\r---\rb: 2\r", True),
    ("hello", True),
    ("42", True),
    ('"yes"', True),
    ("[on, off, yes, no, y, n, ~, null, Null, '', true]", True),
    ("{a: 2001-12-14, b: 2001-12-14t21:59:43.10-05:00, c: !!timestamp 2002-12-14}", True),
    ("v: !!binary R0lGODlhDAAMAIQAAP//9/X17unp5WZmZgAAAOfn515eXvPz7Y6OjuDg4J+fn5\n", True),
    ("[!!str 1, !!int '3', ! 4, ! '5', !!float '1', !!bool 'yes', !!null '', '6', \"7\"]", True),
    ("[0o17, 0x1F, 017, 1_000, 190:20:30, +12, -0, 1e3, 6.8523015e+5, .inf, -.Inf, .nan, 0b101]", True),
    ("{1: a, 2.5: b, false: c, null: d, ~x: e}", True),
    ("a:\n- 1\n- b:\n  - [c, {d: e}]\n  -\n  - ''\n", True),
    ("? a\n? b\n: c\n", True),
    ("a: &x 1\nb: 2\n", True),
    ("cmd: sh -c 'ls /tmp/* && echo done'\n", True),
    ("é: ü\n😀: [日本, \u2028x]\n---\nb: 1\n", True),
    ("a: 1\n\x85---\x85b: 2\n", True),
    ("- " * 50 + "x\n", True),
    ("--- a\n... # c\n--- b", True),
    ("a: 1\n...\n", True),
    ("--- >\n  x\n\n\n--- 'q'\n...\n", True),
    ("---\n...\n---\n...\n", True),
    ("a: 1 # c\n---", True),
    ("---\r\n\r\n---\r\na", True),
    ("- a\n--- !!map\nb: 1\n", True),
    ("\n\n\na: 1\n\n---\n\n\nb\n\n", True),
    ("---a\n", True),
    ("--- a\n---b\n", True),
    ("a: |\n  ---\n  x\n---\nb", True),
    ("...\na: 1", False),
    ("--- &x a\n--- *x\n", False),
    ("%TAG !e! tag:example.com,2000:\n--- !e!foo x\n", False),
    ("a: &x 1\nb: *x\n", False),
    ("a: &x [1, 2]\nb: *x\n", False),
    ("a: &x {k: v}\nb:\n  <<: *x\n", False),
    ("a: &x 1\na: 2\n", False),
    ("- &x a\n- &x b\n- *x\n", False),
    ("a: &x [*x]\n", False),
    ("a: *nothing\n", False),
    ("a: 1\na: 2\n", False),
    ("1: a\ntrue: b\n", False),
    ("? [a]\n: b\n", False),
    ("? {a: 1}\n: b\n", False),
    ("<<: {a: 1}\n", False),
    ("a: <<\n", False),
    ("a: !foo 1\n", False),
    ("a: !!set {x}\nb: !!python/name:os.system\n", False),
    ("a: !!int abc\n", False),
    ("a: !!bool maybe\n", False),
    ("\ufeffa: 1\n", False),
    ("a: b: c\n", False),
    ("a:\n\t- b\n", False),
    ("a: [1, 2\n", False),
    ("- " * 200 + "x\n", False),
    ("[" * 999 + "]" * 999, False),
    ("[" * 1500 + "]" * 1500, False),
    ("a: 1\x00\n", False),
]


@pytest.mark.parametrize("text, fast", TABLE, ids=[repr(row[0][:30]) for row in TABLE])
def test_the_fast_reader_reads_plain_data_and_leaves_the_rest(text: str, fast: bool) -> None:
    assert (check(text) is not None) is fast


# what, text, the limits, the least at which the event reader reads it (the fast reader may give up
# near it: one below, the event reader says what is wrong)
LIMITS = [
    ("depth", "a: {b: [c, {d: 1}]}\n", lambda n: Limits(max_depth=n), 4),
    ("values", "a: [1, 2, 3]\nb: {c: d}\n", lambda n: Limits(max_nodes=n), 9),
    ("values over documents", "a: 1\n---\nb: [1, 2]\n", lambda n: Limits(max_nodes=n), 7),
    ("documents", "a\n---\nb\n---\nc\n", lambda n: Limits(max_documents=n), 3),
]


@pytest.mark.parametrize("what, text, limits, needed", LIMITS, ids=[row[0] for row in LIMITS])
def test_near_a_limit_the_event_reader_decides(what: str, text: str, limits: Any, needed: int) -> None:
    check(text, limits(needed))
    assert check(text, limits(needed + 100)) is not None
    with pytest.raises(ManifestError) as info:
        load_documents(text, limits(needed - 1))
    assert info.value.records[0].kind == "limit"
    assert check(text, limits(needed - 1)) is None


def test_a_text_longer_than_the_value_budget_goes_to_the_event_reader() -> None:
    text = "a: [" + ", ".join(["1"] * 50) + "]\n"
    assert check(text, Limits(max_nodes=len(text) - 1)) is None
    assert check(text, Limits(max_nodes=len(text) + 1)) is not None


# Generated documents: nested maps and lists in block and flow style, scalars of every tricky
# kind, anchors, aliases, merge keys, duplicate keys, tags good and bad, several documents.
SCALARS = ["a", "name", "x y", "'q'", '"d q"', "''", "yes", "No", "on", "OFF", "~", "null", "true", "1", "-2",
           "0o7", "0x1f", "012", "1_0", "3:25", "1.5", ".5", "1e3", ".inf", ".NaN", "2001-12-14", "!!str 1",
           "!!int '2'", "!!float 3", "!!bool on", "!!null x", "!!timestamp t", "!!binary YQ==", "! 7",
           "!x y", "!!int z", "<<", "*a", "*b", "&a s", "&b 5", "-", "é", "|\n  lit\n", ">-\n  folded\n"]
KEYS = ["a", "b", "c", "name", "1", "true", "~", "<<", "'a'", "&a k", "*a", "!!str 1", "? x"]


def _render(node: Any, indent: int, flow: bool) -> str:
    """YAML text of a generated node; a block container starts with a line break (it goes under
    its key or dash)."""
    kind, *rest = node
    pad = " " * indent
    if kind == "scalar":
        text = rest[0]
        if "\n" in text:   # a block scalar: indented under its parent, or a plain one in flow style
            return "q" if flow else text.rstrip("\n").replace("\n", "\n" + pad)
        return text
    in_flow, items = rest
    if flow or in_flow:
        if kind == "seq":
            return "[" + ", ".join(_render(item, indent, True) for item in items) + "]"
        return "{" + ", ".join(f"{key}: {_render(value, indent, True)}" for key, value in items) + "}"
    if not items:
        return "[]" if kind == "seq" else "{}"
    lines = []
    for item in items:
        head, value = (f"{pad}-", item) if kind == "seq" else (f"{pad}{item[0]}:", item[1])
        text = _render(value, indent + 2, False)
        lines.append(head + (text if text.startswith("\n") else " " + text))
    return "\n" + "\n".join(lines)


_nodes = st.recursive(
    st.tuples(st.just("scalar"), st.sampled_from(SCALARS)),
    lambda children: st.one_of(
        st.tuples(st.just("seq"), st.booleans(), st.lists(children, max_size=4)),
        st.tuples(st.just("map"), st.booleans(), st.lists(st.tuples(st.sampled_from(KEYS), children), max_size=4)),
    ),
    max_leaves=25,
)
_separators = st.sampled_from(["---\n", "--- # c\n", "\n...\n---\n", "# between\n---\n", "...\n%YAML 1.1\n---\n"])
_limits = st.one_of(st.just(Limits()), st.builds(Limits, max_nodes=st.integers(1, 400),
                                                 max_depth=st.integers(1, 6), max_documents=st.integers(1, 4)))


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(_nodes, min_size=1, max_size=3), st.lists(_separators, min_size=3, max_size=3),
       st.sampled_from(["\n", "\r\n"]), st.booleans(), _limits, st.data())
def test_generated_documents_read_the_same_both_ways(docs: list[Any], separators: list[str], newline: str,
                                                     leading: bool, limits: Limits, data: st.DataObject) -> None:
    text = ("# lead\n---\n" if leading else "")
    for i, doc in enumerate(docs):
        text += (separators[i] if i else "") + _render(doc, 0, False).lstrip("\n") + "\n"
    if data.draw(st.booleans()):   # now and then a character out of place
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + data.draw(st.sampled_from(["\t", ":", "-", "&a ", "*a", "[", '"', "\n  ", "#"])) + text[at:]
    check(text.replace("\n", newline), limits)


def test_threads_with_small_stacks_read_the_slow_way() -> None:
    """The C composer recurses once per level (libyaml allows 1000), the event reader does not."""
    text = (EXAMPLES / "lifecycle-demo.yaml").read_text(encoding="utf-8")
    assert check(text) is not None
    before = threading.stack_size(512 * 1024)
    try:
        assert check(text) is None
    finally:
        threading.stack_size(before)

"""read.blocks: a long `get events` table read a distinct row part at a time gives exactly what the line
readers give (issue 23's `make bench` row).

The line readers (``read_observed(..., bulk=False)``) are the authority: for every paste the observation
read with blocks is equal to theirs: sources and their lines, every event with its times, clocks and line,
the rows, the unread lines and notes, in the same order.  Over every fixture under tests/fixtures/observed
(alone, and inside and around generated tables) and over generated pastes: tables aligned the way kubectl's
tabwriter aligns them or not, with and without a NAMESPACE column, ages of every shape, rows about other
objects or that only the line readers read, commands and hints before a table, "..." cuts, CRLF, blank lines.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from benchmarks.observed import paste as bench_paste
from explainer.lifecycle.observed import read_observed
from explainer.lifecycle.observed.model import Observation
from explainer.lifecycle.observed.read.paste import _SHORT_COMMAND, _STARTS, _Segmenter
from explainer.lifecycle.observed.read.blocks import find_blocks
from explainer.lifecycle.observed.times import human_duration
from explainer.lifecycle.manifest.yamlload import Limits
from tests.profiles import examples

FIXTURES = sorted(p for p in (Path(__file__).resolve().parents[2] / "fixtures" / "observed").rglob("*")
                  if p.is_file())
REAL_LINES = [line for p in FIXTURES if p.suffix == ".txt"
              for line in p.read_text(encoding="utf-8").split("\n") if not line.startswith("# ")]


def same(texts: str | list[str]) -> Observation:
    """The observation read with blocks, after checking it against the line readers'."""
    fast, slow = read_observed(texts), read_observed(texts, bulk=False)
    assert fast.sources == slow.sources
    assert fast.unread == slow.unread and fast.unread_more == slow.unread_more
    assert fast.events == slow.events
    assert fast == slow
    assert repr(fast) == repr(slow)
    return fast


def table(rows: list[tuple[str, ...]], namespaced: bool = False, aligned: bool = True, indent: str = "") -> str:
    """A `kubectl get events` table: a header and its rows, padded like kubectl's tabwriter (3 blanks)."""
    header = (("NAMESPACE",) if namespaced else ()) + ("LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE")
    cells = [header] + [r if namespaced else r[1:] for r in rows]
    if not aligned:
        return "\n".join(indent + " ".join(c) for c in cells)
    widths = [max(len(c[i]) for c in cells) + 3 for i in range(len(header) - 1)]
    return "\n".join(indent + "".join(c[i].ljust(w) for i, w in enumerate(widths)) + c[-1] for c in cells)


def crashloop(n: int, namespaced: bool = False) -> str:
    reasons = [("Warning", "Unhealthy", "Liveness probe failed: HTTP probe failed with statuscode: 500"),
               ("Normal", "Killing", "Container app failed liveness probe, will be restarted"),
               ("Normal", "Pulled", 'Container image "app:1" already present on machine'),
               ("Normal", "Created", "Created container app"), ("Normal", "Started", "Started container app"),
               ("Warning", "BackOff", "Back-off restarting failed container app in pod web_default")]
    return table([("default", human_duration(7200 - 3 * i), *reasons[i % 6][:2], "pod/web", reasons[i % 6][2])
                  for i in range(n)], namespaced)


def test_the_bench_paste_is_read_in_one_block_as_the_line_readers_read_it() -> None:
    text = bench_paste()
    (block,) = find_blocks(text)
    assert len(block.rows) == 5000 - text[:block.start].count("\n") and block.end == len(text)
    obs = same(text)
    assert len(obs.events) == len(block.rows) + 1 and not obs.unread


@pytest.mark.parametrize("namespaced", [False, True])
def test_a_table_is_read_in_a_block_and_its_events_made_when_asked_for(namespaced: bool) -> None:
    text = crashloop(300, namespaced)
    (block,) = find_blocks(text)
    assert len(block.rows) == 300 and block.namespaced is namespaced
    obs = read_observed(text)
    assert obs._later and not obs._events and not obs.empty        # found and checked, not yet made
    assert len(obs.events) == 300 and not obs._later
    same(text)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_every_fixture_alone_and_around_and_inside_a_table(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    events = crashloop(40)
    same(text)
    same(events + "\n" + text)
    same(text + "\n" + events + "\n")
    rows = events.split("\n")
    same("\n".join(rows[:20] + text.split("\n") + rows[20:]))        # a table broken by the fixture
    same([text, events, text])


def test_a_header_after_a_command_that_names_another_output_is_not_a_block() -> None:
    events = crashloop(30)
    for command in ("$ kubectl get events -o yaml", "$ kubectl describe pod web", "$ kubectl get pods",
                    "$ kubectl get events", "```", "$ oc get ev"):
        same(f"{command}\n{events}\n")
        same(f"{command}\n\n   \n{events}\n$ kubectl get pods\nweb   1/1   Running   0   5m\n")


def test_rows_the_line_readers_must_read_end_the_block() -> None:
    rows = crashloop(50).split("\n")
    odd = ["2m (x3 over 5m)   Normal   Pulled   pod/web   again", "<unknown>   Normal   Pulled   pod/web   x",
           "5m   Normal   Started   deployment/web   Scaled", "5m   Normal   9Started   pod/web   x",
           "5m   Normal   Started   pod/web   spec.containers{app}   kubelet   Started   5m   1   web.1",
           "5m   Info   Started   pod/web   x", "", "   ", "... 5m   Normal   Started   pod/web   x",
           "5m\tNormal\tStarted\tpod/web\ttabs", "123456789s123456789m123456789h   Normal   Started   pod/web   x"]
    for line in odd:
        for at in (1, 10, 49):
            same("\n".join(rows[:at] + [line] + rows[at:]))
        same("\n".join(rows + [line]))


ages = st.one_of(st.integers(0, 10**8).map(human_duration), st.sampled_from([
    "<invalid>", "<unknown>", "2m (x3 over 5m)", "10s (x12 over 1h)", "5m (x3 from 1h)", "1s (x2 starting 2s)",
    "x", "3", "1y2d3h", "0s", "123456789s123456789m123456789h", "…", "...", "٣s", "5m(x3 over 1h)", "12345s"]))
kinds = st.sampled_from(["Normal", "Warning", "Normal", "Warning", "Info", "normal"])
reasons = st.sampled_from(["Pulled", "BackOff", "Killing", "Unhealthy", "scheduled", "9Bad", "Failed",
                           "R" * 129, "Started"])
objects = st.sampled_from(["pod/web", "pod/web", "pod/web-1.abc", "Pod/web", "deployment/web", "web", "pod/",
                           "node/n1", "pod/" + "w" * 300])
namespaces = st.sampled_from(["default", "kube-system", "n" * 63, "n" * 64, "Ns", "k", "kind", "$", "...", "x.y"])
messages = st.one_of(st.sampled_from([
    "", "Started container app", "spec.containers{app}   kubelet   Started", "kubectl get pods", "$ k get po",
    "... cut", "trailing   ", "Back-off 5m0s restarting failed container", "{", "Name:   web", "(x3 over 5m)",
    "Events:", "apiVersion: v1"]), st.text(max_size=30))
odd_rows = st.tuples(namespaces, ages, kinds, reasons, objects, messages)
good_rows = st.tuples(st.sampled_from(["default", "kube-system"]), st.integers(0, 10**8).map(human_duration),
                      st.sampled_from(["Normal", "Warning"]), st.sampled_from(["Pulled", "BackOff", "Killing"]),
                      st.sampled_from(["pod/web", "pod/web-1.abc", "deployment/web"]), messages)
rows = st.one_of(good_rows, good_rows, good_rows, odd_rows)


@st.composite
def tables(draw: st.DrawFn) -> str:
    found = draw(st.lists(rows, min_size=0, max_size=40))
    if draw(st.booleans()):           # the same few rows again and again, as a crash loop prints them
        found = [found[i % len(found)] for i in range(draw(st.integers(0, 120)))] if found else found
    namespaced, aligned = draw(st.booleans()), draw(st.booleans())
    text = table(found, namespaced, aligned, draw(st.sampled_from(["", "", "  ", "\t"])))
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 3))):     # a stray line: blank, a fixture's, a row without its padding
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, draw(st.one_of(st.sampled_from(["", "  ", "----"]), st.sampled_from(REAL_LINES))))
    return "\n".join(lines)


@st.composite
def pastes(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(
        tables(), tables(),
        st.sampled_from(["$ kubectl get events", "$ kubectl get events -o yaml", "$ kubectl describe pod web",
                         "kubectl get pods -w", "```", "```text", "", "...", "... LAST SEEN   TYPE   REASON"]),
        st.lists(st.sampled_from(REAL_LINES), max_size=15).map("\n".join)), min_size=1, max_size=6))
    text = "\n".join(parts)
    if draw(st.booleans()):
        text += "\n"
    return text.replace("\n", "\r\n") if draw(st.integers(0, 9)) == 0 else text


@settings(max_examples=examples(400), deadline=None)
@given(pastes())
def test_any_paste_reads_the_same_with_blocks(text: str) -> None:
    same(text)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(pastes(), min_size=2, max_size=3))
def test_several_pastes_read_the_same_with_blocks(texts: list[str]) -> None:
    same(texts)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["default", "kube-system"]), st.integers(0, 10**6).map(human_duration),
                          st.sampled_from(["Normal", "Warning"]), st.sampled_from(["Pulled", "BackOff", "Started"]),
                          st.sampled_from(["pod/web", "pod/api-7d4b9c-x2x", "deployment/web"]),
                          st.sampled_from(["Started container app", "", "Back-off restarting"])),
                min_size=1, max_size=60).filter(lambda rs: any(r[4].startswith("pod/") for r in rs)),
       st.booleans())
def test_a_kubectl_table_is_read_whole_in_a_block(found: list[tuple[str, ...]], namespaced: bool) -> None:
    """The block is no rare path: every table as kubectl prints it is one."""
    text = table(found, namespaced)
    (block,) = find_blocks(text)
    assert len(block.rows) == len(found)
    same(text)


_EVERY_LINE = re.compile("^" + _STARTS, re.M)     # the scan as it was: tried at every position


def _every_line(text: str) -> list[int]:
    """The splitter's lines that may start a part, found as they were before blocks (one scan of the text)."""
    found = {m.start() for m in _EVERY_LINE.finditer(text)}
    for needle in ("kubectl", "$", "#", "%", ">"):
        at = text.find(needle)
        while at >= 0:
            if needle == "kubectl" or _SHORT_COMMAND.match(text, at + 1):
                found.add(text.rfind("\n", 0, at) + 1)
            at = text.find(needle, at + 1)
    return sorted(found)


@settings(max_examples=examples(200), deadline=None)
@given(pastes())
def test_the_splitter_finds_the_lines_that_may_start_a_part_as_a_scan_of_every_position_does(text: str) -> None:
    """Found after their newline (in C) instead of tried at every position: the same lines; with blocks,
    the same but for the blocks' rows."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    assert _Segmenter(text, 0, Observation(), Limits(), [])._candidates() == _every_line(text)
    blocks = find_blocks(text)
    inside = [at for at in _every_line(text) if any(b.start <= at < b.end for b in blocks)]
    assert _Segmenter(text, 0, Observation(), Limits(), blocks)._candidates() == [
        at for at in _every_line(text) if at not in inside]

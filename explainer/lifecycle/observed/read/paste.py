"""Read whatever kubectl printed: split a paste into the parts it holds, and read each with its reader.

A paste may hold several outputs, each perhaps after the command that printed it ("$ kubectl describe
pod web"); the command says what follows, and each output's own first line says it too (a table's
header, describe's "Name:", a YAML object).  Markdown fences and prompts are skipped; a line no reader
can place is kept as unread, with its number.  Bounded like manifests: the size limit first, then the
YAML reader's limits (yamlload.py `Limits`) for the YAML parts; every text reader is linear in the
lines.  Never raises for bad input.  docs/lifecycle-model.md §34.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.i18n import Text, gettext_noop as _
from explainer.lifecycle.manifest.yamlload import Limits, load_documents
from ..model import SINCE, EventObs, Observation, PodRow, Unread, When
from .describe import DescribeReader
from .blocks import Block, find_blocks, moved, newlines, outside, read_block
from .bulk import (DESCRIBE_ROWS, GET_ROWS, GET_ROWS_NS, POD_ROWS, POD_ROWS_NS, Spans, pod_row, read_table,
                        describe_event as bulk_describe_event, get_event as bulk_get_event)
from .events import DESCRIBE_HEADER, GET_HEADER, RULE, describe_event, get_event
from .objects import read_documents
from ..times import AGE_TEXT, parse_age

MAX_UNREAD = 200          # unread lines listed; the rest are counted
_LINE_CAP = 4000
_VERBS = r"(?:get|describe|events|logs|apply|create|run|delete|top|rollout|exec|debug|edit|patch|scale|wait|explain)"
COMMAND = re.compile(r"\s*(?:\[[^\]]{0,200}\][#$%]\s*|[\w.@:~/\\-]{0,200}[$#%>]\s*|PS [^>]{0,200}>\s*)?"
                     r"(?:sudo\s+)?(?:\S{0,200}/)?(?:kubectl(?:\.sh)?|oc|k)\s+(?P<args>" + _VERBS + r"\b.*)$")
_PROMPT = re.compile(r"\s*(?:\$|PS [^>]{0,200}>)\s+\S")
_FENCE = re.compile(r"\s*(?:```|~~~)[\w-]*\s*$")
# "... Normal Created ...": columns left out at the start of a line (removed, the line kept)
_CUT_ALL = re.compile(r"^([ \t]*)(?:\.\.\.|\[\.\.\.\]|…)[ \t]+(?=\S)", re.M)
# the lines that may start or end a part: fences, commands and prompts, table headers, describe's first
# lines and YAML's (each confirmed by its own pattern; every other line stays in the part it is in)
_STARTS = (r"(?:[ \t]*(?:```|~~~|(?:NAMESPACE[ \t]+)?(?:NAME[ \t]+READY|LAST SEEN)\b|\$[ \t]|PS )"
           r"|(?:Name:|Init Containers:|Containers:|Ephemeral Containers:|Events:|Conditions:|State:|"
           r"Last State:)|(?:apiVersion|kind)[ \t]*:|\{[ \t]*$)")
_CANDIDATE = re.compile(_STARTS, re.M)                    # at the first line
_NEXT_CANDIDATE = re.compile(rf"\n(?={_STARTS})", re.M)  # after a newline: found by its "\n", in C
# commands are found by what they cannot do without: the word kubectl, or a prompt before oc or k
_SHORT_COMMAND = re.compile(r"[ \t]*(?:sudo[ \t]+)?(?:oc|k)[ \t]")
_YAML_START = re.compile(r"(?:---|\.\.\.)\s*$|(?:apiVersion|kind|items|metadata|status|spec|lastState|"
                         r"state|containerStatuses|initContainerStatuses|involvedObject|regarding|eventTime|"
                         r"conditions|phase)\s*:|\s*[{\[]\s*$|\s*\{\s*\"|\s*\"(?:kind|apiVersion|status)\"\s*:")
_DESCRIBE_START = re.compile(r"\s*(?:Name:\s+\S|(?:Init Containers|Containers|Ephemeral Containers|Events|"
                             r"Conditions):\s*(?:<none>)?$|(?:State|Last State):\s+(?:Running|Waiting|Terminated))")
POD_HEADER = re.compile(r"\s*(NAMESPACE\s+)?NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\b")
_AGE = rf"(?:{AGE_TEXT}|<unknown>|<invalid>)"
POD_ROW = re.compile(r"\s*(?:(?P<ns>[a-z0-9][-a-z0-9]{0,62})\s+)??(?P<name>[a-z0-9][-a-z0-9.]{0,252}|<[^>\s]{1,60}>)"
                     r"\s+(?P<ready>\d{1,4}/\d{1,4})\s+(?P<status>\S{1,100})\s+"
                     rf"(?P<restarts>\d{{1,9}}(?:\s+\([^)]{{1,40}}\))?)\s+(?P<age>{_AGE})(?:\s.*)?$")


def read_observed(texts: str | Sequence[str], limits: Limits = Limits(), bulk: bool = True) -> Observation:
    """Everything the pasted text(s) say about Pods; lines are numbered through all texts in order.
    ``bulk``: long `get events` tables read a distinct row part at a time (observed/read/blocks.py); without it,
    every line by the line readers (the tests compare the two)."""
    obs = Observation()
    parts = [texts] if isinstance(texts, str) else list(texts)
    size = sum(len(t) if t.isascii() else len(t.encode("utf-8", "surrogatepass")) for t in parts)
    if size > limits.max_bytes:
        values = {"size": f"{size:,}", "limit": f"{limits.max_bytes:,}", "setting": limits.bytes_setting}
        obs.errors.append(Text(_("The observed output is {size} bytes; the limit is {limit} bytes ({setting} "
                                 "raises it)."), values) if limits.bytes_setting else
                          Text(_("The observed output is {size} bytes; the limit is {limit} bytes."), values))
        return obs
    offset = 0
    for text in parts:
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        text, blocks = _cut(text, find_blocks(text) if bulk else [])
        _Segmenter(text, offset, obs, limits, blocks).run()
        offset += newlines(text, blocks, 0, len(text)) + 1
    return obs


def _cut(text: str, blocks: list[Block]) -> tuple[str, list[Block]]:
    """Columns left out at the start of a line removed (`_CUT_ALL`), outside the blocks: no row of a
    block starts with "..." (it starts with an age or a namespace)."""
    spans = outside(blocks, len(text))
    if not any(text.find("...", a, b) >= 0 or text.find("…", a, b) >= 0 for a, b in spans):
        return text, blocks
    pieces, shifts, shift, pos = [], [], 0, 0
    for block in blocks:
        seg = text[pos:block.start]
        cut = _CUT_ALL.sub(r"\1", seg)
        pieces += [cut, text[block.start:block.end]]
        shift += len(cut) - len(seg)
        shifts.append(shift)
        pos = block.end
    pieces.append(_CUT_ALL.sub(r"\1", text[pos:]))
    return "".join(pieces), moved(blocks, shifts)


def _hint(args: str) -> str | None:
    words = args.split()
    output = ""
    for i, w in enumerate(words):
        if w in ("-o", "--output") and i + 1 < len(words):
            output = words[i + 1]
        elif w.startswith(("-o", "--output=")):
            output = w
    structured = any(fmt in output for fmt in ("yaml", "json"))
    if words[0] == "describe":
        return "describe"
    if words[0] == "events":
        return "yaml" if structured else "events-table"
    if words[0] == "get" and len(words) > 1:
        if structured:
            return "yaml"
        what = words[1].split("/")[0].split(",")[0]
        if what.startswith(("ev", "events")):
            return "events-table"
        if what in ("po", "pod", "pods") or what.startswith("-f"):
            return "pod-table"
    return None


def sniff(text: str) -> str | None:
    """Which reader a line that starts a part belongs to, or None."""
    text = text[:_LINE_CAP]
    if POD_HEADER.match(text):
        return "pod-table"
    if GET_HEADER.match(text.strip()):
        return "events-table"
    if _DESCRIBE_START.match(text) or DESCRIBE_HEADER.match(text.strip()):
        return "describe"
    if _YAML_START.match(text):
        return "yaml"
    if get_event(text, 0, 0) is not None:
        return "events-table"
    if describe_event(text, None, 0, 0) is not None:
        return "describe"
    if POD_ROW.match(text):
        return "pod-table"
    return None


def _switch(kind: str, text: str) -> str | None:
    """A line inside a part of ``kind`` that starts a part of another kind (or a new table)."""
    if POD_HEADER.match(text):
        return "pod-table"
    if GET_HEADER.match(text.strip()):
        return "events-table"
    if kind != "describe" and text[:1] not in (" ", "\t") and _DESCRIBE_START.match(text):
        return "describe"
    if kind != "yaml" and re.match(r"(?:apiVersion|kind)\s*:|\{\s*$", text):
        return "yaml"
    return None


class _Segmenter:
    """Splits one text into parts at the few lines that can start or end one (`_CANDIDATE`, found in one
    scan), so the cost of a long part is the scan's, not a loop over its lines.  Where no part is open, the
    lines are looked at one by one until one starts a part (or they are unread)."""

    def __init__(self, text: str, offset: int, obs: Observation, limits: Limits, blocks: list[Block]) -> None:
        self.text, self.offset, self.obs, self.limits, self.blocks = text, offset, obs, limits, blocks
        self.headers = {b.header: b for b in blocks}
        self.kind: str | None = None
        self.start = 0
        self.hint: str | None = None
        self.free = 0                       # where the text no part holds begins (while kind is None)
        self.parts: list[tuple[str, int, int]] = []
        self._at, self._line = 0, offset + 1    # a position and its line number, moved forward as asked

    def line_of(self, pos: int) -> int:
        if pos < self._at:
            self._at, self._line = 0, self.offset + 1
        self._line += newlines(self.text, self.blocks, self._at, pos)
        self._at = pos
        return self._line

    def _close(self, end: int) -> None:
        if self.kind is not None:
            self.parts.append((self.kind, self.start, end))
            self.kind = None

    def _scan(self, stop: int) -> None:
        """The lines from ``free`` to ``stop`` while no part is open: the first that starts one opens it."""
        pos = self.free
        while self.kind is None and pos < stop:
            end = self.text.find("\n", pos, stop)
            end = stop if end < 0 else end
            line = self.text[pos:min(end, pos + _LINE_CAP)]
            if line.strip():
                kind = self.hint or sniff(line)
                self.hint = None
                if kind is not None:
                    self.kind, self.start = kind, pos
                else:
                    unread(self.obs, self.line_of(pos), line)
            pos = end + 1
        self.free = max(self.free, min(pos, stop))

    def _candidates(self) -> list[int]:
        """Where the lines that may start or end a part begin, in order (none in a block: observed/read/blocks.py)."""
        text = self.text
        found: set[int] = set()
        for a, b in outside(self.blocks, len(text)):
            if _CANDIDATE.match(text, a, b):
                found.add(a)
            found.update(m.end() for m in _NEXT_CANDIDATE.finditer(text, a, b))
            for needle in ("kubectl", "$", "#", "%", ">"):      # str.find runs in C: a pass over the text each
                at = text.find(needle, a, b)
                while at >= 0:
                    if needle == "kubectl" or _SHORT_COMMAND.match(text, at + 1):
                        found.add(text.rfind("\n", 0, at) + 1)
                    at = text.find(needle, at + 1, b)
        return sorted(found)

    def run(self) -> None:
        text = self.text
        for ls in self._candidates():
            le = text.find("\n", ls)
            le = len(text) if le < 0 else le
            line = text[ls:min(le, ls + _LINE_CAP)]
            if self.kind is None:
                self._scan(ls)
            command = COMMAND.match(line)
            if _FENCE.match(line) or command is not None or _PROMPT.match(line):
                self._close(ls)
                if command is not None or not _FENCE.match(line):
                    self.hint = _hint(command.group("args")) if command is not None else None
                self.free = le + 1
                continue
            if self.kind is not None:
                other = _switch(self.kind, line)
                if other is not None and not (self.kind == other == "yaml"):
                    self._close(ls)
                    self.kind, self.start = other, ls
                continue
            if ls >= self.free:        # a line that may start a part, where none is open
                self.free = ls
                self._scan(le + 1)
        if self.kind is None:
            self._scan(len(text))
        self._close(len(text))
        for kind, start, end in self.parts:
            block = self.headers.get(start) if kind == "events-table" else None
            if block is not None and end >= block.end:
                self._read_block(block, end)
                continue
            body = text[start:end].rstrip()
            if body:
                first = self.line_of(start)
                _READERS[kind](first, first + newlines(text, self.blocks, start, start + len(body)), body, self.obs,
                               self.limits)

    def _read_block(self, block: Block, end: int) -> None:
        """An events table whose rows begin with a block: the block's rows, then the lines after it."""
        first = self.line_of(block.header)
        rest = self.text[block.end:end].rstrip()
        rows = len(block.rows)
        source = self.obs.add_source("events-table", first, first + rows + (1 + rest.count("\n") if rest else 0))
        read_block(block, self.obs, source, first + 1)
        if rest:
            _events_rows(GET_ROWS_NS if block.namespaced else GET_ROWS, rest, first + rows + 1, source, self.obs)


def unread(obs: Observation, lineno: int, text: str) -> None:
    if len(obs.unread) < MAX_UNREAD:
        obs.unread.append(Unread(lineno, text.rstrip()[:300]))
    else:
        obs.unread_more += 1


def _read_yaml(first: int, last: int, body: str, obs: Observation, limits: Limits) -> None:
    try:
        docs = load_documents(body, limits)
    except ManifestError as exc:
        record = exc.records[0]
        obs.notes.append(Text(_("Lines {first} to {last} look like YAML or JSON but cannot be read: {problem}"),
                              {"first": first, "last": last, "problem": record.translatable}))
        for i, t in enumerate(body.split("\n")):
            if t.strip():
                unread(obs, first + i, t[:_LINE_CAP])
        return
    if not read_documents([d.data for d in docs], obs, first, last, first - 1):
        obs.notes.append(Text(_("Lines {first} to {last} hold YAML that is neither a Pod with its status, an "
                                "Event nor a part of a Pod's status."), {"first": first, "last": last}))
        unread(obs, first, body.split("\n", 1)[0][:_LINE_CAP])


_NEXT_POD = re.compile(r"^[ \t]*Name:[ \t]+\S", re.M)


def _read_describe(first: int, last: int, body: str, obs: Observation, limits: Limits) -> None:
    """Line by line, but the Events table in bulk (observed/read/bulk.py) up to the next Pod's "Name:"."""
    source = obs.add_source("describe", first, last)
    reader = DescribeReader(source)
    spans = Spans(source)
    pos, line = 0, first
    while pos < len(body):
        end = body.find("\n", pos)
        end = len(body) if end < 0 else end
        reader.feed(line, body[pos:min(end, pos + _LINE_CAP)])
        pos, line = end + 1, line + 1
        if reader.section == "events" and pos < len(body):
            stop_at = _NEXT_POD.search(body, pos)
            stop = len(body) if stop_at is None else stop_at.start()
            block = body[pos:stop]
            read_table(DESCRIBE_ROWS, block, line, bulk_describe_event, spans, source,
                       lambda n, t: reader.feed(n, t[:_LINE_CAP]), reader.pod_events.append)
            line += block.count("\n")
            pos = stop
    reader.finish()
    obs.snapshots.extend(reader.snapshots)
    obs.add_events(reader.events)
    for u in reader.unread:
        unread(obs, u.line, u.text)


def _read_events_table(first: int, last: int, body: str, obs: Observation, limits: Limits) -> None:
    source = obs.add_source("events-table", first, last)
    head = body.split("\n", 1)[0]
    _events_rows(GET_ROWS_NS if head.strip().startswith("NAMESPACE") else GET_ROWS, body, first, source, obs)


def _events_rows(pattern: re.Pattern[str], body: str, first: int, source: int, obs: Observation) -> None:
    def slow(lineno: int, text: str) -> None:
        text = text[:_LINE_CAP]
        stripped = text.strip()
        if GET_HEADER.match(stripped) or RULE.match(stripped):
            return
        row = get_event(text, source, lineno)
        ev = describe_event(text, None, source, lineno) if row is None else row
        if ev is None:
            unread(obs, lineno, text)
        elif isinstance(ev, EventObs):
            obs.add_event(ev)

    read_table(pattern, body, first, bulk_get_event, Spans(source), source, slow, obs.add_event)


def _read_pod_table(first: int, last: int, body: str, obs: Observation, limits: Limits) -> None:
    source = obs.add_source("pod-table", first, last)
    head = POD_HEADER.match(body.split("\n", 1)[0])
    pattern = POD_ROWS_NS if head is not None and head.group(1) else POD_ROWS

    def slow(lineno: int, text: str) -> None:
        text = text[:_LINE_CAP]
        if POD_HEADER.match(text):
            return
        m = POD_ROW.match(text)
        age = parse_age(m.group("age")) if m is not None else None
        if m is None:
            unread(obs, lineno, text)
            return
        obs.rows.append(PodRow(source, m.group("name"), m.group("ready"), m.group("status"),
                               " ".join(m.group("restarts").split()),
                               When(SINCE, age[0], source, age[1]) if age else None, lineno))

    read_table(pattern, body, first, pod_row, Spans(source, SINCE), source, slow, obs.rows.append)


_READERS = {"yaml": _read_yaml, "describe": _read_describe, "events-table": _read_events_table,
            "pod-table": _read_pod_table}

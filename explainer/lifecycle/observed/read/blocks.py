"""Long `kubectl get events` tables read at the cost of a few passes in C: each distinct row part read once.

A table of thousands of rows (`kubectl get events -A`, `-w`, hours of a crash loop) repeats itself: the
rest of a row (TYPE REASON OBJECT MESSAGE) comes back with every restart, and ages are as coarse as kubectl
prints them (a minute apart from 10m on), so whole rows come back too.  The rows are split and gathered in a
set (in C), and each distinct row is cut at the table's TYPE column into its lead (the age, after the
namespace with -A) and its rest; each distinct lead and rest is read once.  A row is taken here only when
its two parts read alone give exactly what `read_table` with
`GET_ROWS` gives for the whole row (the lead ends in blanks and the rest starts with its TYPE, so the
row's tokens are the parts' tokens, observed/read/bulk.py `GET_LEAD`/`GET_REST`); the first row that is not
taken ends the block, and the line readers go on from it.  No line of a block can start or end a part
(a row starts with an age or a namespace, never a header, command, fence, describe's or YAML's first
words), so the segmenter (observed/read/paste.py) skips the blocks when it looks for those lines.  The events are made
when `Observation.events` is first read: reading the paste finds and checks every one of them, the
records are built for the report that shows them.  tests/lifecycle/observed/test_read_blocks.py holds this
reader to the line readers over every fixture and generated pastes.  docs/lifecycle-model.md §34.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import compress, count, islice
from operator import itemgetter

from ..model import EventObs, Observation, When
from .bulk import GET_LEAD, GET_LEAD_NS, GET_REST, GET_REST_NS, Spans, event_fields

_LEAD = re.compile(GET_LEAD)
_LEAD_NS = re.compile(GET_LEAD_NS)
_REST = re.compile(GET_REST)
_REST_NS = re.compile(GET_REST_NS)
# leads that are surely read (a short age of ASCII digits, no "(x3 over 5m)"): checked by the regex alone
_PLAIN = re.compile(r"[ \t]*+[0-9]{1,4}+[smhdy](?:[0-9]{1,4}+[smhdy])?+[ \t]++")
_PLAIN_NS = re.compile(r"[ \t]*+[a-z0-9][-a-z0-9]{0,62}+[ \t]++[0-9]{1,4}+[smhdy](?:[0-9]{1,4}+[smhdy])?+[ \t]++")
_NAMESPACE = re.compile(r"[ \t]*+[a-z0-9][-a-z0-9]{0,62}+[ \t]")
_HEADER = re.compile(r"[ \t]*(NAMESPACE[ \t]+)?LAST SEEN[ \t]+(?P<type>TYPE)[ \t]+REASON\b")

Fields = tuple[str, str, str, str]      # pod, reason, type, message (read.bulk.event_fields)


@dataclass
class Block:
    """Rows of a `get events` table, each read as `read_table` reads it, right after the table's header."""

    header: int                          # where the header line starts in the text
    start: int                           # where the first row starts
    end: int                             # just after the last row (its newline, or the end of the text)
    rows: list[str]
    width: int                           # where a row's rest starts (the TYPE column)
    namespaced: bool
    distinct: set[str]                   # the rows, each once
    rests: dict[str, Fields | bool | None]   # each distinct rest: its event's fields (False: another object's)
    newlines: int                        # in text[start:end]


def find_blocks(text: str) -> list[Block]:
    """Every block of rows after a `get events` header, in order."""
    blocks: list[Block] = []
    lines: list[str] | None = None
    line, counted = 0, 0                 # the line that starts at ``counted``
    at = text.find("LAST SEEN")
    while at >= 0:
        ls = text.rfind("\n", 0, at) + 1
        le = text.find("\n", at)
        if le < 0:
            break
        m = _HEADER.match(text, ls, le)
        if m is not None:
            if lines is None:
                lines = text.split("\n")
            line += text.count("\n", counted, ls)
            counted = ls
            block = _block(lines[line + 1:], ls, le + 1, m.start("type") - ls, m.group(1) is not None, len(text))
            if block is not None:
                blocks.append(block)
                at = text.find("LAST SEEN", block.end)
                continue
        at = text.find("LAST SEEN", le)
    return blocks


def _block(rows: list[str], header: int, start: int, width: int, namespaced: bool, length: int) -> Block | None:
    """The rows after a header that are read here.  Identical rows are read once (a crash loop's rows
    repeat: the same rest, and ages as coarse as "15m"), then each distinct lead and rest once; a chunk at
    a time, so a table that ends early (or no table at all) costs little."""
    after = 0                            # the blank lines after the last row, with their newlines
    while rows and not rows[-1].strip():
        after += len(rows.pop()) + 1
    lead_of, rest_of = itemgetter(slice(0, width)), itemgetter(slice(width, None))
    plain = (_PLAIN_NS if namespaced else _PLAIN).fullmatch
    distinct: set[str] = set()
    leads: dict[str, bool] = {}
    rests: dict[str, Fields | bool | None] = {}
    events, pos, size, whole = False, 0, 256, True     # a first chunk, then the rest
    while pos < len(rows):
        new = set(islice(rows, pos, pos + size))
        new -= distinct
        new_leads = set(map(lead_of, new))
        new_leads.difference_update(leads)
        new_rests = set(map(rest_of, new))
        new_rests.difference_update(rests)
        leads.update(zip(new_leads, map(bool, map(plain, new_leads))))
        leads.update((p, _span_ok(p, namespaced)) for p in new_leads if not leads[p])
        rests.update((r, _fields(r, namespaced)) for r in new_rests)
        bad_leads = {p for p in new_leads if not leads[p]}
        bad_rests = {r for r in new_rests if rests[r] is None}
        if bad_leads or bad_rests:       # the first row not taken ends the block
            bad = {row for row in new if row[:width] in bad_leads or row[width:] in bad_rests}
            chunk = rows[pos:pos + size]
            chunk = chunk[:next(compress(count(), map(bad.__contains__, chunk)))]
            del rows[pos + len(chunk):]
            new, new_rests, whole = set(chunk).difference(distinct), set(map(rest_of, chunk)), False
        distinct |= new
        events = events or any(isinstance(rests[r], tuple) for r in new_rests)
        pos, size = pos + size, len(rows)
    if not rows or not events:
        return None
    if whole:                            # the rows run to the end of the text (but for blank lines)
        end = length - max(after - 1, 0)
        nl = len(rows) - (after == 0)
    else:
        end, nl = start + sum(map(len, rows)) + len(rows), len(rows)
    return Block(header, start, end, rows, width, namespaced, distinct, rests, nl)


def _span_ok(lead: str, namespaced: bool) -> bool:
    """The lead reads as `GET_LEAD` reads it, to an age; a namespace is a namespace's name (DNS label), so
    the row cannot be a prompt, a command or a cut ("$ ...", "... 5m Normal")."""
    if namespaced and not _NAMESPACE.match(lead):
        return False
    m = (_LEAD_NS if namespaced else _LEAD).fullmatch(lead)
    return m is not None and Spans(0)(m.group(1)) is not None


def _fields(rest: str, namespaced: bool) -> Fields | bool | None:
    m = (_REST_NS if namespaced else _REST).fullmatch(rest)
    return None if m is None else event_fields(*m.groups())


def read_block(block: Block, obs: Observation, source: int, first_line: int) -> None:
    """The block's events, row ``i`` on line ``first_line + i``, made when they are first asked for."""

    def make() -> list[EventObs]:
        spans, lead, width = Spans(source), (_LEAD_NS if block.namespaced else _LEAD).fullmatch, block.width
        times: dict[str, tuple[When, int, When] | None] = {}
        made: dict[str, tuple[Fields, tuple[When, int, When]] | None] = {}
        for row in block.distinct:
            fields, p = block.rests[row[width:]], row[:width]
            if p not in times:
                m = lead(p)
                times[p] = spans(m.group(1)) if m is not None else None
            found = times[p]
            made[row] = (fields, found) if isinstance(fields, tuple) and found is not None else None
        out = []
        for i, row in enumerate(block.rows, first_line):
            both = made[row]
            if both is not None:
                (name, reason, kind, message), (last, n, first) = both
                out.append(EventObs(source, name, reason, kind, None, n, first, last, message, i))
        return out

    obs.defer_events(make)


def newlines(text: str, blocks: list[Block], a: int, b: int) -> int:
    """How many newlines ``text[a:b]`` holds, the blocks' counted once when they were found."""
    n = 0
    for block in blocks:
        s, e = block.start, block.end
        if e <= a or s >= b:
            continue
        lo, hi = max(a, s), min(b, e)
        n += text.count("\n", a, lo)
        if hi - lo < (e - s) // 2:
            n += text.count("\n", lo, hi)
        else:                           # most of the block: its count, less what lies outside [lo, hi)
            n += block.newlines - text.count("\n", s, lo) - text.count("\n", hi, e)
        a = hi
    return n + text.count("\n", a, b) if a < b else n


def outside(blocks: list[Block], length: int) -> list[tuple[int, int]]:
    """The parts of the text no block holds."""
    out, pos = [], 0
    for block in blocks:
        out.append((pos, block.start))
        pos = block.end
    out.append((pos, length))
    return [(a, b) for a, b in out if a < b]


def moved(blocks: list[Block], shifts: list[int]) -> list[Block]:
    """The blocks after the text before each moved by its shift (a cut of "..." outside them)."""
    out = []
    for block, d in zip(blocks, shifts):
        out.append(Block(block.header + d, block.start + d, block.end + d, block.rows, block.width, block.namespaced,
                         block.distinct, block.rests, block.newlines))
    return out


"""Tables read in bulk: every row of a `get events`, `get pod` or describe Events table found by one pattern
scan (in C), then checked token by token with the time of each distinct age read once.  Rows the loose
scan does not take (older layouts, -o wide, a message over several lines) fall back to the line readers
(observed/read/events.py), so the bulk path changes the cost, never the result.  A paste's cost is then one pass
over its text plus a little per row (`make bench`, docs/lifecycle-model.md §34)."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from explainer.lifecycle.numbers import whole_number
from ..model import AGO, SINCE, EventObs, PodRow, When
from .events import _OLD_REASONS
from ..times import parse_age

T = TypeVar("T")
_SPAN = r"[^\s(]{1,24}+(?: \(x\d{1,9}+ (?:over|from|starting) [^\s)]{1,24}+\))?"
# LAST SEEN TYPE REASON OBJECT MESSAGE (get events, kubectl events); a NAMESPACE column first, or not
# (each row in two parts: up to the TYPE column, and the rest; observed/read/blocks.py reads each part alone)
GET_LEAD = rf"[ \t]*+({_SPAN})[ \t]++"
GET_LEAD_NS = rf"[ \t]*\S{{1,63}}[ \t]+({_SPAN})[ \t]+"
GET_REST = r"(Normal|Warning)[ \t]++(\S{1,128}+)[ \t]++(\S{1,300}+)[ \t]*+([^\n]*+)"
GET_REST_NS = r"(Normal|Warning)[ \t]+(\S{1,128})[ \t]+(\S{1,300})[ \t]*([^\n]*)"
GET_ROWS = re.compile(f"^{GET_LEAD}{GET_REST}$", re.M)
GET_ROWS_NS = re.compile(f"^{GET_LEAD_NS}{GET_REST_NS}$", re.M)
# Type Reason Age From Message (describe, 1.10+)
DESCRIBE_ROWS = re.compile(rf"^[ \t]*(Normal|Warning)[ \t]+(\S{{1,128}})[ \t]+({_SPAN})[ \t]+"
                           r"([^\s,]{1,200}(?:,[ \t][^\s,]{1,200})?)[ \t]*([^\n]*)$", re.M)
# NAME READY STATUS RESTARTS AGE (get pod); a NAMESPACE column first, or not
POD_ROWS = re.compile(r"^[ \t]*(\S{1,253})[ \t]+(\d{1,4}/\d{1,4})[ \t]+(\S{1,100})[ \t]+(\d{1,9}(?: \([^)\n]{1,40}\))?)"
                      r"[ \t]+(\S{1,24})(?:[ \t][^\n]*)?$", re.M)
POD_ROWS_NS = re.compile(r"^[ \t]*\S{1,63}[ \t]+(\S{1,253})[ \t]+(\d{1,4}/\d{1,4})[ \t]+(\S{1,100})[ \t]+"
                         r"(\d{1,9}(?: \([^)\n]{1,40}\))?)[ \t]+(\S{1,24})(?:[ \t][^\n]*)?$", re.M)
_NAME = re.compile(r"(?:[a-z0-9][-a-z0-9.]{0,252}|<[^>\s]{1,60}>)\Z")


class Spans:
    """"10s (x3 over 20s)" -> (last, count, first), each distinct text read once per source."""

    def __init__(self, source: int, kind: str = AGO) -> None:
        self.source, self.kind = source, kind
        self.cache: dict[str, tuple[When, int, When] | None] = {}

    def __call__(self, text: str) -> tuple[When, int, When] | None:
        try:
            return self.cache[text]
        except KeyError:
            pass
        last_text, _, rest = text.partition(" (x")
        age = parse_age(last_text)
        found: tuple[When, int, When] | None = None
        if age is not None:
            last = When(self.kind, age[0], self.source, age[1])
            if rest:
                count, _, first_text = rest.rstrip(")").partition(" ")
                first_age = parse_age(first_text.split(" ")[-1])
                times = whole_number(count, 9)
                if times is not None and first_age is not None:
                    found = (last, max(times, 1), When(self.kind, first_age[0], self.source, first_age[1]))
            else:
                found = (last, 1, last)
        self.cache[text] = found
        return found


def event_fields(kind: str, reason: str, obj: str, message: str) -> tuple[str, str, str, str] | None | bool:
    """The event a `get events` row's TYPE, REASON, OBJECT and MESSAGE make: (pod, reason, type, message),
    False for one about another kind of object, None when a token is not what it should be."""
    if not reason[0].isalpha() or "/" not in obj or message.startswith("spec."):
        return None
    what, _, name = obj.partition("/")
    if what.lower() != "pod":
        return False
    return name, _OLD_REASONS.get(reason, reason) if reason[:1].islower() else reason, kind, message.strip()


def get_event(groups: tuple[str, ...], spans: Spans, source: int, line: int) -> EventObs | None | bool:
    """A `get events` row taken by the loose scan: the event, False for one about another kind of object,
    None when a token is not what it should be (the line reader then reads the line)."""
    span, kind, reason, obj, message = groups
    found = spans(span)
    if found is None:
        return None
    fields = event_fields(kind, reason, obj, message)
    if not isinstance(fields, tuple):
        return fields
    last, count, first = found
    name, reason, kind, message = fields
    return EventObs(source, name, reason, kind, None, count, first, last, message, line)


def describe_event(groups: tuple[str, ...], spans: Spans, source: int, line: int) -> EventObs | None:
    kind, reason, span, _src, message = groups
    found = spans(span)
    if found is None or not reason[0].isalpha():
        return None
    last, count, first = found
    return EventObs(source, None, _OLD_REASONS.get(reason, reason) if reason[:1].islower() else reason, kind,
                    None, count, first, last, message.strip(), line)


def pod_row(groups: tuple[str, ...], spans: Spans, source: int, line: int) -> PodRow | None:
    name, ready, status, restarts, age = groups
    found = spans(age)
    if found is None or not _NAME.match(name):
        return None
    return PodRow(source, name, ready, status, " ".join(restarts.split()), found[0], line)


def read_table(pattern: re.Pattern[str], text: str, first_line: int, build: Callable[..., T | None | bool],
               spans: Spans, source: int, slow: Callable[[int, str], None], add: Callable[[T], None]) -> None:
    """Every row of ``text``: built fast where the scan took it, else handed to ``slow`` (line, text)."""
    line, pos = first_line, 0
    for m in pattern.finditer(text):
        start = m.start()
        if start > pos:                  # whole lines the scan did not take, each ending in a newline
            for gap in text[pos:start].split("\n")[:-1]:
                if gap.strip():
                    slow(line, gap)
                line += 1
        made = build(m.groups(), spans, source, line)
        if made is None:
            slow(line, m.group())
        elif made is not False and made is not True:
            add(made)
        line += 1
        pos = m.end() + 1
    if pos < len(text):
        for gap in text[pos:].split("\n"):
            if gap.strip():
                slow(line, gap)
            line += 1

"""Event rows as kubectl prints them: the Events table of `describe` (every layout since 2015) and
`kubectl get events` / `kubectl events` (the current columns, -o wide, and the pre-1.14 columns).

Rows are read by their shape, not by column positions, so a paste whose alignment was lost (runs of
spaces squeezed to one) still reads.  Events are read by ``reason`` only: the message's wording changed
between versions and is kept as text, never interpreted.  docs/lifecycle-model.md §34.
"""
from __future__ import annotations

import re

from ..model import ABSOLUTE, AGO, EventObs, When
from ..times import AGE_TEXT, DATE_TEXT, parse_age, parse_date

_AGE = rf"(?:{AGE_TEXT}|<unknown>|<invalid>)"
# "10s", "10s (x3 over 20s)"; 1.7's transitional "(x3 from 1h)" and "(x2 starting 1h)"
_SPAN = rf"(?P<last>{_AGE})(?:\s+\(x(?P<count>\d{{1,9}})\s+(?:over|from|starting)\s+(?P<first>{_AGE})\))?"
_FROM = r"(?P<src>\{[^}]{0,200}\}|[\w.:/@-]{1,200}(?:,\s[\w.:/@-]{1,200})?)"
_TYPE = r"(?P<type>Normal|Warning)"
_REASON = r"(?P<reason>[A-Za-z][\w.-]{0,127})"
_PATH = r"(?P<path>spec\.\w{1,40}\{[^}]{1,253}\}|implicitly required container \S{1,253})"
_STAMP = rf"(?:{DATE_TEXT}|{_AGE})"

# describe, 1.10+ ("Type Reason Age From Message"; 1.7: "Type Reason Last From Message")
DESCRIBE_ROW = re.compile(rf"{_TYPE}\s+{_REASON}\s+{_SPAN}(?:\s+{_FROM})?(?:\s+(?P<msg>.*))?$")
# describe fragments quoted without the age and source ("... Warning BackOff Back-off restarting ...")
DESCRIBE_SHORT = re.compile(rf"{_TYPE}\s+{_REASON}(?:\s+(?P<msg>.*))?$")
# describe, 2015-1.9 ("FirstSeen LastSeen Count From SubObjectPath [Type] Reason Message")
DESCRIBE_OLD = re.compile(rf"(?P<first>{_STAMP})\s+(?P<last>{_STAMP})\s+(?P<count>\d{{1,9}})\s+{_FROM}"
                          rf"(?:\s+{_PATH})?(?:\s+{_TYPE})?\s+{_REASON}(?:\s+(?P<msg>.*))?$")
# get events, 1.14+ ("LAST SEEN TYPE REASON OBJECT MESSAGE"; -o wide adds SUBOBJECT SOURCE before MESSAGE
# and FIRST SEEN COUNT NAME after it); `kubectl events` prints "2m (x3 over 5m)" in LAST SEEN
GET_ROW = re.compile(rf"(?:(?P<ns>[a-z0-9][-a-z0-9]{{0,62}})\s+)?{_SPAN}\s+{_TYPE}\s+{_REASON}\s+"
                     r"(?P<object>[A-Za-z][\w.-]{0,80}/[\w.:-]{1,253})(?:\s+" + _PATH + r")?"
                     r"(?P<rest>(?:\s+.*)?)$")
_WIDE_TAIL = re.compile(rf"(?P<msg>.*?)\s+(?P<first>{_AGE})\s+(?P<count>\d{{1,9}})\s+(?P<name>\S{{1,253}})$")
# get events, before 1.14 ("LAST SEEN FIRST SEEN COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE MESSAGE")
GET_OLD = re.compile(rf"(?:(?P<ns>[a-z0-9][-a-z0-9]{{0,62}})\s+)?(?P<last>{_AGE})\s+(?P<first>{_AGE})\s+"
                     r"(?P<count>\d{1,9})\s+(?P<name>\S{1,253})\s+(?P<kind>[A-Z]\w{0,40})(?:\s+" + _PATH + r")?\s+"
                     rf"{_TYPE}\s+{_REASON}\s+{_FROM}(?:\s+(?P<msg>.*))?$")
DESCRIBE_HEADER = re.compile(r"(?:Type\s+Reason\s+(?:Age|Last)\s+From\s+Message|"
                             r"FirstSeen\s+LastSeen\s+Count\s+From\s+Sub[Oo]bject[Pp]ath\s+(?:Type\s+)?Reason\s+Message)$")
GET_HEADER = re.compile(r"(?:NAMESPACE\s+)?LAST SEEN\s+(?:TYPE|FIRST SEEN)\b.*$")
RULE = re.compile(r"[-\s]{3,}$")          # the "----  ------" line under a header
_OLD_REASONS = {"scheduled": "Scheduled", "pulling": "Pulling", "pulled": "Pulled", "created": "Created",
                "started": "Started", "killing": "Killing", "failed": "Failed", "backoff": "BackOff",
                "unhealthy": "Unhealthy", "failedscheduling": "FailedScheduling", "failedsync": "FailedSync"}
MAX_LINE = 4000           # longer lines are read by their first characters only (a row never is this long)


def _when(text: str | None, clock: int) -> When | None:
    if not text or text in ("<unknown>",):
        return None
    age = parse_age(text)
    if age is not None:
        return When(AGO, age[0], clock, age[1])
    at = parse_date(text)
    return When(ABSOLUTE, at) if at is not None else None


def _container(path: str | None) -> str | None:
    if not path or "{" not in path:
        return None
    return path[path.index("{") + 1:-1] or None


def _reason(reason: str) -> str:
    """2015's lowercase reasons ("scheduled", "pulled") are today's ("Scheduled", "Pulled")."""
    return _OLD_REASONS.get(reason, reason) if reason[:1].islower() else reason


def describe_event(text: str, pod: str | None, source: int, line: int) -> EventObs | None:
    """One row of describe's Events table (any layout), or None when ``text`` is not one."""
    text = text.strip()[:MAX_LINE]
    m = DESCRIBE_ROW.match(text)
    if m is not None:
        return _event(m, pod, source, line, m.group("msg"))
    m = DESCRIBE_OLD.match(text)
    if m is not None:
        return _event(m, pod, source, line, m.group("msg"))
    m = DESCRIBE_SHORT.match(text)
    if m is not None:
        return EventObs(source, pod, _reason(m.group("reason")), m.group("type"), None, 1, None, None,
                        m.group("msg") or "", line)
    return None


def get_event(text: str, source: int, line: int) -> EventObs | None | bool:
    """One row of `kubectl get events`: the event, False for a row about another kind of object,
    None when ``text`` is not a row."""
    text = text.strip()[:MAX_LINE]
    m = GET_ROW.match(text)
    if m is not None:
        kind, _, name = m.group("object").partition("/")
        if kind.lower() != "pod":
            return False
        rest = m.group("rest").strip()
        tail = _WIDE_TAIL.match(rest) if rest else None
        msg, first, count = rest, m.group("first"), m.group("count")
        if tail is not None and tail.group("name").split(".")[0] == name.split(".")[0]:
            msg, first, count = tail.group("msg"), tail.group("first"), tail.group("count")
        return _build(m, name, source, line, msg, first, count)
    m = GET_OLD.match(text)
    if m is not None:
        if m.group("kind") != "Pod":
            return False
        name = m.group("name")
        pod = name.rsplit(".", 1)[0] if "." in name else name    # an event's name is "<pod>.<hex>"
        return _build(m, pod, source, line, m.group("msg"), m.group("first"), m.group("count"))
    return None


def _event(m: re.Match, pod: str | None, source: int, line: int, msg: str | None) -> EventObs:
    return _build(m, pod, source, line, msg, m.group("first"), m.group("count"))


def _build(m: re.Match, pod: str | None, source: int, line: int, msg: str | None, first: str | None,
           count: str | None) -> EventObs:
    last = _when(m.group("last"), source)
    start = _when(first, source) if first else last
    groups = m.groupdict()
    return EventObs(source, pod, _reason(m.group("reason")), groups.get("type"), _container(groups.get("path")),
                    max(int(count), 1) if count else 1, start, last, (msg or "").strip(), line)

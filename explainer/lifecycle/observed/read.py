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

from ..errors import ManifestError
from ..i18n import Text, gettext_noop as _
from ..yamlload import Limits, load_documents
from .model import SINCE, EventObs, Observation, PodRow, Unread, When
from .read_describe import DescribeReader
from .read_events import DESCRIBE_HEADER, GET_HEADER, RULE, describe_event, get_event
from .read_objects import read_documents
from .times import AGE_TEXT, parse_age

MAX_UNREAD = 200          # unread lines listed; the rest are counted
_LINE_CAP = 4000
_VERBS = r"(?:get|describe|events|logs|apply|create|run|delete|top|rollout|exec|debug|edit|patch|scale|wait|explain)"
COMMAND = re.compile(r"\s*(?:\[[^\]]{0,200}\][#$%]\s*|[\w.@:~/\\-]{0,200}[$#%>]\s*|PS [^>]{0,200}>\s*)?"
                     r"(?:sudo\s+)?(?:\S{0,200}/)?(?:kubectl(?:\.sh)?|oc|k)\s+(?P<args>" + _VERBS + r"\b.*)$")
_PROMPT = re.compile(r"\s*(?:\$|PS [^>]{0,200}>)\s+\S")
_FENCE = re.compile(r"\s*(?:```|~~~)[\w-]*\s*$")
_CUT = re.compile(r"(\s*)(?:\.\.\.|\[\.\.\.\]|…)\s+(?=\S)")     # "... Normal Created ...": columns left out
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


def read_observed(texts: str | Sequence[str], limits: Limits = Limits()) -> Observation:
    """Everything the pasted text(s) say about Pods; lines are numbered through all texts in order."""
    obs = Observation()
    parts = [texts] if isinstance(texts, str) else list(texts)
    size = sum(len(t.encode("utf-8", "surrogatepass")) for t in parts)
    if size > limits.max_bytes:
        values = {"size": f"{size:,}", "limit": f"{limits.max_bytes:,}", "setting": limits.bytes_setting}
        obs.errors.append(Text(_("The observed output is {size} bytes; the limit is {limit} bytes ({setting} "
                                 "raises it)."), values) if limits.bytes_setting else
                          Text(_("The observed output is {size} bytes; the limit is {limit} bytes."), values))
        return obs
    offset = 0
    for text in parts:
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        _read_lines(lines, offset, obs, limits)
        offset += len(lines)
    return obs


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


def _read_lines(lines: list[str], offset: int, obs: Observation, limits: Limits) -> None:
    segments: list[tuple[str, list[tuple[int, str]]]] = []
    current: tuple[str, list[tuple[int, str]]] | None = None
    hint: str | None = None
    for i, raw in enumerate(lines):
        lineno = offset + i + 1
        text = raw[:_LINE_CAP]
        cut = _CUT.match(text)
        if cut is not None:
            text = cut.group(1) + text[cut.end():]
        if _FENCE.match(text):
            continue
        command = COMMAND.match(text)
        if command is not None or _PROMPT.match(text):
            current, hint = None, _hint(command.group("args")) if command else None
            continue
        if current is not None:
            other = _switch(current[0], text)
            if other is not None and not (current[0] == other == "yaml"):
                current = None
                hint = other
        if current is None:
            if not text.strip():
                continue
            kind = hint or sniff(text)
            hint = None
            if kind is None:
                unread(obs, lineno, text)
                continue
            current = (kind, [])
            segments.append(current)
        current[1].append((lineno, text))
    for kind, part in segments:
        while part and not part[-1][1].strip():
            part.pop()
        if part:
            _READERS[kind](part, obs, limits)


def unread(obs: Observation, lineno: int, text: str) -> None:
    if len(obs.unread) < MAX_UNREAD:
        obs.unread.append(Unread(lineno, text.rstrip()[:300]))
    else:
        obs.unread_more += 1


def _read_yaml(part: list[tuple[int, str]], obs: Observation, limits: Limits) -> None:
    first, last = part[0][0], part[-1][0]
    text = "\n".join(t for _, t in part)
    try:
        docs = load_documents(text, limits)
    except ManifestError as exc:
        record = exc.records[0]
        obs.notes.append(Text(_("Lines {first} to {last} look like YAML or JSON but cannot be read: {problem}"),
                              {"first": first, "last": last, "problem": record.translatable}))
        for lineno, t in part:
            if t.strip():
                unread(obs, lineno, t)
        return
    if not read_documents([d.data for d in docs], obs, first, last, first - 1):
        obs.notes.append(Text(_("Lines {first} to {last} hold YAML that is neither a Pod with its status, an "
                                "Event nor a part of a Pod's status."), {"first": first, "last": last}))
        unread(obs, first, part[0][1])


def _read_describe(part: list[tuple[int, str]], obs: Observation, limits: Limits) -> None:
    source = obs.add_source("describe", part[0][0], part[-1][0])
    reader = DescribeReader(source)
    for lineno, text in part:
        reader.feed(lineno, text)
    reader.finish()
    obs.snapshots.extend(reader.snapshots)
    obs.events.extend(reader.events)
    for u in reader.unread:
        unread(obs, u.line, u.text)


def _read_events_table(part: list[tuple[int, str]], obs: Observation, limits: Limits) -> None:
    source = obs.add_source("events-table", part[0][0], part[-1][0])
    for lineno, text in part:
        stripped = text.strip()
        if not stripped or GET_HEADER.match(stripped) or RULE.match(stripped):
            continue
        row = get_event(text, source, lineno)
        ev = describe_event(text, None, source, lineno) if row is None else row
        if ev is None:
            unread(obs, lineno, text)
        elif isinstance(ev, EventObs):
            obs.events.append(ev)


def _read_pod_table(part: list[tuple[int, str]], obs: Observation, limits: Limits) -> None:
    source = obs.add_source("pod-table", part[0][0], part[-1][0])
    namespaced = False
    for lineno, text in part:
        header = POD_HEADER.match(text)
        if header is not None:
            namespaced = bool(header.group(1))
            continue
        m = POD_ROW.match(text)
        if m is None or bool(m.group("ns")) != namespaced and namespaced:
            if text.strip():
                unread(obs, lineno, text)
            continue
        age = parse_age(m.group("age"))
        obs.rows.append(PodRow(source, m.group("name"), m.group("ready"), m.group("status"),
                               " ".join(m.group("restarts").split()),
                               When(SINCE, age[0], source, age[1]) if age else None, lineno))


_READERS = {"yaml": _read_yaml, "describe": _read_describe, "events-table": _read_events_table,
            "pod-table": _read_pod_table}

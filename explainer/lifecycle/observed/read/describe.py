"""`kubectl describe pod` as text, best effort: the Pod's status, each container's State and Last
State, the Conditions, and the Events table (observed/read/events.py).

The reader is driven by describe's keys ("State:", "Last State:", "Restart Count:"), not by
indentation, so a paste whose leading white space was lost reads the same; sections ("Init
Containers:", "Containers:", "Volumes:", "Events:") say what a line under them is.  Lines it cannot
place are returned as unread.  k/kubectl `pkg/describe/describe.go` `describePod`,
`describeContainerState`, `DescribeEvents` print what this reads (docs/lifecycle-model.md §34).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from explainer.lifecycle.numbers import whole_number
from ..model import ABSOLUTE, AGO, Condition, ContainerObs, EventObs, Snapshot, Termination, Unread, When
from .events import DESCRIBE_HEADER, RULE, describe_event
from ..times import parse_age, parse_date

_KEY = re.compile(r"([A-Za-z][\w ./()-]{0,60}?):(?:[ \t]+(.*))?$")
_NAME = re.compile(r"(?:[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?|<[^>]{1,60}>):$")   # a container's heading line
_CONDITION = re.compile(r"(\w{1,63})\s+(True|False|Unknown)\b")
_ELISIONS = {"...", "[...]", "…"}      # a stripped line that only says something was left out
_SECTIONS = {"Init Containers": "init", "Containers": "app", "Ephemeral Containers": "ephemeral",
             "Conditions": "conditions", "Volumes": "other", "Events": "events", "Readiness Gates": "other",
             "Tolerations": "other", "Node-Selectors": "other", "QoS Class": "other", "Labels": "other",
             "Annotations": "other", "IPs": "other", "Topology Spread Constraints": "other"}
_POD_KEYS = {"Name", "Namespace", "Priority", "Priority Class Name", "Runtime Class Name", "Service Account",
             "Node", "Start Time", "Status", "Reason", "Message", "IP", "Controlled By", "Controllers",
             "Replication Controllers", "Image(s)", "Host", "NominatedNodeName", "SeccompProfile",
             "Termination Grace Period", "Scheduling Gates", "Resources", "Resource Claims"}
_NOT_EVENT_KEYS = _POD_KEYS - {"Message", "Reason"}     # a Pod's key: the Events table has ended
_CONTAINER_KEYS = {"Container ID", "Image", "Image ID", "Port", "Ports", "Host Port", "Host Ports",
                   "SeccompProfile", "LocalhostProfile", "Command", "Args", "State", "Last State",
                   "Last Termination State", "Ready", "Restart Count", "Limits", "Requests", "Liveness",
                   "Readiness", "Startup", "Environment", "Environment Variables from", "Environment Variables",
                   "Mounts", "Devices", "QoS Tier", "Restart Policy", "Allocated Resources", "Resize Policy",
                   "Started", "Reason", "Message", "Exit Code", "Signal", "Finished"}
_FREE = {"Command": "free", "Args": "free", "Environment": "env", "Environment Variables": "env",
         "Environment Variables from": "env", "Mounts": "mounts", "Devices": "mounts", "Limits": "res",
         "Requests": "res", "QoS Tier": "res", "Allocated Resources": "res", "Resize Policy": "res"}


@dataclass
class _Container:
    name: str | None
    role: str
    line: int
    fields: dict = field(default_factory=dict)        # top-level keys of the container
    state: dict[str, str] | None = None
    last: dict[str, str] | None = None

    def build(self) -> ContainerObs:
        state = self.state or {}
        kind = {"Running": "running", "Waiting": "waiting", "Terminated": "terminated"}.get(state.get("", ""))
        ended = _termination(self.name, state) if kind == "terminated" else None
        last = _termination(self.name, self.last) if self.last and self.last.get("") == "Terminated" else None
        started = self.fields.get("Started")
        return ContainerObs(self.name, self.role, kind, state.get("Reason"), state.get("Message"),
                            _date(state.get("Started")) if kind == "running" else None, ended, last,
                            _count(self.fields.get("Restart Count")), _flag(self.fields.get("Ready")),
                            _flag(started), self.fields.get("Image"), self.line)


def _date(text: str | None) -> When | None:
    at = parse_date(text) if text else None
    return When(ABSOLUTE, at) if at is not None else None


def _count(text: str | None) -> int | None:
    return whole_number(text, 9)


def _flag(text: str | None) -> bool | None:
    return {"True": True, "False": False, "true": True, "false": False}.get(text or "")


def _termination(name: str | None, state: dict) -> Termination:
    code = state.get("Exit Code", "")
    signal = state.get("Signal", "")
    number = whole_number(code.removeprefix("-"), 9)
    return Termination(name, None if number is None else -number if code.startswith("-") else number,
                       whole_number(signal, 9), state.get("Reason"),
                       state.get("Message"), _date(state.get("Started")), _date(state.get("Finished")))


class DescribeReader:
    """Reads one `describe` paste, line by line; several Pods (``describe pods``) give several snapshots."""

    def __init__(self, source: int) -> None:
        self.source = source
        self.snapshots: list[Snapshot] = []
        self.events: list[EventObs] = []
        self.unread: list[Unread] = []
        self._reset(None)

    def _reset(self, line: int | None) -> None:
        self.pod: dict[str, str] = {}
        self.pod_line = line
        self.containers: list[_Container] = []
        self.conditions: list[Condition] = []
        self.section: str | None = None
        self.sub: str | None = None       # state | last | env | mounts | res | free
        self.current: _Container | None = None
        self.pod_events: list[EventObs] = []

    def feed(self, lineno: int, raw: str) -> None:
        text = raw.strip()
        if not text or text in _ELISIONS:
            return
        key_match = _KEY.match(text)
        key = key_match.group(1).strip() if key_match else None
        value = (key_match.group(2) or "").strip() if key_match else ""
        if self.section == "events" and not (key in _SECTIONS and key != "Events" or key in _NOT_EVENT_KEYS):
            self._event_line(lineno, text, key, value)
            return
        if key == "Name" and value and self.pod.get("Name"):
            self.finish()
            self._reset(lineno)
        if key in _SECTIONS:
            self.section, self.sub, self.current = _SECTIONS[key], None, None
            if key == "Events" and value and value != "<none>":
                self._event_line(lineno, value, None, "")
            return
        if self.section in ("init", "app", "ephemeral"):
            if self._container_line(lineno, text, key, value):
                return
        elif self.section == "conditions":
            m = _CONDITION.match(text)
            if m is not None:
                self.conditions.append(Condition(m.group(1), m.group(2)))
                return
            if text.split() == ["Type", "Status"] or RULE.match(text):
                return
        elif self.section == "other" and key not in _POD_KEYS:
            return
        if key in _POD_KEYS:
            self.section, self.sub = (None if self.section in ("init", "app", "ephemeral", "conditions", "events")
                                      else self.section), None
            if self.pod_line is None:
                self.pod_line = lineno
            self.pod.setdefault(key, value)
            if self.section == "other":
                self.section = None
            return
        if key is not None and self.section is None and self.current is None and key in ("State", "Last State"):
            # a container block quoted on its own (a fragment of describe)
            self.section = "app"
            self._container_line(lineno, text, key, value)
            return
        if DESCRIBE_HEADER.match(text) or describe_event(text, None, self.source, lineno) is not None:
            self.section = "events"
            self._event_line(lineno, text, key, value)
            return
        self.unread.append(Unread(lineno, raw.rstrip()[:300]))

    def _container_line(self, lineno: int, text: str, key: str | None, value: str) -> bool:
        c = self.current
        if key is None:
            if self.sub in ("free", "mounts", "res", "env"):
                return True          # a command line, a mount, an environment line
            if _NAME.match(text) and self.sub != "env":
                self._new_container(lineno, text[:-1])
                return True
            return False
        if not value and key not in _CONTAINER_KEYS and _NAME.match(text) and self.sub != "env":
            self._new_container(lineno, key)
            return True
        if c is None:
            if key in _CONTAINER_KEYS:      # describe's lines with the container's heading cut off
                self._new_container(lineno, None)
                c = self.current
            else:
                return False
        assert c is not None
        if key in ("State", "Last State", "Last Termination State"):
            self.sub = "state" if key == "State" else "last"
            block: dict[str, str] = {"": value.split()[0] if value else ""}
            if self.sub == "state":
                c.state = block
            else:
                c.last = block
            return True
        if self.sub in ("state", "last") and key in ("Reason", "Message", "Exit Code", "Signal", "Started",
                                                     "Finished"):
            found = c.state if self.sub == "state" else c.last
            if found is not None and key not in found and not (key == "Started" and value in ("True", "False")):
                found[key] = value
                return True
        if key in _CONTAINER_KEYS:
            self.sub = _FREE.get(key)
            c.fields.setdefault(key, value)
            return True
        return self.sub in ("env", "res", "mounts", "free")     # "memory: 128Mi", "FOO: bar"

    def _new_container(self, lineno: int, name: str | None) -> None:
        role = self.section if self.section in ("init", "app", "ephemeral") else "app"
        self.current = _Container(name, role, lineno)
        self.containers.append(self.current)
        self.sub = None

    def _event_line(self, lineno: int, text: str, key: str | None, value: str) -> None:
        if DESCRIBE_HEADER.match(text) or RULE.match(text) or text == "<none>":
            return
        ev = describe_event(text, None, self.source, lineno)
        if ev is not None:
            self.pod_events.append(ev)
        elif self.pod_events:        # a message that goes on over several lines
            prev = self.pod_events[-1]
            self.pod_events[-1] = EventObs(prev.source, prev.pod, prev.reason, prev.type, prev.container,
                                           prev.count, prev.first, prev.last, (prev.message + " " + text)[:2000],
                                           prev.line)
        else:
            self.unread.append(Unread(lineno, text[:300]))

    def finish(self) -> None:
        """Close the Pod read so far (a snapshot when it said anything about its status)."""
        name = self.pod.get("Name") or None
        status = self.pod.get("Status", "")
        deleting = status.startswith("Terminating")
        lasts = re.search(r"\(lasts ([^)]{1,20})\)", status)
        age = parse_age(lasts.group(1)) if lasts and lasts.group(1) != "<invalid>" else None
        containers = [c.build() for c in self.containers]
        if self.pod or containers or self.conditions:
            self.snapshots.append(Snapshot(
                self.source, "describe", name, phase=None if deleting or not status else status.split()[0],
                reason=self.pod.get("Reason") or None, message=self.pod.get("Message") or None,
                start_time=_date(self.pod.get("Start Time")), conditions=tuple(self.conditions),
                init=tuple(c for c in containers if c.role == "init"),
                apps=tuple(c for c in containers if c.role == "app"),
                ephemeral=tuple(c for c in containers if c.role == "ephemeral"),
                deleted=When(AGO, age[0], self.source, age[1]) if age else None, deleting=deleting,
                line=self.pod_line, owner=(self.pod.get("Controlled By") or self.pod.get("Controllers") or None)))
        self.events.extend(EventObs(e.source, name, e.reason, e.type, e.container, e.count, e.first, e.last,
                                    e.message, e.line) for e in self.pod_events)

"""Objects as `kubectl get -o yaml|json` prints them: Pods with their status, Events (core/v1 and
events.k8s.io), Lists of either, and fragments of a status (``lastState:``, ``containerStatuses:``).

Only what the comparison needs is read; every value is checked for its type, so a mangled paste gives
fewer facts, never an exception.  docs/lifecycle-model.md §34.
"""
from __future__ import annotations

import re
from typing import Any

from ..model import (ABSOLUTE, Condition, ContainerObs, EventObs, Observation, Snapshot, SpecInfo, Termination,
                    When)
from ..times import parse_stamp

_FIELD_PATH = re.compile(r"spec\.(containers|initContainers|ephemeralContainers)\{([^}]{1,253})\}")
_LIST_KINDS = ("List", "PodList", "EventList")
_STATUS_KEYS = ("containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses", "phase", "conditions",
                "startTime")
_MAX_ITEMS = 100_000     # a List is bounded by the bytes limit already; this bounds the walk itself


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) and v else (str(v) if isinstance(v, (int, float)) and not isinstance(v, bool)
                                               else None)


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and -2**31 <= v < 2**31 else None


def _bool(v: Any) -> bool | None:
    return v if isinstance(v, bool) else None


def _map(v: Any) -> dict:
    return v if isinstance(v, dict) else {}


def _list(v: Any) -> list:
    return v[:_MAX_ITEMS] if isinstance(v, list) else []


def _line(v: Any, offset: int) -> int | None:
    line = getattr(v, "line", None)
    return line + offset if isinstance(line, int) else None


def stamp(v: Any) -> When | None:
    """A metav1.Time or MicroTime as a `When` (whole seconds unless it has a fraction)."""
    at = parse_stamp(v)
    if at is None:
        return None
    return When(ABSOLUTE, at, slack=0.001 if isinstance(v, str) and "." in v else 1.0)


def termination(v: Any, container: str | None, offset: int = 0) -> Termination | None:
    t = _map(v).get("terminated") if "terminated" in _map(v) else None
    if not isinstance(t, dict):
        return None
    return Termination(container, _int(t.get("exitCode")), _int(t.get("signal")), _str(t.get("reason")),
                       _str(t.get("message")), stamp(t.get("startedAt")), stamp(t.get("finishedAt")),
                       _line(t, offset))


def container_status(cs: Any, role: str, offset: int = 0) -> ContainerObs:
    cs = _map(cs)
    name = _str(cs.get("name"))
    state = _map(cs.get("state"))
    kind, reason, message, started_at, ended = None, None, None, None, None
    if isinstance(state.get("terminated"), dict):
        kind = "terminated"
        ended = termination(state, name, offset)
        reason, message = (ended.reason, ended.message) if ended else (None, None)
    elif isinstance(state.get("waiting"), dict):
        kind = "waiting"
        reason, message = _str(state["waiting"].get("reason")), _str(state["waiting"].get("message"))
    elif isinstance(state.get("running"), dict):
        kind = "running"
        started_at = stamp(state["running"].get("startedAt"))
    last = termination(cs.get("lastState", cs.get("lastTerminationState")), name, offset)
    return ContainerObs(name, role, kind, reason, message, started_at, ended, last, _int(cs.get("restartCount")),
                        _bool(cs.get("ready")), _bool(cs.get("started")), _str(cs.get("image")),
                        _line(cs, offset))


def spec_info(spec: Any) -> SpecInfo | None:
    spec = _map(spec)
    if not spec:
        return None
    init = tuple((_str(_map(c).get("name")) or "", _map(c).get("restartPolicy") == "Always")
                 for c in _list(spec.get("initContainers")))
    apps = tuple(_str(_map(c).get("name")) or "" for c in _list(spec.get("containers")))
    return SpecInfo(init, apps, len(_list(spec.get("readinessGates"))), _str(spec.get("restartPolicy")))


def snapshot(obj: Any, source: int, kind: str = "pod", offset: int = 0) -> Snapshot:
    """A Pod object (or a bare ``status:`` / status fragment) as a `Snapshot`."""
    obj = _map(obj)
    meta = _map(obj.get("metadata"))
    status = _map(obj.get("status")) if "status" in obj else obj
    owners = [o for o in _list(meta.get("ownerReferences")) if isinstance(o, dict)]
    owner = next((f"{_str(o.get('kind'))}/{_str(o.get('name'))}" for o in owners if o.get("controller") is True),
                 None)
    return Snapshot(
        source, kind, _str(meta.get("name")),
        phase=_str(status.get("phase")), reason=_str(status.get("reason")), message=_str(status.get("message")),
        start_time=stamp(status.get("startTime")), created=stamp(meta.get("creationTimestamp")),
        deleted=stamp(meta.get("deletionTimestamp")), deleting=meta.get("deletionTimestamp") is not None,
        grace=_int(meta.get("deletionGracePeriodSeconds")),
        conditions=tuple(Condition(_str(_map(c).get("type")) or "", _str(_map(c).get("status")) or "",
                                   _str(_map(c).get("reason")), stamp(_map(c).get("lastTransitionTime")))
                         for c in _list(status.get("conditions"))),
        init=tuple(container_status(c, "init", offset) for c in _list(status.get("initContainerStatuses"))),
        apps=tuple(container_status(c, "app", offset) for c in _list(status.get("containerStatuses"))),
        ephemeral=tuple(container_status(c, "ephemeral", offset)
                        for c in _list(status.get("ephemeralContainerStatuses"))),
        spec=spec_info(obj.get("spec")), line=_line(obj, offset), owner=owner, uid=_str(meta.get("uid")))


def event(obj: Any, source: int, offset: int = 0) -> EventObs | None:
    """A core/v1 or events.k8s.io Event about a Pod (None for one about another kind of object)."""
    obj = _map(obj)
    about = _map(obj.get("involvedObject") or obj.get("regarding"))
    if about.get("kind") not in (None, "Pod"):
        return None
    reason = _str(obj.get("reason"))
    if reason is None:
        return None
    series = _map(obj.get("series"))
    first = (stamp(obj.get("eventTime")) or stamp(obj.get("firstTimestamp"))
             or stamp(obj.get("deprecatedFirstTimestamp")) or stamp(_map(obj.get("metadata")).get("creationTimestamp")))
    last = (stamp(series.get("lastObservedTime")) or stamp(obj.get("lastTimestamp"))
            or stamp(obj.get("deprecatedLastTimestamp")) or first)
    count = _int(series.get("count")) or _int(obj.get("count")) or _int(obj.get("deprecatedCount")) or 1
    container = None
    path = _str(about.get("fieldPath"))
    if path:
        m = _FIELD_PATH.match(path)
        container = m.group(2) if m else None
    return EventObs(source, _str(about.get("name")), reason, _str(obj.get("type")), container, max(count, 1),
                    first, last, _str(obj.get("message")) or _str(obj.get("note")) or "", _line(obj, offset),
                    _str(about.get("uid")))


def extent(obj: Any) -> tuple[int, int]:
    """The first and last line an object of a manifest spans (its positions, walked without recursion)."""
    first = getattr(obj, "line", None) or 1
    last = first
    stack = [obj]
    while stack:
        node = stack.pop()
        pos = getattr(node, "pos", None)
        if isinstance(pos, dict):
            last = max([last] + [p[0] for p in pos.values()])
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(pos, list):
            last = max([last] + [p[0] for p in pos])
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    return first, last


def read_documents(docs: list[Any], obs: Observation, first: int, last: int, offset: int = 0) -> bool:
    """Read each document's data into ``obs``; False when none held anything this module reads."""
    found: dict[str, int] = {}

    def source(kind: str) -> int:
        if kind not in found:
            found[kind] = obs.add_source(kind, first, last)
        return found[kind]

    stack = list(reversed(docs))
    walked = 0
    while stack and walked < _MAX_ITEMS:
        walked += 1
        obj = stack.pop()
        if not isinstance(obj, dict):
            continue
        kind = obj.get("kind")
        if kind in _LIST_KINDS or (kind is None and isinstance(obj.get("items"), list)):
            stack.extend(reversed(_list(obj.get("items"))))
        elif kind == "Pod" or (kind is None and isinstance(obj.get("status"), dict)):
            obs.snapshots.append(snapshot(obj, source("pod" if kind == "Pod" else "fragment"),
                                          "pod" if kind == "Pod" else "fragment", offset))
        elif kind == "Event" or "involvedObject" in obj or "regarding" in obj:
            ev = event(obj, source("events"), offset)
            if ev is not None:
                obs.add_event(ev)
        elif kind is None and any(k in obj for k in _STATUS_KEYS):
            obs.snapshots.append(snapshot(obj, source("fragment"), "fragment", offset))
        elif kind is None and ("lastState" in obj or "state" in obj or "terminated" in obj):
            if "terminated" in obj:
                t = termination(obj, None, offset)
            else:
                cs = container_status(obj, "app", offset)
                t = cs.last or cs.terminated
                if cs.state is not None or cs.restart_count is not None:
                    obs.snapshots.append(Snapshot(source("fragment"), "fragment", None, apps=(cs,),
                                                  line=_line(obj, offset)))
                    continue
            if t is not None:
                source("fragment")
                obs.terminations.append(t)
    return bool(found)

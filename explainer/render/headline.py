"""The first words a class reads about a Pod's run, in teaching terms (issue 25, "Words a class sees first").

A Pod that a deletion (or its activeDeadlineSeconds) ends usually ends with phase Failed and STATUS Error,
because its containers end on a signal: exit code 143 (128 + SIGTERM) or 137 (128 + SIGKILL), and a Pod torn
down for good is Succeeded only when each app container exited 0, else Failed (pkg/kubelet/kubelet_pods.go
`getPhase`, docs/lifecycle-model.md §10.1 step 7; the stop itself, §12).  Read alone, "Error · phase Failed"
says something broke; `headline` says what happened first: when the Pod was stopped, how each container ended,
and why the phase follows.  The pills with STATUS and phase stay beside it, exact.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..explain import PodReport
from ..lifecycle.i18n import Text, gettext_noop as _
from ..lifecycle.kubelet.trace import EventKind, TraceEvent

# 128 + the signal's number: what a shell reports for a process a signal ended
_SIGNALS = {1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL", 15: "SIGTERM"}
_SIGKILL_CODE = 137


def _names(names: Iterable[str]) -> Text | str:
    """"a", "a and b", "a, b and c"."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return Text(_("{names} and {last}"), {"names": ", ".join(names[:-1]), "last": names[-1]})


def _how(code: int | None, killed: bool, names: Text | str, paused: bool = False) -> Text:
    params = {"names": names, "code": code}
    if code == _SIGKILL_CODE and paused:
        return Text(_("{names} ended on SIGKILL when the Pod's pause process exited (137)"), params)
    if code == 0:
        return Text(_("{names} exited cleanly (0)"), params)
    if code == _SIGKILL_CODE and killed:
        return Text(_("{names} ended on SIGKILL when the grace period ran out (137)"), params)
    if code == _SIGKILL_CODE:
        return Text(_("{names} ended on SIGKILL (137)"), params)
    if code is not None and code - 128 in _SIGNALS:
        return Text(_("{names} exited on {signal} ({code})"), {**params, "signal": _SIGNALS[code - 128]})
    return Text(_("{names} exited with code {code}"), params)


def _endings(events: list[TraceEvent], start: int) -> list[tuple[int | None, bool, bool, list[str]]]:
    """How the containers running at ``events[start]`` ended after it: (exit code, killed when the grace
    period ran out, killed with the sandbox when its pause process exited, names), in the order they ended."""
    killed: set[str] = set()
    paused = False
    last: dict[str, tuple[int | None, bool]] = {}
    for e in events[start:]:
        if e.type == EventKind.SANDBOX_LOST and e.reason == "PauseExited":
            paused = True      # a preStop's `kill 1` in a shared PID namespace: termination.py
        if e.container is None:
            continue
        if e.type == EventKind.KILLED:
            killed.add(e.container)
        elif e.type == EventKind.EXITED:
            last[e.container] = (e.exit_code, paused and e.container not in killed)
    groups: dict[tuple[int | None, bool, bool], list[str]] = {}
    for name, (code, with_pause) in last.items():
        groups.setdefault((code, name in killed, with_pause), []).append(name)
    return [(code, was_killed, with_pause, names) for (code, was_killed, with_pause), names in groups.items()]


def headline(report: PodReport) -> Text | None:
    """What ended the Pod's run and how its phase follows, when a deletion or the active deadline ended it;
    None for every other run (its STATUS and phase say enough)."""
    sim = report.simulation
    if sim is None or not sim.timeline:
        return None
    at = next((i for i, e in enumerate(sim.events)
               if (e.type == EventKind.DELETE_REQUESTED and e.reason == "Deleted")
               or e.type == EventKind.DEADLINE_EXCEEDED), None)
    if at is None:
        return None
    cause = sim.events[at]
    final = sim.timeline[-1]
    when = {"t": f"{round(cause.t, 3):g}"}
    what = (Text(_("Deleted at {t} s"), when) if cause.type == EventKind.DELETE_REQUESTED
            else Text(_("activeDeadlineSeconds ran out at {t} s"), when))
    if final.phase not in ("Succeeded", "Failed"):
        return Text(_("{what}; at the end of the run ({end} s) the Pod is still {status}."),
                    {"what": what, "end": f"{round(sim.end_time, 3):g}", "status": final.status})
    endings = _endings(sim.events, at)
    if not endings:      # nothing was running: the Pod had already ended
        return Text(_("{what}; no container was running any more, and the Pod stays {phase}."),
                    {"what": what, "phase": final.phase})
    parts = [_how(code, killed, _names(names), paused) for code, killed, paused, names in endings]
    how = parts[0]
    for part in parts[1:]:
        how = Text(_("{first}, {rest}"), {"first": how, "rest": part})
    # a container that ends on a signal counts as failed: the Failed phase is what a deletion leads to, unless
    # something else ended a container (its own error, or the pause process's exit)
    signals = all((code == 0 or (code is not None and code - 128 in _SIGNALS)) and not paused
                  for code, _k, paused, _n in endings)
    if final.phase == "Failed" and signals:
        tail = (_("{what}; {how}, so the Pod ends Failed — normal for a deletion.")
                if cause.type == EventKind.DELETE_REQUESTED else
                _("{what}; {how}, so the Pod ends Failed — what the deadline is for."))
    else:
        tail = _("{what}; {how}, so the Pod ends {phase}.")
    return Text(tail, {"what": what, "how": how, "phase": final.phase})


"""The CLI's readable account: what happens, step by step, then the status over time.

``TextStyle`` says how wide the terminal is and whether to colour; the defaults (no wrapping,
no colour) give the golden files.  ``summary_line`` ends the output with the counts.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..explain import Explanation, PodReport
from ..lifecycle.manifest.parse import Skipped
from ..lifecycle.sharing.analyse import sharing_as_text
from .story import story
from .style import PLAIN, TextStyle

if TYPE_CHECKING:   # types only: a bare Pod's account reads neither package (the CLI's start-up, `make bench`)
    from ..lifecycle.rollout import Rollout
    from ..lifecycle.traffic.lane import Traffic


# Skipped objects listed one by one up to this many; more are counted by kind.
SKIPPED_LISTED = 3


def _secs(t: float) -> str:
    return f"{t:g}s"


def explanation_as_text(expl: Explanation, style: TextStyle = PLAIN) -> str:
    lines = [f"Kubernetes {expl.version}"]
    if expl.skipped:
        lines.extend(style.wrap(skipped_line(expl.skipped), "", "  "))
    # every error no Pod report shows: the input's own, and those of a Pod that never became one (a
    # flattened object: the diagnosis of lost indentation is a message per field, each with its line)
    shown = {id(e) for r in expl.pods for e in r.errors}
    loose = [e for e in expl.errors if id(e) not in shown]
    for e in loose:
        lines.extend(style.wrap(f"{style.paint('error', 'error')}: {e.one_line()}", "", "  "))
    if expl.empty:
        lines.append("nothing to explain: the input is empty (only comments, blank lines or ---)")
    elif not expl.pods and not expl.skipped and not expl.errors:
        lines.append("nothing to explain: the input holds no Kubernetes object")
    for report in expl.pods:
        lines.append("")
        lines.extend(pod_as_text(report, style))
    lines.extend(input_findings_as_text(expl, style))
    return "\n".join(lines) + "\n"


def input_findings_as_text(expl: Explanation, style: TextStyle = PLAIN) -> list[str]:
    """The findings about the input's Services (findings/inputs.py), under each Service's own heading."""
    lines: list[str] = []
    objects: dict[tuple[int, str, str], list[Any]] = {}
    for f in expl.findings:
        objects.setdefault((f.document, f.kind, f.name), []).append(f)
    lines_of = {(s.document, s.name): s.line for s in _services(expl)}
    for (document, kind, name), found in objects.items():
        line = lines_of.get((document, name))
        head = f"{kind} {name}" + (f" (line {line})" if line else "")
        lines += ["", style.paint(head, "heading"), "=" * len(head), "Pitfalls:"]
        for f in found:
            lines.extend(_finding_lines(f.to_dict(), style))
    for s in expl.suppressed:
        f, why = s.finding, s.suppression
        text = f"suppressed {f.id} ({f'line {f.line}' if f.line else 'line ?'}, Service {f.name}) by the " \
               f"annotation on line {why.line or '?'}" + (f": {why.reason}" if why.reason else "")
        lines.extend(style.wrap(style.paint(text, "dim"), "  - ", "      "))
    return lines


def _services(expl: Explanation) -> list[Any]:
    return [s for s in expl.skipped if s.kind == "Service"]


def skipped_line(skipped: list[Skipped]) -> str:
    """Objects that hold no Pod, folded into one line: a few by name, many counted by kind."""
    n = len(skipped)
    noun = "object that holds" if n == 1 else "objects that hold"
    if n <= SKIPPED_LISTED:
        listed = ", ".join(f"{s.kind} {s.name} (line {s.line})" if s.line else f"{s.kind} {s.name}"
                           for s in skipped)
    else:
        kinds = Counter(s.kind for s in skipped)
        listed = ", ".join(f"{kind} ×{count}" if count > 1 else kind for kind, count in kinds.most_common())
    return f"skipped {n} {noun} no Pod: {listed}"


def pod_as_text(r: PodReport, style: TextStyle = PLAIN) -> list[str]:
    pod = r.pod
    head = f"{pod.source.kind} {pod.name}" + (f" (Pod template, line {pod.source.line})" if pod.source.kind != "Pod" else "")
    lines = [style.paint(head, "heading"), "=" * len(head)]
    roles = ", ".join(f"{c.name} ({c.role})" for c in pod.all_containers)
    qos = f"; QoS class {r.qos.qos_class}" if r.qos else ""
    lines.extend(style.wrap(f"containers: {roles}; restartPolicy {pod.restart_policy}{qos}", "", "  "))
    for w in r.warnings:
        lines.extend(style.wrap(f"{style.paint('warning', 'warning')}: line {w.line or '?'} ({w.path}): {w.message}",
                                "", "  "))
    if not r.admitted:
        lines.append("The API server would reject this Pod, so it never runs:")
        for e in r.errors:
            lines.extend(style.wrap(f"line {e.line or '?'}: {e.message}", "  ", "    "))
        lines.extend(_sharing_and_pitfalls(r, style))
        return lines
    sim = r.simulation
    assert sim is not None
    lines.append("")
    lines.append("What happens, step by step:")
    for n, step in enumerate(story(pod, sim), 1):
        mark = " (assumed)" if step.assumed else ""
        lead = f"{n:3}. [{_secs(step.t):>7}] "
        lines.extend(style.wrap(f"{step.text.render()}{mark}", lead, " " * len(lead)))
    lines.append("")
    lines.append("Status over time (kubectl get pod):")
    lines.append(f"  {'t':>8}  {'STATUS':24} {'READY':6} {'RESTARTS':8} PHASE      Ready")
    for p in sim.timeline:
        lines.append(f"  {_secs(p.t):>8}  {p.status:24} {p.ready_count:6} {p.restarts:<8} {p.phase:10} {p.ready}")
    if r.observed is not None:   # only when kubectl's output was given: loaded then (the CLI starts lean)
        from .observed_text import observed_as_text
        lines.extend(observed_as_text(r.observed, style))
    if r.traffic is not None:
        lines += [""] + traffic_as_text(r.traffic, style)
    lines.extend(_sharing_and_pitfalls(r, style))
    if r.rollout is not None:
        lines.extend(rollout_as_text(r.rollout, style))
    assumed = [(name, field, why) for name, b in sim.behaviours.items() for field, why in b.assumed.items()]
    if assumed:
        lines.append("")
        lines.extend(style.wrap("Assumed (not in the manifest or scenario; set them in a scenario to change "
                                "them):", ""))
        for name, field, why in assumed:
            lines.extend(style.wrap(f"{name}.{field}: {why!s}", "  ", "    "))
    if r.notes:
        lines.append("")
        lines.append("Notes:")
        for n in r.notes:
            lines.extend(style.wrap(str(n), "  - ", "    "))
    return lines


def rollout_as_text(ro: Rollout, style: TextStyle = PLAIN) -> list[str]:
    """The rollout in short: when it completes or stalls, the capacity floor and the surge ceiling, the steps."""
    if ro.kind == "DaemonSet":
        size = f"{ro.replicas} nodes"
    else:
        size = f"{ro.replicas} replica{'' if ro.replicas == 1 else 's'}"
    head = f"Rollout (kubectl rollout restart at 0s): {ro.kind} {ro.strategy}, {size}"
    if ro.strategy != "OnDelete":
        head += f", maxSurge {ro.max_surge}, maxUnavailable {ro.max_unavailable}"
    if ro.min_ready_seconds:
        head += f", minReadySeconds {ro.min_ready_seconds}"
    lines = ["", head + ":"]
    outcome = []
    if ro.complete_at is not None:
        outcome.append(f"completes at {_secs(ro.complete_at)}")
    if ro.stalled is not None:
        outcome.append(f"stalls at {_secs(ro.stalled.at)} ({ro.stalled.reason}"
                       + (f", {ro.stalled.available} of {ro.replicas} available)" if ro.stalled.available is not None
                          else ")"))
    if ro.complete_at is None and ro.stalled is None:
        outcome.append(f"does not complete within {_secs(ro.until)}")
    if ro.last_gone_at is not None:
        outcome.append(f"the last old Pod has stopped at {_secs(ro.last_gone_at)}")
    lines.extend(style.wrap("; ".join(outcome), "  ", "    "))
    lines.extend(style.wrap(f"capacity floor {ro.capacity_floor} available (fewest seen: {ro.min_available}); "
                            f"surge ceiling {ro.surge_ceiling} Pods (most seen: {ro.max_pods}, "
                            f"{ro.max_pods_including_terminating} with those still stopping)", "  ", "    "))
    for step in ro.steps:
        lead = f"  [{_secs(step.t):>7}] "
        lines.extend(style.wrap(step.text.render(), lead, " " * len(lead)))
    for key, why in ro.assumed.items():
        lines.extend(style.wrap(f"assumed {key}: {why}", "  ", "    "))
    for note in ro.notes:
        lines.extend(style.wrap(str(note), "  - ", "    "))
    return lines


def _sharing_and_pitfalls(r: PodReport, style: TextStyle) -> list[str]:
    """What the containers share, then the lifecycle pitfalls with their fixes."""
    lines: list[str] = []
    if r.sharing:
        lines += ["", "What the containers share:"]
        for line in sharing_as_text(r.sharing, compact=True).splitlines():
            body = line.lstrip(" ")
            indent = "  " + " " * (len(line) - len(body))
            lines.extend(style.wrap(body, indent, indent + "  "))
    lines += ["", "Pitfalls:"]
    findings = [f.to_dict() for f in r.findings]
    if not findings:
        lines.append("  (none)")
    for f in findings:
        lines.extend(_finding_lines(f, style))
    for s in r.suppressed:
        f, why = s.finding, s.suppression
        reason = f": {why.reason}" if why.reason else ""
        text = f"suppressed {f.id} ({f'line {f.line}' if f.line else 'line ?'}" \
               f"{f', container {f.container}' if f.container else ''}) by the annotation on line " \
               f"{why.line or '?'}{reason}"
        lines.extend(style.wrap(style.paint(text, "dim"), "  - ", "      "))
    return lines


def _finding_lines(f: dict[str, Any], style: TextStyle) -> list[str]:
    """One finding (its JSON shape): severity, id, line, container; the explanation; the fix."""
    where = f"line {f['line']}" if f["line"] else "line ?"
    who = f", container {f['container']}" if f["container"] else ""
    severity = style.paint(f["severity"], f["severity"])
    lines = style.wrap(f"{severity} {f['id']} ({where}{who}): {f['title']}", "  - ", "      ")
    for paragraph in f["explanation"].splitlines():
        lines.extend(style.wrap(paragraph, "      "))
    lines.append("      Fix:")
    lines.extend(f"        {line}".rstrip() for line in f["fix"].rstrip("\n").splitlines())
    return lines


def traffic_as_text(t: Traffic, style: TextStyle = PLAIN) -> list[str]:
    """When a Service sends the Pod requests (docs/lifecycle-model.md §27): the lane, its failure windows
    and what it assumes."""
    who = "a Service assumed (none of this input selects it)" if t.service_assumed else \
        "Service " + ", ".join(t.services)
    others = f"{t.other_ready_replicas} other ready Pod{'' if t.other_ready_replicas == 1 else 's'}"
    p = f"changes reach the proxies after {_secs(t.propagation_seconds)}" + (", assumed" if t.propagation_assumed else "")
    deletion = "" if t.deletion_at is None else \
        f"; deleted at {_secs(t.deletion_at)}" + (" (assumed)" if t.deletion_assumed else "")
    lines = style.wrap(f"Traffic ({who}; {others}; {p}{deletion}):", "")
    for i in t.intervals:
        lead = f"  [{_secs(i.start):>7}] {i.state:10} "
        lines.extend(style.wrap(str(i.text) if i.text else "", lead, " " * len(lead)))
    for w in t.failure_windows:
        lines.extend(style.wrap(f"{style.paint('failure window', 'warning')} {_secs(w.start)}-{_secs(w.end)} "
                                f"({w.container}, {w.reason}): {w.text}", "  - ", "      "))
    for n in t.notes:
        lines.extend(style.wrap(str(n), "  note: ", "        "))
    return lines


def summary_line(explanations: list[Explanation], files: int | None = None) -> str:
    """One closing line: files, Pods, findings by severity, suppressed and errors."""
    pods = sum(len(e.pods) for e in explanations)
    counts = Counter(f.severity.value for e in explanations for p in e.pods for f in p.findings)
    counts.update(f.severity.value for e in explanations for f in e.findings)
    suppressed = sum(len(p.suppressed) for e in explanations for p in e.pods) + sum(len(e.suppressed)
                                                                                  for e in explanations)
    errors = sum(len(e.errors) for e in explanations)
    parts = []
    if files is not None:
        parts.append(_count(files, "file"))
    parts.append(_count(pods, "Pod"))
    found = [f"{counts[s]} {s}{'s' if counts[s] != 1 and s != 'info' else ''}" for s in ("error", "warning", "info")]
    parts.append("findings: " + ", ".join(found))
    if suppressed:
        parts.append(f"{suppressed} suppressed")
    if errors:
        parts.append(_count(errors, "input error"))
    return "; ".join(parts)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"

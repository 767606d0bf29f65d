"""The CLI's readable account: what happens, step by step, then the status over time."""
from __future__ import annotations

from ..explain import Explanation, PodReport
from ..lifecycle.sharing import sharing_as_text
from .story import story


def _secs(t: float) -> str:
    return f"{t:g}s"


def explanation_as_text(expl: Explanation) -> str:
    lines = [f"Kubernetes {expl.version}"]
    for s in expl.skipped:
        lines.append(f"skipped: document {s.document + 1} ({s.kind} {s.name}, line {s.line}): {s.reason}")
    loose = [e for e in expl.errors if e.pod is None]
    for e in loose:
        lines.append(f"error: {e.one_line()}")
    for report in expl.pods:
        lines.append("")
        lines.extend(pod_as_text(report))
    return "\n".join(lines) + "\n"


def pod_as_text(r: PodReport) -> list[str]:
    pod = r.pod
    head = f"{pod.source.kind} {pod.name}" + (f" (Pod template, line {pod.source.line})" if pod.source.kind != "Pod" else "")
    lines = [head, "=" * len(head)]
    roles = ", ".join(f"{c.name} ({c.role})" for c in pod.all_containers)
    lines.append(f"containers: {roles}; restartPolicy {pod.restart_policy}")
    if not r.admitted:
        lines.append("The API server would reject this Pod, so it never runs:")
        lines.extend(f"  line {e.line or '?'}: {e.message}" for e in r.errors)
        lines.extend(_sharing_and_pitfalls(r))
        return lines
    sim = r.simulation
    assert sim is not None
    lines.append("")
    lines.append("What happens, step by step:")
    for n, step in enumerate(story(pod, sim), 1):
        mark = " (assumed)" if step.assumed else ""
        lines.append(f"{n:3}. [{_secs(step.t):>7}] {step.text.render()}{mark}")
    lines.append("")
    lines.append("Status over time (kubectl get pod):")
    lines.append(f"  {'t':>8}  {'STATUS':24} {'READY':6} {'RESTARTS':8} PHASE      Ready")
    for p in sim.timeline:
        lines.append(f"  {_secs(p.t):>8}  {p.status:24} {p.ready_count:6} {p.restarts:<8} {p.phase:10} {p.ready}")
    lines.extend(_sharing_and_pitfalls(r))
    assumed = [(name, field, why) for name, b in sim.behaviours.items() for field, why in b.assumed.items()]
    if assumed:
        lines.append("")
        lines.append("Assumed (not in the manifest or scenario; set them in a scenario to change them):")
        lines.extend(f"  {name}.{field}: {why!s}" for name, field, why in assumed)
    if r.notes:
        lines.append("")
        lines.append("Notes:")
        lines.extend(f"  - {n!s}" for n in r.notes)
    return lines


def _sharing_and_pitfalls(r: PodReport) -> list[str]:
    """What the containers share, then the lifecycle pitfalls with their fixes."""
    lines: list[str] = []
    if r.sharing:
        lines += ["", "What the containers share:"]
        lines += [f"  {line}" for line in sharing_as_text(r.sharing).splitlines()]
    lines += ["", "Pitfalls:"]
    findings = [f.to_dict() for f in r.findings]
    if not findings:
        lines.append("  (none)")
    for f in findings:
        where = f"line {f['line']}" if f["line"] else "line ?"
        who = f", container {f['container']}" if f["container"] else ""
        lines.append(f"  - {f['severity']} {f['id']} ({where}{who}): {f['title']}")
        lines.extend(f"      {line}" for line in f["explanation"].splitlines())
        lines.append("      Fix:")
        lines.extend(f"        {line}".rstrip() for line in f["fix"].rstrip("\n").splitlines())
    return lines

"""What a probe that can never pass does to its container: the words the probe rules share.

They are Phrases (translatable strings, as the core hands its reasons over), so the three
rules that quote them render them in their own sentences.

The reasons come from explainer/lifecycle/commands/probe_faults.py `probe_faults`, which the simulation
reads too (the probe fails on the timeline for the same reason the finding gives).
"""
from __future__ import annotations

from explainer.lifecycle.i18n import Phrase
from explainer.lifecycle.model import Container, Probe

from .base import RuleContext
from .i18n import gettext_noop

_ORDER = ("startup", "readiness", "liveness")


def blocked(ctx: RuleContext, c: Container, rule_id: str) -> list[tuple[Probe, Phrase]]:
    """``c``'s probes that cannot pass for the reason ``rule_id`` names, with why (startup first)."""
    if c.startup_probe is None and c.readiness_probe is None and c.liveness_probe is None:
        return []
    # the timeline's own reading when there is one (behaviour.py computes it once per container, from the
    # same container and Pod), else the same function
    b = ctx.simulation.behaviours.get(c.name) if ctx.simulation is not None else None
    faults = b.probe_faults if b is not None else ctx.facts(c).probe_faults
    out = []
    for kind in _ORDER:
        fault = faults.get(kind)
        if fault is None or fault.rule != rule_id:
            continue
        probe = next((p for p in c.probes if p.kind == kind), None)
        if probe is not None:
            out.append((probe, fault.why))
    return out


def consequence(c: Container, probes: list[Probe]) -> Phrase:
    """What the kubelet does about the failing probes, worst first."""
    kinds = {p.kind for p in probes}
    for p in probes:
        if p.kind in ("startup", "liveness"):
            # checks at initialDelaySeconds + k x periodSeconds (kubelet/probe_timing.py): the last one needed kills
            budget = p.initial_delay + (p.failure_threshold - 1) * p.period
            return Phrase(gettext_noop(
                "The kubelet kills and restarts {c} about {budget} s after each start ({kind} probe: "
                "{failures} failures {period} s apart), so it never stays up: CrashLoopBackOff.{ready}"),
                {"c": c.name, "budget": budget, "kind": p.kind, "failures": p.failure_threshold,
                 "period": p.period,
                 "ready": Phrase(gettext_noop(" It never becomes Ready either.")) if "readiness" in kinds or
                 p.kind == "startup" else ""})
    return Phrase(gettext_noop(
        "{c} never becomes Ready: the Pod gets no Service traffic, and a rollout that waits for it never "
        "progresses."), {"c": c.name})


def listing(probes: list[tuple[Probe, Phrase]]) -> Phrase:
    """"the readiness probe (GET /healthz on port 8080): why; the liveness probe (...): why"."""
    parts = [Phrase(gettext_noop("the {kind} probe ({detail}): {why}"),
                  {"kind": p.kind, "detail": p.detail, "why": why}) for p, why in probes]
    out = parts[0]
    for part in parts[1:]:
        out = Phrase(gettext_noop("{a}; {b}"), {"a": out, "b": part})
    return out

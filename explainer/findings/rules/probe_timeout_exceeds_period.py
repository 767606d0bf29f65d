"""The `probe-timeout-exceeds-period` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "probe-timeout-exceeds-period"
TITLE = gettext_noop("Probe timeout longer than its period")
SEVERITY = Severity.INFO
DOCS_URL = DOCS["probes"] + "#configure-probes"
REFERENCES = ("https://github.com/kubernetes/kubernetes/issues/39633",
              "https://github.com/kubernetes/website/issues/44884",
              "https://github.com/kyverno/policies/pull/1500")
WHAT = gettext_noop("A probe's timeoutSeconds exceeds its periodSeconds: the real period and budget differ.")
WHY = gettext_noop(
    "The kubelet runs each probe from one worker that calls the check and only then waits for its "
    "next tick (pkg/kubelet/prober/worker.go `run`): checks never overlap. A check that hangs until "
    "its timeout therefore delays the next one, which starts as soon as it times out, so the probe "
    "really runs every timeoutSeconds and failureThreshold failures take failureThreshold x "
    "timeoutSeconds, not the failureThreshold x periodSeconds the spec suggests. A liveness probe "
    "meant to restart a stuck program within 30 s may take minutes.")
FIX_TEXT = gettext_noop(
    "Keep timeoutSeconds below periodSeconds, and size failureThreshold x periodSeconds to the "
    "failure budget you want.")
FIRES_WHEN = gettext_noop("a probe's timeoutSeconds is greater than its periodSeconds.")
QUIET_WHEN = gettext_noop(
    "every probe's timeoutSeconds is at most its periodSeconds (equal: a hanging check still starts "
    "every periodSeconds, so the spec's numbers hold).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  $kind:
    periodSeconds: $period
    timeoutSeconds: $timeout  # < period
"""
EXAMPLE = {"kind": "livenessProbe", "period": "10", "timeout": "5"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        for p in c.probes:
            if p.timeout <= p.period:
                continue   # equal: a hanging check still starts every periodSeconds
            key = f"{p.kind}Probe"
            effective = p.timeout
            spec_budget = p.failure_threshold * p.period
            real_budget = p.failure_threshold * effective
            what = Text(gettext_noop("the kubelet restarts it only after {real} s of hanging checks, not {spec} s")
                        if p.kind in ("liveness", "startup") else
                        gettext_noop("it turns unready only after {real} s of hanging checks, not {spec} s"),
                        {"real": real_budget, "spec": spec_budget})
            explanation = Text(gettext_noop(
                "{c}'s {kind} probe has timeoutSeconds {timeout} and periodSeconds {period}. The kubelet runs "
                "one check at a time, so while the endpoint hangs a check starts every {effective} s, not "
                "every {period} s, and {failures} failures in a row take {real} s: {what}. The timeline "
                "shows it when the probe fails (the what-if's failingProbes)."),
                {"c": c.name, "kind": p.kind, "timeout": p.timeout, "period": p.period, "effective": effective,
                 "failures": p.failure_threshold, "real": real_budget,
                 "what": what})
            # not fixable: a shorter timeout may fail a slow endpoint, a longer period slows detection;
            # which of the two is the person's choice
            yield ctx.finding(ID, c, ctx.container_path(c, f"{key}.timeoutSeconds"), explanation,
                              fill(FIX, name=c.name, kind=key, period=p.timeout + 5, timeout=p.timeout))

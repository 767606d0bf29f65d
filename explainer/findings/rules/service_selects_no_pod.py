"""The `service-selects-no-pod` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from explainer.lifecycle.traffic.serving import namespace_of, selects

from ..base import Severity, fill, flow_yaml
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..inputs import INPUT, InputContext, InputDraft

ID = "service-selects-no-pod"
SCOPE = INPUT
TITLE = gettext_noop("Service selects no Pod of this input")
SEVERITY = Severity.WARNING
DOCS_URL = "https://kubernetes.io/docs/concepts/services-networking/service/#defining-a-service"
REFERENCES = ("https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/",)
WHAT = gettext_noop("A Service's selector matches the labels of no Pod template in the same input.")
WHY = gettext_noop(
    "The EndpointSlice controller lists the Pods whose labels carry every key and value of the Service's "
    "selector, in the Service's namespace. When none does, the Service has no endpoints: kube-proxy "
    "rejects every connection to it and DNS has no address to return for a headless one. A typo in a "
    "label, a selector copied from another app, or labels put on the Deployment's metadata instead of "
    "its Pod template all end this way.")
FIX_TEXT = gettext_noop(
    "Make the selector a subset of the Pod template's labels (spec.template.metadata.labels of the "
    "workload), in the same namespace.")
FIRES_WHEN = gettext_noop(
    "a Service of the input has a selector and the input holds Pod templates, but none of them carries "
    "all of its labels in the Service's namespace.")
QUIET_WHEN = gettext_noop(
    "a Pod template of the input matches, the Service has no selector (its endpoints are managed by "
    "hand), or the input holds no Pod at all (the Pods may come from another file).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
spec:
  selector:     # every key and value here must be on the Pod template
    $labels
"""
EXAMPLE = {"labels": "app: web"}
SHOWN = 3   # Pod templates named in the explanation


def check(ctx: InputContext) -> Iterator[InputDraft]:
    if not ctx.pods:
        return
    for s in ctx.services:
        if not s.selector:
            continue
        wanted = dict(s.selector)
        if any(selects(s, p) for p in ctx.pods):
            continue
        matching = [p for p in ctx.pods if selects(dataclasses.replace(s, namespace=None), p)]
        selector = ", ".join(f"{k}={v}" for k, v in s.selector)
        if matching:
            p = matching[0]
            explanation = Text(gettext_noop(
                "The Service {service} selects {selector}; the {kind} {pod} carries those labels but in the "
                "namespace {theirs}, not {ours}: the Service has no endpoints and every request to it fails."),
                {"service": s.name, "selector": selector, "kind": p.source.kind, "pod": p.name,
                 "theirs": namespace_of(p), "ours": s.namespace})
        else:
            shown = "; ".join(f"{p.source.kind} {p.name}: " + (", ".join(f"{k}={v}" for k, v in p.labels) or "-")
                              for p in ctx.pods[:SHOWN])
            explanation = Text(gettext_noop(
                "The Service {service} selects {selector}, which no Pod template of this input carries "
                "({labels}): the Service has no endpoints and every request to it fails."),
                {"service": s.name, "selector": selector, "labels": shown})
        closest = max(ctx.pods, key=lambda p: sum(dict(p.labels).get(k) == v for k, v in wanted.items()))
        labels = dict(closest.labels) or wanted
        written = "\n    ".join(flow_yaml(k, v) for k, v in labels.items())
        yield ctx.finding(ID, s, "spec.selector", explanation, fill(FIX, labels=written), line=s.selector_line)

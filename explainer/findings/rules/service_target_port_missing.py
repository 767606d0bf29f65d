"""The `service-target-port-missing` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.traffic.serving import PortIndex, find_port, selects

from ..base import Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..inputs import INPUT, InputContext, InputDraft

ID = "service-target-port-missing"
SCOPE = INPUT
TITLE = gettext_noop("Service targets a port name no container declares")
SEVERITY = Severity.ERROR
DOCS_URL = "https://kubernetes.io/docs/concepts/services-networking/service/#field-spec-ports"
REFERENCES = (DOCS["pod-lifecycle"],)
WHAT = gettext_noop("A Service's named targetPort is declared by no container of the Pods it selects.")
WHY = gettext_noop(
    "A targetPort written as a name is looked up in the selected Pod's containers (and native sidecars), "
    "by name and protocol (FindPort in the EndpointSlice controller). When no container declares it, "
    "the Pod's endpoint gets no port for it: the Service sends those Pods nothing on that port, and when "
    "no selected Pod declares it, the Service has no endpoints for it at all. A number needs no "
    "declaration: it is used as written.")
FIX_TEXT = gettext_noop(
    "Name the container's port as the Service says (ports[].name, with the same protocol), or write the "
    "port number as targetPort.")
FIRES_WHEN = gettext_noop(
    "a Service of the input selects Pod templates of the input and one of its ports has a targetPort "
    "name that some of them do not declare with that protocol.")
QUIET_WHEN = gettext_noop(
    "every selected Pod declares the name with the same protocol, the targetPort is a number, or the "
    "Service selects no Pod of the input (service-selects-no-pod speaks for that).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
ports:            # in the container that serves it
  - name: $port
    containerPort: 8080
    protocol: $protocol
"""
EXAMPLE = {"port": "http", "protocol": "TCP"}
SHOWN = 8   # declared port names named in the explanation


def check(ctx: InputContext) -> Iterator[InputDraft]:
    for s in ctx.services:
        selected = [p for p in ctx.pods if selects(s, p)]
        if not selected:
            continue
        indexes = {id(p): PortIndex(p) for p in selected}   # one pass over each Pod, however many ports
        for port in s.ports:
            if not isinstance(port.target, str):
                continue
            lacking = [p for p in selected if find_port(p, port, indexes[id(p)])[0] is None]
            if not lacking:
                continue
            names = ", ".join(f"{p.source.kind} {p.name}" for p in lacking)
            declared = sorted({f"{name}/{protocol}" for p in lacking for name, protocol in indexes[id(p)].named})
            shown = ", ".join(declared[:SHOWN]) + (", …" if len(declared) > SHOWN else "")
            values = {"service": s.name, "port": port.target, "protocol": port.protocol, "pods": names,
                      "declared": shown or "-"}
            if len(lacking) == len(selected):
                explanation = Text(gettext_noop(
                    "The Service {service} sends port {port}/{protocol} to {pods}, but no container there "
                    "declares a port of that name and protocol (declared: {declared}): the Service has no "
                    "endpoint for it, and every request to it fails."), values)
            else:
                explanation = Text(gettext_noop(
                    "The Service {service} sends port {port}/{protocol} to several Pod templates, but no "
                    "container of {pods} declares a port of that name and protocol (declared there: "
                    "{declared}): those Pods get no endpoint for it, so only the others receive its requests."),
                    values)
            yield ctx.finding(ID, s, port.path, explanation, fill(FIX, port=port.target, protocol=port.protocol),
                              line=port.line)

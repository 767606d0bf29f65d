"""Build a RuleContext from manifest text the way explain() does, for the rule tests."""
from __future__ import annotations

import re

from explainer.findings import Finding, InputContext, RuleContext, run_input_rules, run_rules
from explainer.lifecycle.manifest.parse import parse_manifest
from explainer.lifecycle.scenario.document import Scenario, parse_scenario
from explainer.lifecycle.sharing.analyse import analyse_sharing
from explainer.lifecycle.kubelet.simulate import simulate
from explainer.lifecycle.admission.validate import admit

_META = re.compile(r"^#\s*(version|container|gates|scenario):\s*(.*?)\s*$")


def context_for(text: str, version: str = "1.34", gates: dict[str, bool] | None = None,
                scenario: Scenario | None = None) -> RuleContext:
    """parse -> admit -> simulate (when admitted) -> sharing, as in explain._explain_pod."""
    intake = parse_manifest(text)
    assert not intake.errors, [e.one_line() for e in intake.errors]
    pod = intake.pods[0]
    scenario = scenario or Scenario()
    adm = admit(pod, version, gates or {})
    sim = simulate(adm.pod, scenario) if not adm.errors else None
    return RuleContext(pod=adm.pod, version=version, gates=gates or {}, scenario=scenario,
                       simulation=sim, sharing=analyse_sharing(adm.pod), services=tuple(intake.services))


def fixture_meta(text: str) -> dict[str, str]:
    """Header comments such as `# version: 1.27`, `# container: proxy` and `# scenario: {...}` (flow YAML)."""
    meta = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        m = _META.match(line)
        if m:
            meta[m.group(1)] = m.group(2)
    return meta


def context_for_fixture(text: str) -> RuleContext:
    meta = fixture_meta(text)
    gates = {k: v == "true" for k, v in (g.split("=") for g in meta["gates"].split(","))} if "gates" in meta else None
    scenario = parse_scenario(meta["scenario"]) if "scenario" in meta else None
    return context_for(text, meta.get("version", "1.34"), gates, scenario)


def input_context_for(text: str, version: str = "1.34") -> InputContext:
    """Every Service and Pod of the input, as explain() gives them to the input rules."""
    intake = parse_manifest(text)
    return InputContext(tuple(intake.services), tuple(intake.pods), version)


def findings_for_fixture(text: str) -> list[Finding]:
    """What the rules find in a fixture: its first Pod's findings, then those about its other objects
    (a Service's), as explain() puts them in pods[].findings and the top-level findings."""
    ctx = context_for_fixture(text)
    return run_rules(ctx) + [f.finding for f in run_input_rules(input_context_for(text, ctx.version))]

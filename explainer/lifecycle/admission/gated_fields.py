"""Pod fields behind the 1.33-1.37 feature gates: what the API server drops, and what it rejects.

validate.py calls these: `drop_disabled_fields` before validation (pkg/api/pod/util.go
`dropDisabledPodFields`), the two ``*_problems`` functions while it validates each container
(pkg/apis/core/validation/validation.go).  Sections (§) are those of docs/lifecycle-model.md.
"""
from __future__ import annotations

import dataclasses

from .. import defaults as d
from ..i18n import Text, gettext_noop as _
from ..model import Container, Pod
from ..signals import LINUX_SIGNALS, WINDOWS_SIGNALS
from .versions import gate_exists

Problem = tuple[str, Text, str]      # (field path under the container, message, reason)


def drop_disabled_fields(pod: Pod, version: str, restart_rules: bool, stop_signals: bool) -> tuple[Pod, list[Text]]:
    """`dropContainerRestartRules` (gate exists from 1.34; §17) and `dropContainerStopSignals` (from 1.33;
    §19): with the gate off the fields are cleared without an error.  Before those versions they are unknown
    fields, which the schema reports.  Returns the Pod as stored and the notes that say what went."""
    drop_rules = gate_exists("ContainerRestartRules", version) and not restart_rules
    drop_signal = gate_exists("ContainerStopSignals", version) and not stop_signals
    rules_from: list[str] = []
    signal_from: list[str] = []

    def strip(c: Container) -> Container:
        dropped: list[str] = []
        changes: dict = {}
        own_policy = c.restart_policy is not None and c.role != "sidecar"   # `Always` on an init container stays
        if drop_rules and (c.restart_rules or own_policy):
            dropped += ["restartPolicyRules"] if c.restart_rules else []
            dropped += ["restartPolicy"] if own_policy else []
            changes.update(restart_rules=(), restart_policy=c.restart_policy if c.role == "sidecar" else None)
            rules_from.append(c.name)
        if drop_signal and c.stop_signal is not None:
            dropped.append("stopSignal")
            changes["stop_signal"] = None
            signal_from.append(c.name)
        return dataclasses.replace(c, dropped=c.dropped + tuple(dropped), **changes) if dropped else c

    inits = tuple(strip(c) for c in pod.init_containers)
    apps = tuple(strip(c) for c in pod.containers)
    eph = tuple(strip(c) for c in pod.ephemeral_containers)
    notes = []
    if rules_from:
        notes.append(Text(_(
            "Kubernetes {version}: the ContainerRestartRules feature gate is off, so the API server drops "
            "restartPolicy and restartPolicyRules from {names} (no error): they restart by the Pod's "
            "restartPolicy ({policy}). The gate is on by default from 1.35 (featureGates: "
            "{{ContainerRestartRules: true}} in the scenario)."),
            {"version": version, "names": ", ".join(rules_from), "policy": pod.restart_policy}))
    if signal_from:
        notes.append(Text(_(
            "Kubernetes {version}: the ContainerStopSignals feature gate (alpha) is off, so the API server drops "
            "lifecycle.stopSignal from {names} (no error): the runtime stops them with the image's STOPSIGNAL, "
            "SIGTERM here. Turn the gate on with featureGates: {{ContainerStopSignals: true}}."),
            {"version": version, "names": ", ".join(signal_from)}))
    if not notes:
        return pod, notes
    return dataclasses.replace(pod, init_containers=inits, containers=apps, ephemeral_containers=eph), notes


def restart_rule_problems(c: Container, restart_all: bool) -> list[Problem]:
    """restartPolicy and restartPolicyRules of one container, with ContainerRestartRules on (§17-18)."""
    if c.role == "ephemeral" and (c.restart_policy is not None or c.restart_rules):
        return [("restartPolicyRules" if c.restart_rules else "restartPolicy",
                 Text(_("Forbidden: cannot be set for an Ephemeral Container.")), "Forbidden")]
    if not c.restart_rules:
        return []
    if c.role == "sidecar" and not restart_all:    # `AllowRestartAllContainers` also allows sidecar rules
        return [("restartPolicyRules", Text(_("Forbidden: restart rules on a sidecar (restartPolicy: Always) need "
                                              "the RestartAllContainersOnContainerExits feature gate (on by default "
                                              "from 1.36).")), "Forbidden")]
    out: list[Problem] = []
    if c.restart_policy is None:
        out.append(("restartPolicy", Text(_("Required value: must be set when restartPolicyRules are; the rules "
                                            "apply only to a container with its own restartPolicy.")),
                    "Required value"))
    if len(c.restart_rules) > d.MAX_RESTART_RULES:
        out.append(("restartPolicyRules", Text(_("Too many: {n}: must have at most {max} items."),
                                               {"n": len(c.restart_rules), "max": d.MAX_RESTART_RULES}), "Too many"))
    actions = ["Restart", "RestartAllContainers"] if restart_all else ["Restart"]
    for r in c.restart_rules:
        at = f"restartPolicyRules[{r.index}]"
        if r.action not in actions:
            hint = (Text(_(" RestartAllContainers needs the RestartAllContainersOnContainerExits feature gate (alpha "
                           "in 1.35, on by default from 1.36).")) if r.action == "RestartAllContainers" else "")
            out.append((at + ".action", Text(_("Unsupported value {value}: supported values: {values}.{hint}"),
                                             {"value": repr(r.action), "hint": hint,
                                              "values": ", ".join(f'"{a}"' for a in actions)}), "Unsupported value"))
        if r.operator is None:
            out.append((at + ".exitCodes", Text(_("Required value: a rule needs exitCodes (operator In or NotIn, and "
                                                  "values).")), "Required value"))
        elif r.operator not in ("In", "NotIn"):
            out.append((at + ".exitCodes.operator", Text(_("Unsupported value {value}: supported values: \"In\", "
                                                           "\"NotIn\"."), {"value": repr(r.operator)}),
                        "Unsupported value"))
        if len(r.values) > d.MAX_RESTART_RULE_VALUES:
            out.append((at + ".exitCodes.values", Text(_("Too many: {n}: must have at most {max} items."),
                                                       {"n": len(r.values), "max": d.MAX_RESTART_RULE_VALUES}),
                        "Too many"))
    return out


def stop_signal_problems(pod: Pod, c: Container) -> list[Problem]:
    """lifecycle.stopSignal with ContainerStopSignals on (§19): needs spec.os.name; Windows only TERM/KILL."""
    if c.stop_signal is None:
        return []
    if pod.os_name is None:
        return [("lifecycle.stopSignal", Text(_("Forbidden: may not be set for containers with empty "
                                                "`spec.os.name`.")), "Forbidden")]
    allowed = WINDOWS_SIGNALS if pod.os_name == "windows" else tuple(LINUX_SIGNALS)
    if c.stop_signal not in allowed:
        return [("lifecycle.stopSignal", Text(_("Unsupported value {value}: not a stop signal on {os}."),
                                              {"value": repr(c.stop_signal), "os": pod.os_name}),
                 "Unsupported value")]
    return []

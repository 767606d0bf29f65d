"""The version-dependent lifecycle features the model follows, for the rules page and the docs.

One entry per section of docs/lifecycle-model.md (§17-21); the version columns are computed from the
gate table in versions.py, so the page and the model cannot disagree.
"""
from __future__ import annotations

from typing import Callable

from ..i18n import gettext_noop as _
from .versions import gate_enabled, gate_stage
from explainer.lifecycle.records import record

SHOWN_VERSIONS = ("1.34", "1.35", "1.36", "1.37")


@record
class Feature:
    slug: str
    title: str                 # message ids
    summary: str
    gates: tuple[str, ...]
    sources: str               # Kubernetes files and functions (code, not translated)
    section: str               # docs/lifecycle-model.md section


FEATURES: tuple[Feature, ...] = (
    Feature("restart-rules", _("Container restart rules"),
            _("restartPolicy on an app or plain init container, and restartPolicyRules (action Restart, exit codes "
              "In or NotIn): the first matching rule wins, then the container's restartPolicy, then the Pod's. A "
              "Never Pod can restart a container; an init container with restartPolicy Never fails an Always Pod. "
              "With the gate off (1.34) the API server drops the fields without an error."),
            ("ContainerRestartRules",),
            "pkg/api/v1/pod/util.go ContainerShouldRestart; pkg/api/pod/util.go dropContainerRestartRules; "
            "pkg/kubelet/kubelet_pods.go getPhase", "§17"),
    Feature("restart-all-containers", _("Restart all containers"),
            _("action RestartAllContainers: on a matching exit the kubelet sets AllContainersRestarting=True, kills "
              "every running container at once (no preStop hook, no grace period), removes them, keeps the sandbox "
              "and starts again from the first init container; each restart count goes up by one, the Pod is "
              "Pending meanwhile, ephemeral containers are not restarted. Never while the Pod is being deleted."),
            ("RestartAllContainersOnContainerExits",),
            "pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions, SyncPod; "
            "pkg/kubelet/status/generate.go GenerateAllContainersRestartingCondition", "§18"),
    Feature("stop-signals", _("Stop signals"),
            _("lifecycle.stopSignal replaces SIGTERM when the container is stopped (exit code 128 + n). It needs "
              "spec.os.name; with the gate off the API server drops it and SIGTERM is sent."),
            ("ContainerStopSignals",),
            "pkg/api/pod/util.go dropContainerStopSignals; pkg/apis/core/validation/validation.go", "§19"),
    Feature("crash-loop-back-off", _("Crash-loop back-off of the node"),
            _("The kubelet's crashLoopBackOff.maxContainerRestartPeriod (1-300 s; below 10 s the first delay equals "
              "it) and the ReduceDefaultCrashLoopBackOffDecay gate (1 s doubling to 60 s), both set in the "
              "scenario."),
            ("KubeletCrashLoopBackOffMax", "ReduceDefaultCrashLoopBackOffDecay"),
            "pkg/kubelet/kubelet.go newCrashLoopBackOff", "§20"),
    Feature("unchanged", _("What did not change"),
            _("Sidecars that die while the Pod terminates are still not restarted (KEP-4438 is not merged in any of "
              "these versions). In-place resize is GA from 1.35 but not modelled: resizePolicy is accepted and the "
              "story says when a resize would restart the container."),
            ("InPlacePodVerticalScaling",),
            "pkg/kubelet/kuberuntime/kuberuntime_termination_order.go; KEP-4438", "§21"),
)


def feature_table(gettext: Callable[[str], str]) -> list[dict]:
    """Each feature with one cell per gate and shown version: 'beta, on', 'alpha, off', 'GA' or '–'."""
    rows = []
    for f in FEATURES:
        gates = [{"gate": g, "cells": [_cell(g, v) for v in SHOWN_VERSIONS]} for g in f.gates]
        rows.append({"slug": f.slug, "title": gettext(f.title), "summary": gettext(f.summary), "gates": gates,
                     "sources": f.sources, "section": f.section})
    return rows


def _cell(gate: str, version: str) -> str:
    stage = gate_stage(gate, version)
    if stage is None:
        return "–"
    if stage == "GA":
        return "GA"
    return f"{stage}, {'on' if gate_enabled(gate, version) else 'off'}"

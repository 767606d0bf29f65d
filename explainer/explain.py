"""The one pipeline: manifest text (+ scenario, version) -> Explanation.

Views, the JSON API and the CLI all call `explain()`; nothing else strings the core together.
"""
from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .findings import BY_ID, Finding, InputContext, InputFinding, RuleContext, run_input_rules, run_rules
from .findings.suppress import Suppressed, SuppressedInput, split, split_input, suppressions
from .lifecycle import defaults as d
from .lifecycle.errors import ErrorRecord, ManifestError
from .lifecycle.i18n import Text, gettext_noop
from .lifecycle.model import Pod, ServiceRef
from .lifecycle.numbers import whole_number
from .lifecycle.scenario.text import plain, read_scenario_text
from .lifecycle.manifest.parse import TEMPLATE_PATHS, Intake, Skipped, parse_manifest
from .lifecycle.qos import Qos, compute_qos
from .lifecycle.scenario.document import Scenario, check_names, parse_scenario, scenario_from_data
from .lifecycle.sharing.analyse import analyse_sharing
from .lifecycle.sharing.report import SharingReport
from .lifecycle.kubelet.simulate import Simulation, simulate
from .lifecycle.kubelet.summarise import summarise_crash_loops
from .lifecycle.admission.validate import admit
from .lifecycle.manifest.yamlload import Limits
from .lifecycle.admission.api_versions import api_version_error
from .schema import check_document, has_schema, serving_api_version

if TYPE_CHECKING:   # what the cluster shows is read only when something was pasted (docs/lifecycle-model.md §34): `podlife` starts without it
    from .lifecycle.observed import Observation, ObservedReport
    from .lifecycle.rollout import Rollout
    from .lifecycle.traffic.lane import Traffic


@dataclass
class PodReport:
    pod: Pod
    admitted: bool
    errors: list[ErrorRecord] = field(default_factory=list)
    warnings: list[ErrorRecord] = field(default_factory=list)   # what only the published schema objects to
    notes: list[Text] = field(default_factory=list)
    simulation: Simulation | None = None
    sharing: SharingReport = field(default_factory=SharingReport)
    findings: list[Finding] = field(default_factory=list)
    suppressed: list[Suppressed] = field(default_factory=list)   # silenced by an ignore-check annotation
    qos: Qos | None = None         # the QoS class the API server stores (docs/lifecycle-model.md §25)
    traffic: Traffic | None = None     # when a Service sends it requests (docs/lifecycle-model.md §27); None: nothing selects it
    rollout: Rollout | None = None     # a rollout of its workload (docs/lifecycle-model.md §26); None for kinds without one
    observed: ObservedReport | None = None   # what the cluster shows (docs/lifecycle-model.md §34); None: nothing pasted


@dataclass
class Explanation:
    version: str
    scenario: Scenario
    pods: list[PodReport] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    errors: list[ErrorRecord] = field(default_factory=list)   # every error, the pods' included
    warnings: list[ErrorRecord] = field(default_factory=list)   # every warning, the pods' included
    empty: bool = False                                          # the input holds no object at all
    findings: list[InputFinding] = field(default_factory=list)   # about the input's Services, not one Pod
    suppressed: list[SuppressedInput] = field(default_factory=list)   # those an annotation on the Service silenced

    @property
    def ok(self) -> bool:
        return not self.errors


def explain(manifest: str, scenario: str | dict | Scenario | None = None, version: str | None = None,
            *, limits: Limits = Limits(), schema: bool = True,
            disabled: frozenset[str] = frozenset(), observed: str | Sequence[str] | None = None) -> Explanation:
    """Parse, validate, simulate and analyse every Pod of ``manifest``.  Never raises for bad input.

    ``disabled`` rules are not run at all (``--disable``); a rule named by an
    ``ignore-check.podlife.io/<rule>`` annotation runs, and its findings move to ``suppressed``.
    ``observed`` is kubectl's output (one text, or several, read as one in order): each Pod gets what it
    shows, compared with the prediction; a pasted Pod with a ``status`` is its own observation."""
    try:
        sc = _scenario(scenario)
    except ManifestError as exc:
        return Explanation(version or d.DEFAULT_VERSION, Scenario(), errors=list(exc.records))
    version = version or sc.kubernetes_version or d.DEFAULT_VERSION
    result = Explanation(version, sc)
    if version not in d.SUPPORTED_VERSIONS:
        result.errors.append(ErrorRecord(_unsupported(version), path="kubernetesVersion", kind="scenario"))
        return result
    obs: Observation | None = None
    if observed is not None and (observed if isinstance(observed, str) else "".join(observed)).strip():
        from .lifecycle.observed import read_observed
        obs = read_observed(observed, limits)
        if obs.errors:
            result.errors.extend(ErrorRecord(e, path="observed", kind="limit") for e in obs.errors)
            return result
    try:
        intake = _parsed(manifest, limits)
    except ManifestError as exc:
        result.errors.extend(exc.records)
        return result
    refused = _refused_skipped(intake.skipped, version) if schema else {}
    result.skipped = [s for i, s in enumerate(intake.skipped) if i not in refused]
    result.errors.extend(intake.errors)
    result.errors.extend(refused.values())
    result.empty = intake.objects == 0
    over = _over_limits(intake.pods, limits, sc)
    if over is not None:
        result.errors.append(over)
        return result
    scenario_errors = check_names(sc, intake.pods)
    if scenario_errors:
        result.errors.extend(scenario_errors)
        return result
    checked = _schema_errors(intake.pods, version) if schema else {}
    obs = _own_status(intake.pods, obs)
    base = _scenario_data(scenario, sc) if obs is not None else None
    for pod in intake.pods:
        schema_errors, warnings = checked.get(id(pod), ([], []))
        report = _explain_pod(pod, sc, version, schema_errors, disabled, tuple(intake.services),
                              (obs, base, len(intake.pods) == 1) if obs is not None else None)
        report.warnings = warnings
        result.pods.append(report)
        result.errors.extend(report.errors)
        result.warnings.extend(warnings)
    services = tuple(intake.services)
    result.findings, result.suppressed = split_input(
        run_input_rules(InputContext(services, tuple(intake.pods), version), disabled), services)
    return result


# The last few manifests read, by their text: a what-if change, a compare or a permalink explains the same text
# under another scenario, and reading it is a tenth of the work (`make bench`'s what-if row).  Bounded: at most
# PARSED_KEPT entries of at most PARSED_MAX_CHARS characters.  An `Intake` is read, never changed, after
# parse_manifest returns it (its Pods are frozen), so one object serves every caller; errors are not kept.
PARSED_KEPT = 8
PARSED_MAX_CHARS = 32 * 1024
_parsed_memo: OrderedDict[tuple[str, Limits], Intake] = OrderedDict()
_parsed_lock = threading.Lock()


def _parsed(manifest: str, limits: Limits) -> Intake:
    if len(manifest) > PARSED_MAX_CHARS:
        return parse_manifest(manifest, limits)
    key = (manifest, limits)
    with _parsed_lock:
        kept = _parsed_memo.get(key)
        if kept is not None:
            _parsed_memo.move_to_end(key)
            return kept
    intake = parse_manifest(manifest, limits)
    with _parsed_lock:
        _parsed_memo[key] = intake
        while len(_parsed_memo) > PARSED_KEPT:
            _parsed_memo.popitem(last=False)
    return intake


def _own_status(pods: list[Pod], obs: Observation | None) -> Observation | None:
    """A pasted Pod with a ``status`` (``kubectl get pod -o yaml``) is the manifest and an observation."""
    for pod in pods:
        if pod.source.kind != "Pod" or pod.raw is None:
            continue
        obj = _at(pod.raw, pod.spec_path[:-1])
        status = obj.get("status") if isinstance(obj, dict) else None
        if not isinstance(status, dict) or not status:
            continue
        from .lifecycle.observed import Observation, snapshot
        from .lifecycle.observed.read.objects import extent
        if obs is None:
            obs = Observation()
        first, last = extent(obj)
        obs.snapshots.append(snapshot(obj, obs.add_source("pod", first, last)))
    return obs


def _scenario_data(scenario: str | dict | Scenario | None, sc: Scenario) -> dict[str, Any]:
    """The scenario in effect as plain data, for the one that reproduces an observation."""
    if isinstance(scenario, dict):
        return plain(scenario)
    if isinstance(scenario, str) and scenario.strip():
        try:
            data = read_scenario_text(scenario)
        except ManifestError:
            data = None
        if isinstance(data, dict):
            return plain(data)
    from .lifecycle.observed.reproduce import base_data
    return base_data(sc)


def _unsupported(version: str) -> Text:
    """Why ``version`` cannot be explained.  Older than 1.25: kubernetes-validate 1.37.0 ships no schema for it,
    and 1.25's would misjudge it (1.25 stopped serving batch/v1beta1, policy/v1beta1, autoscaling/v2beta1), so
    the model does not pretend (docs/lifecycle-model.md §33)."""
    values = {"version": version, "versions": ", ".join(d.SUPPORTED_VERSIONS), "oldest": d.SUPPORTED_VERSIONS[0]}
    parts = version.split(".")
    minor = whole_number(parts[1]) if len(parts) >= 2 else None   # "1.²" is no version (lifecycle/numbers.py)
    if parts[0] == "1" and minor is not None and minor < 25:
        return Text(gettext_noop(
            "Kubernetes {version} is not supported: the strict schemas this build checks manifests against start "
            "at {oldest}, and {oldest}'s would misjudge {version} (1.25 stopped serving batch/v1beta1 CronJob, "
            "policy/v1beta1 PodDisruptionBudget and PodSecurityPolicy, autoscaling/v2beta1). Choose {oldest}, "
            "the nearest, or one of {versions}."), values)
    return Text(gettext_noop("Kubernetes {version} is not supported; choose one of {versions}."), values)


def _over_limits(pods: list[Pod], limits: Limits, sc: Scenario = Scenario()) -> ErrorRecord | None:
    """A request may hold at most so many Pods and containers (issue 11): each one costs a
    simulation, a diagram and part of the page.  The scenario's debug containers join every Pod's
    run, and its image updates each restart a container: they count too (issue 27)."""
    if limits.max_pods is not None and len(pods) > limits.max_pods:
        values = {"n": f"{len(pods):,}", "limit": f"{limits.max_pods:,}", "setting": limits.pods_setting}
        if limits.pods_setting:
            return ErrorRecord(Text(gettext_noop("The input holds {n} Pods; the limit is {limit} per request "
                                                 "({setting} raises it). Explain them in smaller parts."),
                                    values), kind="limit")
        return ErrorRecord(Text(gettext_noop("The input holds {n} Pods; the limit is {limit} per request. "
                                             "Explain them in smaller parts."), values), kind="limit")
    containers = sum(len(p.all_containers) for p in pods) + len(sc.debug) * len(pods)
    if limits.max_containers is not None and sc.debug and containers > limits.max_containers:
        values = {"n": f"{containers:,}", "debug": f"{len(sc.debug) * len(pods):,}", "limit": f"{limits.max_containers:,}",
                  "setting": limits.containers_setting or "-"}
        return ErrorRecord(Text(gettext_noop("The input holds {n} containers, {debug} of them the scenario's debug "
                                             "containers; the limit is {limit} per request ({setting} raises it)."),
                                values), kind="limit", path="debug")
    if limits.max_containers is not None and len(sc.image_updates) > limits.max_containers:
        values = {"n": f"{len(sc.image_updates):,}", "limit": f"{limits.max_containers:,}",
                  "setting": limits.containers_setting or "-"}
        return ErrorRecord(Text(gettext_noop("The scenario holds {n} image updates; the limit is {limit} per request "
                                             "({setting} raises it)."), values), kind="limit", path="imageUpdates")
    if limits.max_containers is not None and containers > limits.max_containers:
        values = {"n": f"{containers:,}", "limit": f"{limits.max_containers:,}", "setting": limits.containers_setting}
        if limits.containers_setting:
            return ErrorRecord(Text(gettext_noop("The input holds {n} containers; the limit is {limit} per request "
                                                 "({setting} raises it)."), values), kind="limit")
        return ErrorRecord(Text(gettext_noop("The input holds {n} containers; the limit is {limit} per request."),
                                values), kind="limit")
    return None


def _scenario(scenario: str | dict | Scenario | None) -> Scenario:
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, dict):
        return scenario_from_data(scenario)
    return parse_scenario(scenario)


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for seg in path:
        data = data[seg]
    return data


def _explain_pod(pod: Pod, sc: Scenario, version: str, schema_errors: list[ErrorRecord],
                 disabled: frozenset[str] = frozenset(), services: tuple[ServiceRef, ...] = (),
                 observation: tuple[Observation, dict[str, Any], bool] | None = None) -> PodReport:
    adm = admit(pod, version, sc.feature_gates)
    refused = any(e.reason == "no matches for kind" for e in schema_errors)
    errors = schema_errors if refused else schema_errors + adm.errors
    report = PodReport(adm.pod, admitted=not errors, errors=errors, notes=list(adm.notes),
                       qos=compute_qos(adm.pod, version, sc.feature_gates))
    if report.admitted:
        report.simulation = simulate(adm.pod, sc, container_restart_rules=adm.container_restart_rules,
                                     version=version)
        report.notes.extend(report.simulation.notes)
        # `kubectl rollout restart` of its workload (docs/lifecycle-model.md §26); None for other kinds
        if adm.pod.workload is not None:   # the rollout package is read only for a workload's Pod
            from .lifecycle.rollout import simulate_rollout
            report.rollout = simulate_rollout(adm.pod, sc, version, gates=sc.feature_gates,
                                              container_restart_rules=adm.container_restart_rules)
    debug = tuple(report.simulation.debug_containers) if report.simulation else ()
    report.sharing = analyse_sharing(adm.pod, debug)
    ctx = RuleContext(adm.pod, version, dict(sc.feature_gates), sc, report.simulation, report.sharing, services,
                      report.qos)
    found = run_rules(ctx, disabled)
    report.traffic = ctx.traffic   # the run the rules read (docs/lifecycle-model.md §27): computed once
    ignores = suppressions(pod)
    report.findings, report.suppressed = split(found, ignores)
    report.notes.extend(
        Text(gettext_noop("The annotation {key} (line {line}) names no rule, so it silences nothing; "
                          "`explain --list-rules` lists the rule ids."),
             {"key": f"ignore-check.podlife.io/{s.rule}", "line": s.line or "?"})
        for s in ignores if s.rule not in BY_ID)
    if observation is not None:   # before the summary folds the events it compares
        obs, base, only_pod = observation
        from .lifecycle.observed import observe
        report.observed = observe(obs, adm.pod, report.simulation, base, only_pod)
        report.notes.extend(report.observed.notes)
    if report.simulation is not None:   # after the rules, which read every cycle
        summarised = summarise_crash_loops(report.simulation)
        report.notes.extend(summarised.notes[len(report.simulation.notes):])
        report.simulation = summarised
    return report


def _not_served(obj: Any, root: Any, at: tuple[Any, ...], document: int, name: str,
                version: str) -> ErrorRecord | None:
    """The API server's "no matches for kind" for a built-in apiVersion that ``version`` does not serve."""
    return api_version_error(obj, root, at, document, name, version,
                             lambda kind, api_version: has_schema(kind, api_version, version),
                             lambda kind: serving_api_version(kind, version))


def _refused_skipped(skipped: list[Skipped], version: str) -> dict[int, ErrorRecord]:
    """Objects that hold no Pod are still refused when their built-in apiVersion is not served: the
    error of each, keyed by its index in ``skipped``."""
    out: dict[int, ErrorRecord] = {}
    for i, s in enumerate(skipped):
        obj = s.raw
        for seg in s.at:
            obj = obj[seg]
        error = _not_served(obj, s.raw, s.at, s.document, s.name, version) if s.raw is not None else None
        if error is not None:
            out[i] = dataclasses.replace(error, pod=None, line=error.line or s.line)
    return out


def _schema_errors(pods: list[Pod], version: str) -> dict[int, tuple[list[ErrorRecord], list[ErrorRecord]]]:
    """Strict OpenAPI validation of each object that holds a Pod, keyed by the Pod; an apiVersion the
    version does not serve is the only error then (the API server stops there)."""
    out: dict[int, tuple[list[ErrorRecord], list[ErrorRecord]]] = {}
    for pod in pods:
        at = pod.spec_path[: len(pod.spec_path) - len(TEMPLATE_PATHS[pod.source.kind])]
        refused = _not_served(_at(pod.raw, at), pod.raw, at, pod.source.document, pod.name, version)
        if refused is not None:
            out[id(pod)] = ([refused], [])
            continue
        errors, warnings = check_document(pod.raw, pod.source.document, version, at)
        out[id(pod)] = tuple([dataclasses.replace(e, pod=pod.name, document=pod.source.document) for e in found]
                             for found in (errors, warnings))   # type: ignore[assignment]
    return out

"""What the API server refuses in a workload's rollout settings (docs/lifecycle-model.md §26.1).

k/k pkg/apis/apps/validation/validation.go [code]: `ValidateDeploymentSpec` with `ValidateDeploymentStrategy`
and `ValidateRollingUpdateDeployment`; `ValidateStatefulSetSpec` with `validateRollingUpdateStatefulSet`;
`ValidateDaemonSetUpdateStrategy` with `ValidateRollingUpdateDaemonSet`; and the helpers they share,
`ValidatePositiveIntOrPercent` (an IntOrString is a whole number >= 0 or "N%": a string such as "3" is refused
with `validation.IsValidPercent`'s words) and `IsNotMoreThan100Percent`.  The StatefulSet's maxUnavailable is
dropped first when the MaxUnavailableStatefulSet gate is off (pkg/registry/apps/statefulset/strategy.go
`dropStatefulSetDisabledFields`), so it is only checked with the gate on.

The values are read from the manifest as written (workload.py keeps them for the rollout); a wrong type is
the schema's to report and is skipped here.
"""
from __future__ import annotations

import re
from typing import Any, TypeGuard

from ..errors import ErrorRecord
from ..i18n import Text, gettext_noop as _
from ..model import TEMPLATE_PATHS, Pod
from ..numbers import atoi_clamped, whole_number
from .versions import gate_enabled
from ..manifest.yamlload import format_path, position

_PERCENT = re.compile(r"^[0-9]+%$")
_NOT_A_PERCENT = _("Invalid value: {value}: a valid percent string must be a numeric string followed by an ending "
                   "'%' (e.g. '1%', or '93%', regex used for validation is '[0-9]+%'). A number of Pods is written "
                   "without quotes ({number}); a share of the replicas with % ({percent}).")
_NEGATIVE = _("Invalid value: {value}: must be greater than or equal to 0")
_OVER_100 = _("Invalid value: {value}: must not be greater than 100%")


def workload_problems(pod: Pod, version: str, gates: dict[str, bool]) -> tuple[list[ErrorRecord], list[Text]]:
    """The errors the API server gives the rollout settings of ``pod``'s workload, and notes on fields a
    disabled gate drops."""
    kind = pod.source.kind
    if kind not in ("Deployment", "StatefulSet", "DaemonSet") or pod.raw is None:
        return [], []
    at = pod.spec_path[: len(pod.spec_path) - len(TEMPLATE_PATHS[kind])]
    obj: Any = pod.raw
    for seg in at:
        obj = obj[seg]
    spec = obj.get("spec") if isinstance(obj, dict) else None
    if not isinstance(spec, dict):
        return [], []
    check = _Checker(pod, at + ("spec",))
    if kind == "Deployment":
        check.deployment(spec)
    elif kind == "StatefulSet":
        check.statefulset(spec, gate_enabled("MaxUnavailableStatefulSet", version, gates), version)
    else:
        check.daemonset(spec)
    return check.errors, check.notes


class _Checker:
    def __init__(self, pod: Pod, spec_at: tuple[Any, ...]) -> None:
        self.pod, self.spec_at = pod, spec_at
        self.errors: list[ErrorRecord] = []
        self.notes: list[Text] = []

    def error(self, path: tuple[Any, ...], message: Text, reason: str) -> None:
        full = self.spec_at + path
        line, col = position(self.pod.raw, full)
        self.errors.append(ErrorRecord(message, line, col, format_path(full), "validation", reason,
                                       self.pod.source.document, self.pod.name))

    def nonnegative(self, spec: dict, key: str) -> None:
        v = spec.get(key)
        if _is_int(v) and v < 0:
            self.error((key,), Text(_NEGATIVE, {"value": v}), "Invalid value")

    def int_or_percent(self, rolling: dict, path: tuple[Any, ...], key: str, *, at_most_100: bool) -> int | None:
        """`ValidatePositiveIntOrPercent` (+ `IsNotMoreThan100Percent`); the value `getIntOrPercentValue`
        gives (None: absent, or already refused)."""
        v = rolling.get(key)
        if _is_int(v):
            if v < 0:
                self.error(path + (key,), Text(_NEGATIVE, {"value": v}), "Invalid value")
                return None
            return int(v)
        if isinstance(v, str):
            if not _PERCENT.match(v):
                digits = v.strip().rstrip("%")
                self.error(path + (key,), Text(_NOT_A_PERCENT, {
                    "value": f'"{v}"', "number": f"{key}: {digits if whole_number(digits) is not None else 1}",
                    "percent": f'{key}: "{digits if whole_number(digits) is not None else 25}%"'}), "Invalid value")
                return None
            n = atoi_clamped(v[:-1]) or 0     # _PERCENT holds ASCII digits; 5,000 of them are int64's largest
            if at_most_100 and n > 100:
                self.error(path + (key,), Text(_OVER_100, {"value": f'"{v}"'}), "Invalid value")
            return n
        return None

    def deployment(self, spec: dict) -> None:
        self.nonnegative(spec, "replicas")
        self.nonnegative(spec, "minReadySeconds")
        self.nonnegative(spec, "progressDeadlineSeconds")
        strategy = _mapping(spec, "strategy")
        kind = strategy.get("type", "RollingUpdate")
        rolling = strategy.get("rollingUpdate")
        path = ("strategy",)
        if kind == "Recreate":
            if rolling is not None:
                self.error(path + ("rollingUpdate",), Text(_(
                    "Forbidden: may not be specified when strategy `type` is 'Recreate'. Recreate has no surge "
                    "and no unavailability budget: every old Pod goes before a new one starts.")), "Forbidden")
        elif kind == "RollingUpdate":
            rolling = rolling if isinstance(rolling, dict) else {}
            at = path + ("rollingUpdate",)
            unavailable = self.int_or_percent(rolling, at, "maxUnavailable", at_most_100=True)
            surge = self.int_or_percent(rolling, at, "maxSurge", at_most_100=False)
            # absent fields are defaulted to 25% first (SetDefaults_Deployment), so only written zeros meet here
            if unavailable == 0 and surge == 0 and "maxUnavailable" in rolling and "maxSurge" in rolling:
                self.error(at + ("maxUnavailable",), Text(_(
                    "Invalid value: 0: may not be 0 when `maxSurge` is 0. The controller could neither start a "
                    "new Pod before an old one goes nor let an old one go first.")), "Invalid value")
        elif isinstance(kind, str):
            self.error(path + ("type",), Text(_("Unsupported value: {value}: supported values: \"Recreate\", "
                                                "\"RollingUpdate\""), {"value": f'"{kind}"'}), "Unsupported value")
        deadline, min_ready = spec.get("progressDeadlineSeconds"), spec.get("minReadySeconds", 0)
        if _is_int(deadline) and _is_int(min_ready) and 0 <= deadline <= min_ready:
            self.error(("progressDeadlineSeconds",), Text(_(
                "Invalid value: {value}: must be greater than minReadySeconds ({min_ready})"),
                {"value": deadline, "min_ready": min_ready}), "Invalid value")

    def statefulset(self, spec: dict, max_unavailable_gate: bool, version: str) -> None:
        self.nonnegative(spec, "replicas")
        self.nonnegative(spec, "minReadySeconds")
        policy = spec.get("podManagementPolicy")
        if isinstance(policy, str) and policy not in ("OrderedReady", "Parallel"):
            self.error(("podManagementPolicy",), Text(_("Invalid value: {value}: must be 'OrderedReady' or "
                                                        "'Parallel'"), {"value": f'"{policy}"'}), "Invalid value")
        strategy = _mapping(spec, "updateStrategy")
        kind = strategy.get("type", "RollingUpdate")
        rolling = strategy.get("rollingUpdate")
        path = ("updateStrategy",)
        if kind == "OnDelete":
            if rolling is not None:
                self.error(path + ("rollingUpdate",), Text(_("Invalid value: only allowed for updateStrategy "
                                                             "'RollingUpdate'")), "Invalid value")
        elif kind == "RollingUpdate":
            if not isinstance(rolling, dict):
                return
            at = path + ("rollingUpdate",)
            partition = rolling.get("partition")
            if _is_int(partition) and partition < 0:
                self.error(at + ("partition",), Text(_NEGATIVE, {"value": partition}), "Invalid value")
            if "maxUnavailable" not in rolling:
                return
            if not max_unavailable_gate:
                self.notes.append(Text(_(
                    "Kubernetes {version}: the MaxUnavailableStatefulSet feature gate is off, so the API server drops "
                    "updateStrategy.rollingUpdate.maxUnavailable and the StatefulSet is updated one Pod at a time "
                    "(the gate is on by default from 1.35)."), {"version": version}))
                return
            n = self.int_or_percent(rolling, at, "maxUnavailable", at_most_100=True)
            if n == 0:
                self.error(at + ("maxUnavailable",), Text(_("Invalid value: 0: cannot be 0")), "Invalid value")
        elif isinstance(kind, str):
            self.error(path + ("type",), Text(_("Invalid value: {value}: must be 'RollingUpdate' or 'OnDelete'"),
                                              {"value": f'"{kind}"'}), "Invalid value")

    def daemonset(self, spec: dict) -> None:
        self.nonnegative(spec, "minReadySeconds")
        strategy = _mapping(spec, "updateStrategy")
        kind = strategy.get("type", "RollingUpdate")
        path = ("updateStrategy",)
        if kind == "RollingUpdate":
            rolling = strategy.get("rollingUpdate")
            rolling = rolling if isinstance(rolling, dict) else {}
            at = path + ("rollingUpdate",)
            unavailable = self.int_or_percent(rolling, at, "maxUnavailable", at_most_100=True)
            surge = self.int_or_percent(rolling, at, "maxSurge", at_most_100=True)
            # SetDefaults_DaemonSet: maxUnavailable 1 and maxSurge 0 when absent
            unavailable = 1 if "maxUnavailable" not in rolling else unavailable
            surge = 0 if "maxSurge" not in rolling else surge
            if unavailable and surge:
                value = {"value": _shown(rolling.get("maxSurge"))}
                if "maxUnavailable" in rolling:
                    message = Text(_("Invalid value: {value}: may not be set when maxUnavailable is non-zero"), value)
                else:
                    message = Text(_("Invalid value: {value}: may not be set when maxUnavailable is non-zero. "
                                     "maxUnavailable is 1 when it is not written: write maxUnavailable: 0 beside "
                                     "maxSurge."), value)
                self.error(at + ("maxSurge",), message, "Invalid value")
            elif unavailable == 0 and surge == 0:
                self.error(at + ("maxUnavailable",), Text(_("Required value: cannot be 0 when maxSurge is 0")),
                           "Required value")
        elif kind != "OnDelete" and isinstance(kind, str):
            self.error(path + ("type",), Text(_("Unsupported value: {value}: supported values: \"OnDelete\", "
                                                "\"RollingUpdate\""), {"value": f'"{kind}"'}), "Unsupported value")


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _mapping(m: dict, key: str) -> dict:
    v = m.get(key)
    return v if isinstance(v, dict) else {}


def _shown(v: Any) -> str:
    return f'"{v}"' if isinstance(v, str) else str(v)

"""What the API server refuses in a workload's rollout settings (docs/lifecycle-model.md §26.1), with its words,
a line and a path: k/k pkg/apis/apps/validation/validation.go."""
from __future__ import annotations

import pytest

from explainer.explain import explain

TEMPLATE = """apiVersion: apps/v1
kind: {kind}
metadata: {{name: web}}
spec:
  selector: {{matchLabels: {{app: web}}}}
{extra}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers: [{{name: app, image: nginx}}]
"""


def _errors(kind: str, extra: str, version: str | None = None) -> list[tuple[int | None, str | None, str]]:
    e = explain(TEMPLATE.format(kind=kind, extra=extra), version=version)
    return [(x.line, x.path, x.message) for x in e.errors]


@pytest.mark.parametrize("kind,extra,path,words", [
    # ValidatePositiveIntOrPercent: a string must be "N%" (validation.IsValidPercent)
    ("Deployment", "  strategy: {rollingUpdate: {maxSurge: '3'}}", "spec.strategy.rollingUpdate.maxSurge",
     "a valid percent string must be a numeric string followed by an ending '%'"),
    ("Deployment", "  strategy: {rollingUpdate: {maxUnavailable: -1}}", "spec.strategy.rollingUpdate.maxUnavailable",
     "must be greater than or equal to 0"),
    ("Deployment", "  strategy: {rollingUpdate: {maxUnavailable: '110%'}}",
     "spec.strategy.rollingUpdate.maxUnavailable", "must not be greater than 100%"),
    # ValidateRollingUpdateDeployment: both 0
    ("Deployment", "  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: '0%'}}",
     "spec.strategy.rollingUpdate.maxUnavailable", "may not be 0 when `maxSurge` is 0"),
    # ValidateDeploymentStrategy
    ("Deployment", "  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}", "spec.strategy.rollingUpdate",
     "may not be specified when strategy `type` is 'Recreate'"),
    ("Deployment", "  strategy: {type: BlueGreen}", "spec.strategy.type", 'supported values: "Recreate"'),
    # ValidateDeploymentSpec
    ("Deployment", "  minReadySeconds: 30\n  progressDeadlineSeconds: 30", "spec.progressDeadlineSeconds",
     "must be greater than minReadySeconds (30)"),
    ("Deployment", "  replicas: -2", "spec.replicas", "must be greater than or equal to 0"),
    # ValidateRollingUpdateDaemonSet: maxSurge alone leaves maxUnavailable at its default 1
    ("DaemonSet", "  updateStrategy: {rollingUpdate: {maxSurge: 1}}", "spec.updateStrategy.rollingUpdate.maxSurge",
     "write maxUnavailable: 0 beside maxSurge"),
    ("DaemonSet", "  updateStrategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 1}}",
     "spec.updateStrategy.rollingUpdate.maxSurge", "may not be set when maxUnavailable is non-zero"),
    ("DaemonSet", "  updateStrategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}",
     "spec.updateStrategy.rollingUpdate.maxUnavailable", "cannot be 0 when maxSurge is 0"),
    ("DaemonSet", "  updateStrategy: {rollingUpdate: {maxSurge: '150%', maxUnavailable: 0}}",
     "spec.updateStrategy.rollingUpdate.maxSurge", "must not be greater than 100%"),
    # ValidateStatefulSetSpec, validateRollingUpdateStatefulSet (with the gate: 1.37)
    ("StatefulSet", "  serviceName: web\n  updateStrategy: {rollingUpdate: {maxUnavailable: 0}}",
     "spec.updateStrategy.rollingUpdate.maxUnavailable", "cannot be 0"),
    ("StatefulSet", "  serviceName: web\n  updateStrategy: {rollingUpdate: {partition: -1}}",
     "spec.updateStrategy.rollingUpdate.partition", "must be greater than or equal to 0"),
    ("StatefulSet", "  serviceName: web\n  updateStrategy: {type: OnDelete, rollingUpdate: {partition: 1}}",
     "spec.updateStrategy.rollingUpdate", "only allowed for updateStrategy 'RollingUpdate'"),
    ("StatefulSet", "  serviceName: web\n  podManagementPolicy: Burst", "spec.podManagementPolicy",
     "must be 'OrderedReady' or 'Parallel'"),
])
def test_refused(kind: str, extra: str, path: str, words: str) -> None:
    errors = _errors(kind, extra)
    assert [p for _line, p, _m in errors] == [path], errors
    line, _path, message = errors[0]
    assert line is not None and line >= 6 and words in message


@pytest.mark.parametrize("kind,extra", [
    ("Deployment", "  strategy: {rollingUpdate: {maxSurge: 0}}"),          # maxUnavailable stays 25%
    ("Deployment", "  strategy: {rollingUpdate: {maxSurge: '150%', maxUnavailable: 0}}"),   # surge may exceed 100%
    ("Deployment", "  strategy: {type: Recreate}"),
    ("Deployment", "  progressDeadlineSeconds: 2147483647"),
    ("DaemonSet", "  updateStrategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}"),
    ("DaemonSet", "  updateStrategy: {type: OnDelete, rollingUpdate: {maxUnavailable: 2}}"),
    ("StatefulSet", "  serviceName: web\n  updateStrategy: {rollingUpdate: {maxUnavailable: '50%', partition: 2}}"),
])
def test_accepted(kind: str, extra: str) -> None:
    assert _errors(kind, extra) == []


def test_without_the_gate_a_statefulsets_maxunavailable_is_dropped_with_a_note() -> None:
    extra = "  serviceName: web\n  updateStrategy: {rollingUpdate: {maxUnavailable: 0}}"
    e = explain(TEMPLATE.format(kind="StatefulSet", extra=extra), version="1.34")
    assert not e.errors
    assert any("MaxUnavailableStatefulSet feature gate is off" in str(n) for n in e.pods[0].notes)


def test_no_deadline_is_none() -> None:
    e = explain(TEMPLATE.format(kind="Deployment", extra="  progressDeadlineSeconds: 2147483647"))
    assert e.pods[0].pod.workload is not None and e.pods[0].pod.workload.progress_deadline_seconds is None

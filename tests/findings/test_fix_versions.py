"""Fix texts that are right on every supported version: job-sidecar-blocks-completion and
sidecar-start-order-assumed on a real Istio Job (injected for a cluster without native sidecars)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from explainer.explain import explain
from explainer.lifecycle.defaults import SUPPORTED_VERSIONS
from explainer.lifecycle.admission.versions import version_tuple

JOB = Path(__file__).resolve().parent.parent / "fixtures" / "findings" / "cases" / "start_order_istio_job_classic.yaml"
CASES = [(v, None) for v in SUPPORTED_VERSIONS] + [("1.28", True)]


def _finding(rule: str, version: str, gate: bool | None):
    scenario = {"featureGates": {"SidecarContainers": gate}} if gate is not None else None
    expl = explain(JOB.read_text(encoding="utf-8"), scenario, version)
    (f,) = [f for r in expl.pods for f in r.findings if f.id == rule]
    return f


@pytest.mark.parametrize("version,gate", CASES, ids=[f"{v}{'-gate' if g else ''}" for v, g in CASES])
def test_job_fix_is_a_native_sidecar_only_where_the_version_runs_them(version: str, gate: bool | None) -> None:
    f = _finding("job-sidecar-blocks-completion", version, gate)
    fix = yaml.safe_load(f.fix)
    native = version_tuple(version) >= (1, 29) or bool(gate)   # 1.25-1.27 have no native sidecars; 1.28 behind the gate
    if native:
        (helper,) = fix["initContainers"]
        assert helper["name"] == "istio-proxy" and helper["restartPolicy"] == "Always" and f.fixable
        assert "<PORT>" not in f.fix   # it has its own startupProbe: nothing to invent
    else:
        assert "initContainers" not in fix and not f.fixable and "restartPolicy" not in f.fix
        worker, helper = fix["containers"]
        assert (worker["name"], helper["name"]) == ("pi", "istio-proxy")
        assert "touch /shared/done" in worker["command"][2] and "/shared/done" in helper["command"][2]
        assert fix["volumes"] == [{"name": "shared", "emptyDir": {}}]


@pytest.mark.parametrize("version,gate", CASES, ids=[f"{v}{'-gate' if g else ''}" for v, g in CASES])
def test_start_order_fix_agrees_with_the_job_fix(version: str, gate: bool | None) -> None:
    start = _finding("sidecar-start-order-assumed", version, gate)
    job = _finding("job-sidecar-blocks-completion", version, gate)
    assert "istio-proxy (image registry.istio.io/testing/proxyv2:latest) is Istio's proxy" in start.explanation.render()
    if start.fixable:   # the same edit: the proxy becomes the same native sidecar
        assert start.patch == job.patch
    else:               # no native sidecars: the proxy stays in containers, the app waits for it
        fix = yaml.safe_load(start.fix)
        assert [c["name"] for c in fix["containers"]] == ["pi"] and "until nc -z localhost 15021" in start.fix

"""missing-resources reads requests as the API server stores them (limits stand in for missing
requests), never proposes a request above a limit, and leaves plain init containers alone."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from explainer.explain import explain
from explainer.lifecycle.quantity import as_fraction

from ..fixes.corpus import manifests, settings

CASES = Path(__file__).resolve().parent.parent / "fixtures" / "findings" / "cases"


def _found(name: str) -> list:
    expl = explain((CASES / name).read_text(encoding="utf-8"))
    return [f for r in expl.pods for f in r.findings if f.id == "missing-resources"]


def test_a_cpu_limit_is_a_cpu_request_so_only_memory_is_missing() -> None:
    (f,) = _found("limits_cpu_only.yaml")
    text = f.explanation.render()
    assert "neither a request nor a limit for memory" in text
    assert "cpu request defaults to its limit" in text and "Burstable" in text
    requests = yaml.safe_load(f.fix)[0]["resources"]["requests"]
    assert list(requests) == ["memory"] and requests["memory"] == "<MEMORY>"   # a placeholder, no invented size
    assert not f.fixable


def test_limits_only_on_cpu_and_memory_is_guaranteed_and_quiet() -> None:
    assert not _found("limits_only_guaranteed.yaml")


def test_a_short_lived_init_container_is_not_reported() -> None:
    found = _found("init_limits_only_app_bare.yaml")
    assert [f.container for f in found] == ["sleep"]
    assert "neither a request nor a limit for cpu and memory" in found[0].explanation.render()


@pytest.mark.parametrize("path", manifests(), ids=lambda p: p.name)
def test_no_fix_requests_a_resource_the_container_limits(path: Path) -> None:
    """Over every fixture: the fix names only resources without a limit, so no request can exceed one."""
    text = path.read_text(encoding="utf-8")
    scenario, version = settings(text)
    expl = explain(text, scenario, version)
    for r in expl.pods:
        for f in r.findings:
            if f.id != "missing-resources":
                continue
            c = r.pod.container(f.container)
            res = r.qos.of(c.name)
            assert c.role != "init"
            requests = yaml.safe_load(f.fix)[0]["resources"]["requests"]
            assert set(requests).isdisjoint(res.limits), (path.name, c.name)
            assert all(as_fraction(v) is None for v in requests.values())   # placeholders only

"""The story (render/story.py): its steps come in time order, for every fixture and example."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.explain import explain
from explainer.render.story import collapse_crash_loops, story
from tests.fixes.corpus import ROOT, manifests, settings


@pytest.mark.parametrize("path", manifests(), ids=lambda p: str(p.relative_to(ROOT)))
def test_story_steps_never_go_back_in_time(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    scenario, version = settings(text)
    for report in explain(text, scenario, version).pods:
        if report.simulation is None:
            continue
        steps = story(report.pod, report.simulation)
        times = [s.t for s in steps]
        assert times == sorted(times), f"{report.pod.name}: {[(s.t, str(s.text)[:40]) for s in steps]}"
        folded = [s.t for s in collapse_crash_loops(steps)]
        assert folded == sorted(folded)


def test_a_job_pod_deleted_after_it_succeeded_ends_before_the_deletion() -> None:
    text = (ROOT / "tests" / "fixtures" / "pods" / "rw_job_pi_deleted.yaml").read_text(encoding="utf-8")
    report = explain(text, *settings(text)).pods[0]
    steps = [str(s.text) for s in story(report.pod, report.simulation)]
    ends = next(i for i, s in enumerate(steps) if s.startswith("The Pod ends Succeeded at 1 s"))
    deleted = next(i for i, s in enumerate(steps) if s.startswith("The Pod is deleted"))
    assert ends < deleted == len(steps) - 1


def test_a_host_network_pod_is_told_it_uses_the_node_network_real_world_cilium() -> None:
    text = (ROOT / "tests" / "fixtures" / "pods" / "rw_cilium_host_network.yaml").read_text(encoding="utf-8")
    report = explain(text).pods[0]
    first = story(report.pod, report.simulation)[0]
    assert "node's network namespace and IP address" in str(first.text)
    assert "makes no network namespace" in str(first.text)
    sandbox = report.simulation.events[0]
    assert sandbox.type == "sandbox_ready" and "node's network namespace" in sandbox.message
    volumes = {v["name"]: v["sources"] for v in report.sharing["volumes"]}
    assert volumes["bpf-maps"] == ["hostPath:/sys/fs/bpf"]

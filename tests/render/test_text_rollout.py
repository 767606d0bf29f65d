"""The CLI's rollout section (docs/lifecycle-model.md §26): when it completes or stalls, the capacity floor and the
surge ceiling, the steps. Golden files under tests/golden/rollout/."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.render.text import explanation_as_text
from tests.conftest import load_manifest

CASES = [
    ("web-deployment", None),
    ("web-deployment-never-ready", "rollout: {newRevision: {containers: {app: {failingProbes: [readiness]}}}}"),
    ("db-statefulset", None),
    ("agent-daemonset", "rollout: {nodes: 4}"),
]


@pytest.mark.parametrize("name,scenario", CASES, ids=[c[0] for c in CASES])
def test_rollout_section(name: str, scenario: str | None, golden) -> None:
    fixture = name.removesuffix("-never-ready")
    text = explanation_as_text(explain(load_manifest(f"rollout/{fixture}"), scenario))
    section = text[text.index("\nRollout ("):]
    golden(f"rollout/{name}.txt", section[:section.index("\nAssumed (")] if "\nAssumed (" in section else section)


def test_the_section_names_the_outcome() -> None:
    text = explanation_as_text(explain(load_manifest("rollout/web-deployment"),
                                       "rollout: {newRevision: {containers: {app: {failingProbes: [readiness]}}}}"))
    assert "stalls at 601s (ProgressDeadlineExceeded, 3 of 3 available)" in text
    assert "capacity floor 3 available (fewest seen: 3); surge ceiling 4 Pods" in text


def test_no_section_for_a_pod() -> None:
    assert "Rollout (" not in explanation_as_text(explain(load_manifest("seeds/web-app-pod")))

"""Golden files for the CLI's readable account of each teaching example (what people read)."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.render.text import explanation_as_text
from tests.conftest import load_manifest

CASES = [
    ("init-example", None),
    ("native-sidecar-example", None),
    ("native-sidecar-probe", "containers: {proxy: {startupSeconds: 5}}"),
    ("process-sharing-example", "debug: [{name: debugger, image: 'busybox:1.36', target: app, at: 20, runSeconds: 30}]"),
    ("lifecycle-demo", "deleteAt: 30"),
    ("web-app-pod", "deleteAt: 60"),
    ("long-running-init", None),
    ("job-classic-sidecar", None),
]


@pytest.mark.parametrize("name,scenario", CASES, ids=[c[0] for c in CASES])
def test_seed_trace(name: str, scenario: str | None, golden) -> None:
    text = explanation_as_text(explain(load_manifest(f"seeds/{name}"), scenario))
    golden(f"{name}/trace.txt", text)

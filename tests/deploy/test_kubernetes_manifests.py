"""Our own deployment (deploy/kubernetes) passes our own check and the API server's schema.

The manifests that run this explainer in a cluster must have none of the pitfalls it warns
others about (`explain --fail-on warning` exits 0) and must validate strictly against every
supported Kubernetes version's schema.
"""
from __future__ import annotations

from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from explainer.explain import explain
from explainer.lifecycle import defaults as d
from explainer.cli import run as cli

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "kubernetes"
FILES = sorted(DEPLOY.rglob("*.yaml"))


def test_there_is_a_deployment_to_check() -> None:
    names = {p.relative_to(DEPLOY).as_posix() for p in FILES}
    assert {"web.yaml", "migrate-job.yaml", "config.yaml", "try-out/postgres.yaml", "try-out/redis.yaml"} <= names


def test_our_own_check_passes_at_fail_on_warning() -> None:
    outcome = cli.run([str(DEPLOY)], None, None, "json", "warning", 1 << 20)
    assert outcome.code == cli.EXIT_OK, outcome.stderr


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_no_finding_at_all(path: Path) -> None:
    expl = explain(path.read_text(encoding="utf-8"))
    assert expl.ok, [e.one_line() for e in expl.errors]
    assert [(r.pod.name, f.id) for r in expl.pods for f in r.findings] == []


# The preStop sleep action (web.yaml) is beta and on by default from 1.30.
@pytest.mark.parametrize("version", ["1.30", d.DEFAULT_VERSION])
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_strict_schema_of_the_api_server(path: Path, version: str) -> None:
    for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
        kubernetes_validate.validate(doc, f"{version}.0", strict=True)


def test_web_pods_drain_within_the_grace_period_on_deletion() -> None:
    """preStop sleeps 10 s while the endpoint goes, then SIGTERM: done long before the 45 s grace."""
    expl = explain((DEPLOY / "web.yaml").read_text(encoding="utf-8"), "deleteAt: 60")
    (report,) = expl.pods
    events = [(e.t, e.type) for e in report.simulation.events if e.container == "web"]
    assert (60, "prestop_started") in events and (70, "prestop_done") in events
    assert (70, "terminating") in events        # SIGTERM once the preStop sleep is over
    assert [t for t, kind in events if kind == "exited"] == [70]
    assert "killed" not in {kind for _, kind in events}

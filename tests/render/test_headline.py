"""The headline of a run a deletion or the active deadline ended (render/headline.py): what happened, in
teaching terms, before STATUS and phase (issue 25, "Words a class sees first")."""
from __future__ import annotations

import pytest

from explainer.examples import BY_SLUG, EXAMPLES
from explainer.explain import explain
from explainer.render.headline import headline
from tests.conftest import load_manifest

BASE = load_manifest("compare/base")


def said(manifest: str, scenario: object = None) -> str | None:
    (report,) = explain(manifest, scenario).pods
    text = headline(report)
    return None if text is None else text.render()


# (manifest, scenario, headline): each way a stopped Pod's containers end, named in the order they end
CASES = [
    (BASE, {"deleteAt": 40},
     "Deleted at 40 s; shipper and web exited on SIGTERM (143), so the Pod ends Failed — normal for a deletion."),
    (BASE, {"deleteAt": 40, "containers": {"shipper": {"stopSeconds": "never"}}},
     "Deleted at 40 s; web exited on SIGTERM (143), shipper ended on SIGKILL when the grace period ran out (137), "
     "so the Pod ends Failed — normal for a deletion."),
    (BASE, {"deleteAt": 40, "containers": {"web": {"stopExitCode": 0}, "shipper": {"stopExitCode": 0}}},
     "Deleted at 40 s; shipper and web exited cleanly (0), so the Pod ends Succeeded."),
    (BASE, {"deleteAt": 40, "containers": {"web": {"stopExitCode": 1}}},
     "Deleted at 40 s; shipper exited on SIGTERM (143), web exited with code 1, so the Pod ends Failed."),
    (BASE, {"deleteAt": 40, "until": 42},
     "Deleted at 40 s; at the end of the run (42 s) the Pod is still Terminating."),
    (load_manifest("pods/deadline"), None,
     "activeDeadlineSeconds ran out at 20 s; app exited on SIGTERM (143), so the Pod ends Failed — what the "
     "deadline is for."),
]


@pytest.mark.parametrize("manifest,scenario,expected", CASES)
def test_the_headline_says_how_each_container_ended_and_why_the_phase_follows(manifest: str, scenario: object,
                                                                              expected: str) -> None:
    assert said(manifest, scenario) == expected


def test_the_deleted_gallery_examples_open_with_what_happened() -> None:
    deleted = {e.slug for e in EXAMPLES if "deleteAt" in e.scenario}
    assert deleted == {"lifecycle-demo", "web-app-pod", "deploy-502-race", "deploy-prestop-drain"}
    example = BY_SLUG["lifecycle-demo"]
    assert said(example.manifest(), example.scenario) == (
        "Deleted at 30 s; app and helper exited on SIGTERM (143), so the Pod ends Failed — normal for a deletion.")
    production = BY_SLUG["web-app-pod"]
    assert said(production.manifest(), production.scenario) == (
        "Deleted at 60 s; fluentbit-sidecar exited on SIGTERM (143), app and envoy-sidecar ended on SIGKILL when "
        "the Pod's pause process exited (137), so the Pod ends Failed.")     # its preStop's kill 1: a pitfall


def test_a_run_nothing_stopped_has_no_headline() -> None:
    assert said(BASE, {"until": 60}) is None
    assert all(said(e.manifest(), e.scenario or None) is None for e in EXAMPLES
               if "deleteAt" not in e.scenario and e.slug not in ("rollout-surge-vs-unavailable", "statefulset-update"))


def test_the_headline_goes_through_gettext() -> None:
    (report,) = explain(BASE, {"deleteAt": 40}).pods
    text = headline(report)
    assert text is not None
    assert text.render(lambda s: s.replace("Deleted at", "DELETED AT")).startswith("DELETED AT 40 s; ")

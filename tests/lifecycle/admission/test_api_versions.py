"""apiVersions the API server does not serve are refused, with the removal release and the migration
(docs/lifecycle-model.md §5.2); custom groups stay custom resources."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.lifecycle.admission.api_versions import REMOVED
from explainer.render.jsonable import explanation_to_dict
from tests.conftest import load_manifest

POD_V2 = "apiVersion: v2\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: b}]\n"
DEPLOYMENT = ("apiVersion: {av}\nkind: Deployment\nmetadata: {{name: d}}\nspec:\n  template:\n    spec:\n"
              "      containers: [{{name: a, image: b}}]\n")


@pytest.mark.parametrize("fixture,line,kind,api_version,removed,target", [
    ("validation/apps_v1beta1_statefulset", 19, "StatefulSet", "apps/v1beta1", "1.16", "apps/v1"),
    ("validation/extensions_v1beta1_deployment", 26, "Deployment", "extensions/v1beta1", "1.16", "apps/v1"),
    ("validation/batch_v1beta1_cronjob", 4, "CronJob", "batch/v1beta1", "1.25", "batch/v1"),
])
@pytest.mark.parametrize("version", ["1.27", "1.37"])
def test_a_removed_api_version_is_refused_with_its_removal_and_migration(
        fixture: str, line: int, kind: str, api_version: str, removed: str, target: str, version: str) -> None:
    expl = explain(load_manifest(fixture), None, version)
    [pod] = expl.pods
    assert not pod.admitted and pod.simulation is None
    [error] = pod.errors                          # the API server stops at the mapping: nothing else
    assert error.line == line and error.path == "apiVersion" and error.kind == "validation"
    assert error.message.startswith(f'no matches for kind "{kind}" in version "{api_version}": ')
    assert f"removed in Kubernetes {removed}; migrate to {target}" in error.message
    assert [s.kind for s in expl.skipped] == (["Service"] if "statefulset" in fixture else
                                              ["Service", "PersistentVolumeClaim"] if "deployment" in fixture
                                              else [])


@pytest.mark.parametrize("text,message", [
    (DEPLOYMENT.format(av="apps/v9"), 'no matches for kind "Deployment" in version "apps/v9": '
                                      "Kubernetes 1.37 serves Deployment as apps/v1."),
    (POD_V2, 'no matches for kind "Pod" in version "v2": Kubernetes 1.37 serves Pod as v1.'),
    ("apiVersion: batch/v2alpha1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  jobTemplate:\n    spec:\n"
     "      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: a, image: b}]\n",
     "batch/v2alpha1 CronJob was removed in Kubernetes 1.21; migrate to batch/v1"),
])
def test_an_unknown_version_of_a_built_in_group_is_an_error(text: str, message: str) -> None:
    expl = explain(text, None, "1.37")
    assert message in expl.errors[0].message and expl.errors[0].line == 1 and not expl.pods[0].admitted


def test_objects_that_hold_no_pod_are_refused_too_and_no_longer_skipped() -> None:
    text = ("apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: pdb}\n---\n"
            "apiVersion: extensions/v1beta1\nkind: PodSecurityPolicy\nmetadata: {name: psp}\n---\n"
            "apiVersion: apps/v1\nkind: Frobnicator\nmetadata: {name: f}\n")
    expl = explain(text, None, "1.30")
    assert not expl.skipped
    assert [e.line for e in expl.errors] == [1, 5, 9]
    assert "removed in Kubernetes 1.25; migrate to policy/v1" in expl.errors[0].message
    assert "removed in Kubernetes 1.16, with no replacement" in expl.errors[1].message   # policy/v1beta1 is gone too
    assert "no kind Frobnicator in the built-in group apps" in expl.errors[2].message


def test_an_api_version_below_the_kind_is_refused_once_at_its_own_line() -> None:
    expl = explain("kind: StorageClass\nmetadata: {name: fast}\napiVersion: storage.k8s.io/v1beta1\n"
                   "provisioner: k8s.io/minikube-hostpath\n", None, "1.30")
    assert not expl.skipped and [(e.line, e.path) for e in expl.errors] == [(3, "apiVersion")]


def test_a_version_still_served_on_the_target_is_accepted() -> None:
    text = "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\n"
    assert explain(text, None, "1.37").errors and not explain(text, None, "1.37").skipped
    assert explain("apiVersion: flowcontrol.apiserver.k8s.io/v1beta2\nkind: FlowSchema\nmetadata: {name: f}\n",
                   None, "1.28").skipped   # removed in 1.29, still served by 1.28


def test_a_custom_group_stays_a_custom_resource() -> None:
    expl = explain(DEPLOYMENT.format(av="apps.example.com/v1"), None, "1.37")
    assert not expl.errors and expl.pods[0].admitted
    expl = explain("apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: s}\n")
    assert not expl.errors and [s.kind for s in expl.skipped] == ["ServiceMonitor"]


def test_the_removal_table_names_only_versions_the_supported_releases_do_not_serve() -> None:
    from explainer.schema import has_schema
    for (api_version, kind), (removed, replacement) in REMOVED.items():
        assert not has_schema(kind, api_version, "1.27"), (api_version, kind)
        assert replacement is None or "/" in replacement and tuple(map(int, removed.split("."))) <= (1, 26)


def test_the_json_contract_carries_the_refusal() -> None:
    out = explanation_to_dict(explain(load_manifest("validation/batch_v1beta1_cronjob")))
    assert out["pods"][0]["admitted"] is False and out["errors"][0]["reason"] == "no matches for kind"

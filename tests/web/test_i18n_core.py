"""The core's own texts (events, notes, assumptions, errors) reach the Chinese page translated."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from explainer.lifecycle import defaults as d

DEMO = (Path(__file__).resolve().parents[2] / "explainer" / "examples" / "lifecycle-demo.yaml").read_text(
    encoding="utf-8")
STRUCTURE_ERROR = "apiVersion: v1\nkind: Pod\nmetadata: {name: broken}\nspec:\n  containers: 3\n"
NO_IMAGE = "apiVersion: v1\nkind: Pod\nmetadata: {name: no-image}\nspec:\n  containers:\n    - name: app\n"


def _post(client: Client, manifest: str, scenario: str = "", language: str = "zh-hans") -> str:
    response = client.post("/", {"manifest": manifest, "version": d.DEFAULT_VERSION, "scenario": scenario},
                           HTTP_ACCEPT_LANGUAGE=language, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()
    return response.content.decode()


@pytest.mark.django_db
def test_delete_event_and_assumptions_are_translated(client: Client) -> None:
    body = _post(client, DEMO, "deleteAt: 30")
    # the delete event's message, inside the translated story step and the events table
    assert "kubectl delete：宽限期 30 秒" in body
    assert "Pod 被删除（kubectl delete：宽限期 30 秒）。" in body
    assert "kubectl delete: grace period 30s" not in body
    # SIGTERM with its deadline, and the note of the Pod's stop
    assert "SIGTERM；若仍在运行，30 秒后发送 SIGKILL" in body
    assert "kubelet 停止 Pod（Pod 已被删除）；宽限期 30 秒。" in body
    # assumption reasons (prepare's run time; every stop on SIGTERM)
    assert "假定 1 秒后结束" in body
    assert "假定收到 SIGTERM 后立即退出（退出码 143）" in body
    assert "assumed to finish after 1 s" not in body


@pytest.mark.django_db
def test_english_page_keeps_the_english_texts(client: Client) -> None:
    body = _post(client, DEMO, "deleteAt: 30", language="en")
    assert "kubectl delete: grace period 30s" in body
    assert "assumed to finish after 1 s" in body
    assert "宽限期" not in body


@pytest.mark.django_db
def test_structure_error_is_translated(client: Client) -> None:
    body = _post(client, STRUCTURE_ERROR)
    assert "containers 必须是列表，而不是数字（3）。" in body
    assert "must be a list" not in body
    english = _post(client, STRUCTURE_ERROR, language="en")
    assert "containers must be a list, not a number (3)." in english


@pytest.mark.django_db
def test_rejected_pod_and_scenario_errors_are_translated(client: Client) -> None:
    body = _post(client, NO_IMAGE)
    assert "spec.containers[0].image：Required value：每个容器都需要镜像。" in body
    scenario_error = _post(client, DEMO, "deleteAt: -1")
    assert "deleteAt 必须是大于等于 0 的秒数，而不是 -1。" in scenario_error



@pytest.mark.parametrize("language", ["en", "zh-hans", None])
def test_the_looked_up_gettext_translates_every_message_as_django_gettext_does(language: str | None) -> None:
    import gettext as gettext_module

    from django.utils import translation

    from explainer.web.present import active_gettext

    mo = Path(__file__).resolve().parents[2] / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.mo"
    catalogue = gettext_module.GNUTranslations(mo.open("rb"))._catalog   # every msgid we ship
    msgids = [m for m in catalogue if isinstance(m, str) and m] + ["not a message id"]
    assert len(msgids) > 300
    with translation.override(language):
        fast = active_gettext()
        assert [fast(m) for m in msgids] == [translation.gettext(m) for m in msgids]
        if language == "zh-hans":
            assert fast("Timeline") != "Timeline"

RULES_17A = ("finite-command-under-always", "service-without-prestop-drain", "liveness-same-as-readiness",
             "liveness-checks-dependency", "exec-probe-default-timeout", "probe-timeout-exceeds-period",
             "termination-grace-zero", "active-deadline-on-pod-template", "job-onfailure-restarts-in-place")


@pytest.mark.parametrize("language,title", [("en", "terminationGracePeriodSeconds is 0"),
                                            ("zh-hans", "terminationGracePeriodSeconds 为 0")])
def test_rules_page_lists_issue_17_rules_in_both_languages(client: Client, language: str, title: str) -> None:
    body = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert all(f'id="{rule}"' in body for rule in RULES_17A)
    assert title in body
    if language == "zh-hans":
        assert "使 Pod 的每次删除都变成强制删除" in body and "turns every deletion" not in body


@pytest.mark.django_db
def test_grace_zero_deletion_note_and_finding_are_translated(client: Client) -> None:
    manifest = ("apiVersion: v1\nkind: Pod\nmetadata: {name: quick}\nspec:\n  terminationGracePeriodSeconds: 0\n"
                "  containers:\n    - name: app\n      image: example/app:1.0\n")
    body = _post(client, manifest, "deleteAt: 5")
    assert "宽限期为 0，因此 API 服务器会像强制删除一样立即移除 Pod 对象" in body
    assert "terminationGracePeriodSeconds 为 0：每次未指定宽限期的删除" in body
    assert "The grace period is 0, so the API server" not in body

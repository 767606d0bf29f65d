"""POST /fix/: the server side of "Apply fix" (the page's script only swaps the editor's text)."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from explainer.explain import explain
from tests.conftest import load_manifest

pytestmark = pytest.mark.django_db

LIVENESS = load_manifest("findings/liveness-without-startup-probe/fires")


def _post(client: Client, manifest: str, rule: str, line: int | str, container: str = "",
          **extra: str) -> tuple[int, dict]:
    data = {"manifest": manifest, "version": "1.34", "scenario": "", "rule": rule, "line": str(line),
            "container": container, **extra}
    response = client.post(reverse("web:fix"), data)
    return response.status_code, response.json()


def _target(text: str, rule: str) -> tuple[int, str]:
    (f,) = [f for r in explain(text, None, "1.34").pods for f in r.findings if f.id == rule]
    return f.line, f.container or ""


def test_the_fix_comes_back_as_the_new_text() -> None:
    client = Client()
    line, container = _target(LIVENESS, "liveness-without-startup-probe")
    status, body = _post(client, LIVENESS, "liveness-without-startup-probe", line, container)
    assert status == 200
    assert "startupProbe:\n            httpGet: {path: /healthz, port: 8080}\n" in body["manifest"]
    assert body["manifest"].startswith(LIVENESS.rstrip("\n"))   # only added at the end here
    assert "liveness-without-startup-probe" not in {f.id for r in explain(body["manifest"]).pods for f in r.findings}


def test_crlf_from_a_browser_form_comes_back_as_lines() -> None:
    line, container = _target(LIVENESS, "liveness-without-startup-probe")
    status, body = _post(Client(), LIVENESS.replace("\n", "\r\n"), "liveness-without-startup-probe", line, container)
    assert status == 200 and "\r" not in body["manifest"]


def test_a_finding_that_needs_a_person_or_is_gone_is_a_conflict() -> None:
    client = Client()
    line, container = _target(LIVENESS, "missing-resources")
    status, body = _post(client, LIVENESS, "missing-resources", line, container)
    assert status == 409 and "does not apply" in body["error"]
    status, _body = _post(client, LIVENESS, "liveness-without-startup-probe", 3, "orders")   # wrong line
    assert status == 409


def test_bad_requests() -> None:
    client = Client()
    assert _post(client, LIVENESS, "", 21)[0] == 400
    assert _post(client, LIVENESS, "liveness-without-startup-probe", "x")[0] == 400
    assert _post(client, "", "liveness-without-startup-probe", 21)[0] == 400
    assert _post(client, LIVENESS, "liveness-without-startup-probe", 21, scenario="- a list")[0] == 400
    assert client.get(reverse("web:fix")).status_code == 405


def test_the_page_offers_apply_fix_only_on_fixable_findings() -> None:
    response = Client().post(reverse("web:index"), {"manifest": LIVENESS, "version": "1.34", "scenario": ""})
    html = response.content.decode()
    assert html.count('class="apply-fix"') == 1
    assert 'data-rule="liveness-without-startup-probe"' in html


# ---- bounded like every write (issue 27) ----------------------------------------------------------------
def test_a_text_over_the_fix_limit_is_refused_naming_its_setting(settings) -> None:
    settings.MAX_FIX_BYTES = 1_000
    line, container = _target(LIVENESS, "liveness-without-startup-probe")
    status, body = _post(Client(), LIVENESS + "#" * 2_000 + "\n", "liveness-without-startup-probe", line, container)
    assert status == 413 and "EXPLAINER_MAX_FIX_BYTES" in body["error"] and "1,000" in body["error"]


def test_fixes_are_rate_limited_per_client(settings) -> None:
    settings.SHARE_RATE_LIMIT = 2
    client = Client()
    line, container = _target(LIVENESS, "liveness-without-startup-probe")
    codes = [_post(client, LIVENESS, "liveness-without-startup-probe", line, container)[0] for _ in range(3)]
    assert codes == [200, 200, 429]
    assert _post(Client(REMOTE_ADDR="10.1.2.3"), LIVENESS, "liveness-without-startup-probe", line, container)[0] == 200


def test_the_explanations_that_prove_a_fix_have_the_request_limits(settings) -> None:
    settings.MAX_CONTAINERS = 3
    indent = LIVENESS.split("      containers:\n", 1)[1][:LIVENESS.split("      containers:\n", 1)[1].index("-")]
    pod = LIVENESS.replace("      containers:\n", "      containers:\n" + "".join(
        f"{indent}- {{name: extra{i}, image: busybox}}\n" for i in range(5)), 1)
    line, container = _target(pod, "liveness-without-startup-probe")   # explained without limits: it is there
    status, _body = _post(Client(), pod, "liveness-without-startup-probe", line, container)
    assert status == 409      # over the container limit: nothing is explained, so nothing is fixed

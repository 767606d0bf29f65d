"""The one share flow (issue 16): every way of storing an input goes through `web/share.py`."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.test import RequestFactory

import explainer
from explainer.web.models import Permalink
from explainer.web.share import share_comparison, share_input
from tests.conftest import load_manifest

pytestmark = pytest.mark.postgres
PACKAGE = Path(explainer.__file__).parent
SECRET_POD = """apiVersion: v1
kind: Pod
metadata: {name: s}
spec:
  containers:
  - name: app
    image: app:1
    env:
    - name: DB_PASSWORD
      value: hunter2hunter2
"""


def _calls(path: Path, names: set[str]) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) in names]


def test_the_credential_scan_and_the_redaction_are_called_from_one_place() -> None:
    callers = {str(p.relative_to(PACKAGE)): lines for p in sorted(PACKAGE.rglob("*.py"))
               if p.parent.name != "redact" and (lines := _calls(p, {"find_secrets", "redact"}))}
    assert set(callers) == {"web/share.py"}, callers
    assert len(callers["web/share.py"]) == 2


def test_every_permalink_is_stored_from_the_share_module() -> None:
    callers = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
               if _calls(p, {"store", "store_compare"}) and p.name != "models.py"}
    # the compare page stores the comparison of the side it has just shared (no second rate-limit step)
    assert callers <= {"web/share.py", "web/compare.py"}, callers
    compare = (PACKAGE / "web" / "compare.py").read_text(encoding="utf-8")
    assert "Permalink.store(" not in compare


@pytest.fixture
def post(rf: RequestFactory):
    return rf.post("/share/", REMOTE_ADDR="192.0.2.7")


@pytest.fixture
def rf() -> RequestFactory:
    return RequestFactory()


@pytest.mark.django_db
def test_share_input_stores_once_and_gives_the_token_only_the_first_time(post) -> None:
    manifest = load_manifest("seeds/init-example")
    first = share_input(post, manifest, None, "1.34", "")
    again = share_input(post, manifest, None, "1.34", "")
    assert first.status == again.status == "stored"
    assert first.link is not None and again.link is not None and first.link.pk == again.link.pk
    assert first.token and again.token is None and not first.redacted


@pytest.mark.django_db
@pytest.mark.parametrize(("decision", "status", "redacted"),
                         [("", "secrets", False), ("maybe", "secrets", False), ("redact", "stored", True),
                          ("keep", "stored", False)])
def test_found_credentials_need_a_decision(post, decision: str, status: str, redacted: bool) -> None:
    outcome = share_input(post, SECRET_POD, None, "1.34", decision)
    assert outcome.status == status and outcome.redacted is redacted
    if status == "secrets":
        assert [h.line for h in outcome.hits] == [10] and outcome.link is None
        assert not Permalink.objects.exists()
    else:
        assert outcome.link is not None
        assert ("hunter2hunter2" in outcome.link.manifest) is not redacted


@pytest.mark.django_db
def test_too_large_is_refused_before_the_rate_limit_counts(post, settings) -> None:
    manifest = load_manifest("seeds/init-example")
    settings.MAX_STORED_BYTES = len(manifest)
    settings.SHARE_RATE_LIMIT = 1
    assert share_input(post, manifest + "#", None, "1.34", "").status == "too_large"
    assert share_input(post, manifest + "#", None, "1.34", "").limit == len(manifest)
    assert share_input(post, manifest, None, "1.34", "").status == "stored"
    assert share_input(post, SECRET_POD, None, "1.34", "keep").status == "rate_limited"


@pytest.mark.django_db
def test_a_comparison_shares_the_budget(post, settings) -> None:
    settings.SHARE_RATE_LIMIT = 1
    left = share_input(post, load_manifest("seeds/init-example"), None, "1.34", "").link
    right, _ = Permalink.store(load_manifest("seeds/web-app-pod"), None, "1.34")
    assert left is not None
    assert share_comparison(post, left, right).status == "rate_limited"



# ---- "Store redacted" stores no credential (issue 27) ------------------------------------------------
@pytest.mark.django_db
def test_a_redacted_link_holds_none_of_the_credentials_found() -> None:
    import json

    from django.test import Client

    from tests.web.redact.test_credentials import CASES, SECRETS
    client = Client()
    asked = client.post("/api/v1/permalinks", json.dumps({"manifest": CASES}), content_type="application/json")
    assert asked.status_code == 409 and len(asked.json()["secrets"]) >= 8
    stored = client.post("/api/v1/permalinks", json.dumps({"manifest": CASES, "secrets": "redact"}),
                         content_type="application/json")
    assert stored.status_code == 201 and stored.json()["redacted"] is True
    text = Permalink.objects.get(pk=stored.json()["id"]).manifest
    assert not [s for s in SECRETS if s in text]
    assert client.get(f"/p/{stored.json()['id']}/").status_code == 200   # and it still explains


@pytest.mark.django_db
def test_a_credential_that_cannot_be_taken_out_is_not_stored() -> None:
    import json

    from django.test import Client
    text = SECRET_POD.replace("hunter2hunter2", "containers")   # also a key of the manifest
    response = Client().post("/api/v1/permalinks", json.dumps({"manifest": text, "secrets": "redact"}),
                             content_type="application/json")
    assert response.status_code == 422 and "could not be taken out safely" in response.json()["error"]
    assert not Permalink.objects.exists()

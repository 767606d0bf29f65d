"""Every rule is complete (docstring, constants, fixtures) and registered once (style.md 3.4)."""
from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

from explainer.findings import BY_ID, RULES, Finding, Severity, catalogue
from explainer.findings.registry import _by_id

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "findings"
RULES_DIR = Path(__file__).resolve().parents[2] / "explainer" / "findings" / "rules"
KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _ids(rule: ModuleType) -> str:
    return rule.ID


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_rule_has_catalogue_docstring(rule: ModuleType) -> None:
    doc = rule.__doc__ or ""
    assert doc.strip(), f"{rule.__name__} needs a module docstring: it is the catalogue text"
    assert "\nFires when:" in doc and "\nQuiet when:" in doc, (
        f"{rule.__name__}'s docstring needs a 'Fires when:' and a 'Quiet when:' line")
    assert "\nFix:" in doc, f"{rule.__name__}'s docstring needs a 'Fix:' paragraph"


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_rule_has_constants(rule: ModuleType) -> None:
    assert KEBAB.match(rule.ID), f"{rule.__name__}: ID {rule.ID!r} must be kebab-case"
    assert rule.__name__.rsplit(".", 1)[-1] == rule.ID.replace("-", "_"), (
        f"{rule.__name__}: the module name must be the ID in snake_case ({rule.ID.replace('-', '_')})")
    assert isinstance(rule.TITLE, str) and rule.TITLE, f"{rule.__name__} needs a TITLE"
    assert isinstance(rule.SEVERITY, Severity), f"{rule.__name__}: SEVERITY must be a Severity"
    assert rule.DOCS_URL.startswith("https://kubernetes.io"), f"{rule.__name__}: DOCS_URL must link kubernetes.io"
    assert all(u.startswith("https://") for u in getattr(rule, "REFERENCES", ())), rule.__name__
    assert isinstance(rule.FIX, str) and rule.FIX.strip(), f"{rule.__name__} needs a FIX YAML snippet"
    assert callable(rule.check), f"{rule.__name__} needs check(ctx)"


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_rule_has_both_fixtures(rule: ModuleType) -> None:
    for name in ("fires.yaml", "quiet.yaml"):
        path = FIXTURES / rule.ID / name
        assert path.is_file(), f"missing fixture tests/fixtures/findings/{rule.ID}/{name}"
        assert path.read_text(encoding="utf-8").startswith("# "), (
            f"{rule.ID}/{name} must start with a comment saying what it shows")


def test_every_rule_module_is_registered() -> None:
    modules = sorted(p.stem for p in RULES_DIR.glob("*.py") if p.stem != "__init__")
    registered = sorted(r.__name__.rsplit(".", 1)[-1] for r in RULES)
    assert modules == registered, "every module in explainer/findings/rules must be listed in registry.RULES"


def test_registry_is_alphabetical_and_unique() -> None:
    names = [r.__name__ for r in RULES]
    assert names == sorted(names), "registry.RULES must be in alphabetical order"
    assert len(BY_ID) == len(RULES)


def test_duplicate_id_is_refused() -> None:
    rule = RULES[0]
    with pytest.raises(ImportError, match="duplicate rule id"):
        _by_id((rule, importlib.import_module(rule.__name__)))


def test_catalogue_lists_every_rule_with_text() -> None:
    entries = catalogue()
    assert [e["id"] for e in entries] == [r.ID for r in RULES]
    for e in entries:
        assert {"id", "severity", "title", "what", "why", "fix", "references"} <= set(e)
        assert e["what"] and e["why"] and e["fix"] and e["fires_when"] and e["quiet_when"], e["id"]
        assert "$" not in e["example"].replace("$(", ""), f"{e['id']}: placeholder left in the example"


def test_finding_to_dict_is_the_public_shape() -> None:
    f = Finding("port-conflict", Severity.ERROR, "app", "spec.containers[1].ports[0].containerPort", 12,
                "Two containers on the same port", "why", "fix: yes\n", ("https://kubernetes.io/x",))
    assert f.to_dict() == {
        "id": "port-conflict", "severity": "error", "container": "app",
        "path": "spec.containers[1].ports[0].containerPort", "line": 12,
        "title": "Two containers on the same port", "explanation": "why", "fix": "fix: yes\n",
        "references": ["https://kubernetes.io/x"],
    }


def test_severities_are_ordered() -> None:
    assert Severity.ERROR.rank < Severity.WARNING.rank < Severity.INFO.rank
    assert Severity.ERROR.at_least(Severity.WARNING) and not Severity.INFO.at_least(Severity.WARNING)

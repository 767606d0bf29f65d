"""Every rule is complete (docstring, constants, fixtures) and registered once (docs/style.md, "A new finding")."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

from explainer.findings import BY_ID, RULES, Finding, Severity, Text, catalogue
from explainer.findings.base import Draft
from explainer.findings.docstring import PARTS, docstring_of, docstring_text, rule_docstring
from explainer.findings.registry import _by_id, complete

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



CATALOGUE_TEXT = {"what": "WHAT", "why": "WHY", "fix": "FIX_TEXT", "fires_when": "FIRES_WHEN",
                  "quiet_when": "QUIET_WHEN"}


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_the_docstring_is_generated_from_the_catalogue_text(rule: ModuleType) -> None:
    """Each rule writes its docstring from WHAT, WHY, FIX_TEXT, FIRES_WHEN and QUIET_WHEN
    (`__doc__ = rule_docstring(...)`), so the two never drift; and reading it back gives the text."""
    assert rule.__doc__ == docstring_of(rule)
    doc = _docstring_text(rule)
    for key, name in CATALOGUE_TEXT.items():
        value = getattr(rule, name, None)
        assert isinstance(value, str) and value, f"{rule.__name__} needs {name}"
        assert " ".join(value.split()) == " ".join(doc[key].split()), f"{rule.__name__}.{name}"


def test_catalogue_goes_through_gettext() -> None:
    def shout(message: str) -> str:
        return message.upper()

    english, shouted = catalogue(), catalogue(shout)
    for e, s in zip(english, shouted):
        for key in ("title", "what", "why", "fix", "fires_when", "quiet_when"):
            assert s[key] == e[key].upper(), (e["id"], key)
        assert (s["id"], s["example"], s["references"]) == (e["id"], e["example"], e["references"])


def _docstring_text(rule: ModuleType) -> dict[str, str]:
    """What, why, fix, fires-when and quiet-when as the rule's docstring words them, one line each."""
    return docstring_text(rule.__doc__ or "")


def test_finding_to_dict_is_the_public_shape() -> None:
    f = Finding("port-conflict", Severity.ERROR, "app", "spec.containers[1].ports[0].containerPort", 12,
                Text("Two containers on the same port"), Text("{a} and {b} collide.", {"a": "web", "b": "app"}),
                "fix: yes\n", ("https://kubernetes.io/x",))
    assert f.to_dict() == {
        "id": "port-conflict", "severity": "error", "container": "app",
        "path": "spec.containers[1].ports[0].containerPort", "line": 12,
        "title": "Two containers on the same port", "explanation": "web and app collide.", "fix": "fix: yes\n",
        "fixable": False, "references": ["https://kubernetes.io/x"],
    }
    assert list(f.to_dict()) == ["id", "severity", "container", "path", "line", "title", "explanation", "fix",
                                 "fixable", "references"]
    zh = {"Two containers on the same port": "两个容器使用同一端口", "{a} and {b} collide.": "{b} 与 {a} 冲突。"}
    assert f.render(lambda m: zh.get(m, m)) == {"title": "两个容器使用同一端口", "explanation": "app 与 web 冲突。"}


def test_severities_are_ordered() -> None:
    assert Severity.ERROR.rank < Severity.WARNING.rank < Severity.INFO.rank
    assert Severity.ERROR.at_least(Severity.WARNING) and not Severity.INFO.at_least(Severity.WARNING)


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_the_docstring_can_be_written_from_the_catalogue_text(rule: ModuleType) -> None:
    """`findings/docstring.py` writes a rule's docstring from WHAT ... QUIET_WHEN: it reads back as
    the same text, and says what the module's own docstring says (so it can replace it)."""
    written = docstring_of(rule)
    catalogue_text = {key: getattr(rule, name) for key, name in PARTS.items()}
    assert docstring_text(written) == catalogue_text
    assert docstring_text(written) == docstring_text(rule.__doc__ or "") == _docstring_text(rule)
    assert all(len(line) <= 96 or " " not in line for line in written.splitlines())


def test_the_written_docstring_has_the_catalogue_layout() -> None:
    doc = rule_docstring("A container runs privileged.", "First why.\n\nSecond why.", "Drop it.",
                         "a container sets privileged.", "none does.")
    assert doc == ("A container runs privileged.\n\nFirst why.\n\nSecond why.\n\nFix: Drop it.\n\n"
                   "Fires when: a container sets privileged.\nQuiet when: none does.\n")


def test_the_base_knows_no_rule() -> None:
    """base.py imports neither the registry nor a rule, at load time or in a function (issue 16)."""
    tree = ast.parse((RULES_DIR.parent / "base.py").read_text(encoding="utf-8"))
    names = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    names += [a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names]
    assert not [n for n in names if "registry" in n or "rules" in n], names


def test_the_registry_adds_the_rules_title_severity_and_references() -> None:
    draft = Draft("privileged-container", "app", "spec.containers[0].securityContext.privileged", 9,
                  Text("app runs privileged."), "fix\n")
    rule = BY_ID["privileged-container"]
    f = complete(draft)
    assert (f.id, f.severity, f.title.render(), f.references) == (
        rule.ID, rule.SEVERITY, rule.TITLE, (rule.DOCS_URL, *rule.REFERENCES))
    assert (f.container, f.path, f.line, f.explanation, f.fix, f.patch) == (
        draft.container, draft.path, draft.line, draft.explanation, draft.fix, ())
    assert complete(Draft(draft.id, None, None, None, draft.explanation, "", Severity.ERROR)).severity is Severity.ERROR


# What the rules share with each other; inputs.py and suppress.py read a Service's or a Pod's document for lines
# and annotations, which is what ``raw`` is for.
_SHARED = ("facts.py", "helpers.py", "scripts.py", "patch.py", "unreachable.py", "drain.py")
MAX_RAW_READS = 0    # issue 24: at most 3; none are left


def _raw_reads(path: Path) -> list[str]:
    """Where ``path`` reads the manifest rather than the model: ``ctx.raw(...)``, ``.raw`` of a Pod, ``raw_at``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr == "raw":
            found.append(f"{path.name}:{node.lineno}: .raw")
        elif isinstance(node, ast.ImportFrom) and any(a.name in ("raw_at", "probe_raw") for a in node.names):
            found.append(f"{path.name}:{node.lineno}: imports raw_at")
    return found


def test_rules_read_the_parsed_model_not_the_manifest() -> None:
    """A rule reads lifecycle/model.py (parse.py and parse_container.py read the manifest, and record what
    was written: ``Probe.written``, ``Container.policy_written``, ``Pod.workload``, ...); ``ctx.raw`` is left
    for what the model does not hold."""
    files = sorted(RULES_DIR.glob("*.py")) + [RULES_DIR.parent / name for name in _SHARED]
    reads = [where for path in files for where in _raw_reads(path)]
    assert len(reads) <= MAX_RAW_READS, (
        "read it from the model (add the fact to lifecycle/model.py, read in lifecycle/parse*.py): " + ", ".join(reads))


def test_the_check_finds_a_raw_read(tmp_path: Path) -> None:
    rule = tmp_path / "rule.py"
    rule.write_text("from explainer.lifecycle.commands.evidence import raw_at\n"
                    "def check(ctx):\n    return ctx.raw('spec.volumes') or ctx.pod.raw\n", encoding="utf-8")
    assert _raw_reads(rule) == ["rule.py:1: imports raw_at", "rule.py:3: .raw", "rule.py:3: .raw"]

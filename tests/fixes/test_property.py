"""The fix property over every fixture and every gallery example: applying a fixable finding's
fix removes that finding, adds no error and no new warning, and leaves every other document of
the file byte-identical."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.explain import explain
from explainer.fixes import FixError, apply_patch, document_spans, error_key, fix_all

from .corpus import ROOT, manifests, settings

MANIFESTS = manifests()


def _fixable(path: Path) -> list[tuple[int, str, object]]:
    text = path.read_text(encoding="utf-8")
    scenario, version = settings(text)
    expl = explain(text, scenario, version)
    return [(r.pod.source.document, r.pod.name, f) for r in expl.pods for f in r.findings if f.fixable]


def _warnings(expl: object) -> list[tuple[int, str, str, str | None]]:
    return sorted((r.pod.source.document, r.pod.name, f.id, f.container or "") for r in expl.pods
                  for f in r.findings if f.severity.value in ("error", "warning"))


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_fix_removes_its_finding_and_nothing_else_gets_worse(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    scenario, version = settings(text)
    before = explain(text, scenario, version)
    spans = None if text.lstrip()[:1] in "{[" or not before.pods else document_spans(text)
    for report in before.pods:
        doc, pod = report.pod.source.document, report.pod.name
        for f in report.findings:
            if not f.fixable:
                continue
            try:
                fixed = apply_patch(text, doc, f.patch)
            except FixError as exc:   # pragma: no cover - the message names the fixture
                pytest.fail(f"{f.id} ({f.container}) in document {doc}: the patch does not apply: {exc}")
            after = explain(fixed, scenario, version)
            where = f"{f.id} ({f.container}) in {path.name} document {doc}"
            same = [x for r in after.pods if (r.pod.source.document, r.pod.name) == (doc, pod)
                    for x in r.findings if (x.id, x.container) == (f.id, f.container)]
            assert not same, f"{where}: the finding is still there after its fix"
            new_errors = {error_key(e) for e in after.errors} - {error_key(e) for e in before.errors}
            assert not new_errors, f"{where}: the fix adds errors {new_errors}"
            new = set(_warnings(after)) - set(_warnings(before))
            assert not new, f"{where}: the fix adds warnings {new}"
            if spans is not None:
                new_spans = document_spans(fixed)
                assert len(new_spans) == len(spans)
                for i, ((a, b), (c, d)) in enumerate(zip(spans, new_spans)):
                    if i != doc:
                        assert text[a:b] == fixed[c:d], f"{where}: document {i} changed"


def test_the_corpus_holds_fixable_findings_of_every_fixable_rule() -> None:
    """The property above is not vacuous: each rule that can fix has a fixture that exercises it."""
    from .test_rules_table import FIXABLE
    seen = {f.id for p in MANIFESTS for _d, _p, f in _fixable(p)}
    assert {rule for rule, fixable, _why in FIXABLE if fixable} <= seen


@pytest.mark.parametrize("name", ["multi_document.yaml", "pod.json"])
def test_fix_all_leaves_nothing_fixable_and_no_error(name: str) -> None:
    path = ROOT / "tests" / "fixtures" / "fixes" / name
    text = path.read_text(encoding="utf-8")
    out = fix_all(text)
    assert out.fixed and not out.failed
    assert out.explanation is not None and out.explanation.ok
    assert not [f for f in out.remaining if f.fixable]
    again = fix_all(out.text)   # idempotent: a second run finds nothing to do
    assert again.text == out.text and not again.fixed


def test_document_by_document_gives_what_the_whole_text_gives() -> None:
    """fix_all fixes each document alone (for speed) where it reads alone as in its file: the
    result is the text the one-fix-at-a-time loop over the whole file gives."""
    from explainer.fixes import _fix_loop
    text = (ROOT / "tests" / "fixtures" / "fixes" / "multi_document.yaml").read_text(encoding="utf-8")
    whole, _expl, fixed, _failed = _fix_loop(text, explain(text), explain, set())
    out = fix_all(text)
    # 5: the file's Service `shop` selects the Deployment, so service-without-prestop-drain adds a preStop too
    assert out.text == whole and len(out.fixed) == len(fixed) == 5


def test_a_scenario_naming_containers_of_other_documents_is_fixed_on_the_whole_text() -> None:
    """The Job's document alone would not know the Deployment's container `shop`: whole text."""
    text = (ROOT / "tests" / "fixtures" / "fixes" / "multi_document.yaml").read_text(encoding="utf-8")
    scenario = {"containers": {"shop": {"startupSeconds": 2}}}
    out = fix_all(text, scenario)
    assert len(out.fixed) == 5 and out.explanation is not None and out.explanation.ok

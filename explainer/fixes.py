"""Apply findings' patches (findings/patch.py) to manifest text: `podlife explain --fix`, "Apply fix".

`patching.py` changes the text (only the document a patch names, comments and formatting kept,
JSON kept JSON); this module decides which fixes to keep.  A fix is kept only when explaining the
result proves it: its finding is gone, and no error and no warning or error finding appears that
was not there before.  `fix_all` applies every fixable finding of a text one at a time (each
later one computed on the text the earlier ones left), so fixes never work from stale positions
and never undo one another.
"""
from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from explainer.explain import Explanation, explain
from explainer.findings import Finding, Severity
from explainer.lifecycle.manifest.yamlload import Limits
from explainer.patching import FixError, apply_patch, document_spans

MAX_ROUNDS = 100   # fixes per text; each round removes one finding, so this is never reached in practice


@dataclass(frozen=True)
class Target:
    """Which finding to fix: its rule, container and line (unique within one text)."""

    rule: str
    container: str | None
    line: int | None

    @classmethod
    def of(cls, f: Finding) -> Target:
        return cls(f.id, f.container, f.line)


@dataclass
class Outcome:
    text: str                                   # the text after every fix that held
    fixed: list[Finding] = field(default_factory=list)      # as found before each was fixed
    failed: list[Finding] = field(default_factory=list)     # fixable, but the fix did not prove out
    remaining: list[Finding] = field(default_factory=list)  # still there: they need a person
    explanation: Explanation | None = None      # of ``text``

    @property
    def changed(self) -> bool:
        return bool(self.fixed)


# --- the whole loop -----------------------------------------------------------------------------

def fix_all(text: str, scenario: Any = None, version: str | None = None, *, limits: Limits = Limits(),
            disabled: frozenset[str] = frozenset()) -> Outcome:
    """Apply every fixable finding of ``text`` that proves out, one at a time.

    Each fix is proved by explaining the text again.  In a file of many documents that would
    cost the whole file per fix, so each document is fixed on its own first (its text behind
    as many blank lines as precede it, so lines stay right), wherever it explains alone exactly
    as it does in the file; what is left (one document, JSON, documents that depend on others)
    is fixed on the whole text."""
    def run(t: str) -> Explanation:
        return explain(t, scenario, version, limits=limits, disabled=disabled)

    expl = run(text)
    out = Outcome(text, explanation=expl)
    tried: set[tuple[int, str, str, str | None]] = set()
    docs = sorted({doc for doc, _pod, f in _findings(expl) if f.fixable}, reverse=True)
    spans = _spans(text) if len(docs) > 1 else None
    for doc in docs if spans else ():   # from the last: earlier documents keep their offsets
        start, end = spans[doc]
        pad = "\n" * text.count("\n", 0, start)
        alone = run(pad + text[start:end])
        if _signature(alone, 0) != _signature(expl, doc):
            continue   # it reads differently without the rest of the file: the whole-text pass
        part, _expl, fixed, failed = _fix_loop(pad + text[start:end], alone, run, tried, doc)
        if fixed and part.startswith(pad):
            text = text[:start] + part[len(pad):] + text[end:]
            out.fixed += fixed
        out.failed += failed
    if out.fixed:
        expl = run(text)
    text, expl, fixed, failed = _fix_loop(text, expl, run, tried)
    out.fixed += fixed
    out.failed += failed
    out.text, out.explanation = text, expl
    out.remaining = [f for _doc, _pod, f in _findings(expl)]
    return out


def _fix_loop(text: str, expl: Explanation, run: Any, tried: set[tuple[int, str, str, str | None]],
              as_doc: int | None = None) -> tuple[str, Explanation, list[Finding], list[Finding]]:
    """Fix ``text``'s fixable findings one at a time; ``as_doc``: it is that document alone."""
    fixed: list[Finding] = []
    failed: list[Finding] = []
    for _ in range(MAX_ROUNDS):
        pick = next(((doc, pod, f) for doc, pod, f in _findings(expl)
                     if f.fixable and _key(as_doc if as_doc is not None else doc, pod, f) not in tried), None)
        if pick is None:
            break
        doc, pod, f = pick
        tried.add(_key(as_doc if as_doc is not None else doc, pod, f))
        new_text, new_expl = _try(text, doc, f, expl, run)
        if new_text is None:
            failed.append(f)
            continue
        text, expl = new_text, new_expl
        fixed.append(f)
    return text, expl, fixed, failed


def _spans(text: str) -> list[tuple[int, int]] | None:
    if text.lstrip()[:1] in ("{", "["):
        return None
    try:
        return document_spans(text)
    except FixError:
        return None


def _signature(expl: Explanation, doc: int) -> tuple[Any, ...]:
    """What one document's explanation says, to compare it read alone and in its file."""
    return (sorted((r.pod.name, f.id, f.container or "", f.line or 0, f.severity.value)
                   for r in expl.pods if r.pod.source.document == doc for f in r.findings),
            sorted(str(error_key(e)[1:]) for e in expl.errors if e.document in (doc, None)))


def fix_one(text: str, target: Target, scenario: Any = None, version: str | None = None, *,
            limits: Limits = Limits()) -> tuple[str | None, Finding | None]:
    """Apply the fix of the one finding ``target`` names: (new text, finding), or (None, the
    finding or None) when there is no such fixable finding or its fix does not prove out."""
    def run(t: str) -> Explanation:
        return explain(t, scenario, version, limits=limits)

    expl = run(text)
    for doc, _pod, f in _findings(expl):
        if Target.of(f) == target and f.fixable:
            new_text, _ = _try(text, doc, f, expl, run)
            return new_text, f
    return None, None


def _findings(expl: Explanation) -> Iterator[tuple[int, str, Finding]]:
    for report in expl.pods:
        for f in report.findings:
            yield report.pod.source.document, report.pod.name, f


def _pod_of(expl: Explanation, f: Finding) -> str:
    return next(r.pod.name for r in expl.pods if any(x is f for x in r.findings))


def _key(doc: int, pod: str, f: Finding) -> tuple[int, str, str, str | None]:
    return doc, pod, f.id, f"{f.container}"


def _try(text: str, doc: int, f: Finding, before: Explanation,
         run: Any) -> tuple[str | None, Explanation | None]:
    try:
        new_text = apply_patch(text, doc, f.patch)
    except FixError:
        return None, None
    after = run(new_text)
    return (new_text, after) if proves_out(before, after, doc, f) else (None, None)


def proves_out(before: Explanation, after: Explanation, doc: int, f: Finding) -> bool:
    """The finding is gone from its Pod, and nothing worse than info appeared anywhere."""
    pod = _pod_of(before, f)
    if any(d == doc and p == pod and x.id == f.id and x.container == f.container for d, p, x in _findings(after)):
        return False
    if Counter(error_key(e) for e in after.errors) - Counter(error_key(e) for e in before.errors):
        return False
    serious = Severity.WARNING
    was = Counter((d, p, x.id, x.container) for d, p, x in _findings(before) if x.severity.at_least(serious))
    now = Counter((d, p, x.id, x.container) for d, p, x in _findings(after) if x.severity.at_least(serious))
    return not (now - was)


def error_key(e: Any) -> tuple[Any, ...]:
    return (e.document, e.pod, e.kind, e.message.render() if hasattr(e.message, "render") else str(e.message))


def unified_diff(path: str, before: str, after: str) -> str:
    """``git apply``-able diff of one file (a/ and b/ prefixes)."""
    name = path[2:] if path.startswith("./") else path
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                 f"a/{name}", f"b/{name}")
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


__all__ = ["FixError", "Outcome", "Target", "apply_patch", "document_spans", "error_key", "fix_all", "fix_one",
           "proves_out", "unified_diff"]

"""The model the code cites is in the repository (issue 16 point 1).

Every "§N" in the code, the templates and the tests names a heading of docs/lifecycle-model.md; a bare "§N"
is allowed only in a module whose docstring names that document, anywhere else it is written
"lifecycle-model.md §N". Nothing cites the semantics notes outside the repository. The document's numbering is
one sequence (1, 2, 3 …; 6.1, 6.2 … under 6), its gate table (§3.1) is the one in versions.py, and each feature
of the rules page points at the section of that name.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from explainer.lifecycle import defaults as d
from explainer.lifecycle.admission.features import FEATURES
from explainer.lifecycle.admission.versions import GATES, gate_enabled, gate_stage

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "lifecycle-model.md"
SCANNED = ("explainer", "tests", "templates", "static")
SUFFIXES = {".py", ".html", ".js", ".css", ".txt", ".md", ".yaml", ".yml", ".po"}
DOC_NAME = "lifecycle-model.md"

_HEADING = re.compile(r"^(#{2,6}) (\d+(?:\.\d+)*)\.? +(.+)$", re.M)
_SECTION = r"\d+(?:\.\d+)*"
_CITATION = re.compile(rf"§ ?({_SECTION})(?: ?[-–] ?({_SECTION}))?")
# "§15.6, 7, 13": the numbers after the first are not checkable; write each with its own §.
_LIST = re.compile(rf"§ ?{_SECTION}(?: ?[-–] ?{_SECTION})?, \d")
_OUTSIDE = re.compile(r"lifecycle-semantics|shared/docs")


def headings(text: str) -> dict[str, str]:
    """Section number -> heading text, for every numbered heading of the document."""
    return {m.group(2): m.group(3).strip() for m in _HEADING.finditer(text)}


def citation_problems(text: str, known: dict[str, str], *, docstring: str | None) -> list[str]:
    """What is wrong with the § citations of one file's ``text``; empty when every one names a heading."""
    problems = []
    if _OUTSIDE.search(text):
        problems.append("cites the semantics notes outside the repository; cite docs/lifecycle-model.md")
    bare_ok = docstring is not None and DOC_NAME in docstring
    for m in _CITATION.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        for number in filter(None, m.groups()):
            if number not in known:
                problems.append(f"line {line}: §{number} is no heading of docs/lifecycle-model.md")
        explicit = text[max(0, m.start() - len(DOC_NAME) - 1):m.start()].rstrip().endswith(DOC_NAME)
        if not explicit and not bare_ok:
            problems.append(f"line {line}: §{m.group(1)} without the document; write 'docs/lifecycle-model.md "
                            f"§{m.group(1)}' or name the document in the module docstring")
    for m in _LIST.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        problems.append(f"line {line}: {m.group(0)!r}: give each section its own §")
    return problems


def _docstring(path: Path, text: str) -> str | None:
    if path.suffix != ".py":
        return None
    return ast.get_docstring(ast.parse(text, str(path)))


def _scanned_files() -> list[Path]:
    files = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and path != Path(__file__).resolve() \
                    and "golden" not in path.relative_to(ROOT).parts:
                files.append(path)
    return files


def test_every_cited_section_names_a_heading_of_the_model_document() -> None:
    known = headings(DOC.read_text(encoding="utf-8"))
    problems, cited = [], 0
    for path in _scanned_files():
        text = path.read_text(encoding="utf-8")
        if "§" not in text and not _OUTSIDE.search(text):
            continue
        cited += len(_CITATION.findall(text))
        problems += [f"{path.relative_to(ROOT)}: {p}" for p in citation_problems(text, known,
                                                                                  docstring=_docstring(path, text))]
    assert not problems, "\n".join(problems)
    assert cited > 40     # the scan finds the citations (the code has about 60)


@pytest.mark.parametrize(("text", "docstring", "expected"), [
    ("x = 1  # docs/lifecycle-model.md §6.1", None, []),
    ("x = 1  # §6.2-6.3", "Sections (§) refer to docs/lifecycle-model.md.", []),
    ("x = 1  # docs/lifecycle-model.md §99", None, ["line 1: §99 is no heading of docs/lifecycle-model.md"]),
    ("x = 1  # lifecycle-model.md §6.2-6.9", None, ["line 1: §6.9 is no heading of docs/lifecycle-model.md"]),
    ("\n# §6.1", "no document named", ["line 2: §6.1 without the document; write 'docs/lifecycle-model.md §6.1' "
                                       "or name the document in the module docstring"]),
    ("# docs/lifecycle-model.md §6.1, 6.2", None, ["line 1: '§6.1, 6': give each section its own §"]),
    ("# lifecycle-semantics.md", None, ["cites the semantics notes outside the repository; cite "
                                        "docs/lifecycle-model.md"]),
])
def test_the_citation_check_reports_what_is_wrong(text: str, docstring: str | None, expected: list[str]) -> None:
    known = {"6": "Start-up", "6.1": "The sandbox", "6.2": "Plain init containers", "6.3": "Sidecars"}
    assert citation_problems(text, known, docstring=docstring) == expected


def test_the_document_is_numbered_in_one_sequence() -> None:
    """1, 2, 3 … at the top; N.1, N.2 … under N; every heading below the title is numbered."""
    text = DOC.read_text(encoding="utf-8")
    unnumbered = [line for line in text.splitlines()
                  if re.match(r"#{2,6} ", line) and not _HEADING.match(line)]
    assert not unnumbered
    expected_next: dict[str, int] = {"": 1}
    for m in _HEADING.finditer(text):
        hashes, number = m.group(1), m.group(2)
        parts = number.split(".")
        assert len(parts) == len(hashes) - 1, f"§{number} is at the wrong heading level"
        parent = ".".join(parts[:-1])
        assert expected_next.get(parent) == int(parts[-1]), f"§{number} is out of sequence"
        expected_next[parent] = int(parts[-1]) + 1
        expected_next[number] = 1


def _gate_cell(gate: str, version: str) -> str:
    stage = gate_stage(gate, version)
    if stage is None:
        return "–"
    if stage == "GA":
        return "GA"
    return {"alpha": "α", "beta": "β"}[stage] + (" on" if gate_enabled(gate, version) else " off")


def test_the_gate_table_of_the_document_is_the_models() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### 3.1 "):text.index("### 3.2 ")]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("|")]
    header, body = rows[0], rows[2:]
    assert header == ["Feature gate", *d.SUPPORTED_VERSIONS]
    table = {row[0]: row[1:] for row in body}
    assert set(table) == set(GATES)
    for gate, cells in table.items():
        assert cells == [_gate_cell(gate, v) for v in d.SUPPORTED_VERSIONS], gate


def test_each_feature_of_the_rules_page_points_at_its_section() -> None:
    known = headings(DOC.read_text(encoding="utf-8"))
    for feature in FEATURES:
        number = feature.section.removeprefix("§")
        assert number in known, feature.slug
        assert known[number].startswith(feature.title), (feature.slug, known[number])


_CODE_SPAN = re.compile(r"`([^`\s]+)`")
_OURS = ("explainer/", "tests/", "benchmarks/", "templates/", "static/", "docs/", "locale/")


def _missing_paths(doc: Path) -> list[str]:
    """Project paths a document names in code spans (`explainer/...`, `startup.py`) that do not exist."""
    names = {p.name for top in ("explainer", "tests", "benchmarks") for p in (ROOT / top).rglob("*.py")}
    missing = []
    for token in _CODE_SPAN.findall(doc.read_text(encoding="utf-8")):
        token = token.rstrip(".,;:)").split("::")[0]
        if "<" in token or "*" in token or token.startswith("--"):
            continue      # a pattern (test_<module>.py, timeline*.py), not a file
        if token.startswith(_OURS):
            if not (ROOT / token).exists():
                missing.append(token)
        elif token.endswith(".py") and "/" not in token and token not in names:
            missing.append(token)
        elif token.endswith(".py") and "/" in token and not token.startswith("pkg/") \
                and not any((ROOT / top / token).exists() for top in ("", "explainer", "explainer/lifecycle")):
            missing.append(token)
    return missing


@pytest.mark.parametrize("name", ["lifecycle-model.md", "style.md"])
def test_the_files_the_docs_name_exist(name: str) -> None:
    assert not _missing_paths(ROOT / "docs" / name)

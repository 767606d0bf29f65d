"""Issue 24's house check: the figures of its "Done when", as they hold now and after tools/relayout.py moves
modules into packages (paths are found, not spelled, so the check survives the move)."""
from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.findings.test_registry import RULES_DIR, _raw_reads

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "explainer"
TESTS = ROOT / "tests"
RELAYOUT = "until tools/relayout.py runs (branch i-relayout)"
# the opening of an HTML element, or its end, in the literal text of an f-string
TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(?=[\s>/]|$)")
QUANTITY_PARSERS = {"parse_quantity", "memory_bytes", "parse_memory", "cpu_millis", "parse_cpu"}


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "migrations" not in p.parts)


def html_fstrings(path: Path) -> list[int]:
    """The lines of the f-strings of ``path`` whose literal text holds an HTML tag (one f-string written
    over several lines, implicitly concatenated, counts once)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
            if TAG.search(text):
                found.append(node.lineno)
    return found


def test_the_html_fstring_count_sees_what_it_should(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('a, b = 1, 2\nx = f"<td>{a}</td>"\ny = (f"<tr>{a}"\n     f"{b}</tr>")\nz = f"a < {b}"\n'
                      'w = "<p>" + str(a)\nv = f"{a}<br/>"\n', encoding="utf-8")
    assert html_fstrings(module) == [2, 3, 7]


def test_at_most_three_html_fstrings_in_the_web_layer() -> None:
    found = [f"{p.relative_to(ROOT)}:{line}" for p in _modules(PACKAGE / "web") for line in html_fstrings(p)]
    assert len(found) <= 3, f"{len(found)} HTML f-strings (put the markup in templates/): " + ", ".join(found)


def test_rules_read_the_manifest_at_most_three_times() -> None:
    files = sorted(RULES_DIR.glob("*.py"))
    reads = [where for path in files for where in _raw_reads(path)]
    assert len(reads) <= 3, ", ".join(reads)


def test_one_quantity_parser() -> None:
    """One Kubernetes quantity parser (apimachinery's resource.ParseQuantity, lifecycle's quantity module)."""
    defined = [f"{p.relative_to(ROOT)}:{node.lineno} {node.name}" for p in _modules(PACKAGE)
               for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
               if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in QUANTITY_PARSERS]
    assert len(defined) == 1 and defined[0].endswith(" parse_quantity"), defined
    # and no other module keeps a table of the binary suffixes to read a quantity with
    tables = [p.relative_to(ROOT) for p in _modules(PACKAGE) if re.search(r"[\"']Ki[\"']\s*:", p.read_text("utf-8"))]
    assert [t.name for t in tables] == ["quantity.py"], tables


def test_the_cache_keys_name_the_release() -> None:
    """Fragments and pickled page views of one release are never read by another: the cache's key prefix
    carries the package's version and a digest of the code, templates and translations."""
    from importlib.metadata import PackageNotFoundError, version

    from django.conf import settings

    from explainer import settings as project

    try:
        package = version("pod-lifecycle-explainer")
    except PackageNotFoundError:
        package = "0+checkout"
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    assert prefix == f"explainer:{package}:{project.release_id()}" == project.CACHE_KEY_PREFIX
    assert re.fullmatch(r"[0-9a-f]{16}", project.release_id())


def test_no_test_is_named_after_an_issue() -> None:
    assert not sorted(TESTS.rglob("test_issue*")), "name a test module after what it tests"


COPIED = re.compile(r"^# (source|licen[cs]e):|\(licen[cs]e |copyright \d{4}", re.I | re.M)


def _copied() -> list[Path]:
    """Fixtures whose header says they are a public file's text: a ``# source:`` line, a licence or a copyright."""
    return [p.relative_to(ROOT) for p in sorted((TESTS / "fixtures").rglob("*")) if p.is_file()
            and p.suffix in (".txt", ".yaml", ".yml", ".json")
            and COPIED.search("\n".join(p.read_text("utf-8", errors="replace").split("\n")[:8]))]


def test_no_copied_public_text_under_tests() -> None:
    """Fixtures written after public pages and manifests name them with ``# after: URL`` (the text is ours,
    so no licence line); a ``# source:`` header with a licence marked a copy."""
    assert not _copied(), _copied()


def _prefixed_families() -> list[str]:
    families = []
    for folder in sorted({p.parent for p in _modules(PACKAGE)}):
        if folder == RULES_DIR:     # one module per rule id: kube-linter's convention
            continue
        prefixes = Counter(p.stem.split("_", 1)[0] for p in folder.glob("*.py") if "_" in p.stem.strip("_"))
        families += [f"{folder.relative_to(ROOT)}/{prefix}_*" for prefix, n in prefixes.items() if n >= 3]
    return families


def test_no_folder_has_three_modules_of_one_prefix() -> None:
    assert not _prefixed_families(), "make a package of them: " + ", ".join(_prefixed_families())


def test_at_most_twenty_modules_directly_in_lifecycle() -> None:
    direct = [p.name for p in (PACKAGE / "lifecycle").glob("*.py") if p.name != "__init__.py"]
    assert len(direct) <= 20, f"{len(direct)} modules directly in lifecycle/"

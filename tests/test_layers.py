"""Enforce the dependency direction in docs/style.md by reading imports with ast.

lifecycle <- schema <- findings <- render <- explain.py <- web (<- settings/urls)

`schema` (strict OpenAPI validation per Kubernetes version) sits beside the core: pure
Python like it, with jsonschema as its one extra dependency.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "explainer"

# layer -> (project packages it may import, third-party top-level modules it may import)
LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "lifecycle": (("explainer.lifecycle",), ("yaml",)),
    "schema": (("explainer.lifecycle", "explainer.schema"), ("jsonschema", "referencing", "kubernetes_validate")),
    "findings": (("explainer.lifecycle", "explainer.findings"), ()),
    "render": (("explainer.lifecycle", "explainer.findings", "explainer.render", "explainer.explain",
                "explainer.comparison"), ("graphviz",)),
    "explain.py": (("explainer.lifecycle", "explainer.schema", "explainer.findings"), ()),
    # The diff of two explanations: analysis on the pipeline's result, beside it (issue 16).
    "comparison": (("explainer.lifecycle", "explainer.findings", "explainer.explain", "explainer.comparison"), ()),
    # Fixes apply beside the pipeline: they explain the text they change to prove each fix.
    "fixes.py": (("explainer.lifecycle", "explainer.findings", "explainer.explain", "explainer.fixes",
                  "explainer.patching", "explainer.patching_prune"),
                 ("yaml", "ruamel")),
    # The command line starts in the core: no Django, so it starts fast (issue 14).
    "patching.py": (("explainer.lifecycle", "explainer.findings", "explainer.patching", "explainer.patching_prune"),
                    ("yaml", "ruamel")),
    # What a patch does not reach is cut out before the round trip (issue 27).
    "patching_prune.py": (("explainer.lifecycle", "explainer.findings", "explainer.patching_prune"), ()),
    "cli/run.py": (("explainer.lifecycle", "explainer.findings", "explainer.render", "explainer.explain",
                    "explainer.cli.run", "explainer.cli.files", "explainer.cli.fix", "explainer.cli.read"), ()),
    "cli/files.py": (("explainer.lifecycle", "explainer.explain", "explainer.render.style", "explainer.cli.files",
                      "explainer.cli.read"), ()),
    "cli/fix.py": (("explainer.lifecycle", "explainer.findings", "explainer.explain", "explainer.fixes",
                    "explainer.cli.files", "explainer.cli.fix", "explainer.cli.read"), ()),
    "cli/config.py": (("explainer.lifecycle", "explainer.findings", "explainer.cli.config", "explainer.cli.read"), ()),
    # Reading (regular files only, bounded) and --fix's writing back: the standard library only (issue 27).
    "cli/read.py": (("explainer.cli.read",), ()),
    "cli/main.py": (("explainer.lifecycle", "explainer.cli.run", "explainer.cli.config", "explainer.render.style",
                     "explainer.cli.main"), ()),
}
# Project files to the right of web in the arrow; they may refer to it.
WEB_USERS = {"settings.py", "urls.py", "wsgi.py"}


def _files(layer: str) -> list[Path]:
    path = PACKAGE / layer
    return [path] if path.is_file() else sorted(path.rglob("*.py"))


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in the file, relative ones resolved."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            name = ".".join(part for part in (base, node.module) if part)
            # `from explainer import web` imports explainer.web: check the names too.
            found += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
    return found


def _allowed(name: str, project: tuple[str, ...], third_party: tuple[str, ...]) -> bool:
    top = name.split(".")[0]
    if top == "explainer":
        return any(name == p or name.startswith(p + ".") for p in project)
    return top in sys.stdlib_module_names or top in third_party


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(PACKAGE.parent)}:{line}"


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_imports_only_what_is_to_its_left(layer: str) -> None:
    project, third_party = LAYERS[layer]
    bad = [
        f"{_where(path, line)} imports {name}"
        for path in _files(layer)
        for line, name in _imports(path)
        if not _allowed(name, project, third_party)
    ]
    assert not bad, (
        f"explainer/{layer} may import only the stdlib, {', '.join(third_party) or 'no third-party'} "
        f"and {', '.join(project)} (docs/style.md; never django):\n  " + "\n  ".join(bad)
    )


def test_nothing_outside_web_imports_web() -> None:
    bad = [
        f"{_where(path, line)} imports {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] != "web" and path.relative_to(PACKAGE).as_posix() not in WEB_USERS
        for line, name in _imports(path)
        if name == "explainer.web" or name.startswith("explainer.web.")
    ]
    assert not bad, "only explainer/web may import explainer.web (docs/style.md):\n  " + "\n  ".join(bad)


def test_every_layer_names_files_that_exist() -> None:
    """A layer whose name matches no file or folder checks nothing (``comparison.py`` once stood for the
    ``comparison/`` package, and its imports went unchecked)."""
    assert [layer for layer in LAYERS if not _files(layer)] == []

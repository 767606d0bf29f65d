"""The shape of the package for the next person (issue 16): no module over 400 lines, and no
import cycle between its modules, function-level imports included."""
from __future__ import annotations

from pathlib import Path

from tests.test_layers import PACKAGE, _imports

MAX_LINES = 400
TOO_LONG_FOR_NOW: set[str] = set()   # none left: a module over the limit is split by what each part does


def _modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of the package (a package is its __init__.py)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def test_no_module_is_over_400_lines() -> None:
    long = {str(path.relative_to(PACKAGE)): n for path in _modules().values()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert set(long) <= TOO_LONG_FOR_NOW, (
        f"over {MAX_LINES} lines (split by what each part does; docs/style.md): "
        f"{ {k: v for k, v in long.items() if k not in TOO_LONG_FOR_NOW} }")


def _graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports anywhere in its text; ``from a import b`` counts
    as importing ``a.b`` when that is a module, else ``a``."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for _line, imported in _imports(path):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                edges.add(imported)
        graph[name] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_the_package_has_no_import_cycle() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []

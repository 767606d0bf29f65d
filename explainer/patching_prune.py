"""Linear patching (issue 27): only what a patch touches goes through ruamel.yaml and the line merge.

ruamel's round trip and the line-by-line merge (`patching._merge`) cost far more than linear time in
the size of a document: a 314 KB manifest took 10 s, a 1 MB one 81 s.  A patch knows its paths, so
before the round trip every block the patch does not reach is cut out of the document's text and a
one-line placeholder stands in its place (``__podlife_kept_7__: 0`` for a mapping's content,
``- __podlife_kept_7__`` for a list item or a list, ``__podlife_kept_7__`` for the lines of a block
scalar); keys and list positions stay, so every path of the patch still names what it named.  After
the round trip and the merge, each placeholder gets its original lines back, shifted by as many columns
as the placeholder moved (a container moved to ``initContainers`` takes its env along, re-indented).

What is kept whole: the mappings on the way to each edited path (their keys, for ``after`` and for
emptiness), a list whose items an edit removes or moves (their keys: positions shift), and every node a
``CopyOf`` copies.  Flow collections are never cut into.
"""
from __future__ import annotations

import re
from typing import Any

from explainer.findings.patch import CopyOf, Edit, MoveItem, Remove, SetKey
from explainer.lifecycle.manifest.yamlload import LList, LMap, Limits, load_documents

Path = tuple[Any, ...]
MIN_PRUNED_LINES = 3          # a block of fewer lines is left as it is
_TOKEN = re.compile(r"__podlife_kept_(\d+)__")


class PruneError(Exception):
    """The document's lines do not allow a safe cut (an odd layout): the caller patches it whole."""


def _copies(value: Any, out: list[Path]) -> None:
    if isinstance(value, CopyOf):
        out.append(tuple(value.path))
        value = value.value
    if isinstance(value, dict):
        for v in value.values():
            _copies(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _copies(v, out)


def needs(edits: tuple[Edit, ...]) -> tuple[set[Path], set[Path], set[Path]]:
    """(visible, whole, lists): paths whose own keys must stay, paths kept whole, and lists whose
    every item must keep its keys (an edit removes or moves one of them, so the others shift)."""
    visible: set[Path] = {()}
    whole: set[Path] = set()
    lists: set[Path] = set()
    copies: list[Path] = []

    def up_to(path: Path) -> None:
        for i in range(len(path) + 1):
            visible.add(tuple(path[:i]))

    for edit in edits:
        if isinstance(edit, SetKey):
            up_to(edit.path)
            _copies(edit.value, copies)
        elif isinstance(edit, Remove):
            up_to(edit.path)
            if isinstance(edit.path[-1], int):
                lists.add(tuple(edit.path[:-1]))
        elif isinstance(edit, MoveItem):
            up_to(edit.path)
            up_to(edit.to)
            lists.update({tuple(edit.path[:-1]), tuple(edit.to)})
            for _key, value in edit.set:
                _copies(value, copies)
    for path in copies:
        up_to(path)
        whole.add(path)
    return visible, whole, lists


def prune(body: str, edits: tuple[Edit, ...], limits: Limits) -> tuple[str, dict[int, tuple[int, list[str]]]]:
    """``body`` (one YAML document) with every block the edits do not reach replaced by a placeholder,
    and the placeholders: number -> (the placeholder line's indentation, the lines it stands for)."""
    docs = load_documents(body, limits)
    if len(docs) != 1 or not isinstance(docs[0].data, (LMap, LList)):
        raise PruneError("not one block document")
    lines = body.split("\n")
    visible, whole, lists = needs(edits)
    cuts: list[tuple[int, int, str]] = []           # (first line, end line, placeholder), 0-based, end exclusive
    _node(docs[0].data, (), 0, len(lines), lines, visible, whole, lists, cuts)
    kept: dict[int, tuple[int, list[str]]] = {}
    out: list[str] = []
    at = 0
    for n, (first, end, placeholder) in enumerate(sorted(cuts)):
        if first < at:
            raise PruneError("overlapping cuts")
        indent = len(placeholder) - len(placeholder.lstrip(" "))
        out += lines[at:first] + [placeholder.format(n=n)]
        kept[n] = (indent, lines[first:end])
        at = end
    out += lines[at:]
    return "\n".join(out), kept


def restore(text: str, kept: dict[int, tuple[int, list[str]]]) -> str:
    """Each placeholder of ``text`` back to its lines, shifted as far as the placeholder moved."""
    out: list[str] = []
    seen: set[int] = set()
    for line in text.split("\n"):
        m = _TOKEN.search(line)
        if m is None:
            out.append(line)
            continue
        n = int(m.group(1))
        if n not in kept or n in seen or _TOKEN.search(line, m.end()):
            raise PruneError("a placeholder was copied or merged into another line")
        seen.add(n)
        indent, original = kept[n]
        shift = (len(line) - len(line.lstrip(" "))) - indent
        out += [_shifted(ln, shift) for ln in original]
    return "\n".join(out)


def _shifted(line: str, shift: int) -> str:
    if shift >= 0 or not line.strip():
        return (" " * shift + line) if line.strip() else line
    if len(line) - len(line.lstrip(" ")) < -shift:
        raise PruneError("a moved block cannot be indented less")
    return line[-shift:]


def _is_flow(node: Any, lines: list[str]) -> bool:
    line, col = node.line, node.column
    if not line or not col or line > len(lines):
        return True
    return lines[line - 1][col - 1:col] in ("{", "[")


def _node(node: Any, path: Path, first: int, end: int, lines: list[str], visible: set[Path], whole: set[Path],
          lists: set[Path], cuts: list[tuple[int, int, str]]) -> None:
    """Walk a visible block collection whose lines are ``[first, end)``: cut what the edits do not reach."""
    if path in whole or _is_flow(node, lines):
        return
    if isinstance(node, LMap):
        keys = list(node)
        starts = [node.pos[k][0] - 1 for k in keys]
        for i, key in enumerate(keys):
            entry_end = starts[i + 1] if i + 1 < len(keys) else end
            _child(node[key], (*path, key), starts[i], entry_end, lines, visible, whole, lists, cuts)
    elif isinstance(node, LList):
        starts = [line - 1 for line, _col in node.pos]
        for i, item in enumerate(node):
            item_end = starts[i + 1] if i + 1 < len(node) else end
            sub = (*path, i)
            if sub in visible or sub in whole or path in lists:
                if isinstance(item, (LMap, LList)) and sub not in whole:   # its keys stay; its blocks may go
                    _node(item, sub, starts[i], item_end, lines, visible, whole, lists, cuts)
                continue
            last = _last_content(lines, starts[i], item_end)
            dash = lines[starts[i]]
            if last - starts[i] >= MIN_PRUNED_LINES and dash.lstrip().startswith("- ") and \
                    not dash.lstrip()[2:].lstrip().startswith(("- ", "|", ">")):
                cuts.append((starts[i], last, " " * (len(dash) - len(dash.lstrip())) + "- __podlife_kept_{n}__"))


def _child(value: Any, path: Path, key_line: int, end: int, lines: list[str], visible: set[Path],
           whole: set[Path], lists: set[Path], cuts: list[tuple[int, int, str]]) -> None:
    """The value of one mapping entry whose key stands on ``key_line`` and whose lines end before ``end``."""
    if path in whole:
        return
    if isinstance(value, (LMap, LList)):
        if _is_flow(value, lines) or value.line is None or value.line - 1 <= key_line:
            return                                    # flow, or on the key's own line: left as it is
        if path in visible:
            _node(value, path, value.line - 1, end, lines, visible, whole, lists, cuts)
            return
        start = value.line - 1
        last = _last_content(lines, start, end)
        if last - start < MIN_PRUNED_LINES:
            return
        if isinstance(value, LList):
            dash = lines[start]
            if not dash.lstrip().startswith("- "):
                return
            placeholder = " " * (len(dash) - len(dash.lstrip())) + "- __podlife_kept_{n}__"
        else:
            placeholder = " " * (value.column - 1) + "__podlife_kept_{n}__: 0"
        cuts.append((start, last, placeholder))
    elif isinstance(value, str) and path not in visible and re.search(r":[ \t]*[|>][-+0-9]*[ \t]*(#.*)?$",
                                                                      lines[key_line]):
        start, last = key_line + 1, _last_content(lines, key_line + 1, end)   # a block scalar's lines
        if last - start >= MIN_PRUNED_LINES:
            first = lines[start]
            cuts.append((start, last, " " * (len(first) - len(first.lstrip())) + "__podlife_kept_{n}__"))


def _last_content(lines: list[str], start: int, end: int) -> int:
    """The end (exclusive) of ``[start, end)`` without its trailing blank and comment-only lines (they may
    belong to what follows, and stay where they are)."""
    while end > start and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end

"""Apply one finding's patch (findings/patch.py) to manifest text: the document it names, and only it.

That document's text is spliced out of the file, changed with ruamel.yaml's round-trip loader and
dumper (comments, key order, quotes kept), and put back; every other document stays
byte-identical.  Lines ruamel would re-render without a change (a long line folded, a quote style)
are kept as written: the changed document is merged line by line from the original, ruamel's
rendering of the unchanged document and its rendering of the changed one.  JSON stays JSON.
Which fixes to keep is `fixes.py`'s decision.
"""
from __future__ import annotations

import copy
import difflib
import io
import json
import re
from typing import Any

import yaml

from explainer.findings.patch import CopyOf, Edit, MoveItem, Remove, SetKey
from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.manifest.yamlload import Limits
from explainer.patching_prune import PruneError, prune, restore

# The line merge compares every line with every other one where they repeat (difflib): above this many
# lines (a JSON file re-indented by json.dumps, a document with thousands of list items) the changed
# document is taken as ruamel or json.dumps writes it.  Pruned documents stay far below it.
MERGE_MAX_LINES = 3000


class FixError(Exception):
    """A patch that cannot be applied to this text (the document changed shape, odd YAML)."""


# --- applying one patch -------------------------------------------------------------------------

def apply_patch(text: str, document: int, edits: tuple[Edit, ...]) -> str:
    """``text`` with ``edits`` applied to its document ``document`` (0-based); FixError if they
    do not fit.  Every other document of the text is kept byte for byte."""
    if not edits:
        raise FixError("nothing to apply")
    if text.lstrip()[:1] in ("{", "["):
        if document != 0:
            raise FixError("a JSON text holds one document")
        return _apply_json(text, edits)
    spans = document_spans(text)
    if document >= len(spans):
        raise FixError(f"no document {document}")
    start, end = spans[document]
    return text[:start] + _apply_yaml_document(text[start:end], edits) + text[end:]


def document_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) character offsets of each YAML document, in the loader's order: from the
    line of its start (its `---`, or its first node) to the start of the next one."""
    starts: list[int] = []
    try:
        for ev in yaml.parse(text, Loader=yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader):
            if isinstance(ev, yaml.DocumentStartEvent):
                index = ev.start_mark.index
                starts.append(text.rfind("\n", 0, index) + 1)   # the start of its line
    except yaml.YAMLError as exc:
        raise FixError(f"not YAML: {exc}") from None
    if not starts:
        return []
    starts[0] = 0   # comments before the first document belong to it
    return list(zip(starts, starts[1:] + [len(text)]))


_MARKER = re.compile(r"(?:---[ \t]*(?:#[^\n]*)?\n|%[^\n]*\n|[ \t]*(?:#[^\n]*)?\n)*---[ \t]*(?:#[^\n]*)?(?:\n|$)")


def _apply_yaml_document(chunk: str, edits: tuple[Edit, ...]) -> str:
    """One document's text (with its own `---` line, if any, and the comments that follow it)."""
    m = _MARKER.match(chunk)
    head, body = (chunk[: m.end()], chunk[m.end():]) if m else ("", chunk)
    trailing_newline = body.endswith("\n")
    if _shares_nodes(body):
        raise FixError("the document shares nodes through anchors and aliases: a change to one would "
                       "change the others too")
    try:   # only what the edits reach goes through ruamel and the merge (patching_prune.py, issue 27)
        text, kept = prune(body, edits, PRUNE_LIMITS)
    except (PruneError, ManifestError):
        text, kept = body, {}
    merged = _round_trip(_round_tripper(text), text, edits)   # indented as the lines around the change are
    if kept:
        try:
            merged = restore(merged, kept)
        except PruneError as exc:
            raise FixError(f"the change could not be put back into the document: {exc}") from None
    if trailing_newline and not merged.endswith("\n"):
        merged += "\n"
    return head + merged


PRUNE_LIMITS = Limits(max_bytes=1 << 30)   # the text was explained (and its size checked) before it is fixed


def _round_trip(rt: Any, body: str, edits: tuple[Edit, ...]) -> str:
    """``body`` with ``edits`` applied by ruamel, merged line by line into ``body``."""
    try:
        data = rt.load(body)
    except Exception as exc:   # ruamel raises many kinds; any of them means "not for us"
        raise FixError(f"ruamel.yaml cannot read the document: {exc}") from None
    try:
        unchanged = _dump(rt, data)
        for edit in edits:
            _apply(data, edit)
        changed = _dump(rt, data)
    except FixError:
        raise
    except Exception as exc:   # a representer or emitter error: not for an automatic fix
        raise FixError(f"ruamel.yaml cannot write the document: {exc}") from None
    return _merge(body, unchanged, changed)


def _shares_nodes(body: str) -> bool:
    """Whether the document uses an anchor (``&name``, then ``*name`` or ``<<: *name``)."""
    loader = yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader
    try:
        return any(isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None)
                   for ev in yaml.parse(body, Loader=loader))
    except yaml.YAMLError:
        return True


def _round_tripper(body: str) -> Any:
    from ruamel.yaml import YAML
    rt = YAML(typ="rt")
    rt.preserve_quotes = True
    rt.width = 1 << 16          # never fold a long line the person wrote on one
    mapping, sequence, offset = _guess_indent(body)
    rt.indent(mapping=mapping, sequence=sequence, offset=offset)
    return rt


def _guess_indent(body: str) -> tuple[int, int, int]:
    """(mapping indent, sequence indent, dash offset) as the document itself writes them, for
    the lines ruamel writes new (``key:`` then a deeper ``key:``, ``key:`` then ``- item``)."""
    mapping = offset = None
    lines = [ln for ln in body.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    for prev, line in zip(lines, lines[1:]):
        if not prev.rstrip().endswith(":") or prev.lstrip().startswith("- "):
            continue
        pi, li = len(prev) - len(prev.lstrip()), len(line) - len(line.lstrip())
        if li <= pi and not (li == pi and line.lstrip().startswith("- ")):
            continue
        if line.lstrip().startswith("- "):
            offset = li - pi if offset is None else offset
        elif mapping is None:
            mapping = li - pi
        if mapping is not None and offset is not None:
            break
    mapping = mapping or 2
    offset = max(mapping - 2, 0) if offset is None else offset
    return mapping, offset + 2, offset


def _dump(rt: Any, data: Any) -> str:
    buf = io.StringIO()
    rt.dump(data, buf)
    return buf.getvalue()


def _merge(original: str, unchanged: str, changed: str) -> str:
    """Carry the change from ruamel's ``unchanged`` rendering to its ``changed`` one over to the
    ``original`` text, keeping every original line the change does not touch.

    New lines are written at ruamel's indentation, so they may only hang from a line ruamel wrote
    exactly as the original does (their parent key): a document that mixes indentation styles
    (``key:`` then ``- item`` at the key's column in one place, indented in another) is otherwise
    taken as ruamel writes it whole, rather than getting lines at the wrong depth."""
    if unchanged == original or unchanged.rstrip("\n") == original.rstrip("\n"):
        return changed
    orig, base, new = (s.splitlines(keepends=True) for s in (original, unchanged, changed))
    if max(len(orig), len(base)) > MERGE_MAX_LINES:   # difflib would cost the square: ruamel's text
        return changed
    to_orig: dict[int, int] = {}
    for a, b, size in difflib.SequenceMatcher(None, base, orig, autojunk=False).get_matching_blocks():
        to_orig.update((a + k, b + k) for k in range(size))
    out: list[str] = []
    cursor = 0   # next original line not yet copied
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, base, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i1 < i2:   # replace or delete base[i1:i2]: those lines must stand, in a row, in the original
            mapped = [to_orig.get(i) for i in range(i1, i2)]
            if None in mapped or mapped != list(range(mapped[0], mapped[0] + len(mapped))):
                return changed   # the change touches lines ruamel renders differently: take its text
            at, upto = mapped[0], mapped[-1] + 1
        else:         # insert before base[i1]: after the original of base[i1 - 1], or before base[i1]
            if i1 > 0 and (i1 - 1) in to_orig:
                at = to_orig[i1 - 1] + 1
            elif i1 < len(base) and i1 in to_orig:
                at = to_orig[i1]
            elif i1 == len(base):
                at = len(orig)
            else:
                return changed
            upto = at
        parent = _parent(base, i1, min((_indent(ln) for ln in new[j1:j2] if ln.strip()), default=0))
        if parent is not None and parent not in to_orig:
            return changed   # its parent is indented otherwise in the original: ruamel's whole text
        if at < cursor:
            return changed
        out += orig[cursor:at] + new[j1:j2]
        cursor = upto
    out += orig[cursor:]
    return "".join(out)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _parent(lines: list[str], before: int, depth: int) -> int | None:
    """The last non-blank line before ``before`` indented less than ``depth``: the key new lines at
    ``depth`` hang from (None at the top level)."""
    for i in range(before - 1, -1, -1):
        if lines[i].strip() and _indent(lines[i]) < depth:
            return i
    return None


def _apply_json(text: str, edits: tuple[Edit, ...]) -> str:
    """JSON stays JSON: dumped with the file's own indent, and merged line by line into the
    original as YAML is, so a pretty-printed file changes only where the fix does."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FixError(f"not JSON: {exc.msg}") from None
    lines = [ln for ln in text.splitlines()[1:] if ln.strip()]
    indent = (len(lines[0]) - len(lines[0].lstrip())) or 2 if lines else None
    unchanged = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    for edit in edits:
        _apply(data, edit)
    changed = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    merged = _merge(text if text.endswith("\n") else text + "\n", unchanged, changed)
    return merged if text.endswith("\n") else merged[:-1]


# --- edits on loaded data (ruamel's round-trip types, or plain dicts and lists from JSON) --------

def _walk(data: Any, path: tuple[Any, ...], create: bool = False) -> Any:
    node = data
    for seg in path:
        if isinstance(node, dict):
            if seg not in node:
                if not create:
                    raise FixError(f"no {seg!r} here")
                node[seg] = _new_map(node)
            node = node[seg]
        elif isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
            node = node[seg]
        else:
            raise FixError(f"no {seg!r} here")
    return node


def _new_map(like: Any) -> Any:
    if type(like) is dict:
        return {}
    from ruamel.yaml.comments import CommentedMap
    return CommentedMap()


def _convert(value: Any, like: Any, root: Any = None) -> Any:
    """Plain data as the container's own types (ruamel's, for block style and comments); a
    CopyOf as a deep copy of the node it names (its flow or block style kept)."""
    if isinstance(value, CopyOf):
        if root is not None:
            try:
                return copy.deepcopy(_walk(root, value.path))
            except FixError:
                pass
        value = value.value
    if type(like) in (dict, list):
        return json.loads(json.dumps(value, default=lambda v: v.value))
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    if isinstance(value, dict):
        m = CommentedMap()
        for k, v in value.items():
            m[k] = _convert(v, like, root)
        return m
    if isinstance(value, list):
        return CommentedSeq(_convert(v, like, root) for v in value)
    return value


def _set(parent: Any, key: str, value: Any, after: str | None, root: Any = None) -> None:
    if not isinstance(parent, dict):
        raise FixError("not a mapping")
    value = _convert(value, parent, root)
    if key in parent or after is None or after not in parent:
        parent[key] = value   # an existing key keeps its place; a new one goes last
    else:
        _insert(parent, list(parent).index(after) + 1, key, value)


def _insert(mapping: Any, at: int, key: str, value: Any) -> None:
    if hasattr(mapping, "insert"):   # ruamel's CommentedMap
        mapping.insert(at, key, value)
        return
    items = list(mapping.items())
    mapping.clear()
    mapping.update(items[:at] + [(key, value)] + items[at:])


def _apply(data: Any, edit: Edit) -> None:
    if isinstance(edit, SetKey):
        _set(_walk(data, edit.path[:-1], create=True), edit.path[-1], edit.value, edit.after, data)
    elif isinstance(edit, Remove):
        parent = _walk(data, edit.path[:-1])
        key = edit.path[-1]
        try:
            del parent[key]
        except (KeyError, IndexError, TypeError):
            raise FixError(f"no {key!r} to remove") from None
        if not parent and len(edit.path) > 1:   # an emptied list or mapping goes with it
            del _walk(data, edit.path[:-2])[edit.path[-2]]
    elif isinstance(edit, MoveItem):
        source = _walk(data, edit.path[:-1])
        if not isinstance(source, list) or not isinstance(edit.path[-1], int) or edit.path[-1] >= len(source):
            raise FixError("no such list item")
        item = source.pop(edit.path[-1])
        holder = _walk(data, edit.to[:-1])
        if not isinstance(holder, dict):
            raise FixError("not a mapping")
        if edit.to[-1] not in holder:
            empty = [] if type(holder) is dict else _convert([], holder)
            _insert(holder, list(holder).index(edit.before) if edit.before in holder else len(holder),
                    edit.to[-1], empty)
        target = holder[edit.to[-1]]
        if not isinstance(target, list):
            raise FixError("not a list")
        target.append(item)
        after = edit.set_after
        for key, value in edit.set:   # each after the one before: in the order the edit lists them
            _set(item, key, value, after, data)
            after = key
    else:   # pragma: no cover - the Edit union is closed
        raise FixError(f"unknown edit {edit!r}")

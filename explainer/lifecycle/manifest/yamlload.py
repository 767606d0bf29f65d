"""Read YAML or JSON text into plain data that remembers where every key and item stood.

PyYAML's own ``load`` neither keeps line numbers nor bounds its work: a "billion laughs"
document expands aliases until memory runs out, and deep nesting recurses until Python's
stack does.  So we drive the (C, when available) event parser ourselves and build the
data iteratively: every limit is checked as the events stream in, before the work is done.
Plain data, the usual manifest, is read sooner by ``yamlfast`` (composed in C), which hands
anything else back to this reader, so each error and edge case is this reader's.
"""
from __future__ import annotations

import functools
import json
import re
from typing import Any

import yaml
from yaml.nodes import ScalarNode

from ..errors import ManifestError
from ..i18n import Text, gettext_noop as _
from .yamlfast import CONSTRUCTED_TAGS as _CONSTRUCTED_TAGS, MERGE_TAG as _MERGE_TAG, STR_TAGS as _STR_TAGS
from .yamlfast import compose_documents
from explainer.lifecycle.records import record

try:  # the C parser is ~10x faster; fall back to pure Python where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the build of PyYAML
    from yaml import SafeLoader as _Loader


@record
class Limits:
    """Bounds on the work one input may cause; each is a clear error when exceeded."""

    max_bytes: int = 1024 * 1024
    max_depth: int = 100
    max_nodes: int = 200_000  # values built, counting every alias expansion in full
    max_documents: int = 1000
    max_pods: int | None = None         # Pods per input (the web sets one per request; the CLI none)
    max_containers: int | None = None   # containers of all those Pods together
    # What raises each limit where it is set (a flag of the CLI, a setting of the web), for its message.
    bytes_setting: str | None = None
    pods_setting: str | None = None
    containers_setting: str | None = None
    subject: str = "manifest"           # what the text is, for the size message: manifest or scenario


class LMap(dict):
    """A mapping that knows its own position and the position of each key (1-based)."""

    __slots__ = ("line", "column", "pos")

    def __init__(self, line: int | None = None, column: int | None = None) -> None:
        super().__init__()
        self.line, self.column = line, column
        self.pos: dict[Any, tuple[int, int]] = {}


class LList(list):
    """A sequence that knows its own position and the position of each item (1-based)."""

    __slots__ = ("line", "column", "pos")

    def __init__(self, line: int | None = None, column: int | None = None) -> None:
        super().__init__()
        self.line, self.column = line, column
        self.pos: list[tuple[int, int]] = []


@record
class Document:
    index: int
    line: int
    data: Any


class _Frame:
    __slots__ = ("obj", "key", "key_pos", "size", "anchor", "merges", "has_key", "seg")

    def __init__(self, obj: Any, anchor: str | None, seg: Any) -> None:
        self.obj, self.anchor, self.seg = obj, anchor, seg
        self.key: Any = None
        self.key_pos: tuple[int, int] = (0, 0)
        self.has_key = False
        self.size = 1
        self.merges: list[Any] | None = None


def _pos(mark: Any) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


def _fail(message: Text, mark: Any = None, path: str | None = None, kind: str = "syntax") -> ManifestError:
    line, column = _pos(mark) if mark is not None else (None, None)
    return ManifestError(message, line=line, column=column, path=path, kind=kind)


def _too_deep(limits: Limits) -> Text:
    return Text(_("Nesting deeper than {n} levels."), {"n": limits.max_depth})


def format_path(segments: list[Any] | tuple[Any, ...]) -> str:
    """('spec', 'containers', 1, 'name') -> 'spec.containers[1].name'."""
    out = ""
    for seg in segments:
        if isinstance(seg, int):
            out += f"[{seg}]"
        else:
            out += ("." if out else "") + str(seg)
    return out


def load_documents(text: str, limits: Limits = Limits()) -> list[Document]:
    """Parse every document of ``text``; raise ``ManifestError`` with a line for bad input."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        values = {"size": f"{size:,}", "limit": f"{limits.max_bytes:,}", "setting": limits.bytes_setting}
        if limits.subject == "scenario":
            message = Text(_("The scenario is {size} bytes; the limit is {limit} bytes."), values)
        elif limits.bytes_setting:
            message = Text(_("The manifest is {size} bytes; the limit is {limit} bytes ({setting} raises it)."), values)
        else:
            message = Text(_("The manifest is {size} bytes; the limit is {limit} bytes."), values)
        raise ManifestError(message, kind="limit")
    looks_json = text.lstrip()[:1] in ("{", "[")
    try:
        return _load(_json_as_yaml(text) if looks_json else text, limits)
    except ManifestError as yaml_error:
        if looks_json and yaml_error.records[0].kind == "syntax":
            _raise_json_error(text)   # a JSON reader's message is clearer for broken JSON
        raise


_ESCAPED_SLASH = re.compile(r'(?<!\\)((?:\\\\)*)\\/')


def _json_as_yaml(text: str) -> str:
    """JSON is YAML but for two things PyYAML (YAML 1.1) refuses: tabs as white space and
    the ``\\/`` escape.  Raw tabs cannot occur inside valid JSON strings, so both rewrites keep
    the meaning, and the YAML reader keeps its lines, limits and duplicate-key check."""
    return _ESCAPED_SLASH.sub(r"\1/", text.replace("\t", " "))


def _raise_json_error(text: str) -> None:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManifestError(Text(_("Invalid JSON: {problem}."), {"problem": exc.msg}), line=exc.lineno,
                            column=exc.colno, kind="syntax") from None
    except RecursionError:
        return


def _load(text: str, limits: Limits) -> list[Document]:
    fast = _read_fast(text, limits)
    return fast if fast is not None else _read_events(text, limits)


def _read_fast(text: str, limits: Limits) -> list[Document] | None:
    """What the event reader would build, composed in C (``yamlfast``); ``None`` when only the
    event reader can say what ``text`` holds (an error, an alias, a merge, a limit...)."""
    found = compose_documents(text, max_nodes=limits.max_nodes, max_depth=limits.max_depth,
                              max_documents=limits.max_documents, new_map=LMap, new_list=LList)
    return None if found is None else [Document(i, line, data) for i, (line, data) in enumerate(found)]


def _read_events(text: str, limits: Limits) -> list[Document]:
    """The authoritative reader: PyYAML's events, each limit checked as they stream in."""
    loader = _Loader(text)
    docs: list[Document] = []
    try:
        _stream(loader, limits, docs)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = (exc.problem or str(exc)).strip()
        if "maximum nesting depth" in problem:   # libyaml's own bound, hit before ours in flow style
            raise _fail(_too_deep(limits), mark, kind="limit") from None
        context = f" ({exc.context})" if exc.context else ""   # PyYAML's words, as they are
        raise _with_source_line(_fail(Text(_("YAML syntax error: {problem}{context}."),
                                           {"problem": problem, "context": context}), mark), text) from None
    except yaml.reader.ReaderError as exc:  # binary data, control characters
        at = exc.position
        line = text.count("\n", 0, at) + 1
        raise ManifestError(Text(_("The input holds a character YAML does not allow ({character}) at offset "
                                   "{offset}: is it binary data?"), {"character": repr(exc.character), "offset": at}),
                            line=line, kind="syntax") from None
    except yaml.YAMLError as exc:
        raise ManifestError(Text(_("Not readable as YAML: {problem}"), {"problem": str(exc).splitlines()[0]}),
                            kind="syntax") from None
    finally:
        loader.dispose()
    return docs


def _with_source_line(err: ManifestError, text: str) -> ManifestError:
    rec = err.records[0]
    if rec.line:
        lines = text.splitlines()
        if 0 < rec.line <= len(lines):
            shown = lines[rec.line - 1][:200]
            # the line as the user wrote it, between quotation marks: repr() would double its backslashes
            # (a "\n" in a quoted scalar read as "\\n") and escape its quotes
            msg = Text(_("{message} The line reads: “{line}”"),
                       {"message": rec.translatable, "line": shown.strip()})
            return ManifestError(msg, line=rec.line, column=rec.column, kind="syntax")
    return err


def _stream(loader: Any, limits: Limits, docs: list[Document]) -> None:
    anchors: dict[str, tuple[Any, int]] = {}
    stack: list[_Frame] = []
    budget = [0]
    doc_line = 1
    root: list[Any] = []
    while True:
        ev = loader.get_event()
        if ev is None or isinstance(ev, yaml.StreamEndEvent):
            return
        if isinstance(ev, yaml.DocumentStartEvent):
            doc_line = ev.start_mark.line + 1
            anchors.clear()
            root.clear()
            if len(docs) >= limits.max_documents:
                raise _fail(Text(_("More than {n} documents."), {"n": limits.max_documents}), ev.start_mark,
                            kind="limit")
            continue
        if isinstance(ev, yaml.DocumentEndEvent):
            docs.append(Document(len(docs), doc_line, root[0] if root else None))
            continue
        if isinstance(ev, (yaml.StreamStartEvent,)):
            continue
        if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            frame = stack.pop()
            if frame.merges:
                _apply_merges(frame, ev)
            if frame.anchor:
                anchors[frame.anchor] = (frame.obj, frame.size)
            _attach(stack, root, frame.obj, frame.size, None, ev, limits)
            continue
        value, size = _value(ev, loader, anchors, stack, limits, budget)
        if value is _OPEN:
            continue
        _attach(stack, root, value, size, _pos(ev.start_mark), ev, limits)


_OPEN = object()


def _value(ev: Any, loader: Any, anchors: dict, stack: list[_Frame], limits: Limits,
           budget: list[int]) -> tuple[Any, int]:
    budget[0] += 1
    if isinstance(ev, yaml.AliasEvent):
        if ev.anchor not in anchors:
            raise _fail(Text(_("Unknown or recursive alias *{anchor}."), {"anchor": ev.anchor}), ev.start_mark,
                        _path(stack))
        value, size = anchors[ev.anchor]
        budget[0] += size
        if budget[0] > limits.max_nodes:
            raise _fail(Text(_("Aliases expand to more than {n} values (a \"billion laughs\" document?)."),
                             {"n": f"{limits.max_nodes:,}"}), ev.start_mark, kind="limit")
        return value, size
    if budget[0] > limits.max_nodes:
        raise _fail(Text(_("More than {n} values in the input."), {"n": f"{limits.max_nodes:,}"}), ev.start_mark,
                    kind="limit")
    line, column = _pos(ev.start_mark)
    if isinstance(ev, yaml.ScalarEvent):
        value = _scalar(ev, loader)
        if ev.anchor:
            anchors[ev.anchor] = (value, 1)
        return value, 1
    if len(stack) >= limits.max_depth:
        raise _fail(_too_deep(limits), ev.start_mark, kind="limit")
    obj = LMap(line, column) if isinstance(ev, yaml.MappingStartEvent) else LList(line, column)
    frame = _Frame(obj, ev.anchor, None)
    frame.key_pos = (line, column)
    stack.append(frame)
    return _OPEN, 0


def _scalar(ev: Any, loader: Any) -> Any:
    tag = ev.tag
    if tag is None or tag == "!":
        tag = loader.resolve(ScalarNode, ev.value, ev.implicit)
    if tag in _CONSTRUCTED_TAGS:
        node = ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, ev.style)
        try:
            return loader.yaml_constructors[tag](loader, node)
        except (ValueError, KeyError, TypeError):   # `!!int abc`, `!!bool maybe`: an explicit tag the text does not fit
            raise _fail(Text(_("The value {value} cannot be read as {tag}: its text does not fit the tag."),
                             {"value": repr(ev.value[:80]), "tag": "!!" + tag.rsplit(":", 1)[-1]}),
                        ev.start_mark) from None
    if tag == _MERGE_TAG:
        return _MergeKey
    if tag in _STR_TAGS:
        return ev.value
    raise _fail(Text(_("Unsupported YAML tag {tag}: a Kubernetes manifest holds plain data only."),
                     {"tag": repr(tag)}), ev.start_mark)


class _MergeKey:
    """Marker for the ``<<`` merge key."""


def _attach(stack: list[_Frame], root: list[Any], value: Any, size: int,
            pos: tuple[int, int] | None, ev: Any, limits: Limits) -> None:
    if not stack:
        root.append(value)
        return
    parent = stack[-1]
    parent.size += size
    obj = parent.obj
    if pos is None:
        pos = (value.line, value.column or 0) if isinstance(value, (LMap, LList)) and value.line else (0, 0)
    if isinstance(obj, LList):
        obj.append(value)
        obj.pos.append(pos)
        return
    if not parent.has_key:
        if isinstance(value, (LMap, LList)):
            raise _fail(Text(_("A mapping key must be a plain value, not a mapping or a list.")),
                        ev.start_mark, _path(stack))
        parent.key, parent.key_pos, parent.has_key = value, pos, True
        return
    key = parent.key
    parent.has_key = False
    if key is _MergeKey:
        parent.merges = (parent.merges or []) + (list(value) if isinstance(value, list) else [value])
        return
    if key in obj:
        first = obj.pos[key][0]
        raise ManifestError(
            Text(_("Duplicate key {key} (first set at line {line}); kubectl rejects this."),
                 {"key": repr(key), "line": first}),
            line=parent.key_pos[0], column=parent.key_pos[1],
            path=format_path(_segments(stack[:-1]) + [str(key)]), kind="syntax")
    obj[key] = value
    obj.pos[key] = parent.key_pos


def _apply_merges(frame: _Frame, ev: Any) -> None:
    obj = frame.obj
    for merged in frame.merges or []:
        if not isinstance(merged, dict):
            raise _fail(Text(_("A merge key (<<) must point at a mapping.")), ev.start_mark)
        for k, v in merged.items():
            if k not in obj:
                obj[k] = v
                obj.pos[k] = getattr(merged, "pos", {}).get(k, (frame.obj.line or 0, 0))


def _segments(frames: list[_Frame]) -> list[Any]:
    """The path to the value being read, from the frames that hold it."""
    segs: list[Any] = []
    for frame in frames:
        obj = frame.obj
        if isinstance(obj, LList):
            segs.append(len(obj))
        elif frame.has_key:
            segs.append(str(frame.key))
    return segs


def _path(stack: list[_Frame]) -> str | None:
    return format_path(_segments(stack)) or None


def position(data: Any, path: tuple[Any, ...] | list[Any]) -> tuple[int | None, int | None]:
    """The (line, column) of the deepest element of ``path`` found in ``data``."""
    best: tuple[int | None, int | None] = (getattr(data, "line", None), getattr(data, "column", None))
    node = data
    for seg in path:
        if isinstance(node, LMap) and seg in node:
            p = node.pos.get(seg)
            node = node[seg]
        elif isinstance(node, LList) and isinstance(seg, int) and 0 <= seg < len(node):
            p = node.pos[seg]
            node = node[seg]
        else:
            break
        if p and p[0]:
            best = p
    return best


@functools.lru_cache(maxsize=4096)
def parse_path(path: str) -> tuple[Any, ...]:
    """'spec.containers[1].name' -> ('spec', 'containers', 1, 'name').  Cached: the same few paths
    (a container's fields) are read by the simulation and many rules."""
    out: list[Any] = []
    for part in path.split("."):
        while "[" in part:
            head, _, rest = part.partition("[")
            if head:
                out.append(head)
            idx, _, part = rest.partition("]")
            out.append(int(idx))
        if part:
            out.append(part)
    return tuple(out)

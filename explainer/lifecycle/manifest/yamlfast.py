"""The fast way to read YAML with positions: libyaml composes each document in C, we walk its nodes.

``yamlload``'s event reader is the authority: it checks every limit as the events stream in and
words every error.  This reader gives up (returns ``None``, and the caller runs the event reader
on the whole text) at the first thing that reader treats specially: any error of the composer, an
alias, a merge key, a key that is not a plain value, a duplicate key, a tag it refuses, a limit
reached.  So it only ever returns what the event reader would have built, just sooner: the C
composer makes one Python object per node where the event loop made one per event and then
worked on each in Python.
"""
from __future__ import annotations

import operator
import re
import threading
from typing import Any, Callable

from yaml.nodes import MappingNode, Node, ScalarNode

try:  # without libyaml there is no composer in C (PyYAML's own one recurses): no fast path
    from yaml import CSafeLoader
except ImportError:  # pragma: no cover - depends on the build of PyYAML
    CSafeLoader = None

CONSTRUCTED_TAGS = {
    "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
}
MERGE_TAG = "tag:yaml.org,2002:merge"
STR_TAGS = {"tag:yaml.org,2002:str", "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary"}

# libyaml's line breaks (YAML 1.1), and a `---` or directive at the start of a line: the token
# that starts an explicit document.
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_DOCUMENT_START = re.compile("(?<![^\r\n\x85\u2028\u2029])(?:---(?![^ \t\r\n\x85\u2028\u2029])|%)")
_STACK_NEEDED = 1024 * 1024   # bytes of stack a thread must have for the composer (see below)


if CSafeLoader is not None:
    _resolve = CSafeLoader.resolve


class _Unusual(Exception):
    """The input holds something the event reader treats specially: it reads the text instead."""


if CSafeLoader is not None:
    class _Composer(CSafeLoader):
        # The event reader resolves every scalar on its own, never along a path of parents, so
        # the composer must not either (nor pay two Python calls per node for it).
        descend_resolver = staticmethod(operator.is_)   # called with (parent, index)
        ascend_resolver = staticmethod(tuple)           # called with ()
        # Asked for the tag of a node that has none, answer with the question itself,
        # slice(kind, value, implicit), in C: _scalar resolves each distinct scalar once.
        resolve = staticmethod(slice)


# Past this size the event reader is as fast: a whole node graph of a large document is spread over
# more memory than the CPU's caches hold, and composing and walking it grow faster than the text
# (measured: the walk 5.1, 13.7, 31.5 ms for a Pod of 200, 400, 800 containers; the event reader
# 2x per doubling), so large inputs keep the event reader's linear time.
FAST_MAX_CHARS = 64 * 1024


def compose_documents(text: str, *, max_nodes: int, max_depth: int, max_documents: int,
                      new_map: Callable[[int, int], Any], new_list: Callable[[int, int], Any],
                      ) -> list[tuple[int, Any]] | None:
    """Each document's (line, data), or ``None`` when the event reader must read ``text``."""
    # The composer builds a whole document before we can count its nodes; a text longer than the
    # node budget could hold more of them than the event reader would ever build (it stops at
    # the limit), so it goes there.  libyaml counts a leading byte-order mark in no position.
    if CSafeLoader is None or len(text) > min(max_nodes, FAST_MAX_CHARS) or "\ufeff" in text \
            or _Composer.yaml_path_resolvers:
        return None
    # The composer recurses in C, once per level; libyaml refuses nesting beyond 1000 levels,
    # which composes in 320 KiB of stack (measured; 256 KiB crash).  Threads get 8 MiB on
    # Linux unless a program asks for less.
    if 0 < threading.stack_size() < _STACK_NEEDED:
        return None
    loader = _Composer(text)
    try:
        return _compose(loader, text, max_nodes, max_depth, max_documents, new_map, new_list)
    except Exception:   # noqa: BLE001 - any at all: the event reader words it, or reads what we would not
        return None
    finally:
        loader.dispose()


def _compose(loader: Any, text: str, max_nodes: int, max_depth: int, max_documents: int,
             new_map: Callable[[int, int], Any], new_list: Callable[[int, int], Any]) -> list[tuple[int, Any]]:
    # An alias needs a `*` and, to be defined, an `&`; the composer hands back the anchored node
    # itself, so a node met twice in a document is an alias (or a cycle of them).
    aliases = "&" in text and "*" in text
    docs: list[tuple[int, Any]] = []
    count = 0
    end, end_line, at_line_start = 0, 0, True
    while loader.check_node():
        if len(docs) >= max_documents:
            raise _Unusual
        root = loader.get_node()
        start = root.start_mark
        line = _explicit_start(text, end, end_line, at_line_start, start.index)
        if line is None:
            if docs:   # every document after the first starts with `---` (YAML 1.1)
                raise _Unusual
            line = start.line + 1
        data, count = _build(root, loader, count, set() if aliases else None, max_nodes, max_depth, new_map, new_list)
        docs.append((line, data))
        mark = root.end_mark
        end, end_line, at_line_start = mark.index, mark.line, mark.column == 0
    return docs


def _explicit_start(text: str, begin: int, begin_line: int, at_line_start: bool, stop: int) -> int | None:
    """The line of the document's first token when it is a `---` or a directive: the first one
    between the end of the previous document's root (``begin``) and this root (``stop``), where
    only comments, blanks, `...`, directives and one `---` can stand."""
    gap = text[begin:stop]
    found = _DOCUMENT_START.search(gap, 0 if at_line_start else 1)
    if found is None:
        return None
    return begin_line + 1 + len(_BREAK.findall(gap, 0, found.start()))


def _build(root: Node, loader: Any, count: int, seen: set[int] | None, max_nodes: int, max_depth: int,
           new_map: Callable[[int, int], Any], new_list: Callable[[int, int], Any]) -> tuple[Any, int]:
    """The data of one document, built without recursion (containers first, filled from a stack).

    A scalar that is quoted, or plain with no implicit resolver for its first character, is its
    own text (the ``or`` tests below, inlined as the common case); any other goes to _scalar."""
    known: dict[str, Any] = {}   # plain scalars' values by their text
    resolvers = loader.yaml_implicit_resolvers
    if None in resolvers:    # resolvers for any first character: SafeLoader has none
        raise _Unusual
    count += 1
    if seen is not None:
        seen.add(id(root))
    if root.__class__ is ScalarNode:
        return _scalar(root, loader, known), count
    if max_depth <= 1:
        raise _Unusual
    mark = root.start_mark
    top = (new_map if root.__class__ is MappingNode else new_list)(mark.line + 1, mark.column + 1)
    deepest = max_depth - 2          # a container at depth max_depth - 1 is as deep as we go
    stack: list[tuple[Node, Any, int]] = [(root, top, 0)]
    while stack:
        node, obj, depth = stack.pop()
        items = node.value
        if seen is not None:
            _check_once(node, seen)
        if node.__class__ is MappingNode:
            count += 2 * len(items)
            if count >= max_nodes:
                raise _Unusual
            pos = obj.pos
            for key_node, value_node in items:
                if key_node.__class__ is not ScalarNode:
                    raise _Unusual
                tag, key = key_node.tag, key_node.value
                if tag.__class__ is not slice or tag.step[0] and key[:1] in resolvers:
                    key = _scalar(key_node, loader, known)
                if key in obj:
                    raise _Unusual
                mark = key_node.start_mark
                pos[key] = (mark.line + 1, mark.column + 1)
                if value_node.__class__ is ScalarNode:
                    tag, value = value_node.tag, value_node.value
                    if tag.__class__ is not slice or tag.step[0] and value[:1] in resolvers:
                        value = _scalar(value_node, loader, known)
                    obj[key] = value
                    continue
                if depth >= deepest:
                    raise _Unusual
                mark = value_node.start_mark
                child = (new_map if value_node.__class__ is MappingNode else new_list)(mark.line + 1, mark.column + 1)
                obj[key] = child
                stack.append((value_node, child, depth + 1))
        else:
            count += len(items)
            if count >= max_nodes:
                raise _Unusual
            append, where = obj.append, obj.pos.append
            for item in items:
                mark = item.start_mark
                at = (mark.line + 1, mark.column + 1)
                where(at)
                if item.__class__ is ScalarNode:
                    tag, value = item.tag, item.value
                    if tag.__class__ is not slice or tag.step[0] and value[:1] in resolvers:
                        value = _scalar(item, loader, known)
                    append(value)
                    continue
                if depth >= deepest:
                    raise _Unusual
                child = (new_map if item.__class__ is MappingNode else new_list)(*at)
                append(child)
                stack.append((item, child, depth + 1))
        items.clear()   # done with these nodes: free them now, not with the whole graph
    return top, count


def _check_once(node: Node, seen: set[int]) -> None:
    """Each child of ``node`` must be new: a node met again came from an alias."""
    children = [n for pair in node.value for n in pair] if node.__class__ is MappingNode else node.value
    for child in children:
        if id(child) in seen:
            raise _Unusual
        seen.add(id(child))


def _scalar(node: Any, loader: Any, known: dict[str, Any]) -> Any:
    """The value the event reader makes of a scalar, which resolves an untagged one with the same
    resolver (``BaseResolver.resolve``: a plain scalar by the implicit resolvers of its first
    character, any other as a string, there being no path resolvers) and constructs the same tags."""
    tag = node.tag
    if tag.__class__ is not slice:
        return _construct(tag, node, loader)
    value = node.value
    if not tag.step[0] or value[:1] not in loader.yaml_implicit_resolvers:
        return value
    if value in known:
        return known[value]
    known[value] = result = _construct(_resolve(loader, ScalarNode, value, tag.step), node, loader)
    return result


def _construct(tag: str, node: Any, loader: Any) -> Any:
    if tag in STR_TAGS:
        return node.value
    if tag in CONSTRUCTED_TAGS:
        return loader.yaml_constructors[tag](loader, node)
    raise _Unusual   # a merge key, or a tag the event reader refuses

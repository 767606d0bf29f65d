"""An answer of bounded size (issues 11 and 27): the JSON contract cut to fit, and saying where.

A long simulation can make a list of events and a status timeline of hundreds of thousands of
entries; an input can make thousands of findings of one rule (25,000 unmounted volumes) or long lists
elsewhere.  `bound_answer`:

1. folds the findings of each Pod, and the input's own (a Service's), past ``MAX_FINDINGS_PER_RULE`` of one
   rule: the first ones are kept, and ``findingsFolded`` (``suppressedFindingsFolded``) says per rule how many
   there were;
2. leaves an answer under ``limit`` bytes alone; a larger one loses the tails of its longest ``events``
   and ``statusTimeline`` lists first, then of whatever lists are still largest (a comparison's, a
   sharing report's), until it fits: by construction, no answer is larger than ``limit``.

Every cut is in ``answerTruncated``: the limit, and per list its path, the entries kept, the entries
there were, and (for timed entries) the time of the last one kept.  ``restartCounts`` and
``finalPhase`` are never cut, so they stay exact.
"""
from __future__ import annotations

import json
from typing import Any

MAX_ANSWER_BYTES = 5 * 1024 * 1024
MAX_FINDINGS_PER_RULE = 50
CUTTABLE = ("events", "statusTimeline")
_RESERVE = 4096          # room for the answerTruncated record itself
_MIN_LIST = 8            # lists shorter than this are never cut (a record's own small lists)


def answer_size(data: Any, indent: int | None = None) -> int:
    """Bytes of ``data`` as the server writes it (json.dumps' separators, UTF-8)."""
    return len(json.dumps(data, ensure_ascii=False, indent=indent).encode("utf-8", "surrogatepass"))


def fold_findings(pod: dict[str, Any], per_rule: int = MAX_FINDINGS_PER_RULE) -> None:
    """Keep the first ``per_rule`` findings of each rule of one Pod's answer; say how many there were."""
    for key in ("findings", "suppressedFindings"):
        items = pod.get(key)
        if not isinstance(items, list) or len(items) <= per_rule:
            continue
        seen: dict[Any, int] = {}
        kept = []
        for f in items:
            rule = f.get("id") if isinstance(f, dict) else None
            seen[rule] = seen.get(rule, 0) + 1
            if seen[rule] <= per_rule:
                kept.append(f)
        folded = [{"id": rule, "kept": per_rule, "of": n} for rule, n in seen.items() if n > per_rule]
        if folded:
            pod[key] = kept
            pod[f"{key}Folded"] = folded


def bound_answer(data: dict[str, Any], limit: int = MAX_ANSWER_BYTES, indent: int | None = None) -> dict[str, Any]:
    """``data`` (the JSON contract, or anything holding it under "explanation", or a comparison) under
    ``limit`` bytes when written with ``indent``."""
    for _path, pod in _pods(data):
        fold_findings(pod)
    for explanation in _explanations(data):   # the input's own findings (a Service's), folded alike
        fold_findings(explanation)
    lists = []   # (estimated bytes, path, holder, key)
    for path, pod in _pods(data):
        for key in CUTTABLE:
            items = pod.get(key) or []
            if items:
                lists.append([_estimate(items, indent), f"{path}.{key}", pod, key])
    size = _total_size(data, lists, indent)
    if size <= limit:
        return data
    cuts: list[dict[str, Any]] = []
    places: list[tuple[dict[str, Any], Any, Any]] = []   # (cut, the dict holding the list, its key)
    _cut(lists, size - limit + _RESERVE, indent, cuts, places)
    data["answerTruncated"] = {"limit": limit, "cuts": cuts}
    _trim(data, limit, indent, places)
    size = answer_size(data, indent)
    if size > limit:   # still over with those lists cut to nothing: the largest of every other list
        done = {c["path"] for c in cuts}
        others = [[_estimate(items, indent), path, holder, key] for path, holder, key, items in _lists(data)
                  if path not in done and holder is not data["answerTruncated"]]
        _cut(others, size - limit + _RESERVE, indent, cuts, places)
        _trim(data, limit, indent, places)
    return data


def _trim(data: dict[str, Any], limit: int, indent: int | None,
          places: list[tuple[dict[str, Any], Any, Any]]) -> None:
    """Nesting adds indentation, an estimate may be short: trim the longest cut list a tenth at a time."""
    while answer_size(data, indent) > limit and places:
        cut, holder, key = max(places, key=lambda p: p[0]["kept"])
        keep = cut["kept"] * 9 // 10
        if keep == cut["kept"]:
            break
        holder[key] = holder[key][:keep]
        cut.update(kept=keep, lastKeptT=_t(holder[key][-1]) if keep else None)


def _cut(lists: list[list[Any]], excess: float, indent: int | None, cuts: list[dict[str, Any]],
         places: list[tuple[dict[str, Any], Any, Any]]) -> None:
    """Cut the tails of the largest of ``lists`` until ``excess`` bytes are gone."""
    for entry in sorted(lists, key=lambda x: -x[0]):
        if excess <= 0:
            break
        nbytes, path, holder, key = entry
        items = holder[key]
        per_item = nbytes / max(len(items), 1)
        keep = max(0, int((nbytes - excess) / per_item) - 1)
        holder[key] = items[:keep]
        excess -= nbytes - answer_size(holder[key], indent)
        cuts.append({"path": path, "kept": keep, "of": len(items), "lastKeptT": _t(items[keep - 1]) if keep else None})
        places.append((cuts[-1], holder, key))


def _t(item: Any) -> Any:
    return item.get("t") if isinstance(item, dict) else None


def _lists(data: Any, path: str = "") -> list[tuple[str, Any, Any, list[Any]]]:
    """(path, holder, key, list) of every list of ``data`` long enough to cut, outermost first."""
    out: list[tuple[str, Any, Any, list[Any]]] = []
    stack: list[tuple[str, Any]] = [(path, data)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                sub = f"{where}.{key}" if where else str(key)
                if isinstance(value, list) and len(value) >= _MIN_LIST:
                    out.append((sub, node, key, value))
                if isinstance(value, (dict, list)):
                    stack.append((sub, value))
        elif isinstance(node, list):
            stack.extend((f"{where}[{i}]", v) for i, v in enumerate(node) if isinstance(v, (dict, list)))
    return out


def _total_size(data: dict[str, Any], lists: list[list[Any]], indent: int | None) -> int:
    """``answer_size(data, indent)``, exactly, with the long lists written a chunk at a time.

    A day of crash loops makes an answer of tens of megabytes before it is cut; one ``json.dumps``
    of it holds the interpreter lock for most of a second, stalling every other request the same
    worker is answering.  Written compactly (no ``indent``) a list's bytes are its brackets, its
    items and a ", " between each two, so the lists can be measured in chunks (the lock is free
    between them) and the rest of the answer with those lists emptied."""
    long = [(pod, key) for _b, _path, pod, key in lists if len(pod[key]) > _CHUNK]
    if indent is not None or not long:
        return answer_size(data, indent)
    held = [(pod, key, pod[key]) for pod, key in long]
    try:
        for pod, key, _items in held:
            pod[key] = []
        size = answer_size(data)
    finally:
        for pod, key, items in held:
            pod[key] = items
    for _pod, _key, items in held:
        for start in range(0, len(items), _CHUNK):
            chunk = items[start:start + _CHUNK]
            size += answer_size(chunk) - 2 - 2 * (len(chunk) - 1)     # the items alone
        size += 2 * (len(items) - 1)                                  # the ", " between them
    return size


_CHUNK = 2000   # list items written per call: ~1 ms each


def _estimate(items: list[Any], indent: int | None) -> float:
    """Bytes of a long list from a sample of its items (dumping it whole would cost as much as
    the answer itself)."""
    if len(items) <= 400:
        return answer_size(items, indent)
    step = len(items) / 200
    sample = [items[int(i * step)] for i in range(200)]
    return answer_size(sample, indent) * len(items) / len(sample)


def _explanations(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The explanations ``data`` holds: itself, under "explanation", or one per file."""
    holders = [data, data.get("explanation")] + list(data.get("files") or [])
    return [h for h in holders if isinstance(h, dict) and isinstance(h.get("pods"), list)]


def _pods(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for prefix, holder in (("", data), ("explanation.", data.get("explanation"))):
        if isinstance(holder, dict):
            out += [(f"{prefix}pods[{i}]", p) for i, p in enumerate(holder.get("pods") or []) if isinstance(p, dict)]
    for i, f in enumerate(data.get("files") or []):
        if isinstance(f, dict):
            out += [(f"files[{i}].pods[{j}]", p) for j, p in enumerate(f.get("pods") or []) if isinstance(p, dict)]
    return out

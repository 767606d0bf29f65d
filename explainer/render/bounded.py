"""An answer of bounded size (issue 11): the JSON contract cut to fit, and saying where.

A long simulation can make a list of events and a status timeline of hundreds of thousands
of entries.  `bound_answer` leaves an answer under ``limit`` bytes alone; a larger one keeps
everything but the tails of the longest ``events`` and ``statusTimeline`` lists, and says so in
``answerTruncated``: the limit, and per list cut its path, the entries kept, the entries there
were, and the time of the last entry kept.  ``restartCounts`` and ``finalPhase`` are never cut,
so they stay exact.
"""
from __future__ import annotations

import json
from typing import Any

MAX_ANSWER_BYTES = 5 * 1024 * 1024
CUTTABLE = ("events", "statusTimeline")
_RESERVE = 4096          # room for the answerTruncated record itself


def answer_size(data: Any, indent: int | None = None) -> int:
    """Bytes of ``data`` as the server writes it (json.dumps' separators, UTF-8)."""
    return len(json.dumps(data, ensure_ascii=False, indent=indent).encode("utf-8", "surrogatepass"))


def bound_answer(data: dict[str, Any], limit: int = MAX_ANSWER_BYTES, indent: int | None = None) -> dict[str, Any]:
    """``data`` (the JSON contract, or anything holding it under "explanation") under ``limit`` bytes
    when written with ``indent``."""
    lists = []   # (estimated bytes, path, pod, key)
    for path, pod in _pods(data):
        for key in CUTTABLE:
            items = pod.get(key) or []
            if items:
                lists.append([_estimate(items, indent), f"{path}.{key}", pod, key])
    size = _total_size(data, lists, indent)
    if size <= limit:
        return data
    excess = size - limit + _RESERVE
    cuts = []
    for entry in sorted(lists, key=lambda x: -x[0]):
        if excess <= 0:
            break
        nbytes, path, pod, key = entry
        items = pod[key]
        per_item = nbytes / len(items)
        keep = max(0, int((nbytes - excess) / per_item) - 1)
        pod[key] = items[:keep]
        excess -= nbytes - answer_size(pod[key], indent)
        cuts.append({"path": path, "kept": keep, "of": len(items),
                     "lastKeptT": items[keep - 1]["t"] if keep else None})
    data["answerTruncated"] = {"limit": limit, "cuts": cuts}
    while answer_size(data, indent) > limit and cuts:   # nesting adds indentation: trim a little more
        biggest = max(cuts, key=lambda c: c["kept"])
        pod, key = next((p, k) for _b, path, p, k in lists if path == biggest["path"])
        keep = biggest["kept"] * 9 // 10
        if keep == biggest["kept"]:
            break
        pod[key] = pod[key][:keep]
        biggest.update(kept=keep, lastKeptT=pod[key][-1]["t"] if keep else None)
    return data


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


def _pods(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for prefix, holder in (("", data), ("explanation.", data.get("explanation"))):
        if isinstance(holder, dict):
            out += [(f"{prefix}pods[{i}]", p) for i, p in enumerate(holder.get("pods") or []) if isinstance(p, dict)]
    for i, f in enumerate(data.get("files") or []):
        if isinstance(f, dict):
            out += [(f"files[{i}].pods[{j}]", p) for j, p in enumerate(f.get("pods") or []) if isinstance(p, dict)]
    return out

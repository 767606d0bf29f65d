"""The two texts side by side, line by line, for the compare page (issue 25).

`side_by_side(before, after)` pairs the lines of both texts: the same lines, lines changed (with the
characters that differ marked), lines only on one side, and runs of unchanged lines far from any change
folded into one row that says how many.

Lines are matched as patience diff does (Bram Cohen's; git's ``--patience``): the lines found once in each
text anchor the match, in their longest common order, and the gaps between anchors are matched again the
same way; a gap with no such line goes to difflib when it is small (`GAP_BUDGET`), else its lines count as
changed.  Where difflib alone is quadratic (thousands of lines changed every other line: seconds), this
stays near linear.  Bounded: past `MAX_LINES` lines a side the texts are not compared line by line (the
answer says so), and a line longer than `MAX_LINE_CHARS` is compared whole and shown cut.
"""
from __future__ import annotations

import difflib
from bisect import bisect_left

from explainer.lifecycle.records import record

MAX_LINES = 5000          # per side; a permalink holds at most 256 KB, some thousands of lines
MAX_LINE_CHARS = 400      # characters of a line shown and compared character by character
CONTEXT = 3               # unchanged lines kept around each change
MAX_MARKED_PAIRS = 500    # changed lines whose differing characters are marked; past these, whole lines
GAP_BUDGET = 250_000      # lines before × lines after of a gap that difflib matches (some 50 ms at worst)


@record
class Cell:
    """One side of a row: its line number and text, in parts that are the same or changed."""

    number: int
    parts: tuple[tuple[str, bool], ...]     # (text, changed)
    cut: bool = False                       # the line is longer than what is shown

    @property
    def text(self) -> str:
        return "".join(p for p, _c in self.parts)


@record
class Row:
    kind: str                     # same | changed | removed | added | folded
    left: Cell | None = None
    right: Cell | None = None
    folded: int = 0               # a folded row: how many unchanged lines it stands for


@record
class TextDiff:
    rows: tuple[Row, ...]
    same: bool                    # the two texts have the same lines
    too_large: bool = False       # not compared line by line: a side has more than MAX_LINES lines
    removed: int = 0              # lines only in ``before`` (or changed there)
    added: int = 0                # lines only in ``after`` (or changed there)
    lines_before: int = 0
    lines_after: int = 0


def _shown(line: str) -> tuple[str, bool]:
    return (line[:MAX_LINE_CHARS], True) if len(line) > MAX_LINE_CHARS else (line, False)


def _cell(number: int, line: str, changed: bool) -> Cell:
    text, cut = _shown(line)
    return Cell(number, ((text, changed),) if text else (), cut)


def _pair(i: int, a: str, j: int, b: str, marked: bool) -> tuple[Cell, Cell]:
    """Two changed lines, the characters that differ marked when ``marked`` and the lines have most of
    their characters in common (else, or when either is too long, the whole lines)."""
    (ta, cut_a), (tb, cut_b) = _shown(a), _shown(b)
    if cut_a or cut_b or not marked:
        return _cell(i, a, True), _cell(j, b, True)
    left: list[tuple[str, bool]] = []
    right: list[tuple[str, bool]] = []
    same = 0
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if op == "equal":
            same += a2 - a1
        if a2 > a1:
            left.append((ta[a1:a2], op != "equal"))
        if b2 > b1:
            right.append((tb[b1:b2], op != "equal"))
    if 2 * same < max(len(ta), len(tb)):      # mostly different: marking characters would be noise
        return _cell(i, a, True), _cell(j, b, True)
    return Cell(i, tuple(left)), Cell(j, tuple(right))


def side_by_side(before: str, after: str, *, context: int = CONTEXT, max_lines: int = MAX_LINES) -> TextDiff:
    """The rows of both texts side by side, unchanged runs folded beyond ``context`` lines of a change."""
    a, b = before.splitlines(), after.splitlines()
    if len(a) > max_lines or len(b) > max_lines:
        return TextDiff((), a == b, True, lines_before=len(a), lines_after=len(b))
    rows: list[Row] = []
    removed = added = pairs = 0
    for op, i1, i2, j1, j2 in _opcodes(a, b):
        if op == "equal":
            rows += [Row("same", _cell(i + 1, a[i], False), _cell(j + 1, b[j], False))
                     for i, j in zip(range(i1, i2), range(j1, j2))]
            continue
        removed += i2 - i1
        added += j2 - j1
        n = min(i2 - i1, j2 - j1) if op == "replace" else 0
        for k in range(n):
            pairs += 1
            left, right = _pair(i1 + k + 1, a[i1 + k], j1 + k + 1, b[j1 + k], pairs <= MAX_MARKED_PAIRS)
            rows.append(Row("changed", left, right))
        rows += [Row("removed", _cell(i + 1, a[i], True), None) for i in range(i1 + n, i2)]
        rows += [Row("added", None, _cell(j + 1, b[j], True)) for j in range(j1 + n, j2)]
    return TextDiff(tuple(_fold(rows, context)), removed == added == 0, False, removed, added, len(a), len(b))


def _opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib's opcodes (equal, replace, delete, insert) from the matched lines of `_matches`."""
    out: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for x, y in _matches(a, b) + [(len(a), len(b))]:
        if x > i or y > j:
            out.append(("replace" if x > i and y > j else "delete" if x > i else "insert", i, x, j, y))
        if x < len(a):
            if out and out[-1][0] == "equal" and out[-1][2] == x:
                _op, i1, _i2, j1, _j2 = out.pop()
                out.append(("equal", i1, x + 1, j1, y + 1))
            else:
                out.append(("equal", x, x + 1, y, y + 1))
        i, j = x + 1, y + 1
    return out


def _matches(a: list[str], b: list[str]) -> list[tuple[int, int]]:
    """Pairs (i, j) of equal lines, increasing in both, by patience diff."""
    out: list[tuple[int, int]] = []
    todo = [(0, len(a), 0, len(b))]
    while todo:
        a1, a2, b1, b2 = todo.pop()
        while a1 < a2 and b1 < b2 and a[a1] == b[b1]:      # the same first lines
            out.append((a1, b1))
            a1, b1 = a1 + 1, b1 + 1
        while a1 < a2 and b1 < b2 and a[a2 - 1] == b[b2 - 1]:   # the same last lines
            a2, b2 = a2 - 1, b2 - 1
            out.append((a2, b2))
        if a1 == a2 or b1 == b2:
            continue
        anchors = _anchors(a, b, a1, a2, b1, b2)
        if not anchors:
            if (a2 - a1) * (b2 - b1) <= GAP_BUDGET:
                for block in difflib.SequenceMatcher(None, a[a1:a2], b[b1:b2], autojunk=False).get_matching_blocks():
                    out += [(a1 + block.a + k, b1 + block.b + k) for k in range(block.size)]
            continue
        out += anchors
        edges = [(a1 - 1, b1 - 1)] + anchors + [(a2, b2)]
        todo += [(x1 + 1, x2, y1 + 1, y2) for (x1, y1), (x2, y2) in zip(edges, edges[1:])]
    return sorted(out)


def _anchors(a: list[str], b: list[str], a1: int, a2: int, b1: int, b2: int) -> list[tuple[int, int]]:
    """The lines found exactly once in each range, in their longest common order (patience sorting)."""
    count: dict[str, list[int]] = {}
    for i in range(a1, a2):
        seen = count.setdefault(a[i], [0, 0, i])
        seen[0] += 1
    for j in range(b1, b2):
        found = count.get(b[j])
        if found is not None:
            found[1] += 1
            if found[1] == 1:
                found.append(j)
    pairs = [(v[2], v[3]) for v in count.values() if v[0] == 1 and v[1] == 1]
    pairs.sort()
    # the longest run of pairs increasing in j: piles of patience sorting, each card linked to the top of the
    # pile to its left
    tops: list[int] = []            # the j of each pile's top card
    top_card: list[int] = []        # its index in ``pairs``
    back: list[int] = [-1] * len(pairs)
    for k, (_i, j) in enumerate(pairs):
        pile = bisect_left(tops, j)
        back[k] = top_card[pile - 1] if pile else -1
        if pile == len(tops):
            tops.append(j)
            top_card.append(k)
        else:
            tops[pile], top_card[pile] = j, k
    chain: list[tuple[int, int]] = []
    k = top_card[-1] if top_card else -1
    while k >= 0:
        chain.append(pairs[k])
        k = back[k]
    return chain[::-1]


def _fold(rows: list[Row], context: int) -> list[Row]:
    """Runs of unchanged rows farther than ``context`` rows from a change become one folded row."""
    near = [False] * len(rows)
    for k, row in enumerate(rows):
        if row.kind != "same":
            for m in range(max(0, k - context), min(len(rows), k + context + 1)):
                near[m] = True
    out: list[Row] = []
    run = 0
    for row, keep in zip(rows, near):
        if keep or row.kind != "same":
            if run:
                out.append(Row("folded", folded=run))
                run = 0
            out.append(row)
        else:
            run += 1
    if run:
        out.append(Row("folded", folded=run))
    return out

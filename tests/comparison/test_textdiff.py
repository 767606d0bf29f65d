"""The two manifests side by side (comparison/textdiff.py): rows that give back both texts, changed characters
marked, unchanged runs folded, and the bounds."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from explainer.comparison.textdiff import MAX_LINE_CHARS, MAX_MARKED_PAIRS, Row, side_by_side
from tests.conftest import load_manifest
from tests.profiles import examples

BASE = load_manifest("compare/base")


def kinds(rows: tuple[Row, ...]) -> list[str]:
    return [r.kind for r in rows]


def test_the_same_text_is_one_folded_row() -> None:
    d = side_by_side(BASE, BASE)
    assert d.same and (d.removed, d.added) == (0, 0)
    assert kinds(d.rows) == ["folded"] and d.rows[0].folded == len(BASE.splitlines())


def test_one_changed_line_is_shown_with_three_lines_around_it_and_its_changed_characters() -> None:
    after = BASE.replace("terminationGracePeriodSeconds: 30", "terminationGracePeriodSeconds: 10")
    d = side_by_side(BASE, after)
    assert not d.same and (d.removed, d.added) == (1, 1)
    assert kinds(d.rows) == ["folded", "same", "same", "same", "changed", "same", "same", "same", "folded"]
    changed = d.rows[4]
    assert changed.left is not None and changed.right is not None
    assert changed.left.number == changed.right.number == 9
    assert changed.left.parts == (("  terminationGracePeriodSeconds: ", False), ("3", True), ("0", False))
    assert changed.right.parts == (("  terminationGracePeriodSeconds: ", False), ("1", True), ("0", False))
    assert d.rows[0].folded == 5 and d.rows[-1].folded == len(BASE.splitlines()) - 12


def test_lines_only_on_one_side_and_numbers_that_move() -> None:
    after = BASE.replace("  containers:\n", "  containers:\n    - name: metrics\n      image: example/metrics:1\n")
    d = side_by_side(BASE, after, context=0)
    assert kinds(d.rows) == ["folded", "added", "added", "folded"]
    assert [r.right.text for r in d.rows[1:3] if r.right] == ["    - name: metrics", "      image: example/metrics:1"]
    assert (d.removed, d.added) == (0, 2)
    back = side_by_side(after, BASE, context=0)
    assert kinds(back.rows) == ["folded", "removed", "removed", "folded"]


def test_a_line_rewritten_whole_is_marked_whole() -> None:
    d = side_by_side("a: 1\nkind: Pod\n", "a: 1\nzzzzzzzzzz: qqq\n")
    (row,) = [r for r in d.rows if r.kind == "changed"]
    assert row.left is not None and row.left.parts == (("kind: Pod", True),)


def test_bounds_a_long_line_is_cut_and_too_many_lines_are_not_compared() -> None:
    long = "x" * (MAX_LINE_CHARS + 50)
    d = side_by_side(f"a\n{long}\n", f"a\n{long}y\n")
    (row,) = [r for r in d.rows if r.kind == "changed"]
    assert row.left is not None and row.left.cut and len(row.left.text) == MAX_LINE_CHARS
    big = side_by_side("a\n" * 20, "b\n" * 20, max_lines=10)
    assert big.too_large and big.rows == () and (big.lines_before, big.lines_after) == (20, 20)


def test_past_the_marked_pairs_whole_lines_are_marked() -> None:
    n = MAX_MARKED_PAIRS + 5
    d = side_by_side("".join(f"key{i}: v\n" for i in range(n)), "".join(f"key{i}: w\n" for i in range(n)))
    changed = [r for r in d.rows if r.kind == "changed"]
    assert len(changed) == n
    assert changed[0].left is not None and len(changed[0].left.parts) == 2
    assert changed[-1].left is not None and changed[-1].left.parts == ((f"key{n - 1}: v", True),)


def test_changes_on_every_other_line_of_a_long_text_pair_up_line_by_line() -> None:
    """Where difflib alone takes seconds (quadratic), the unique lines anchor the match."""
    a = [f"  key{i}: v" for i in range(3000)]
    b = [f"  key{i}: w" if i % 2 else line for i, line in enumerate(a)]
    d = side_by_side("\n".join(a), "\n".join(b), context=0)
    assert (d.removed, d.added) == (1500, 1500)
    assert all(r.left is not None and r.right is not None and r.left.number == r.right.number
               for r in d.rows if r.kind == "changed")


LINES = st.lists(st.sampled_from(["a", "b", "c", "  - name: x", "kind: Pod", "", "é"]), max_size=25)


@settings(max_examples=examples(200))
@given(LINES, LINES)
def test_the_rows_give_back_both_texts(a: list[str], b: list[str]) -> None:
    d = side_by_side("\n".join(a), "\n".join(b), context=10**6)
    if d.same:       # nothing to show but how many lines
        assert [r.folded for r in d.rows] == ([len("\n".join(a).splitlines())] if a and "\n".join(a) else [])
        return
    before = [r.left for r in d.rows if r.left is not None]
    after = [r.right for r in d.rows if r.right is not None]
    expected_a, expected_b = "\n".join(a).splitlines(), "\n".join(b).splitlines()
    assert [c.text for c in before] == expected_a and [c.number for c in before] == list(range(1, len(expected_a) + 1))
    assert [c.text for c in after] == expected_b and [c.number for c in after] == list(range(1, len(expected_b) + 1))
    assert all(r.left.text == r.right.text for r in d.rows if r.kind == "same" and r.left and r.right)
    assert expected_a != expected_b
    assert d.removed == sum(1 for r in d.rows if r.kind in ("changed", "removed"))

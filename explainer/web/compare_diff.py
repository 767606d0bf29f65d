"""The two manifests of a comparison side by side (comparison/textdiff.py), written out as HTML.

Two tables of the same rows: side by side (before | after) on wide screens, one column (each changed line
before, then after) on narrow ones; the stylesheet shows one.  Lines wrap rather than scroll, the
characters that differ are <del>/<ins>, and every changed line has a sign (− or +) and, for screen
readers, the word "removed" or "added", so colour is never the only cue.  Written in Python, like the
result's long lists (lists.py): a diff of thousands of lines would cost the template engine seconds.
"""
from __future__ import annotations

from html import escape
from typing import Callable

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import ngettext

from explainer.comparison.textdiff import Cell, Row, TextDiff

Gettext = Callable[[str], str]


def _text(cell: Cell | None, tag: str) -> str:
    if cell is None:
        return ""
    out = "".join(f"<{tag}>{escape(part)}</{tag}>" if changed else escape(part) for part, changed in cell.parts)
    return out + ("<span class=\"cut\">…</span>" if cell.cut else "")


def _number(cell: Cell | None, sign: str, word: str) -> str:
    if cell is None:
        return ""
    if not sign:
        return str(cell.number)
    return (f'{cell.number}<span class="sign" aria-hidden="true">{sign}</span>'
            f'<span class="visually-hidden"> {escape(word)}</span>')


def _folded(row: Row, columns: int) -> str:
    said = ngettext("%(n)s unchanged line", "%(n)s unchanged lines", row.folded) % {"n": row.folded}
    return f'<tr class="td-folded"><td colspan="{columns}">… {escape(said)} …</td></tr>'


def _wide(diff: TextDiff, gettext: Gettext, before: str, after: str) -> str:
    removed, added, line = gettext("removed"), gettext("added"), gettext("Line")
    out = [f'<table class="textdiff textdiff-wide"><colgroup><col class="ln"><col><col class="ln"><col></colgroup>'
           f'<thead><tr><th scope="col"><span class="visually-hidden">{escape(line)}</span></th>'
           f'<th scope="col">{escape(before)}</th><th scope="col"><span class="visually-hidden">{escape(line)}</span>'
           f'</th><th scope="col">{escape(after)}</th></tr></thead><tbody>']
    for row in diff.rows:
        if row.kind == "folded":
            out.append(_folded(row, 4))
            continue
        same = row.kind == "same"
        out.append(f'<tr class="td-{row.kind}">'
                   f'<td class="ln">{_number(row.left, "" if same else "−", removed)}</td>'
                   f'<td class="tx{"" if same or row.left is None else " del"}">{_text(row.left, "del")}</td>'
                   f'<td class="ln">{_number(row.right, "" if same else "+", added)}</td>'
                   f'<td class="tx{"" if same or row.right is None else " ins"}">{_text(row.right, "ins")}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def _narrow(diff: TextDiff, gettext: Gettext, before: str, after: str) -> str:
    removed, added = gettext("removed"), gettext("added")
    out = [f'<table class="textdiff textdiff-narrow"><caption><span class="del">− {escape(before)}</span> '
           f'<span class="ins">+ {escape(after)}</span></caption>'
           f'<colgroup><col class="ln"><col class="ln"><col></colgroup>'
           f'<thead><tr><th scope="col"><span aria-hidden="true">−</span><span class="visually-hidden">{escape(before)}'
           f'</span></th><th scope="col"><span aria-hidden="true">+</span><span class="visually-hidden">{escape(after)}'
           f'</span></th><th scope="col"><span class="visually-hidden">{escape(gettext("Text"))}</span></th></tr></thead>'
           f'<tbody>']
    for row in diff.rows:
        if row.kind == "folded":
            out.append(_folded(row, 3))
        elif row.kind == "same":
            out.append(f'<tr class="td-same"><td class="ln">{_number(row.left, "", "")}</td>'
                       f'<td class="ln">{_number(row.right, "", "")}</td><td class="tx">{_text(row.left, "del")}</td></tr>')
        else:
            if row.left is not None:
                out.append(f'<tr class="td-removed"><td class="ln">{_number(row.left, "−", removed)}</td>'
                           f'<td class="ln"></td><td class="tx del">{_text(row.left, "del")}</td></tr>')
            if row.right is not None:
                out.append(f'<tr class="td-added"><td class="ln"></td><td class="ln">{_number(row.right, "+", added)}'
                           f'</td><td class="tx ins">{_text(row.right, "ins")}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def diff_html(diff: TextDiff, gettext: Gettext, before: str, after: str) -> SafeString:
    """Both tables of ``diff``; ``before`` and ``after`` head the columns of each side."""
    if diff.too_large:
        return mark_safe(f'<p class="muted">{escape(gettext("Too long to compare line by line here: %(a)s and %(b)s lines.") % {"a": diff.lines_before, "b": diff.lines_after})}</p>')  # noqa: E501
    if diff.same:
        return mark_safe(f'<p class="muted">{escape(gettext("The same text on both sides."))}</p>')
    return mark_safe(_wide(diff, gettext, before, after) + _narrow(diff, gettext, before, after))

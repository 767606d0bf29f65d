"""The page's two long lists as HTML: the event table's rows and the story's steps.

They are most of a result page (hundreds of cells), and Django's template engine spends a few
microseconds on every value it prints; written out here they cost a tenth of that, which a
what-if change (a new timeline for the same manifest, issue 14) feels.  Escaped exactly as the
templates escape; `tests/web/test_lists.py` renders the template loops they replace and checks
the two agree byte for byte.
"""
from __future__ import annotations

from html import escape
from typing import Any, Callable

from django.utils.safestring import SafeString, mark_safe

from explainer.web.panels import secs


def rows_html(rows: list[dict[str, Any]]) -> SafeString:
    """``<tr>`` per event: t, container (or "Pod"), event label (its type as the title), detail."""
    return mark_safe("".join(
        f'<tr><td>{secs(r["t"])}</td><td>{escape(str(r["container"] or "Pod"))}</td>'
        f'<td title="{escape(str(r["event"]))}">{escape(str(r["event_label"]))}</td>'
        f'<td>{escape(str(r["detail"]))}</td></tr>' for r in rows))


def steps_html(steps: list[dict[str, Any]], gettext: Callable[[str], str]) -> SafeString:
    """``<li>`` per step of the story (folded crash loops as a <details> of their own steps)."""
    assumed = (f' <span class="assumed" title="'
               f'{escape(gettext("This timing comes from an assumption; set it in the What if panel."))}">'
               f'{escape(gettext("assumed"))}</span>')
    out = []
    for i, s in enumerate(steps):
        container = f' data-container="{escape(str(s["container"]))}"' if s["container"] else ""
        head = f'<span class="t">{secs(s["t"])} s</span> {escape(str(s["text"]))}'
        if s["steps"]:
            inner = "".join(f'<li><span class="t">{secs(c["t"])} s</span> {escape(str(c["text"]))}</li>'
                            for c in s["steps"])
            head = f'<details class="folded"><summary>{head}</summary>\n      <ol>{inner}</ol></details>'
        out.append(f'<li data-t="{escape("%g" % s["t"])}" data-step="{i}"{container}>{head}'
                   f'{assumed if s["assumed"] else ""}</li>')
    return mark_safe("".join(out))

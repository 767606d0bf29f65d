"""The two manifests of a comparison side by side (comparison/textdiff.py), as HTML: `partials/_textdiff.html`.

Two tables of the same rows: side by side (before | after) on wide screens, one column (each changed line
before, then after) on narrow ones; the stylesheet shows one.  Lines wrap rather than scroll, the
characters that differ are <del>/<ins>, and every changed line has a sign (− or +) and, for screen
readers, the word "removed" or "added", so colour is never the only cue.

The template engine costs what Python did not: 0.5 s for the largest diff (4,900 lines a side, 900 of them
changed; 20 ms written out in Python), 3 ms for a manifest of a hundred lines.  The page's two explanations
of texts that long cost more.
"""
from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from explainer.comparison.textdiff import TextDiff


# Both tables of one line-by-line view (wide and narrow, up to 5,000 lines a side) at most this (issue 27): 256 KiB
# manifests that differ everywhere write some megabytes of them, beside two timelines of up to 2 MiB each.
MAX_DIFF_HTML_BYTES = 512 * 1024


def diff_html(diff: TextDiff, before: str, after: str) -> SafeString:
    """Both tables of ``diff`` in the active language; ``before`` and ``after`` head the columns of each side.
    Over MAX_DIFF_HTML_BYTES, a line saying so instead (the page's cap holds by construction)."""
    html = render_to_string("partials/_textdiff.html", {"diff": diff, "before": before, "after": after})
    if len(html) <= MAX_DIFF_HTML_BYTES:
        return html
    return render_to_string("partials/_textdiff.html", {"diff": diff, "left_out": f"{len(html):,}",
                                                        "limit": f"{MAX_DIFF_HTML_BYTES:,}"})

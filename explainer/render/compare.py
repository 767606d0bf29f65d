"""Two explanations on one page: the comparison (`explainer.comparison`) with both timelines of a
Pod on one time axis (issue 5).

`compare(left, right)` is the core's `diff` plus the time window both timelines of a pair share;
`shared_axis_svgs` draws them in it: the same window, t = 0 at the same x and the same width, so a
reader sees a shift at a glance.  The JSON is `render/jsonable.py`'s `comparison_to_dict`.
"""
from __future__ import annotations

from collections.abc import Callable

from ..comparison import Comparison, PodPair, diff, pair_pods, sharing_changes
from ..explain import Explanation, PodReport
from .i18n import gettext_noop as _
from .jsonable import comparison_to_dict
from .timeline import default_view_end, layout_timeline
from .timeline.svg import Placement, svg_document

Gettext = Callable[[str], str]


def compare(left: Explanation, right: Explanation) -> Comparison:
    """What changes from ``left`` to ``right`` (`comparison.diff`), each pair with the one time window
    its two timelines share: the longer of the two default windows."""
    result = diff(left, right)
    for pair in result.pods:
        pair.view_end = shared_window(pair)
    return result


def shared_window(pair: PodPair) -> float:
    return max(default_view_end(r)[0] for r in (pair.left, pair.right) if r is not None)


def shared_axis_svgs(left: PodReport | None, right: PodReport | None, view_end: float, *,
                     gettext: Gettext = _, titles: tuple[str | None, str | None] = (None, None),
                     ) -> tuple[str, str]:
    """Both timelines for one page: the same window (``view_end``, passed to `layout_timeline`),
    t = 0 at the same x and the same width.  A side without a simulation gives ""."""
    reports = (left, right)
    drawn = [r if r is not None and r.simulation is not None else None for r in reports]
    first = [layout_timeline(r, gettext=gettext, view_end=view_end) for r in drawn if r is not None]
    pps = max((lay.px_per_second for lay in first), default=None)   # one scale: the finer of the two
    layouts = [layout_timeline(r, gettext=gettext, view_end=view_end, px_per_second=pps) if r is not None
               else None for r in drawn]
    plot_x = max((lay.plot_x for lay in layouts if lay is not None), default=0.0)
    width = max((plot_x - lay.plot_x + lay.width for lay in layouts if lay is not None), default=0.0)
    out = []
    for side, (r, lay, title) in enumerate(zip(reports, layouts, titles)):
        if r is None or lay is None:
            out.append("")
            continue
        # both sides of one Pod would use the same ids in one page: the right-hand one's get an "r"
        place = Placement(offset=round(plot_x - lay.plot_x, 1), width=width, time_origin=plot_x,
                          view_end=view_end, id_suffix="r" if side == 1 else "")
        out.append(svg_document(r, lay, gettext=gettext, title=title, placement=place))
    return out[0], out[1]


__all__ = ["Comparison", "PodPair", "compare", "comparison_to_dict", "diff", "pair_pods", "shared_axis_svgs",
           "shared_window", "sharing_changes"]

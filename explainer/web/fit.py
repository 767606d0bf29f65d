"""How wide a page draws its charts (issue 25): laid out for the width they are shown at, never a wide
chart scaled down until its text cannot be read.

The page's script measures the chart's panel and sends its width in CSS pixels as ``tlw`` (a form field of
the explain form, a query parameter of a permalink or embed page); the timeline and the rollout picture
are laid out ``DISPLAY_SCALE`` times narrower than that and shown scaled up to it, so that their smallest
text (10 px in the layout: exit codes) shows at 12 CSS px.  Without that measure (a page's first load,
no JavaScript) the charts are laid out for ``DEFAULT_PANEL_PX``, and a second, stacked drawing for a phone
(``PHONE_PANEL_PX``) goes into a ``<noscript>`` for the stylesheet to choose by the panel's width.
"""
from __future__ import annotations

import math
from typing import Any

from django.utils.safestring import mark_safe

DISPLAY_SCALE = 1.2
DEFAULT_PANEL_PX = 800        # the result pane beside the editor on a 1280 px screen, and wider
PHONE_PANEL_PX = 300          # a 360 px phone's panel
MIN_PANEL_PX, MAX_PANEL_PX = 240, 3200
BUCKET_PX = 8                 # widths are rounded down to this: fewer cached variants, a fit never too wide


def panel_px(request: Any) -> int | None:
    """The chart panel's width the request says (``tlw``, POST field or query parameter), rounded
    down to BUCKET_PX within bounds; None when it says none or nothing readable."""
    raw = request.POST.get("tlw") if request.method == "POST" else None
    if raw is None:
        raw = request.GET.get("tlw")
    try:
        px = int(float(str(raw)[:12]))
    except (TypeError, ValueError, OverflowError):     # "inf" is a float but no int
        return None
    px = min(max(px, MIN_PANEL_PX), MAX_PANEL_PX)
    return px - px % BUCKET_PX


def layout_width(px: int) -> float:
    """The layout width (SVG user units) of a chart shown ``px`` CSS pixels wide."""
    return float(math.floor(px / DISPLAY_SCALE))


def picture(svg: str, width: float, px: int, narrow_svg: str = "", narrow_width: float = 0.0) -> dict[str, Any]:
    """What `partials/_picture.html` shows of a chart: the drawing for ``px`` (layout ``width``), and the
    phone's stacked one (put in a <noscript>) when there is one; the stylesheet shows each at DISPLAY_SCALE or
    more, never less, and picks the phone's for a narrow panel when scripts are off (static/css/timeline.css).
    The drawings are the project's own (render/timeline/svg.py and render/rollout/svg.py escape their text)."""
    return {"svg": mark_safe(svg), "width": width, "px": px, "narrow_svg": mark_safe(narrow_svg),
            "narrow_width": narrow_width}

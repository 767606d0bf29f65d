"""The Gantt timeline of one Pod, the public entry: geometry in `layout_timeline`, markup in `render_timeline_svg`."""
from __future__ import annotations

from .layout import default_view_end, layout_timeline, render_timeline_svg, timeline_rows
from .model import (
    AXIS_ROW,
    BAR_INSET,
    FONT,
    GROUP_GAP,
    GUIDE_ROW,
    HEADING_ROW,
    LANE_HEIGHT,
    LEGEND_ROW,
    MARGIN,
    MAX_WIDTH,
    MIN_GAP_PX,
    MIN_WIDTH,
    NAME_MAX,
    RIGHT_PAD,
    ROLE_ORDER,
    SMALL,
    STATES,
    STRIP_GAP,
    STRIP_ROW,
    Arrow,
    Bar,
    Gettext,
    Guide,
    Lane,
    LegendItem,
    Marker,
    Segment,
    StripRow,
    Tick,
    TimelineLayout,
    nice_step,
    text_width,
)
from .walk import lane_containers

__all__ = [
    "AXIS_ROW", "BAR_INSET", "FONT", "GROUP_GAP", "GUIDE_ROW", "HEADING_ROW", "LANE_HEIGHT", "LEGEND_ROW", "MARGIN",
    "MAX_WIDTH", "MIN_GAP_PX", "MIN_WIDTH", "NAME_MAX", "RIGHT_PAD", "ROLE_ORDER", "SMALL", "STATES", "STRIP_GAP",
    "STRIP_ROW", "Arrow", "Bar", "Gettext", "Guide", "Lane", "LegendItem", "Marker", "Segment", "StripRow", "Tick",
    "TimelineLayout", "default_view_end", "lane_containers", "layout_timeline", "nice_step", "render_timeline_svg",
    "text_width", "timeline_rows",
]

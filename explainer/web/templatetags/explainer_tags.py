"""Template helpers: seconds as the timeline writes them, and the what-if panel's rows (web/panels.py)."""
from __future__ import annotations

from typing import Any

from django import template

from explainer.web.panels import debug_target_options, whatif_rows_html

register = template.Library()


@register.filter
def secs(t: Any) -> str:
    """``{{ 1.5|secs }}`` → "1.5", ``{{ 0.0|secs }}`` → "0": seconds as the timeline writes them
    (at most three decimals, no trailing zeros, never an exponent)."""
    try:
        value = round(float(t), 3)
    except (TypeError, ValueError):
        return str(t)
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@register.simple_tag
def whatif_rows(containers: Any, values: Any) -> str:
    """``{% whatif_rows pod.containers whatif_values %}``: the what-if table's rows (web/panels.py)."""
    return whatif_rows_html(containers or [], values)


@register.simple_tag
def debug_targets(containers: Any, selected: Any) -> str:
    """``{% debug_targets pod.containers pod_controls.debug_target %}``: the debug target's options."""
    return debug_target_options(containers or [], selected)

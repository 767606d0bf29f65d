"""Template helpers: one dictionary look-up by a variable key (Django templates have none)."""
from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """``{{ values|lookup:name }}``: mapping[key], or an empty dict when absent."""
    if isinstance(mapping, dict):
        return mapping.get(key, {})
    return {}


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

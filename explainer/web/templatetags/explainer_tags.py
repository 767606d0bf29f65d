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

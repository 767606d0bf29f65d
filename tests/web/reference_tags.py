"""The one filter the what-if panel's template used before the panel was written out in Python
(web/panels.py); tests/web/test_panels.py renders that template as the reference."""
from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """``{{ values|lookup:name }}``: mapping[key], or an empty dict when absent."""
    return mapping.get(key, {}) if isinstance(mapping, dict) else {}

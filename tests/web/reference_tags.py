"""Filters of the reference templates that tests/web/test_panels.py renders to check web/panels.py: the one
the what-if panel's template used before the panel was written out in Python, and `code_tag` for the
pitfalls panel's link to the rules page."""
from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """``{{ values|lookup:name }}``: mapping[key], or an empty dict when absent."""
    return mapping.get(key, {}) if isinstance(mapping, dict) else {}


@register.filter
def code_tag(value: Any) -> SafeString:
    """``{{ id|code_tag }}``: the value escaped, in ``<code>``."""
    return mark_safe(f"<code>{escape(value)}</code>")

"""Template helpers: seconds as the timeline writes them, a value of a mapping by key, a rule id as code."""
from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from explainer.web.panels import secs

register = template.Library()


register.filter("secs", secs)


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """``{{ values|lookup:name }}``: mapping[key], or an empty dict when absent (what the reader typed in
    the what-if panel, per container)."""
    return mapping.get(key, {}) if isinstance(mapping, dict) else {}


@register.filter
def code_tag(value: Any) -> SafeString:
    """``{{ id|code_tag }}``: the value escaped, in ``<code>``."""
    return format_html("<code>{}</code>", value)

"""Template helpers: seconds as the timeline writes them, a value of a mapping by key, a rule id as code,
and what the cluster shows (web/observed_panel.py) in a Pod's article."""
from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from explainer.web.observed_panel import observed_html
from explainer.web.panels import secs
from explainer.web.present import active_gettext

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


@register.simple_tag(takes_context=True)
def observed_panel(context: Any, pod: Any, counter: int) -> str:
    """``{% observed_panel pod counter %}``: what the cluster shows about the ``counter``-th Pod of the page
    (web/observed_panel.py)."""
    return mark_safe(observed_html(pod.observed, counter, active_gettext(), context.get("link_id")))

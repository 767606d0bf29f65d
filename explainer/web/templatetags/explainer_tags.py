"""Template helpers: seconds as the timeline writes them, a value of a mapping by key, a rule id as code."""
from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

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


@register.simple_tag(takes_context=True)
def jinja(context: Any, name: str, **extra: Any) -> SafeString:
    """``{% jinja "partials/_pod.html" counter=n %}``: a Jinja2 partial (web/jinja.py) rendered with this
    template's context and ``extra``, as ``{% include ... with ... %}`` renders a Django one."""
    from django.template import engines   # the engines are ready once a template renders

    flat = context.flatten()
    flat.update(extra)
    return mark_safe(engines["jinja2"].get_template(name).render(flat, flat.get("request")))   # noqa: S308

"""Template helpers: seconds as the timeline writes them; a Pod's article and the what-if panel, written
out in Python (web/panels.py)."""
from __future__ import annotations

from typing import Any

from django import template

from django.utils.safestring import mark_safe

from explainer.web.observed_panel import observed_html
from explainer.web.panels import pod_html, secs, whatif_panel_html
from explainer.web.present import active_gettext

register = template.Library()


register.filter("secs", secs)


@register.simple_tag(takes_context=True)
def pod_article(context: Any, pod: Any) -> str:
    """``{% pod_article pod %}`` inside the page's loop over Pods: the Pod's article (web/panels.py)."""
    return pod_html(pod, context["forloop"]["counter"], active_gettext(), context.get("link_id"))


@register.simple_tag(takes_context=True)
def observed_panel(context: Any, pod: Any) -> str:
    """``{% observed_panel pod %}``: what the cluster shows (web/observed_panel.py), for the reference template."""
    return mark_safe(observed_html(pod.observed, context["forloop"]["counter"], active_gettext(),
                                   context.get("link_id")))


@register.simple_tag(takes_context=True)
def whatif_panel(context: Any) -> str:
    """``{% whatif_panel %}``: the what-if panel (web/panels.py), from the page's context."""
    return whatif_panel_html(context, active_gettext())

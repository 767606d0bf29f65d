"""Template helpers: seconds as the timeline writes them; a Pod's article and the what-if panel's rows,
written out in Python (web/panels.py)."""
from __future__ import annotations

from typing import Any

from django import template

from explainer.web.panels import debug_target_options, pod_html, secs, whatif_rows_html
from explainer.web.present import active_gettext

register = template.Library()


register.filter("secs", secs)


@register.simple_tag
def whatif_rows(containers: Any, values: Any) -> str:
    """``{% whatif_rows pod.containers whatif_values %}``: the what-if table's rows (web/panels.py)."""
    return whatif_rows_html(containers or [], values)


@register.simple_tag
def debug_targets(containers: Any, selected: Any) -> str:
    """``{% debug_targets pod.containers pod_controls.debug_target %}``: the debug target's options."""
    return debug_target_options(containers or [], selected)


@register.simple_tag(takes_context=True)
def pod_article(context: Any, pod: Any) -> str:
    """``{% pod_article pod %}`` inside the page's loop over Pods: the Pod's article (web/panels.py)."""
    return pod_html(pod, context["forloop"]["counter"], active_gettext())

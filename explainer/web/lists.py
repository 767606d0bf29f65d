"""The page's two long lists, rendered when a Pod's view is made (present.py keeps them with the view,
so a cached page does not render them again): the event table's rows (`templates/jinja2/partials/_rows.html`, Jinja2: web/jinja.py) and the
story's steps (`templates/jinja2/partials/_steps.html`, also a rollout's story in web/rollout_panel.py)."""
from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe


def rows_html(rows: list[dict[str, Any]]) -> SafeString:
    """``<tr>`` per event: t, container (or "Pod"), event label (its type as the title), detail."""
    return mark_safe(render_to_string("partials/_rows.html", {"rows": rows}, using="jinja2"))   # noqa: S308 - the template escapes what it prints


def steps_html(steps: list[dict[str, Any]]) -> SafeString:
    """``<li>`` per step of the story (folded crash loops as a <details> of their own steps), in the
    active language."""
    return mark_safe(render_to_string("partials/_steps.html", {"steps": steps}, using="jinja2"))   # noqa: S308 - the template escapes what it prints

"""The parts of a result page that are worked out before the page renders: a Pod's pitfalls (findings)
panel, rendered from `templates/jinja2/partials/_findings.html` (Jinja2: web/jinja.py) when its view is made (present.py keeps it with the
view, so a cached page does not render it again), and how the page writes seconds.

A Pod's article (`partials/_pod.html`) and the what-if panel (`partials/_whatif.html`) are templates the
page includes.
"""
from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe


def secs(t: Any) -> str:
    """``{{ 1.5|secs }}`` → "1.5", ``{{ 0.0|secs }}`` → "0": seconds as the timeline writes them
    (at most three decimals, no trailing zeros, never an exponent)."""
    try:
        value = round(float(t), 3)
    except (TypeError, ValueError):
        return str(t)
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def findings_html(pod: Any, counter: int) -> SafeString:
    """The pitfalls panel of the ``counter``-th Pod of the page (1-based), in the active language."""
    return mark_safe(render_to_string("partials/_findings.html", {"pod": pod, "counter": counter}, using="jinja2"))   # noqa: S308 - the template escapes what it prints

"""The Jinja2 environment of the partials a result page renders for every analysis: a Pod's article
(`_pod.html`, with `_qos.html`), the what-if panel (`_whatif.html`), the event table's rows, the story's
steps and the pitfalls panel (`templates/jinja2/partials/`; web/lists.py, web/panels.py).

They are rendered anew for each what-if change, and Django's template language takes ~10 µs per printed
value, Jinja2 about a third of that (issue 24 allows this backend for these partials: the `make bench` row
"what-if / one dot" is their budget).  The pages around them stay Django templates and include them with
``{% jinja "partials/_pod.html" counter=... %}`` (templatetags/explainer_tags.py); they include the few
Django partials they share with other pages (`_picture.html`, `_observed.html`) with ``dtl(...)``.

As in the Django templates: text goes through Django's translation machinery (``{% trans %}`` blocks call
gettext/ngettext for the active language; newstyle: the message is a format string, its variables
escaped), values print escaped and SafeStrings (``__html__``) as they are, and a name the context lacks
prints nothing, even followed by ``.field`` (ChainableUndefined, as Django's silent variable failure).
`tests/test_i18n.py` reads the messages of these templates with Jinja2's own extractor.
"""
from __future__ import annotations

import html
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from jinja2 import ChainableUndefined, Environment, Undefined
from markupsafe import Markup

from explainer.web.panels import secs
from explainer.web.templatetags.explainer_tags import code_tag, lookup


def dtl(name: str, **context: Any) -> SafeString:
    """A Django partial (``name``) rendered with ``context``: the few that Django pages share."""
    return mark_safe(render_to_string(name, context))   # noqa: S308 - a template's own escaped output


def field_value(form: Any, name: str) -> Any:
    """A bound form field's value, "" when there is no form or no value (``{{ form.x.value|default_if_none:"" }}``)."""
    if form is None or isinstance(form, Undefined):
        return ""
    try:
        value = form[name].value()
    except (KeyError, TypeError, AttributeError):
        return ""
    return "" if value is None else value


def _escaped(value: Any) -> Any:
    """Each printed value escaped by Django's rules (``&#x27;``, ``&quot;``), as a Django template writes it:
    a page reads the same whichever engine drew its parts.  SafeStrings and Markup print as they are."""
    if hasattr(value, "__html__"):
        return value
    return Markup(html.escape(str(value)))   # what django.utils.html.escape does, without its lazy-text wrapper


def environment(**options: Any) -> Environment:
    # Django's backend passes Undefined (DebugUndefined under DEBUG, which prints the missing name): here a
    # missing name prints nothing in either, as in the Django templates
    options = {**options, "undefined": ChainableUndefined, "autoescape": True}
    env = Environment(**{"extensions": ["jinja2.ext.i18n"], "keep_trailing_newline": True, "finalize": _escaped,
                         **options})
    env.install_gettext_callables(translation.gettext, translation.ngettext, newstyle=True)   # type: ignore[attr-defined]
    env.filters.update({"secs": secs, "code_tag": code_tag, "lookup": lookup})
    env.globals.update({"url": reverse, "dtl": dtl, "field_value": field_value})
    return env

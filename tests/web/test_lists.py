"""The event table's rows and the story's steps, written out in Python (web/lists.py), are byte
for byte what the template loops they replace rendered, in both languages."""
from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from explainer.examples import EXAMPLES
from explainer.explain import explain
from explainer.web.lists import rows_html, steps_html
from explainer.web.present import present

ROWS = ('{% load explainer_tags %}{% for row in pod.rows %}<tr><td>{{ row.t|secs }}</td><td>{{ row.container|default:"Pod" }}'
        '</td><td title="{{ row.event }}">{{ row.event_label }}</td><td>{{ row.detail }}</td></tr>{% endfor %}')
STEPS = ("""{% load i18n explainer_tags %}{% for s in pod.steps %}<li data-t="{{ s.t|stringformat:'g' }}" data-step="{{ forloop.counter0 }}"{% if s.container %} data-container="{{ s.container }}"{% endif %}>{% if s.steps %}<details class="folded"><summary><span class="t">{{ s.t|secs }} s</span> {{ s.text }}</summary>
      <ol>{% for c in s.steps %}<li><span class="t">{{ c.t|secs }} s</span> {{ c.text }}</li>{% endfor %}</ol></details>{% else %}<span class="t">{{ s.t|secs }} s</span> {{ s.text }}{% endif %}{% if s.assumed %} <span class="assumed" title="{% translate 'This timing comes from an assumption; set it in the What if panel.' %}">{% translate "assumed" %}</span>{% endif %}</li>{% endfor %}""")
HOSTILE = {"t": 1.5, "container": "a<b>&\"'", "event": "x\"<y>", "event_label": "<i>", "detail": "&amp; '\""}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.slug)
def test_the_lists_are_what_the_template_loops_rendered(example, language: str) -> None:
    with translation.override(language):
        for pod in present(explain(example.manifest(), example.scenario or None)):
            assert rows_html(pod.rows) == Template(ROWS).render(Context({"pod": pod}))
            assert steps_html(pod.steps, translation.gettext) == Template(STEPS).render(Context({"pod": pod}))


def test_markup_in_the_values_is_escaped_as_the_template_escapes_it() -> None:
    rows = [HOSTILE, {**HOSTILE, "container": "", "t": 0.0}]
    assert rows_html(rows) == Template(ROWS).render(Context({"pod": {"rows": rows}}))
    steps = [{"t": 2.25, "text": "<script>&", "assumed": True, "container": "c\"1",
              "steps": [{"t": 3.0, "text": "'quoted'", "container": None}]},
             {"t": 1e-4, "text": "plain", "assumed": False, "container": None, "steps": []}]
    assert steps_html(steps, translation.gettext) == Template(STEPS).render(Context({"pod": {"steps": steps}}))

"""The event table's rows and the story's steps (web/lists.py, partials/_rows.html and _steps.html):
one row or item each, values escaped, seconds as the timeline writes them, labels translated."""
from __future__ import annotations

from django.utils import translation

from explainer.examples import EXAMPLES
from explainer.explain import explain
from explainer.web.lists import rows_html, steps_html
from explainer.web.present import present

HOSTILE = {"t": 1.5, "container": "a<b>&\"'", "event": "x\"<y>", "event_label": "<i>", "detail": "&amp; '\""}


def test_each_row_of_the_event_table_escapes_its_values() -> None:
    html = rows_html([HOSTILE, {**HOSTILE, "container": "", "t": 0.0}])
    assert html == ('<tr><td>1.5</td><td>a&lt;b&gt;&amp;&quot;&#x27;</td><td title="x&quot;&lt;y&gt;">&lt;i&gt;</td>'
                    '<td>&amp;amp; &#x27;&quot;</td></tr>'
                    '<tr><td>0</td><td>Pod</td><td title="x&quot;&lt;y&gt;">&lt;i&gt;</td>'
                    '<td>&amp;amp; &#x27;&quot;</td></tr>')


def test_the_steps_fold_a_crash_loop_and_mark_an_assumed_timing() -> None:
    steps = [{"t": 2.25, "text": "<script>&", "assumed": True, "container": "c\"1",
              "steps": [{"t": 3.0, "text": "'quoted'", "container": None}]},
             {"t": 1e-4, "text": "plain", "assumed": False, "container": None, "steps": []}]
    html = steps_html(steps)
    assert html.startswith('<li data-t="2.25" data-step="0" data-container="c&quot;1"><details class="folded">'
                           '<summary><span class="t">2.25 s</span> &lt;script&gt;&amp;</summary>')
    assert '<ol><li><span class="t">3 s</span> &#x27;quoted&#x27;</li></ol></details> <span class="assumed"' in html
    assert html.endswith('<li data-t="0.0001" data-step="1"><span class="t">0 s</span> plain</li>')
    with translation.override("zh-hans"):
        chinese = steps_html(steps)
    assert 'class="assumed"' in chinese and ">assumed</span>" in html and ">assumed</span>" not in chinese


def test_every_example_has_a_row_per_event_and_an_item_per_step() -> None:
    for example in EXAMPLES:
        for pod in present(explain(example.manifest(), example.scenario or None)):
            assert pod.rows_html.count("<tr>") == len(pod.rows)
            assert pod.steps_html.count('<li data-t="') == len(pod.steps)

"""The parts of a result page in their templates: the pitfalls panel (web/panels.py `findings_html`,
partials/_findings.html), a Pod's article (partials/_pod.html) and the what-if panel
(partials/_whatif.html): values escaped, labels translated, ids numbered by the Pod's place on the page."""
from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from explainer.examples import EXAMPLES
from explainer.explain import explain
from explainer.web.panels import findings_html, secs
from explainer.web.present import PodView, present

HOSTILE = {"id": "x<y>", "severity": "error", "title": "<b>&", "container": "c\"1", "line": 12345,
           "explanation": "'quoted' & <i>", "fix": "a: <b>\n", "fixable": True,
           "references": ["https://example.test/?a=1&b=<2>"]}


class _Pod:
    findings = [HOSTILE, {**HOSTILE, "container": "d"}, {**HOSTILE, "severity": "info", "line": None,
                                                         "fixable": False, "fix": "", "references": []}]
    severity_counts = [("error", 2), ("info", 1)]
    finding_groups = [{**HOSTILE, "members": findings[:2], "grouped": True},
                      {**findings[2], "members": findings[2:], "grouped": False}]


@pytest.mark.parametrize(("value", "written"), [(1.5, "1.5"), (0.0, "0"), (-0.0001, "0"), (2.0004, "2"),
                                                (1e-7, "0"), (12345.6789, "12345.679"), ("x", "x")])
def test_seconds_are_written_as_the_timeline_writes_them(value, written: str) -> None:
    assert secs(value) == written


def test_markup_in_a_findings_values_is_escaped() -> None:
    html = findings_html(_Pod(), 3)
    assert "<b>&" not in html and "<i>" not in html and "x<y>" not in html
    assert "<strong>&lt;b&gt;&amp;</strong>" in html
    assert "&#x27;quoted&#x27; &amp; &lt;i&gt;" in html
    assert '<code>c&quot;1</code>' in html and '<code>d</code>' in html
    assert '<code>a: &lt;b&gt;\n</code>' in html
    assert 'href="https://example.test/?a=1&amp;b=&lt;2&gt;"' in html
    assert '<code>x&lt;y&gt;</code>' in html                    # the rule's id in "About the rule …"
    # the panel and its fixes numbered by the Pod's place: findings-3, fix-3-1
    assert 'id="findings-3"' in html and 'id="fix-3-1"' in html and 'data-copy="#fix-3-1"' in html
    assert html.count('class="apply-fix"') == 2                  # each fixable member of the group
    assert '<span class="group-count">— 2 containers</span>' in html
    assert html.count('<label class="sev-') == 2


def test_a_pod_without_findings_says_so_in_the_readers_language() -> None:
    class Empty:
        findings: list = []
        severity_counts: list = []
        finding_groups: list = []

    assert "No pitfalls found." in findings_html(Empty(), 1)
    with translation.override("zh-hans"):
        html = findings_html(Empty(), 1)
    assert "No pitfalls found." not in html and "<h3>" in html and 'class="severity-filter"' not in html


def _hostile_pod() -> PodView:
    pod = PodView("a<b>", "Pod&", 3, False, [{"message": "<x> & 'y'", "line": 7}, {"message": "\"q\"", "line": None}],
                  ["note <b>", "'n'"])
    pod.final = {"status": "<S>", "phase": "P&", "ready_count": "1/2", "restarts": 12345, "t": 2.5}
    pod.qos_class = "Burstable<"
    pod.headline = "Deleted at <1> s; 'a' & \"b\""
    pod.timeline_svg, pod.timeline_json = "<svg/>", '{"a":"<&\'\">"}'
    pod.rows_html, pod.steps_html = mark_safe("<tr></tr>"), "<li>unsafe</li>"
    pod.steps = [{"t": 1}]
    pod.assumed = [{"container": "c<1>", "field": "f&", "why": "w'"}]
    pod.findings_html = mark_safe("<section></section>")
    pod.traffic_notes = ["<b>propagation</b> & 'x'", '"y"']
    pod.rollout_html = "<section>not marked safe: escaped</section>"
    pod.containers = [{"name": "c<1>", "line": 9}, {"name": "d&"}]
    pod.svg = "<svg width=\"150pt\" id='d'/>"
    pod.timeline_fit, pod.timeline_width = 800, 666.5
    pod.timeline_svg_narrow, pod.timeline_narrow_width = "<svg id='n'/>", 250.0
    return pod


def test_a_pods_article_escapes_its_values_and_keeps_its_pictures() -> None:
    html = render_to_string("partials/_pod.html", {"pod": _hostile_pod(), "counter": 2})
    lines = "{&quot;pod&quot;:3,&quot;containers&quot;:{&quot;c&lt;1&gt;&quot;:9}}"    # where each starts (source.js)
    assert html.startswith(f'\n<article class="pod" id="pod-2" data-lines="{lines}">') and html.endswith("</article>\n")
    assert "<h2>Pod&amp; <span class=\"name\">a&lt;b&gt;</span></h2>" in html
    assert '<p class="headline">Deleted at &lt;1&gt; s; &#x27;a&#x27; &amp; &quot;b&quot;</p>' in html
    assert '<span class="pill status">&lt;S&gt;</span>' in html and "QoS class Burstable&lt;" in html
    assert '<span class="muted">at 2.5 s</span>' in html
    assert 'data-line="7">line 7</a> &lt;x&gt; &amp; &#x27;y&#x27;</li><li>&quot;q&quot;</li>' in html
    assert '<p class="note">note &lt;b&gt;</p>' in html
    assert 'data-timeline="pod-2" data-tl="{&quot;a&quot;:&quot;&lt;&amp;&#x27;\\&quot;&gt;&quot;}"' in html \
        or 'data-tl="{&quot;a&quot;:&quot;&lt;&amp;&#x27;&quot;&gt;&quot;}"' in html
    assert ('<div class="tl-fit"><div class="timeline timeline-wide" data-fit="800" style="--tl-w:666.5"><svg/></div>'
            '<noscript><div class="timeline timeline-narrow" style="--tl-w:250"><svg id=\'n\'/></div></noscript></div>'
            in html) and "<tbody><tr></tr></tbody>" in html
    assert "<li>&lt;b&gt;propagation&lt;/b&gt; &amp; &#x27;x&#x27;</li>" in html
    assert "<section></section>" in html                                   # the pitfalls panel, as rendered
    assert "<ol>&lt;li&gt;unsafe&lt;/li&gt;</ol>" in html                   # not marked safe: text
    assert "<code>c&lt;1&gt;.f&amp;</code>: w&#x27;" in html
    assert "&lt;section&gt;not marked safe: escaped&lt;/section&gt;" in html
    assert 'role="img" style="--dg-w:200" aria-label=' in html       # Graphviz's 150 pt, in CSS px
    assert "share: c&lt;1&gt;, d&amp;\"><svg width=\"150pt\" id='d'/></div>" in html and 'data-diagram="pod-2"' in html


def test_a_pods_article_links_a_diagram_drawn_later_and_shows_the_dot_source_of_one_that_failed() -> None:
    lazy = PodView("p", "Pod", 1, True, [], [])
    lazy.diagram_url = "/diagram/x.svg?a=1&b=2"
    html = render_to_string("partials/_pod.html", {"pod": lazy, "counter": 1})
    assert '<img src="/diagram/x.svg?a=1&amp;b=2" loading="lazy"' in html and "<article" in html
    broken = PodView("p", "Pod", 1, True, [], [])
    broken.error, broken.diagram_dot = "dot <failed>", "digraph { a -> b }"
    html = render_to_string("partials/_pod.html", {"pod": broken, "counter": 4})
    assert '<p class="error">dot &lt;failed&gt;</p>' in html
    assert '<pre id="dot-4" tabindex="0">digraph { a -&gt; b }</pre>' in html and 'data-copy="#dot-4"' in html


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("example", EXAMPLES[:6], ids=lambda e: e.slug)
def test_every_pod_of_an_example_has_its_article_with_its_panels(example, language: str) -> None:
    with translation.override(language):
        pods = present(explain(example.manifest(), example.scenario or None, observed=example.observed()))
        for i, pod in enumerate(pods, 1):
            html = render_to_string("partials/_pod.html", {"pod": pod, "counter": i})
            assert f'<article class="pod" id="pod-{i}" data-lines="' in html and f'id="findings-{i}"' in html
            assert pod.findings_html in html and (not pod.steps or pod.steps_html in html)


def _whatif(**context) -> str:
    return render_to_string("partials/_whatif.html", context)


def test_the_what_if_panel_shows_what_the_reader_typed_escaped() -> None:
    example = EXAMPLES[0]
    pods = present(explain(example.manifest(), example.scenario or None))
    name = pods[0].containers[0]["name"]
    pods[0].containers.append({**pods[0].containers[0], "name": "dbg<1>", "role": "ephemeral"})
    typed = {name: {"crashes": "2", "startup": "", "run": "<5>", "ignore_term": "on"}}
    html = _whatif(pods=pods, whatif_values=typed, scenario_yaml="deleteAt: <30>\n",
                   pod_controls={"delete_at": "30", "debug_target": name, "debug_image": "a\"b"})
    assert f'name="c.{name}.crashes" value="2"' in html and f'name="c.{name}.run" value="&lt;5&gt;"' in html
    assert f'<label class="tap"><input type="checkbox" name="c.{name}.ignore_term" checked' in html
    assert "dbg&lt;1&gt;" not in html and "dbg<1>" not in html       # a debug container has no row, no target
    assert f'<option value="{name}" selected>{name}</option>' in html
    assert 'name="debug_image" value="a&quot;b"' in html and 'name="delete_at" value="30"' in html
    assert '<pre class="scenario-effective">deleteAt: &lt;30&gt;\n</pre>' in html
    assert html.startswith('\n<details id="what-if" class="what-if" open hx-swap-oob="">')


def test_the_what_if_panel_without_a_pod_asks_for_a_manifest_and_shows_the_scenarios_errors() -> None:
    from explainer.web.forms import ExplainForm
    bad = ExplainForm({"manifest": "", "version": "1.34", "scenario": "x: <1>"})
    bad.is_valid()
    bad.add_error("scenario", "bad <scenario> & 'more'")
    html = _whatif(form=bad)
    assert "Explain a manifest first: its containers appear here." in html and "whatif-table" not in html
    assert 'id="scenario" aria-invalid="true">\nx: &lt;1&gt;</textarea>' in html
    assert "<li>bad &lt;scenario&gt; &amp; &#x27;more&#x27;</li>" in html


def test_the_what_if_panel_has_the_traffic_and_rollout_controls_of_a_workload() -> None:
    example = EXAMPLES[0]
    pods = present(explain(example.manifest(), example.scenario or None))
    pods[0].traffic_info = {"propagation": "5<", "assumed": True, "others": "2&"}
    pods[0].rollout_info = {"kind": "DaemonSet", "replicas": '3"', "nodes": "<4>"}
    pods[0].containers[0] = {**pods[0].containers[0], "readiness": False, "probes": True}
    name = pods[0].containers[0]["name"]
    html = _whatif(pods=pods, newrev_values={name: {"never_ready": "on", "startup": "<7>"}},
                   pod_controls={"traffic_propagation": "<1>", "rollout_nodes": "'4'"})
    assert 'name="traffic_propagation" value="&lt;1&gt;" placeholder="5&lt;"' in html
    assert '<span class="muted assumed-value">assumed: 5&lt; s</span>' in html
    assert 'placeholder="2&amp;"' in html and 'placeholder="3&quot;"' in html
    assert 'name="rollout_nodes" value="&#x27;4&#x27;" placeholder="&lt;4&gt;"' in html
    tap = '<label class="tap"><input type="checkbox" name='              # a 44 px target on a phone
    assert f'{tap}"n.{name}.never_ready" checked disabled title="No readinessProbe' in html
    assert f'{tap}"n.{name}.crashes" aria-label' in html
    assert f'name="n.{name}.startup" value="&lt;7&gt;" aria-label' in html
    pods[0].rollout_info = {"kind": "Deployment", "replicas": 10, "nodes": 1}
    html = _whatif(pods=pods, newrev_values="not a mapping")
    assert 'name="rollout_nodes"' not in html and f'name="n.{name}.never_ready" disabled' in html

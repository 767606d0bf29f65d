"""The parts of a result page written out in Python (web/panels.py) are byte for byte what the templates
they replace rendered (kept here as references: partials/_findings.html with partials/_apply_fix.html
inlined, partials/_pod.html, partials/_whatif.html), for every example and the real-world fixtures, in
both languages, and for values full of markup."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.template import Context, Engine, Template
from django.utils import translation

from explainer.examples import EXAMPLES
from explainer.explain import explain
from explainer.web.panels import findings_html, pod_html, whatif_panel_html
from explainer.web.present import present

FINDINGS = """{% load i18n reference_tags %}
<section class="panel findings" id="findings-{{ forloop.counter|default:0 }}">
  <h3>{% translate "Pitfalls" %} <span class="count">{{ pod.findings|length }}</span></h3>
  {% if pod.severity_counts|length > 1 %}
  <fieldset class="severity-filter">
    <legend>{% translate "Show" %}</legend>
    {% for sev, n in pod.severity_counts %}
    <label class="sev-{{ sev }}"><input type="checkbox" value="{{ sev }}" checked>
      {% if sev == "error" %}{% translate "errors" %}{% elif sev == "warning" %}{% translate "warnings" %}{% else %}{% translate "info" %}{% endif %} ({{ n }})</label>
    {% endfor %}
  </fieldset>
  {% endif %}
  {% for f in pod.finding_groups %}
  <details class="finding sev-{{ f.severity }}" {% if f.severity == "error" %}open{% endif %}>
    <summary>
      <span class="sev">{{ f.severity }}</span>
      <strong>{{ f.title }}</strong>
      {% if f.grouped %}<span class="group-count">{% blocktranslate count n=f.members|length %}— {{ n }} container{% plural %}— {{ n }} containers{% endblocktranslate %}</span>
      {% else %}{% if f.container %}<code>{{ f.container }}</code>{% endif %}
      {% if f.line %}<span class="muted">{% blocktranslate with line=f.line %}line {{ line }}{% endblocktranslate %}</span>{% endif %}{% endif %}
      <span class="rule-id muted">{{ f.id }}</span>
    </summary>
    {% if f.grouped %}
    <p>{{ f.explanation_html|default:f.explanation }}</p>
    <p class="muted">{% translate "The same for each of these containers:" %}</p>
    <ul class="group-members">{% for m in f.members %}
      <li><code>{{ m.container }}</code>{% if m.line %} <a href="#" class="line-link" data-line="{{ m.line }}">{% blocktranslate with line=m.line %}line {{ line }}{% endblocktranslate %}</a>{% endif %}{% if m.fixable %} {% with f=m %}<button type="button" class="apply-fix" hidden data-url="{% url 'web:fix' %}" data-rule="{{ f.id }}" data-container="{{ f.container|default:'' }}" data-line="{{ f.line|default:'' }}" data-undo-label="{% translate 'Undo fix' %}" title="{% translate 'Change the editor’s text as shown, then explain it again' %}">{% translate "Apply fix" %}</button>
{% endwith %}{% endif %}</li>
    {% endfor %}</ul>
    {% else %}
    <p>{% if f.line %}<a href="#" class="line-link" data-line="{{ f.line }}">{% blocktranslate with line=f.line %}line {{ line }}{% endblocktranslate %}</a>: {% endif %}{{ f.explanation_html|default:f.explanation }}</p>
    {% endif %}
    {% if f.fix %}
    <div class="fix">
      <div class="fix-head"><span>{% if f.grouped %}{% blocktranslate with c=f.container %}Write instead (shown for {{ c }}; the same for each container, with its name){% endblocktranslate %}{% else %}{% translate "Write instead" %}{% endif %}</span>
        <button type="button" class="copy" data-copy="#fix-{{ forloop.parentloop.counter|default:0 }}-{{ forloop.counter }}">{% translate "Copy" %}</button>
        {% if f.fixable and not f.grouped %}<button type="button" class="apply-fix" hidden data-url="{% url 'web:fix' %}" data-rule="{{ f.id }}" data-container="{{ f.container|default:'' }}" data-line="{{ f.line|default:'' }}" data-undo-label="{% translate 'Undo fix' %}" title="{% translate 'Change the editor’s text as shown, then explain it again' %}">{% translate "Apply fix" %}</button>
{% endif %}</div>
      <pre id="fix-{{ forloop.parentloop.counter|default:0 }}-{{ forloop.counter }}" tabindex="0"><code>{{ f.fix }}</code></pre>
    </div>
    {% endif %}
    <p class="refs"><a class="rule-link" href="{% url 'web:rules' %}#{{ f.id }}">{% blocktranslate with id=f.id|code_tag %}About the rule {{ id }}{% endblocktranslate %}</a>{% for ref in f.references %} · <a href="{{ ref }}" rel="noopener noreferrer" target="_blank">{{ ref }}</a>{% endfor %}</p>
  </details>
  {% empty %}
  <p class="muted">{% translate "No pitfalls found." %}</p>
  {% endfor %}
</section>
"""
PAGE = "{% for pod in pods %}" + FINDINGS + "{% endfor %}"
REALWORLD = sorted(Path(__file__).parents[1].joinpath("fixtures", "realworld").glob("*.yaml"))[:40]


def _both(manifest: str, scenario=None, observed=None) -> None:
    pods = present(explain(manifest, scenario, observed=observed))
    written = "".join(findings_html(p, i, translation.gettext, translation.ngettext) for i, p in enumerate(pods, 1))
    assert written == REFERENCE.from_string(PAGE).render(Context({"pods": pods}))
    _pods_both_ways(pods)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.slug)
def test_the_panels_are_what_the_templates_rendered(example, language: str) -> None:
    with translation.override(language):
        _both(example.manifest(), example.scenario or None, example.observed())


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_panels_are_what_the_templates_rendered_on_real_world_manifests(language: str) -> None:
    assert len(REALWORLD) >= 20
    with translation.override(language):
        for path in REALWORLD:
            _both(path.read_text(encoding="utf-8"))


HOSTILE = {"id": "x<y>", "severity": "error", "title": "<b>&", "container": "c\"1", "line": 12345,
           "explanation": "'quoted' & <i>", "fix": "a: <b>\n", "fixable": True,
           "references": ["https://example.test/?a=1&b=<2>"]}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_markup_in_the_values_is_escaped_as_the_template_escapes_it(language: str) -> None:
    class Pod:
        findings = [HOSTILE, {**HOSTILE, "container": "d"}, {**HOSTILE, "severity": "info", "line": None,
                                                             "fixable": False, "fix": "", "references": []}]
        severity_counts = [("error", 2), ("info", 1)]
        finding_groups = [{**HOSTILE, "members": findings[:2], "grouped": True},
                          {**findings[2], "members": findings[2:], "grouped": False}]

    class Empty:
        findings: list = []
        severity_counts: list = []
        finding_groups: list = []

    with translation.override(language):
        for pod in (Pod(), Empty()):
            written = findings_html(pod, 1, translation.gettext, translation.ngettext)
            assert written == REFERENCE.from_string(PAGE).render(Context({"pods": [pod]}))



POD = """{% load i18n explainer_tags %}
<article class="pod" id="pod-{{ forloop.counter }}" data-lines="{{ pod.source_lines }}">
  <header class="pod-head">
    <h2>{{ pod.kind }} <span class="name">{{ pod.name }}</span></h2>
    {% if pod.headline %}<p class="headline">{{ pod.headline }}</p>
    {% endif %}{% if pod.final %}
    <p class="summary">
      <span class="pill status">{{ pod.final.status }}</span>
      <span class="pill">{% translate "phase" %} {{ pod.final.phase }}</span>
      <span class="pill">{% translate "READY" %} {{ pod.final.ready_count }}</span>
      <span class="pill">{% translate "RESTARTS" %} {{ pod.final.restarts }}</span>
      <span class="muted">{% blocktranslate with t=pod.final.t|secs %}at {{ t }} s{% endblocktranslate %}</span>
      {% if pod.qos_class %}<span class="pill qos" title="{% translate "QoS class: the order in which the kubelet evicts Pods when the node runs short (BestEffort first, Guaranteed last)" %}">{% blocktranslate with qos=pod.qos_class %}QoS class {{ qos }}{% endblocktranslate %}</span>{% endif %}
    </p>
    {% elif pod.qos_class %}
    <p class="summary"><span class="pill qos" title="{% translate "QoS class: the order in which the kubelet evicts Pods when the node runs short (BestEffort first, Guaranteed last)" %}">{% blocktranslate with qos=pod.qos_class %}QoS class {{ qos }}{% endblocktranslate %}</span></p>
    {% endif %}
  </header>
  {% if not pod.admitted %}
  <div class="rejected" role="alert">
    <p><strong>{% translate "The API server would reject this Pod, so it never runs." %}</strong></p>
    <ul>{% for e in pod.errors %}<li>{% if e.line %}<a href="#" class="line-link" data-line="{{ e.line }}">{% blocktranslate with line=e.line %}line {{ line }}{% endblocktranslate %}</a> {% endif %}{{ e.message }}</li>{% endfor %}</ul>
  </div>
  {% endif %}
  {% for note in pod.notes %}<p class="note">{{ note }}</p>{% endfor %}

  {% if pod.timeline_svg %}
  <section class="panel tl-panel" data-timeline="pod-{{ forloop.counter }}" data-tl="{{ pod.timeline_json }}">
    <h3>{% translate "Timeline" %}</h3>
    <div class="tl-fit"><div class="timeline timeline-wide" data-fit="{{ pod.timeline_fit }}" style="--tl-w:{{ pod.timeline_width|secs }}">{{ pod.timeline_svg|safe }}</div>{% if pod.timeline_svg_narrow %}<noscript><div class="timeline timeline-narrow" style="--tl-w:{{ pod.timeline_narrow_width|secs }}">{{ pod.timeline_svg_narrow|safe }}</div></noscript>{% endif %}</div>
    <details class="events">
      <summary>{% translate "The same events as a table" %}</summary>
      <table>
        <thead><tr><th>{% translate "t (s)" %}</th><th>{% translate "Container" %}</th><th>{% translate "Event" %}</th><th>{% translate "Detail" %}</th></tr></thead>
        <tbody>{{ pod.rows_html }}</tbody>
      </table>
    </details>
  {% if pod.traffic_notes %}<details class="traffic-notes">
      <summary>{% translate "What the traffic row rests on" %}</summary>
      <ul>{% for n in pod.traffic_notes %}<li>{{ n }}</li>{% endfor %}</ul>
    </details>
  {% endif %}</section>
  {% endif %}{% if pod.observed %}{% observed_panel pod %}{% endif %}

  {{ pod.findings_html }}

  {% if pod.steps %}
  <section class="panel story" data-story="pod-{{ forloop.counter }}">
    <h3>{% translate "What happens, step by step" %}</h3>
    <ol>{{ pod.steps_html }}</ol>
    {% if pod.assumed %}
    <details><summary>{% translate "Assumptions" %}</summary>
      <ul class="muted">{% for a in pod.assumed %}<li><code>{{ a.container }}.{{ a.field }}</code>: {{ a.why }}</li>{% endfor %}</ul>
    </details>
    {% endif %}
  </section>
  {% endif %}

  {% if pod.rollout_html %}{{ pod.rollout_html }}

  {% endif %}<section class="panel" data-diagram="pod-{{ forloop.counter }}">
    <h3>{% translate "What the containers share" %}</h3>
    {% if pod.diagram_url %}
    <div class="scroll diagram"><img src="{{ pod.diagram_url }}" loading="lazy" alt="{% translate 'The sharing diagram of this Pod' %}"></div>
    {% elif pod.diagram_svg %}
    <div class="scroll diagram" tabindex="0" role="img" style="--dg-w:{{ pod.diagram_px|secs }}" aria-label="{% translate 'Diagram of what the containers share' %}: {% for c in pod.containers %}{{ c.name }}{% if not forloop.last %}, {% endif %}{% endfor %}">{{ pod.diagram_svg|safe }}</div>
    {% else %}
    <p class="error">{{ pod.diagram_error }}</p>
    <details open><summary>{% translate "Graphviz DOT source" %}</summary>
      <button type="button" class="copy" data-copy="#dot-{{ forloop.counter }}">{% translate "Copy" %}</button>
      <pre id="dot-{{ forloop.counter }}" tabindex="0">{{ pod.diagram_dot }}</pre></details>
    {% endif %}
  </section>
</article>
"""
POD_PAGE = "{% for pod in pods %}" + POD + "{% endfor %}"


def _pods_both_ways(pods: list) -> None:
    """Each Pod's article, written out, is what partials/_pod.html rendered (also through the tag)."""
    expected = Template(POD_PAGE).render(Context({"pods": pods}))
    assert "".join(pod_html(p, i, translation.gettext) for i, p in enumerate(pods, 1)) == expected
    written = Template("{% load explainer_tags %}{% for pod in pods %}{% pod_article pod %}{% endfor %}")
    assert written.render(Context({"pods": pods})) == expected


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_pod_article_escapes_as_the_template_did(language: str) -> None:
    from django.utils.safestring import mark_safe
    from explainer.web.present import PodView
    hostile = PodView("a<b>", "Pod&", 3, False, [{"message": "<x> & 'y'", "line": 7}, {"message": "\"q\"", "line": None}],
                      ["note <b>", "'n'"])
    hostile.final = {"status": "<S>", "phase": "P&", "ready_count": "1/2", "restarts": 12345, "t": 2.5}
    hostile.qos_class = "Burstable<"
    hostile.headline = "Deleted at <1> s; 'a' & \"b\""
    hostile.timeline_svg, hostile.timeline_json = "<svg/>", '{"a":"<&\'\">"}'
    hostile.rows_html, hostile.steps_html = mark_safe("<tr></tr>"), "<li>unsafe</li>"
    hostile.steps = [{"t": 1}]
    hostile.assumed = [{"container": "c<1>", "field": "f&", "why": "w'"}]
    hostile.findings_html = mark_safe("<section></section>")
    hostile.traffic_notes = ["<b>propagation</b> & 'x'", '"y"']
    hostile.rollout_html = "<section>not marked safe: escaped</section>"
    hostile.containers = [{"name": "c<1>"}, {"name": "d&"}]
    hostile.svg = "<svg id='d'/>"
    lazy = PodView("p", "Pod", 1, True, [], [])
    lazy.diagram_url = "/diagram/x.svg?a=1&b=2"
    broken = PodView("p", "Pod", 1, True, [], [])
    broken.error, broken.diagram_dot = "dot <failed>", "digraph { a -> b }"
    with translation.override(language):
        pods = [hostile, lazy, broken]
        expected = Template(POD_PAGE).render(Context({"pods": pods}))
        assert "".join(pod_html(p, i, translation.gettext) for i, p in enumerate(pods, 1)) == expected


# partials/_whatif.html as it was before the panel was written out (its rows picked each container's
# typed values with a `lookup` filter, kept for this reference in tests/web/reference_tags.py)
WHATIF = """{% load i18n reference_tags %}
<details id="what-if" class="what-if" {% if scenario_yaml or form.scenario.value %}open{% endif %} hx-swap-oob="{% if request.htmx %}true{% endif %}">
  <summary>{% translate "What if…" %}</summary>
  <p class="muted">{% translate "Containers' real behaviour is not in the manifest. Change it here; the explanation follows." %}</p>
  {% with pod=pods.0 %}{% if pod %}
  <table class="whatif-table">
    <thead><tr>
      <th>{% translate "Container" %}</th><th>{% translate "Crashes first" %}</th>
      <th>{% translate "Healthy after (s)" %}</th><th>{% translate "Runs for (s)" %}</th>
      <th>{% translate "Ignores SIGTERM" %}</th>
    </tr></thead>
    <tbody>
    {% for c in pod.containers %}{% if c.role != "ephemeral" %}{% with w=whatif_values|lookup:c.name %}
      <tr>
        <th scope="row"><span class="role role-{{ c.role }}">{{ c.role_label }}</span> {{ c.name }}</th>
        <td><input type="number" min="0" max="20" step="1" name="c.{{ c.name }}.crashes" value="{{ w.crashes }}" aria-label="{{ c.aria.crashes }}"></td>
        <td><input type="number" min="0" step="1" name="c.{{ c.name }}.startup" value="{{ w.startup }}" aria-label="{{ c.aria.startup }}"></td>
        <td><input type="number" min="0" step="1" name="c.{{ c.name }}.run" value="{{ w.run }}" aria-label="{{ c.aria.run }}"></td>
        <td><label class="tap"><input type="checkbox" name="c.{{ c.name }}.ignore_term"{% if w.ignore_term %} checked{% endif %} aria-label="{{ c.aria.ignore_term }}"></label></td>
      </tr>
    {% endwith %}{% endif %}{% endfor %}
    </tbody>
  </table>
  <div class="pod-controls">
    <label>{% translate "Delete the Pod at (s)" %} <input type="number" min="0" step="1" name="delete_at" value="{{ pod_controls.delete_at }}"></label>
    <label>{% translate "kubectl debug at (s)" %} <input type="number" min="0" step="1" name="debug_at" value="{{ pod_controls.debug_at }}"></label>
    <label>{% translate "target" %}
      <select name="debug_target"><option value="">—</option>
        {% for c in pod.containers %}{% if c.role != "ephemeral" %}<option value="{{ c.name }}"{% if pod_controls.debug_target == c.name %} selected{% endif %}>{{ c.name }}</option>{% endif %}{% endfor %}
      </select></label>
    <label>{% translate "image" %} <input name="debug_image" value="{{ pod_controls.debug_image|default:'busybox:1.36' }}" size="14"></label>
  </div>
  {% if pod.traffic_info or pod.rollout_info %}
  <fieldset class="rollout-controls">
    <legend>{% translate "Traffic and rollout" %}</legend>
    {% if pod.traffic_info %}<label>{% translate "Propagation to the proxies (s)" %} <input type="number" min="0" max="600" step="any" name="traffic_propagation" value="{{ pod_controls.traffic_propagation }}" placeholder="{{ pod.traffic_info.propagation }}"></label>{% if pod.traffic_info.assumed %} <span class="muted assumed-value">{% blocktranslate with s=pod.traffic_info.propagation %}assumed: {{ s }} s{% endblocktranslate %}</span>{% endif %}
    <label>{% translate "Other ready replicas" %} <input type="number" min="0" max="1000" step="1" name="other_ready" value="{{ pod_controls.other_ready }}" placeholder="{{ pod.traffic_info.others }}"></label>{% endif %}
    {% if pod.rollout_info %}<label>{% translate "Rollout replicas" %} <input type="number" min="0" max="1000" step="1" name="rollout_replicas" value="{{ pod_controls.rollout_replicas }}" placeholder="{{ pod.rollout_info.replicas }}"></label>
    {% if pod.rollout_info.kind == "DaemonSet" %}<label>{% translate "Nodes" %} <input type="number" min="1" max="1000" step="1" name="rollout_nodes" value="{{ pod_controls.rollout_nodes }}" placeholder="{{ pod.rollout_info.nodes }}"></label>{% endif %}{% endif %}
  </fieldset>
  {% endif %}
  {% if pod.rollout_info %}
  <table class="whatif-table newrev-table">
    <caption>{% translate "The new revision (rollout)" %}</caption>
    <thead><tr>
      <th>{% translate "Container" %}</th><th>{% translate "Never Ready" %}</th>
      <th>{% translate "Crashes" %}</th><th>{% translate "Ready after (s)" %}</th>
    </tr></thead>
    <tbody>
    {% for c in pod.containers %}{% if c.role != "ephemeral" %}{% with w=newrev_values|lookup:c.name %}
      <tr>
        <th scope="row">{{ c.name }}</th>
        <td><label class="tap"><input type="checkbox" name="n.{{ c.name }}.never_ready"{% if w.never_ready %} checked{% endif %}{% if not c.readiness %} disabled title="{% translate 'No readinessProbe: Ready as soon as it runs' %}"{% endif %} aria-label="{{ c.aria.never_ready }}"></label></td>
        <td><label class="tap"><input type="checkbox" name="n.{{ c.name }}.crashes"{% if w.crashes %} checked{% endif %} aria-label="{{ c.aria.new_crashes }}"></label></td>
        <td><input type="number" min="0" step="1" name="n.{{ c.name }}.startup" value="{{ w.startup }}"{% if not c.probes %} disabled title="{% translate 'No startup or readiness probe: nothing waits for it' %}"{% endif %} aria-label="{{ c.aria.new_startup }}"></td>
      </tr>
    {% endwith %}{% endif %}{% endfor %}
    </tbody>
  </table>
  {% endif %}{% else %}
  <p class="muted">{% translate "Explain a manifest first: its containers appear here." %}</p>
  {% endif %}{% endwith %}
  <details class="advanced">
    <summary>{% translate "Scenario as YAML" %}</summary>
    {# the widget written out: Django's widget templates cost more than the rest of this panel #}
    <textarea name="scenario" cols="40" rows="6" spellcheck="false" id="scenario"{% if form.scenario.errors %} aria-invalid="true"{% endif %}>
{{ form.scenario.value|default_if_none:"" }}</textarea>
    {% if form.scenario.errors %}<ul class="errors">{% for e in form.scenario.errors %}<li>{{ e }}</li>{% endfor %}</ul>{% endif %}
    {% if scenario_yaml %}<p class="muted">{% translate "In effect:" %}</p><pre class="scenario-effective">{{ scenario_yaml }}</pre>{% endif %}
  </details>
</details>
"""
REFERENCE = Engine(libraries={"i18n": "django.templatetags.i18n", "reference_tags": "tests.web.reference_tags"})


def _whatif_contexts():
    from django.test import RequestFactory
    from django_htmx.middleware import HtmxDetails

    from explainer.web.forms import ExplainForm

    def request(htmx: bool):
        req = RequestFactory().post("/", HTTP_HX_REQUEST="true") if htmx else RequestFactory().get("/")
        req.htmx = HtmxDetails(req)
        return req

    yield {}
    yield {"request": request(False), "form": ExplainForm(initial={"manifest": "x", "scenario": "deleteAt: 5\n"})}
    yield {"request": request(False), "form": ExplainForm()}
    typed = {"app": {"crashes": "2", "startup": "", "run": "<5>", "ignore_term": "on"}, "helper": {"run": "\"x\""}}
    for example in EXAMPLES:
        pods = present(explain(example.manifest(), example.scenario or None))
        pods[0].containers.append({**pods[0].containers[0], "name": "dbg<1>", "role": "ephemeral"})
        form = ExplainForm({"manifest": example.manifest(), "version": "1.34", "scenario": "deleteAt: <3> & 'x'"})
        form.is_valid()
        yield {"request": request(True), "form": form, "pods": pods, "whatif_values": typed,
               "pod_controls": {"delete_at": "30", "debug_at": "", "debug_target": "app", "debug_image": ""},
               "scenario_yaml": "deleteAt: 30\n"}
        yield {"request": request(True), "pods": pods, "pod_controls": {"debug_target": "nothing", "debug_image": "a\"b"}}
        # the traffic and rollout controls, with values full of markup (the gallery's rollouts show them too)
        marked = present(explain(example.manifest(), example.scenario or None))
        marked[0].traffic_info = {"propagation": "5<", "assumed": True, "others": "2&"}
        marked[0].rollout_info = {"kind": "DaemonSet", "replicas": '3"', "nodes": "<4>"}
        marked[0].containers[0] = {**marked[0].containers[0], "readiness": True, "probes": True}
        newrev = {marked[0].containers[0]["name"]: {"never_ready": "on", "crashes": "", "startup": "<7>"}}
        yield {"request": request(True), "pods": marked, "newrev_values": newrev,
               "pod_controls": {"traffic_propagation": "<1>", "other_ready": "\"2", "rollout_replicas": "3&",
                                "rollout_nodes": "'4'"}}
        marked[0].traffic_info = {"propagation": "5", "assumed": False, "others": 0}
        marked[0].rollout_info = {"kind": "Deployment", "replicas": 10, "nodes": 1}
        yield {"request": request(False), "pods": marked, "newrev_values": "not a mapping"}
        bad = ExplainForm({"manifest": "", "version": "1.34", "scenario": ""})
        bad.is_valid()
        bad.add_error("scenario", "bad <scenario> & 'more'")
        yield {"request": request(False), "form": bad, "pods": pods[:1]}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_what_if_panel_is_what_the_template_rendered(language: str) -> None:
    with translation.override(language):
        for context in _whatif_contexts():
            expected = Template(WHATIF, engine=REFERENCE).render(Context(context))
            assert whatif_panel_html(Context(context), translation.gettext) == expected
            assert Template("{% load explainer_tags %}{% whatif_panel %}").render(Context(context)) == expected

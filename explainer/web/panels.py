"""The parts of a result page written out in Python: a Pod's article, its pitfalls (findings) panel
and the what-if panel.

Like the event table and the story (`lists.py`): Django's template engine spends a few microseconds
on every value, tag and translation it renders, and these parts were most of a what-if answer's
template time (issue 14).  Escaped as the templates escaped them: values escaped, a label's
translation written as it is (``{% translate "…" %}`` writes the translation of a literal so), and
``{% blocktranslate %}`` escaping only its values.  `tests/web/test_panels.py` renders the templates
they replace and checks that the two agree byte for byte, in both languages.
"""
from __future__ import annotations

from html import escape
from typing import Any, Callable

from django.urls import reverse
from django.utils.safestring import SafeData, SafeString, mark_safe

from explainer.web.observed_panel import observed_html

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def secs(t: Any) -> str:
    """``{{ 1.5|secs }}`` → "1.5", ``{{ 0.0|secs }}`` → "0": seconds as the timeline writes them
    (at most three decimals, no trailing zeros, never an exponent)."""
    try:
        value = round(float(t), 3)
    except (TypeError, ValueError):
        return str(t)
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _v(value: Any) -> str:
    """A value as ``{{ value }}`` prints it: None as "None", escaped."""
    return escape(str(value))


def _or_empty(value: Any) -> str:
    """``{{ value|default:'' }}``."""
    return escape(str(value)) if value else ""


def findings_html(pod: Any, counter: int, gettext: Gettext, ngettext: Ngettext) -> SafeString:
    """The pitfalls panel of the ``counter``-th Pod of the page (1-based)."""
    out = [f'\n<section class="panel findings" id="findings-{counter}">\n'
           f'  <h3>{gettext("Pitfalls")} <span class="count">{len(pod.findings)}</span></h3>\n  ']
    if len(pod.severity_counts) > 1:
        out.append(f'\n  <fieldset class="severity-filter">\n    <legend>{gettext("Show")}</legend>\n    ')
        for sev, n in pod.severity_counts:
            label = gettext("errors") if sev == "error" else gettext("warnings") if sev == "warning" else gettext("info")
            out.append(f'\n    <label class="sev-{_v(sev)}"><input type="checkbox" value="{_v(sev)}" checked>\n'
                       f'      {label} ({_v(n)})</label>\n    ')
        out.append("\n  </fieldset>\n  ")
    out.append("\n  ")
    groups = pod.finding_groups
    fix_url = escape(reverse("web:fix")) if groups else ""
    rules_url = escape(reverse("web:rules")) if groups else ""
    for i, f in enumerate(groups, 1):
        out.append(_finding(f, counter, i, gettext, ngettext, fix_url, rules_url))
    if not groups:
        out.append(f'\n  <p class="muted">{gettext("No pitfalls found.")}</p>\n  ')
    out.append("\n</section>\n")
    return mark_safe("".join(out))


def _line(line: Any, gettext: Gettext) -> str:
    """``{% blocktranslate with line=f.line %}line {{ line }}{% endblocktranslate %}``."""
    return gettext("line %(line)s") % {"line": _v(line)}


def _apply_fix(f: dict[str, Any], gettext: Gettext, fix_url: str) -> str:
    """The "Apply fix" button: it applies a finding's fix in the editor (static/app.js)."""
    return (f'<button type="button" class="apply-fix" hidden data-url="{fix_url}" data-rule="{_v(f.get("id"))}" '
            f'data-container="{_or_empty(f.get("container"))}" data-line="{_or_empty(f.get("line"))}" '
            f'data-undo-label="{gettext("Undo fix")}" '
            f'title="{gettext("Change the editor’s text as shown, then explain it again")}">{gettext("Apply fix")}</button>\n')


def _explanation(f: dict[str, Any]) -> str:
    """A finding's explanation, its `code` spans as code (present.finding_view), else escaped text."""
    said = f.get("explanation_html")
    return _safe(said) if said else _v(f.get("explanation"))


def _finding(f: dict[str, Any], counter: int, i: int, gettext: Gettext, ngettext: Ngettext, fix_url: str,
             rules_url: str) -> str:
    severity = _v(f.get("severity"))
    out = [f'\n  <details class="finding sev-{severity}" {"open" if f.get("severity") == "error" else ""}>\n'
           f'    <summary>\n      <span class="sev">{severity}</span>\n      <strong>{_v(f.get("title"))}</strong>\n      ']
    grouped = f.get("grouped")
    if grouped:
        n = len(f["members"])
        count = ngettext("— %(n)s container", "— %(n)s containers", n) % {"n": _v(n)}
        out.append(f'<span class="group-count">{count}</span>\n      ')
    else:
        if f.get("container"):
            out.append(f"<code>{_v(f['container'])}</code>")
        out.append("\n      ")
        if f.get("line"):
            out.append(f'<span class="muted">{_line(f["line"], gettext)}</span>')
    out.append(f'\n      <span class="rule-id muted">{_v(f.get("id"))}</span>\n    </summary>\n    ')
    if grouped:
        out.append(f'\n    <p>{_explanation(f)}</p>\n'
                   f'    <p class="muted">{gettext("The same for each of these containers:")}</p>\n'
                   f'    <ul class="group-members">')
        for m in f["members"]:
            out.append(f"\n      <li><code>{_v(m.get('container'))}</code>")
            if m.get("line"):
                out.append(f' <a href="#" class="line-link" data-line="{_v(m["line"])}">{_line(m["line"], gettext)}</a>')
            if m.get("fixable"):
                out.append(" " + _apply_fix(m, gettext, fix_url))
            out.append("</li>\n    ")
        out.append("</ul>\n    ")
    else:
        out.append("\n    <p>")
        if f.get("line"):
            out.append(f'<a href="#" class="line-link" data-line="{_v(f["line"])}">{_line(f["line"], gettext)}</a>: ')
        out.append(f'{_explanation(f)}</p>\n    ')
    out.append("\n    ")
    if f.get("fix"):
        if grouped:
            head = gettext("Write instead (shown for %(c)s; the same for each container, with its name)") % {
                "c": _v(f.get("container"))}
        else:
            head = gettext("Write instead")
        fix_id = f"fix-{counter}-{i}"
        out.append(f'\n    <div class="fix">\n      <div class="fix-head"><span>{head}</span>\n'
                   f'        <button type="button" class="copy" data-copy="#{fix_id}">{gettext("Copy")}</button>\n        ')
        if f.get("fixable") and not grouped:
            out.append(_apply_fix(f, gettext, fix_url))
        out.append(f'</div>\n      <pre id="{fix_id}" tabindex="0"><code>{_v(f["fix"])}</code></pre>\n    </div>\n    ')
    out.append("\n    ")
    # the rule's entry in the catalogue, then the references
    rule = _v(f.get("id"))
    links = [f'<a class="rule-link" href="{rules_url}#{rule}">'
             f'{gettext("About the rule %(id)s") % {"id": f"<code>{rule}</code>"}}</a>']
    links += [f'<a href="{_v(ref)}" rel="noopener noreferrer" target="_blank">{_v(ref)}</a>'
              for ref in f.get("references") or ()]
    refs = " · ".join(links)
    out.append(f'<p class="refs">{refs}</p>')
    out.append("\n  </details>\n  ")
    return "".join(out)


def whatif_rows_html(containers: list[dict[str, Any]], values: Any) -> SafeString:
    """The what-if table's row per container (not the debug ones), with what the reader typed
    (``values``: container name -> control -> text)."""
    out = []
    for c in containers:
        if c["role"] == "ephemeral":
            continue
        w = values.get(c["name"], {}) if isinstance(values, dict) else {}
        name, aria = _v(c["name"]), c["aria"]
        checked = " checked" if w.get("ignore_term") else ""
        out.append(
            f'\n      <tr>\n'
            f'        <th scope="row"><span class="role role-{_v(c["role"])}">{_v(c["role_label"])}</span> {name}</th>\n'
            f'        <td><input type="number" min="0" max="20" step="1" name="c.{name}.crashes" '
            f'value="{_v(w.get("crashes", ""))}" aria-label="{_v(aria["crashes"])}"></td>\n'
            f'        <td><input type="number" min="0" step="1" name="c.{name}.startup" '
            f'value="{_v(w.get("startup", ""))}" aria-label="{_v(aria["startup"])}"></td>\n'
            f'        <td><input type="number" min="0" step="1" name="c.{name}.run" '
            f'value="{_v(w.get("run", ""))}" aria-label="{_v(aria["run"])}"></td>\n'
            f'        <td><label class="tap"><input type="checkbox" name="c.{name}.ignore_term"{checked} '
            f'aria-label="{_v(aria["ignore_term"])}"></label></td>\n'
            f'      </tr>\n    ')
    return mark_safe("".join(out))


def debug_target_options(containers: list[dict[str, Any]], selected: Any) -> SafeString:
    """The ``<option>`` per container a debug container may target, ``selected`` marked."""
    return mark_safe("".join(
        f'<option value="{_v(c["name"])}"{" selected" if selected == c["name"] else ""}>{_v(c["name"])}</option>'
        for c in containers if c["role"] != "ephemeral"))


def _safe(value: Any) -> str:
    """``{{ value }}`` of a value that may be marked safe (written-out HTML): as it is, else escaped."""
    return str(value) if isinstance(value, SafeData) else escape(str(value))


def pod_html(pod: Any, counter: int, gettext: Gettext, link_id: str | None = None) -> SafeString:
    """One Pod's article: its summary, errors, notes, timeline, what the cluster shows, pitfalls, story and
    diagram (``link_id``: on a permalink's page, which has no editor to write a scenario into).

    Called while the page renders (the `pod_article` tag), so that `dot`, drawing the diagram in its
    own process, is waited for only at the end, where the diagram goes."""
    out = [f'\n<article class="pod" id="pod-{counter}" data-lines="{_v(pod.source_lines)}">\n  <header class="pod-head">\n'
           f'    <h2>{_v(pod.kind)} <span class="name">{_v(pod.name)}</span></h2>\n    ']
    qos = ""
    if pod.qos_class:
        qos = (f'<span class="pill qos" title="{gettext("QoS class: the order in which the kubelet evicts Pods when the node runs short (BestEffort first, Guaranteed last)")}">'  # noqa: E501
               f'{gettext("QoS class %(qos)s") % {"qos": _v(pod.qos_class)}}</span>')
    if getattr(pod, "headline", ""):     # what ended the run, in teaching terms (render/headline.py)
        out.append(f'<p class="headline">{_v(pod.headline)}</p>\n    ')
    final = pod.final
    if final:
        at = gettext("at %(t)s s") % {"t": escape(secs(final.get("t")))}
        out.append(f'\n    <p class="summary">\n      <span class="pill status">{_v(final.get("status"))}</span>\n'
                   f'      <span class="pill">{gettext("phase")} {_v(final.get("phase"))}</span>\n'
                   f'      <span class="pill">{gettext("READY")} {_v(final.get("ready_count"))}</span>\n'
                   f'      <span class="pill">{gettext("RESTARTS")} {_v(final.get("restarts"))}</span>\n'
                   f'      <span class="muted">{at}</span>\n      {qos}\n    </p>\n    ')
    elif pod.qos_class:
        out.append(f'\n    <p class="summary">{qos}</p>\n    ')
    out.append("\n  </header>\n  ")
    if not pod.admitted:
        items = "".join(
            (f'<li><a href="#" class="line-link" data-line="{_v(e["line"])}">{_line(e["line"], gettext)}</a> '
             if e.get("line") else "<li>") + f'{_v(e.get("message"))}</li>' for e in pod.errors)
        out.append(f'\n  <div class="rejected" role="alert">\n'
                   f'    <p><strong>{gettext("The API server would reject this Pod, so it never runs.")}</strong></p>\n'
                   f'    <ul>{items}</ul>\n  </div>\n  ')
    out.append("\n  ")
    out.extend(f'<p class="note">{_safe(note)}</p>' for note in pod.notes)
    out.append("\n\n  ")
    if pod.timeline_svg:
        out.append(
            f'\n  <section class="panel tl-panel" data-timeline="pod-{counter}" data-tl="{_safe(pod.timeline_json)}">\n'
            f'    <h3>{gettext("Timeline")}</h3>\n    {pod.timeline_picture}\n'
            f'    <details class="events">\n      <summary>{gettext("The same events as a table")}</summary>\n'
            f'      <table>\n        <thead><tr><th>{gettext("t (s)")}</th><th>{gettext("Container")}</th>'
            f'<th>{gettext("Event")}</th><th>{gettext("Detail")}</th></tr></thead>\n'
            f'        <tbody>{_safe(pod.rows_html)}</tbody>\n      </table>\n    </details>\n  ')
        notes = getattr(pod, "traffic_notes", None)
        if notes:           # what the traffic row rests on (docs/lifecycle-model.md §27)
            items = "".join(f"<li>{_v(n)}</li>" for n in notes)
            out.append(f'<details class="traffic-notes">\n      <summary>{gettext("What the traffic row rests on")}'
                       f'</summary>\n      <ul>{items}</ul>\n    </details>\n  ')
        out.append("</section>\n  ")
    observed = getattr(pod, "observed", None)
    if observed:              # what the cluster shows (web/observed_panel.py; issue 23)
        out.append(observed_html(observed, counter, gettext, link_id))
    out.append(f"\n\n  {_safe(pod.findings_html)}\n\n  ")
    if pod.steps:
        out.append(f'\n  <section class="panel story" data-story="pod-{counter}">\n'
                   f'    <h3>{gettext("What happens, step by step")}</h3>\n    <ol>{_safe(pod.steps_html)}</ol>\n    ')
        if pod.assumed:
            items = "".join(f'<li><code>{_v(a["container"])}.{_v(a["field"])}</code>: {_safe(a["why"])}</li>'
                            for a in pod.assumed)
            out.append(f'\n    <details><summary>{gettext("Assumptions")}</summary>\n'
                       f'      <ul class="muted">{items}</ul>\n    </details>\n    ')
        out.append("\n  </section>\n  ")
    out.append("\n\n  ")
    if pod.rollout_html:      # the workload's rollout (web/rollout_panel.py)
        out.append(f"{_safe(pod.rollout_html)}\n\n  ")
    out.append(f'<section class="panel" data-diagram="pod-{counter}">\n'
               f'    <h3>{gettext("What the containers share")}</h3>\n    ')
    if pod.diagram_url:
        out.append(f'\n    <div class="scroll diagram"><img src="{_v(pod.diagram_url)}" loading="lazy" '
                   f'alt="{gettext("The sharing diagram of this Pod")}"></div>\n    ')
    elif pod.diagram_svg:
        names = ", ".join(_v(c["name"]) for c in pod.containers)
        out.append(f'\n    <div class="scroll diagram" tabindex="0" role="img" style="--dg-w:{secs(pod.diagram_px)}" '
                   f'aria-label="{gettext("Diagram of what the containers share")}: {names}">{pod.diagram_svg}</div>\n    ')
    else:
        out.append(f'\n    <p class="error">{_v(pod.diagram_error)}</p>\n'
                   f'    <details open><summary>{gettext("Graphviz DOT source")}</summary>\n'
                   f'      <button type="button" class="copy" data-copy="#dot-{counter}">{gettext("Copy")}</button>\n'
                   f'      <pre id="dot-{counter}" tabindex="0">{_v(pod.diagram_dot)}</pre></details>\n    ')
    out.append("\n  </section>\n</article>\n")
    return mark_safe("".join(out))


def whatif_panel_html(context: Any, gettext: Gettext) -> SafeString:
    """The what-if panel (partials/_whatif.html before it was written out): the first Pod's
    containers with what the reader typed, the Pod's controls, and the scenario as YAML.
    ``context`` is the page's template context (pods, whatif_values, pod_controls, form,
    scenario_yaml, request)."""
    form = context.get("form")
    field = form["scenario"] if form is not None and hasattr(form, "__getitem__") else None
    typed = field.value() if field is not None else ""
    errors = list(field.errors) if field is not None else []
    scenario_yaml = context.get("scenario_yaml") or ""
    request = context.get("request")
    htmx = bool(getattr(request, "htmx", False))
    pods = context.get("pods") or []
    pod = pods[0] if pods else None
    intro = gettext("Containers' real behaviour is not in the manifest. Change it here; the explanation follows.")
    out = [f'\n<details id="what-if" class="what-if" {"open" if scenario_yaml or typed else ""} '
           f'hx-swap-oob="{"true" if htmx else ""}">\n  <summary>{gettext("What if…")}</summary>\n'
           f'  <p class="muted">{intro}</p>\n  ']
    if pod:
        controls = context.get("pod_controls")
        control = (lambda key: controls.get(key, "")) if isinstance(controls, dict) else (lambda key: "")
        out.append(
            f'\n  <table class="whatif-table">\n    <thead><tr>\n'
            f'      <th>{gettext("Container")}</th><th>{gettext("Crashes first")}</th>\n'
            f'      <th>{gettext("Healthy after (s)")}</th><th>{gettext("Runs for (s)")}</th>\n'
            f'      <th>{gettext("Ignores SIGTERM")}</th>\n    </tr></thead>\n    <tbody>\n'
            f'    {whatif_rows_html(pod.containers, context.get("whatif_values"))}\n    </tbody>\n  </table>\n'
            f'  <div class="pod-controls">\n'
            f'    <label>{gettext("Delete the Pod at (s)")} <input type="number" min="0" step="1" name="delete_at" '
            f'value="{_v(control("delete_at"))}"></label>\n'
            f'    <label>{gettext("kubectl debug at (s)")} <input type="number" min="0" step="1" name="debug_at" '
            f'value="{_v(control("debug_at"))}"></label>\n'
            f'    <label>{gettext("target")}\n      <select name="debug_target"><option value="">—</option>\n'
            f'        {debug_target_options(pod.containers, control("debug_target"))}\n      </select></label>\n'
            f'    <label>{gettext("image")} <input name="debug_image" '
            f'value="{_v(control("debug_image") or "busybox:1.36")}" size="14"></label>\n  </div>\n  ')
        out.append(_rollout_controls(pod, control, context.get("newrev_values"), gettext))
    else:
        out.append(f'\n  <p class="muted">{gettext("Explain a manifest first: its containers appear here.")}</p>\n  ')
    invalid = ' aria-invalid="true"' if errors else ""
    out.append(f'\n  <details class="advanced">\n    <summary>{gettext("Scenario as YAML")}</summary>\n    \n'
               f'    <textarea name="scenario" cols="40" rows="6" spellcheck="false" id="scenario"{invalid}>\n'
               f'{_v("" if typed is None else typed)}</textarea>\n    ')
    if errors:
        out.append('<ul class="errors">' + "".join(f"<li>{_v(e)}</li>" for e in errors) + "</ul>")
    out.append("\n    ")
    if scenario_yaml:
        out.append(f'<p class="muted">{gettext("In effect:")}</p><pre class="scenario-effective">{_v(scenario_yaml)}</pre>')
    out.append("\n  </details>\n</details>\n")
    return mark_safe("".join(out))


def _rollout_controls(pod: Any, control: Callable[[str], Any], values: Any, gettext: Gettext) -> str:
    """The traffic and rollout controls (issue 22): the propagation time (its assumed value shown when
    the scenario has none), other ready replicas, the rollout's replicas (and a DaemonSet's nodes),
    and per container how the new revision behaves."""
    traffic, rollout = getattr(pod, "traffic_info", None), getattr(pod, "rollout_info", None)
    out = []
    if traffic or rollout:
        out.append(f'\n  <fieldset class="rollout-controls">\n    <legend>{gettext("Traffic and rollout")}</legend>\n    ')
        if traffic:
            out.append(f'<label>{gettext("Propagation to the proxies (s)")} <input type="number" min="0" max="600" '
                       f'step="any" name="traffic_propagation" value="{_v(control("traffic_propagation"))}" '
                       f'placeholder="{_v(traffic["propagation"])}"></label>')
            if traffic["assumed"]:
                said = gettext("assumed: %(s)s s") % {"s": _v(traffic["propagation"])}
                out.append(f' <span class="muted assumed-value">{said}</span>')
            out.append(f'\n    <label>{gettext("Other ready replicas")} <input type="number" min="0" max="1000" '
                       f'step="1" name="other_ready" value="{_v(control("other_ready"))}" '
                       f'placeholder="{_v(traffic["others"])}"></label>')
        out.append("\n    ")
        if rollout:
            out.append(f'<label>{gettext("Rollout replicas")} <input type="number" min="0" max="1000" step="1" '
                       f'name="rollout_replicas" value="{_v(control("rollout_replicas"))}" '
                       f'placeholder="{_v(rollout["replicas"])}"></label>\n    ')
            if rollout["kind"] == "DaemonSet":
                out.append(f'<label>{gettext("Nodes")} <input type="number" min="1" max="1000" step="1" '
                           f'name="rollout_nodes" value="{_v(control("rollout_nodes"))}" '
                           f'placeholder="{_v(rollout["nodes"])}"></label>')
        out.append("\n  </fieldset>\n  ")
    out.append("\n  ")
    if rollout:
        out.append(f'\n  <table class="whatif-table newrev-table">\n'
                   f'    <caption>{gettext("The new revision (rollout)")}</caption>\n    <thead><tr>\n'
                   f'      <th>{gettext("Container")}</th><th>{gettext("Never Ready")}</th>\n'
                   f'      <th>{gettext("Crashes")}</th><th>{gettext("Ready after (s)")}</th>\n'
                   f'    </tr></thead>\n    <tbody>\n    ')
        no_probe = gettext("No readinessProbe: Ready as soon as it runs")
        no_wait = gettext("No startup or readiness probe: nothing waits for it")
        for c in pod.containers:
            if c["role"] == "ephemeral":
                continue
            w = values.get(c["name"], {}) if isinstance(values, dict) else {}
            name, aria = _v(c["name"]), c["aria"]
            never = " checked" if w.get("never_ready") else ""
            never += "" if c.get("readiness") else ' disabled title="' + no_probe + '"'
            crashes = " checked" if w.get("crashes") else ""
            slower = "" if c.get("probes") else ' disabled title="' + no_wait + '"'
            out.append(
                f'\n      <tr>\n        <th scope="row">{name}</th>\n'
                f'        <td><label class="tap"><input type="checkbox" name="n.{name}.never_ready"{never} '
                f'aria-label="{_v(aria["never_ready"])}"></label></td>\n'
                f'        <td><label class="tap"><input type="checkbox" name="n.{name}.crashes"{crashes} '
                f'aria-label="{_v(aria["new_crashes"])}"></label></td>\n'
                f'        <td><input type="number" min="0" step="1" name="n.{name}.startup" '
                f'value="{_v(w.get("startup", ""))}"{slower} aria-label="{_v(aria["new_startup"])}"></td>\n'
                f'      </tr>\n    ')
        out.append("\n    </tbody>\n  </table>\n  ")
    return "".join(out)

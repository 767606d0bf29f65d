"""Explanation -> what the templates show, in the reader's language.

Views stay thin: they call `explain()` and hand its result to `present()`; templates only loop
and print.  Pictures are rendered here (server side), through the cache when configured.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass, field, fields
from typing import Any, Callable

from django.core.cache import cache
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_noop, trans_real

from explainer.explain import Explanation, PodReport
from explainer.lifecycle.errors import ErrorRecord
from explainer.lifecycle.i18n import render
from explainer.render import inline
from explainer.render.headline import headline
from explainer.render.graphviz.diagram import DiagramError, dot_key, sharing_diagram, start_svg, svg_result
from explainer.render.markdown import MAX_FINDINGS_PER_RULE, per_rule
from explainer.render.story import collapse_crash_loops, story
from explainer.render.timeline import layout_timeline, timeline_rows
from explainer.render.timeline.frames import timeline_frames
from explainer.render.timeline.observed import story_of
from explainer.render.timeline.svg import svg_document
from explainer.web.fit import DEFAULT_PANEL_PX, PHONE_PANEL_PX, layout_width, picture
from explainer.web.lists import rows_html, steps_html
from explainer.web.observed_panel import observed_view
from explainer.web.panels import findings_html, secs
from explainer.web.rollout_panel import rollout_section

# The what-if panel's controls, labelled for screen readers per container (here, not in the
# template: twenty {% blocktranslate %} per page cost more than the rest of the panel).
WHATIF_LABELS = {"crashes": gettext_noop("%(n)s: crashes before it runs"),
                 "startup": gettext_noop("%(n)s: seconds until healthy"),
                 "run": gettext_noop("%(n)s: seconds each run lasts"),
                 "ignore_term": gettext_noop("%(n)s: ignores SIGTERM"),
                 "never_ready": gettext_noop("%(n)s of the new revision: never Ready"),
                 "new_crashes": gettext_noop("%(n)s of the new revision: crashes"),
                 "new_startup": gettext_noop("%(n)s of the new revision: seconds until Ready")}
_GRAPHVIZ_WIDTH = re.compile(r'<svg width="([0-9.]+)pt"')
MAX_SHOWN_DOT_BYTES = 256 * 1024   # DOT text a page shows when its diagram was not drawn (issue 27)
SVG_CACHE_SECONDS = 24 * 3600   # the drawing of a DOT text never changes; the day bounds the cache
ROLE_LABELS = {"init": "Init container", "sidecar": "Native sidecar", "app": "App container",
               "ephemeral": "Ephemeral container"}


@dataclass
class PodView:
    name: str
    kind: str
    line: int | None
    admitted: bool
    errors: list[dict[str, Any]]           # translate_errors()
    notes: list[str]
    containers: list[dict[str, Any]] = field(default_factory=list)
    timeline_svg: str = ""
    timeline_json: str = ""                 # what the cursor reports: JSON for timeline.js (a data attribute,
                                            # as htmx drops <script> elements, even JSON ones, from a swap)
    timeline_fit: int = 0                   # the panel width (CSS px) the timeline is laid out for (web/fit.py)
    timeline_width: float = 0.0             # ... and its layout width
    timeline_svg_narrow: str = ""           # without a measured width: the phone's drawing (stacked)
    timeline_narrow_width: float = 0.0
    diagram_dot: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)
    finding_groups: list[dict[str, Any]] = field(default_factory=list)
    severity_counts: list[tuple[str, int]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    rows_html: str = ""                     # the two long lists, written out (web/lists.py)
    findings_html: str = ""                 # the pitfalls panel, written out (web/panels.py)
    steps_html: str = ""
    final: dict[str, Any] = field(default_factory=dict)
    headline: str = ""                      # what ended the run and why the phase follows (render/headline.py)
    qos_class: str = ""                     # docs/lifecycle-model.md §25
    assumed: list[dict[str, str]] = field(default_factory=list)
    svg: str = ""
    error: str = ""
    error_passing: bool = False            # the diagram failed for a passing reason (busy, timed out): never cached
    diagram_url: str = ""                  # drawn on demand (Pods after the first few)
    rollout_html: str = ""                 # the workload's rollout (web/rollout_panel.py), written out
    traffic_info: dict[str, Any] = field(default_factory=dict)   # what the what-if panel shows of the traffic
    traffic_notes: list[str] = field(default_factory=list)       # what the traffic row rests on, in words
    rollout_info: dict[str, Any] = field(default_factory=dict)   # ... and of the rollout (issue 22)
    observed: dict[str, Any] | None = None  # what the cluster shows (web/observed_panel.py; issue 23)
    pending: Any = field(default=None, repr=False, compare=False)   # a `dot` still drawing

    # `dot` draws in its own process; the page waits for it only where it shows the diagram,
    # so the timeline, the story and most of the page are laid out meanwhile.
    @property
    def diagram_svg(self) -> str:
        self._resolve()
        return self.svg

    @property
    def diagram_dot_shown(self) -> str:
        """The DOT text a page shows when the diagram could not be drawn: at most MAX_SHOWN_DOT_BYTES of it
        (a Pod with 25,000 volumes has 6 MB of it; the sharing.dot export has it whole)."""
        if len(self.diagram_dot) <= MAX_SHOWN_DOT_BYTES:
            return self.diagram_dot
        return self.diagram_dot[:MAX_SHOWN_DOT_BYTES] + "\n/* " + gettext(
            "… %(n)s more bytes of DOT are left out here.") % {"n": f"{len(self.diagram_dot) - MAX_SHOWN_DOT_BYTES:,}"} + " */\n"

    @property
    def diagram_error(self) -> str:
        self._resolve()
        return self.error

    def _resolve(self) -> None:
        if self.pending is not None:
            pending, self.pending = self.pending, None
            try:
                self.svg = svg_result(pending)
            except DiagramError as exc:   # not cached: a time-out may not happen again
                self.error = exc.text.render(gettext)
                self.error_passing = exc.transient
            else:
                cache.set(dot_key(self.diagram_dot), self.svg, timeout=SVG_CACHE_SECONDS)

    @property
    def timeline_picture(self) -> dict[str, Any]:
        """The timeline as `partials/_picture.html` shows it: laid out for its panel, with a phone's drawing
        (web/fit.py)."""
        return picture(self.timeline_svg, self.timeline_width, self.timeline_fit, self.timeline_svg_narrow,
                       self.timeline_narrow_width)

    @property
    def diagram_px(self) -> float:
        """The diagram's own width in CSS px (Graphviz writes it in points): the page never shows it
        much smaller, where its 8 pt labels would be unreadable (static/css/timeline.css)."""
        found = _GRAPHVIZ_WIDTH.search(self.diagram_svg[:400])
        return round(float(found.group(1)) * 4 / 3, 1) if found else 0.0

    @property
    def source_lines(self) -> str:
        """Where the Pod and each container start in the input, as JSON for the page's script: hovering a
        lane, a story step or a finding marks those lines in the editor (static/js/source.js)."""
        return json.dumps({"pod": self.line, "containers": {c["name"]: c["line"] for c in self.containers
                                                            if c.get("line")}},
                          ensure_ascii=False, separators=(",", ":"))

    def diagram_failed_for_now(self) -> bool:
        """Whether the diagram failed for a passing reason (waiting for it first, if it is still drawing)."""
        self._resolve()
        return self.error_passing

    def __getstate__(self) -> dict[str, Any]:   # cached views hold the finished picture
        self._resolve()
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # a field this release added is missing from a view pickled by an older one: its default (issue 27)
        for f in fields(self):
            if f.name not in state:
                state[f.name] = f.default_factory() if callable(f.default_factory) else f.default
        self.__dict__.update(state)


@dataclass(frozen=True)
class ResultView:
    """What the result panel reads of an `Explanation` besides its Pods: warnings (in the reader's
    language, like the errors), "nothing to explain", and the objects skipped.  Cached with each
    analysis instead of the whole Explanation, whose simulation and parsed manifest take ten
    times longer to pickle than the rendered Pods."""

    warnings: list[dict[str, Any]]
    empty: bool
    skipped: list[dict[str, Any]]


def result_view(expl: Explanation, gettext: Callable[[str], str] = gettext) -> ResultView:
    return ResultView(translate_errors(expl.warnings, gettext), expl.empty,
                      [{"kind": s.kind, "name": s.name, "line": s.line} for s in expl.skipped])


# What one Pod may add to a page: a larger timeline picture is left out, longer tables are cut,
# each with a note saying so (issue 11).
MAX_PAGE_SVG_BYTES = 2 * 1024 * 1024
MAX_NARROW_SVG_BYTES = 256 * 1024       # a larger timeline gets no second, phone-sized drawing
MAX_PAGE_ROWS = 2000
# Diagrams drawn with the page; the Pods after these get theirs when the reader scrolls to them
# (an <img> of /diagram/<hash>.svg), so a many-Pod page starts no flood of `dot` (issue 11).
EAGER_DIAGRAMS = 3
DOT_CACHE_SECONDS = 7 * 24 * 3600


def present(expl: Explanation, manifest_key: str | None = None, panel: int | None = None) -> list[PodView]:
    """One view per Pod, pictures rendered (the caller caches the result by input).

    ``manifest_key`` (a hash of the manifest text and the version) lets a what-if change of the
    same manifest reuse each Pod's diagram source instead of building it again.  ``panel``: the
    width (CSS px) the page shows its charts at, as the browser measured it (web/fit.py)."""
    gt = active_gettext()
    return [_pod(r, gt, eager=i < EAGER_DIAGRAMS, dot_memo=_dot_memo_key(manifest_key, expl, i), counter=i + 1,
                 panel=panel)
            for i, r in enumerate(expl.pods)]


def _dot_memo_key(manifest_key: str | None, expl: Explanation, i: int) -> str | None:
    """What the diagram of Pod ``i`` is a function of: the manifest and version (``manifest_key``),
    the feature gates (they decide what the API server keeps of the Pod), the debug containers
    that joined the run (they join the drawing), and the language of its labels.  The rest of a
    scenario (timings, crashes, deletion) changes the timeline, never the diagram."""
    if manifest_key is None:
        return None
    r = expl.pods[i]
    debug = [repr(c) for c in r.simulation.debug_containers] if r.simulation else []
    what = repr((manifest_key, i, sorted(expl.scenario.feature_gates.items()), debug, get_language()))
    return "dot-of:" + hashlib.sha256(what.encode("utf-8", "surrogatepass")).hexdigest()


def active_gettext() -> Callable[[str], str]:
    """Django's gettext for the language active now, looked up once.

    `django.utils.translation.gettext` finds the active language through a context-local on
    every call, which costs as much as the look-up itself, and one page translates hundreds of
    labels.  Same catalogue, same fallbacks (the translation object chains to English)."""
    language = get_language()
    if language is None:   # translations deactivated: message ids as they are
        return gettext
    catalogue = trans_real.translation(language)
    known = _MEMOS.get(language)
    if known is None or known[0] is not catalogue:   # new, or reloaded (a test changing LOCALE_PATHS)
        known = _MEMOS[language] = (catalogue, functools.lru_cache(maxsize=4096)(catalogue.gettext))
    return known[1]


# Per language: its catalogue and a memo of its look-ups.  A page asks for a few hundred labels (event
# names, roles, the story's sentences), mostly the same ones on every page; the catalogue never
# changes while the process runs, and message ids are the code's own, so the memo stays small.
_MEMOS: dict[str, tuple[Any, Callable[[str], str]]] = {}


def dot_digest(dot: str) -> str:
    return hashlib.sha256(dot.encode("utf-8", "surrogatepass")).hexdigest()


def _lazy_diagram(view: PodView, dot: str) -> None:
    """Keep the DOT in the cache under its hash; the page shows /diagram/<hash>.svg, drawn on demand."""
    digest = dot_digest(dot)
    cache.set(f"dot:{digest}", dot, timeout=DOT_CACHE_SECONDS)
    view.diagram_url = reverse("web:diagram", args=[digest])


def translate_errors(errors: list[ErrorRecord], gettext: Callable[[str], str] = gettext) -> list[dict[str, Any]]:
    """Error records as the templates show them: the record's fields, ``message`` in the reader's
    language where the core wrote it as a Text (others, such as form errors, are already)."""
    return [{"message": render(e.translatable, gettext), "line": e.line, "column": e.column, "path": e.path,
             "kind": e.kind, "reason": e.reason, "document": e.document, "pod": e.pod} for e in errors]


def _pod(r: PodReport, gettext: Callable[[str], str], eager: bool = True, dot_memo: str | None = None,
         counter: int = 1, panel: int | None = None) -> PodView:
    """The view of one Pod, the ``counter``-th of its page."""
    pod = r.pod
    told = {id(n) for n in r.observed.notes} if r.observed is not None else set()   # in the observed panel
    view = PodView(pod.name, pod.source.kind, pod.source.line, r.admitted, translate_errors(r.errors, gettext),
                   [mark_safe(inline.html(n, gettext)) for n in r.notes if id(n) not in told])
    _start_diagram(view, r, gettext, eager, dot_memo)   # first: dot lays it out in its own process while this one does the rest
    view.qos_class = r.qos.qos_class if r.qos else ""
    findings, more = per_rule(r.findings)   # a page lists at most so many findings of one rule (issue 27)
    view.findings = [finding_view(f, gettext) for f in findings]
    view.notes += [gettext("%(n)s more findings of %(rule)s are not listed here (the first %(kept)s are).")
                   % {"n": f"{n:,}", "rule": rule, "kept": MAX_FINDINGS_PER_RULE} for rule, n in more.items()]
    view.finding_groups = group_findings(view.findings)
    view.severity_counts = [(sev, n) for sev in SEVERITIES
                            if (n := sum(1 for f in view.findings if f["severity"] == sev))]
    view.findings_html = findings_html(view, counter)
    sim = r.simulation
    for c in pod.all_containers + (tuple(sim.debug_containers) if sim else ()):
        view.containers.append({"name": c.name, "role": c.role, "role_label": gettext(ROLE_LABELS[c.role]),
                                "image": c.image, "line": c.line, "readiness": c.readiness_probe is not None,
                                "probes": c.readiness_probe is not None or c.startup_probe is not None,
                                "aria": {k: gettext(msgid) % {"n": c.name} for k, msgid in WHATIF_LABELS.items()}})
    _simulation_views(view, r, gettext, panel)
    view.observed = observed_view(r, gettext)
    view.rollout_html = rollout_section(r, counter, gettext, panel)
    if r.traffic is not None:
        view.traffic_notes = [render(n, gettext) for n in r.traffic.notes]
        view.traffic_info = {"propagation": secs(r.traffic.propagation_seconds), "assumed": r.traffic.propagation_assumed,
                             "others": r.traffic.other_ready_replicas}
    if r.rollout is not None:
        view.rollout_info = {"kind": r.rollout.kind, "replicas": r.rollout.replicas,
                             "nodes": r.rollout.nodes if r.rollout.nodes is not None else r.rollout.replicas}
    return view


def _start_diagram(view: PodView, r: PodReport, gettext: Callable[[str], str], eager: bool = True,
                   dot_memo: str | None = None) -> None:
    """The DOT text (built, or from the cache under ``dot_memo``), and its SVG from the cache (by a
    hash of the text) or from a `dot` started now; past the first few Pods of a manifest, drawn on
    demand at /diagram/<hash>.svg (issue 11)."""
    dot = cache.get(dot_memo) if dot_memo else None
    if dot is None:
        dot = sharing_diagram(r, gettext=gettext)
        if dot_memo:
            cache.set(dot_memo, dot, timeout=DOT_CACHE_SECONDS)
    view.diagram_dot = dot
    cached = cache.get(dot_key(dot))
    if cached is not None:
        view.svg = cached
        return
    if not eager:
        _lazy_diagram(view, dot)
        return
    try:
        view.pending = start_svg(dot)
    except DiagramError as exc:
        view.error = exc.text.render(gettext)
        view.error_passing = exc.transient


def _simulation_views(view: PodView, r: PodReport, gettext: Callable[[str], str], panel: int | None = None) -> None:
    sim = r.simulation
    behaviours = sim.behaviours if sim else {}
    if sim is None:
        return
    view.timeline_fit = panel or DEFAULT_PANEL_PX          # laid out for the panel that shows it (issue 25)
    layout = layout_timeline(r, gettext=gettext, fit_width=layout_width(view.timeline_fit))   # one layout: the SVG
    view.timeline_svg = svg_document(r, layout, gettext=gettext)                               # and the cursor's data
    view.timeline_width = layout.width
    if panel is None and len(view.timeline_svg) <= MAX_NARROW_SVG_BYTES:   # a phone without JavaScript: stacked
        narrow = layout_timeline(r, gettext=gettext, fit_width=layout_width(PHONE_PANEL_PX))
        view.timeline_svg_narrow = svg_document(r, narrow, gettext=gettext, id_suffix="n")
        view.timeline_narrow_width = narrow.width
    if len(view.timeline_svg) > MAX_PAGE_SVG_BYTES:   # the page stays of bounded size (issue 11)
        view.notes.append(mark_safe(inline.html(gettext(
            "The timeline picture is %(size)s bytes, more than a page shows (%(limit)s); shorten `until` to see "
            "it.") % {"size": f"{len(view.timeline_svg):,}", "limit": f"{MAX_PAGE_SVG_BYTES:,}"})))
        view.timeline_svg = ""
    else:
        view.timeline_json = json.dumps(timeline_frames(r, layout, gettext=gettext), ensure_ascii=False,
                                        separators=(",", ":"))
        if len(view.timeline_json) > MAX_PAGE_SVG_BYTES:   # the cursor's data: bounded like the picture
            view.notes.append(gettext("The timeline's cursor data is %(size)s bytes, more than a page holds "
                                      "(%(limit)s): the picture is shown without the cursor.")
                              % {"size": f"{len(view.timeline_json):,}", "limit": f"{MAX_PAGE_SVG_BYTES:,}"})
            view.timeline_json = ""
    rows = timeline_rows(r, gettext=gettext)
    view.rows = rows[:MAX_PAGE_ROWS]
    steps = story(r.pod, sim, r.traffic)
    told = collapse_crash_loops(steps[:MAX_PAGE_ROWS])
    if r.observed is not None:       # what the cluster shows, each at its moment (after the prediction's)
        told = sorted(told + story_of(r)[:MAX_PAGE_ROWS], key=lambda s: s.t)
    view.steps = [{"t": s.t, "text": s.text.render(gettext), "assumed": s.assumed, "container": s.container,
                   "steps": [{"t": c.t, "text": c.text.render(gettext), "container": c.container}
                             for c in s.steps]}
                  for s in told]
    view.rows_html = rows_html(view.rows)
    view.steps_html = steps_html(view.steps)
    if len(rows) > MAX_PAGE_ROWS or len(steps) > MAX_PAGE_ROWS:
        view.notes.append(gettext("The event table and the story show the first %(n)s entries, up to %(t)s s; "
                                  "the JSON export has more.")
                          % {"n": f"{MAX_PAGE_ROWS:,}", "t": f"{min(rows[-1]['t'], steps[-1].t):,g}"
                             if rows and steps else "?"})
    last = sim.timeline[-1]
    view.headline = render(headline(r), gettext) if sim.timeline else ""
    view.final = {"status": last.status, "phase": last.phase, "ready": last.ready,
                  "ready_count": last.ready_count, "restarts": last.restarts, "t": sim.end_time}
    view.assumed = [{"container": name, "field": f, "why": mark_safe(inline.html(why, gettext))}
                    for name, b in behaviours.items() for f, why in b.assumed.items()]


SEVERITIES = ("error", "warning", "info")


def group_findings(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Findings of one rule with the same fix (but for the container's name) over several
    containers become one entry: "No resource requests — 30 containers".  Order: first seen."""
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for f in findings:
        name = f.get("container")
        fix = f.get("fix") or ""
        same_fix = re.sub(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", "\0", fix) if name else fix
        key = (f["id"], f["severity"], f["title"], same_fix) if name else (id(f),)
        group = groups.setdefault(key, {"first": f, "findings": []})
        group["findings"].append(f)
    return [{**g["first"], "members": g["findings"], "grouped": len(g["findings"]) > 1} for g in groups.values()]


def finding_view(f: Any, gettext: Callable[[str], str] = gettext) -> dict[str, Any]:
    """A finding as the templates show it: its fields, title and explanation in the reader's language, and
    the explanation as HTML with its `code` spans (render/inline.py)."""
    d = f.to_dict() if hasattr(f, "to_dict") else dict(f)
    render = getattr(f, "render", None)
    if callable(render):
        d.update(render(gettext))
    said = getattr(f, "explanation", d.get("explanation"))
    d["explanation_html"] = mark_safe(inline.html(said, gettext))
    return d

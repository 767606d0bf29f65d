"""Explanation -> what the templates show, in the reader's language.

Views stay thin: they call `explain()` and hand its result to `present()`; templates only loop
and print.  Pictures are rendered here (server side), through the cache when configured.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, fields
from typing import Any

from django.core.cache import cache
from django.urls import reverse
from django.utils.translation import gettext

from explainer.explain import Explanation, PodReport
from explainer.lifecycle.errors import ErrorRecord
from explainer.lifecycle.i18n import render
from explainer.render.diagram import DiagramError, dot_key, sharing_diagram, start_svg, svg_result
from explainer.render.story import collapse_crash_loops, story
from explainer.render.timeline import layout_timeline, timeline_rows
from explainer.render.timeline_frames import timeline_frames
from explainer.render.timeline_svg import svg_document

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
    diagram_dot: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)
    finding_groups: list[dict[str, Any]] = field(default_factory=list)
    severity_counts: list[tuple[str, int]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)
    qos_class: str = ""                     # docs/lifecycle-model.md §24
    assumed: list[dict[str, str]] = field(default_factory=list)
    svg: str = ""
    error: str = ""
    diagram_url: str = ""                  # drawn on demand (Pods after the first few)
    pending: Any = field(default=None, repr=False, compare=False)   # a `dot` still drawing

    # `dot` draws in its own process; the page waits for it only where it shows the diagram,
    # so the timeline, the story and most of the page are laid out meanwhile.
    @property
    def diagram_svg(self) -> str:
        self._resolve()
        return self.svg

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
            else:
                cache.set(dot_key(self.diagram_dot), self.svg, timeout=SVG_CACHE_SECONDS)

    def __getstate__(self) -> dict[str, Any]:   # cached views hold the finished picture
        self._resolve()
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


# What one Pod may add to a page: a larger timeline picture is left out, longer tables are cut,
# each with a note saying so (issue 11).
MAX_PAGE_SVG_BYTES = 2 * 1024 * 1024
MAX_PAGE_ROWS = 2000
# Diagrams drawn with the page; the Pods after these get theirs when the reader scrolls to them
# (an <img> of /diagram/<hash>.svg), so a many-Pod page starts no flood of `dot` (issue 11).
EAGER_DIAGRAMS = 3
DOT_CACHE_SECONDS = 7 * 24 * 3600


def present(expl: Explanation) -> list[PodView]:
    """One view per Pod, pictures rendered (the caller caches the result by input)."""
    return [_pod(r, eager=i < EAGER_DIAGRAMS) for i, r in enumerate(expl.pods)]


def dot_digest(dot: str) -> str:
    return hashlib.sha256(dot.encode("utf-8", "surrogatepass")).hexdigest()


def _lazy_diagram(view: PodView, dot: str) -> None:
    """Keep the DOT in the cache under its hash; the page shows /diagram/<hash>.svg, drawn on demand."""
    digest = dot_digest(dot)
    cache.set(f"dot:{digest}", dot, timeout=DOT_CACHE_SECONDS)
    view.diagram_url = reverse("web:diagram", args=[digest])


def translate_errors(errors: list[ErrorRecord]) -> list[dict[str, Any]]:
    """Error records as the templates show them: the record's fields, ``message`` in the reader's
    language where the core wrote it as a Text (others, such as form errors, are already)."""
    return [{"message": render(e.translatable, gettext), "line": e.line, "column": e.column, "path": e.path,
             "kind": e.kind, "reason": e.reason, "document": e.document, "pod": e.pod} for e in errors]


def _pod(r: PodReport, eager: bool = True) -> PodView:
    pod = r.pod
    view = PodView(pod.name, pod.source.kind, pod.source.line, r.admitted, translate_errors(r.errors),
                   [render(n, gettext) for n in r.notes])
    _start_diagram(view, r, eager)   # first: dot lays it out in its own process while this one does the rest
    view.qos_class = r.qos.qos_class if r.qos else ""
    view.findings = [finding_view(f) for f in r.findings]
    view.finding_groups = group_findings(view.findings)
    view.severity_counts = [(sev, n) for sev in SEVERITIES
                            if (n := sum(1 for f in view.findings if f["severity"] == sev))]
    sim = r.simulation
    for c in pod.all_containers + (tuple(sim.debug_containers) if sim else ()):
        view.containers.append({"name": c.name, "role": c.role, "role_label": gettext(ROLE_LABELS[c.role]),
                                "image": c.image, "line": c.line})
    _simulation_views(view, r)
    return view


def _start_diagram(view: PodView, r: PodReport, eager: bool = True) -> None:
    """The DOT text, and its SVG from the cache (by a hash of the text) or from a `dot` started now;
    past the first few Pods of a manifest, drawn on demand at /diagram/<hash>.svg (issue 11)."""
    view.diagram_dot = dot = sharing_diagram(r, gettext=gettext)
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


def _simulation_views(view: PodView, r: PodReport) -> None:
    sim = r.simulation
    behaviours = sim.behaviours if sim else {}
    if sim is None:
        return
    layout = layout_timeline(r, gettext=gettext)     # one layout: the SVG and the cursor's data
    view.timeline_svg = svg_document(r, layout, gettext=gettext)
    if len(view.timeline_svg) > MAX_PAGE_SVG_BYTES:   # the page stays of bounded size (issue 11)
        view.notes.append(gettext("The timeline picture is %(size)s bytes, more than a page shows (%(limit)s); "
                                  "shorten `until` to see it.") % {"size": f"{len(view.timeline_svg):,}",
                                                                  "limit": f"{MAX_PAGE_SVG_BYTES:,}"})
        view.timeline_svg = ""
    else:
        view.timeline_json = json.dumps(timeline_frames(r, layout, gettext=gettext), ensure_ascii=False,
                                        separators=(",", ":"))
    rows = timeline_rows(r, gettext=gettext)
    view.rows = rows[:MAX_PAGE_ROWS]
    steps = story(r.pod, sim)
    view.steps = [{"t": s.t, "text": s.text.render(gettext), "assumed": s.assumed, "container": s.container,
                   "steps": [{"t": c.t, "text": c.text.render(gettext), "container": c.container}
                             for c in s.steps]}
                  for s in collapse_crash_loops(steps[:MAX_PAGE_ROWS])]
    if len(rows) > MAX_PAGE_ROWS or len(steps) > MAX_PAGE_ROWS:
        view.notes.append(gettext("The event table and the story show the first %(n)s entries, up to %(t)s s; "
                                  "the JSON export has more.")
                          % {"n": f"{MAX_PAGE_ROWS:,}", "t": f"{min(rows[-1]['t'], steps[-1].t):,g}"
                             if rows and steps else "?"})
    last = sim.timeline[-1]
    view.final = {"status": last.status, "phase": last.phase, "ready": last.ready,
                  "ready_count": last.ready_count, "restarts": last.restarts, "t": sim.end_time}
    view.assumed = [{"container": name, "field": f, "why": render(why, gettext)}
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


def finding_view(f: Any) -> dict[str, Any]:
    d = f.to_dict() if hasattr(f, "to_dict") else dict(f)
    render = getattr(f, "render", None)
    if callable(render):
        d.update(render(gettext))
    return d

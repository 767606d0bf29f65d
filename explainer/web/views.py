"""Page views: function-based, one view serves both the full page and its htmx fragment."""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.shortcuts import render
from django.template.loader import render_to_string
from django.template.defaultfilters import filesizeformat
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_noop
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.middleware import HtmxDetails

from explainer.examples import BY_SLUG, EXAMPLES
from explainer.explain import explain
from explainer.findings import catalogue
from explainer.lifecycle import defaults as d
from explainer.lifecycle.errors import ErrorRecord, ManifestError
from explainer.lifecycle.admission.features import SHOWN_VERSIONS, feature_table
from explainer.lifecycle.numbers import whole_number
from explainer.render import inline
from explainer.render.graphviz.diagram import DiagramError, render_svg
from explainer.web.cache import EXPORT_CACHE_SECONDS, FAILURE_CACHE_SECONDS, Failure
from explainer.web.fit import DEFAULT_PANEL_PX, panel_px
from explainer.web.forms import ExplainForm
from explainer.web.isolate import gated
from explainer.web.lookup import find_link
from explainer.web.models import KIND_EXPLAIN
from explainer.web.present import PodView, present, result_view, translate_errors
from explainer.web.security import error_response, rate_limited, request_limits
from explainer.web.whatif import (CONTROLS, NEW_CONTROLS, NEW_PREFIX, POD_CONTROLS, PREFIX, scenario_as_yaml,
                                  scenario_from_post)


class HtmxHttpRequest(HttpRequest):
    """HttpRequest with the attribute HtmxMiddleware adds, for type checkers."""

    htmx: HtmxDetails


def fingerprint(manifest: str, scenario: Any, version: str, observed: str | None = None) -> str:
    seen = f"\0observed\0{observed}" if observed else ""      # an input without one keeps its key
    return hashlib.sha256(f"{version}\0{scenario!r}\0{manifest}{seen}".encode()).hexdigest()


def run_explain(manifest: str, scenario: Any, version: str, *, defer_cache: bool = False,
                on_miss: Any = None, observed: str | None = None, panel: int | None = None) -> dict[str, Any]:
    """The shared part of every page that shows an analysis, cached by a hash of the input, the
    reader's language (the pictures carry translated labels) and the width the page shows its
    charts at (``panel``, CSS px, as the browser measured it: web/fit.py).  ``observed``: kubectl's
    output about the Pods (issue 23), compared with the prediction.

    With ``defer_cache`` the caller stores it with `remember()` after rendering its page, so
    that `dot` (still drawing) and the page's own rendering overlap.
    """
    observed = observed if observed and observed.strip() else None
    key = f"explained:{get_language()}:{panel or ''}:{fingerprint(manifest, scenario, version, observed)}"
    cached = cache.get(key)
    if cached is not None and _suits(cached):
        return dict(cached)
    limits = request_limits()

    def analysis() -> dict[str, Any]:   # in a child process behind the service's gate when costly (isolate.py)
        expl = explain(manifest, scenario, version, limits=limits, observed=observed)
        return {"explanation": result_view(expl), "pods": present(expl, fingerprint(manifest, None, version), panel),
                "errors": translate_errors(expl.errors), "version": expl.version}

    # a permalink read is counted (on_miss, security.CostlyReadLimited) before the work, once a slot is held
    context = gated([(manifest, scenario), (observed or "", None)], analysis, before=on_miss)
    if defer_cache:
        return {**context, "_remember": (key, context)}
    if cacheable(context):
        cache.set(key, context)
    return dict(context)


def _suits(cached: Any) -> bool:
    """Whether a cached analysis is one this code wrote: the templates read a Pod's view without failing on a
    missing field (they print nothing), so an object of another shape is found here and is a miss (issue 27)."""
    return isinstance(cached, dict) and isinstance(cached.get("pods"), list) and all(
        isinstance(p, PodView) for p in cached["pods"])


def remember(context: dict[str, Any]) -> None:
    """Store an analysis that `run_explain(defer_cache=True)` left for after rendering."""
    if "_remember" in context:
        key, value = context["_remember"]
        if cacheable(value):
            cache.set(key, value)


def cacheable(context: dict[str, Any]) -> bool:
    """Whether an analysis may be cached: not when a diagram of it failed for a passing reason (the
    server was busy, `dot` timed out), which another moment may draw (issue 27).  Waits for its
    pictures (pickling would anyway)."""
    return not any(pod.diagram_failed_for_now() for pod in context.get("pods", ()))


def failure_response(failure: Failure) -> HttpResponse:
    """A picture that could not be drawn, with why: a passing failure (busy, `dot` timed out) is 503 with when to
    ask again; one that asking again cannot change (the picture is over the export's cap, `dot` refused the
    graph) is 422, so that no client or proxy retries it."""
    if not failure.transient:
        return HttpResponse(failure.message, status=422, content_type="text/plain; charset=utf-8")
    response = HttpResponse(failure.message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "5"
    return response


FRAGMENT_MAX_BYTES = 512 * 1024   # larger answers are not worth a cache entry


def fragment_key(request: HtmxHttpRequest) -> str | None:
    """For an htmx POST: a key for its whole answer.  The fragment depends on nothing but the
    posted fields (manifest, version, scenario, what-if values) and the language; no CSRF
    token or other per-visitor value is in it."""
    if request.method != "POST" or not request.htmx:
        return None
    fields = sorted((k, v) for k, values in request.POST.lists() if k != "csrfmiddlewaretoken" for v in values)
    digest = hashlib.sha256(repr(fields).encode("utf-8", errors="surrogatepass")).hexdigest()
    return f"fragment:{get_language()}:{digest}"


@require_http_methods(["GET", "POST"])
def index(request: HtmxHttpRequest) -> HttpResponse:
    key = fragment_key(request)
    cached = cache.get(key) if key else None
    if cached is not None:   # the same input again: the fragment as it was rendered
        return HttpResponse(cached)
    context: dict[str, Any] = {"examples": EXAMPLES}
    if request.method == "POST":
        form = ExplainForm(request.POST)
        context["form"] = form
        if not form.is_valid():
            context["errors"] = form_errors(form)
        else:
            data = form.cleaned_data
            observed = data.get("observed") or None
            try:
                scenario = scenario_from_post(request.POST)
            except ManifestError as exc:
                context["errors"] = translate_errors(exc.records)
            else:
                written = matched_scenario(request.POST.get("match"), data["manifest"], scenario, data["version"],
                                           observed)
                if written is not None:   # "Make the prediction match": the scenario into the editor, controls emptied
                    scenario = written
                    context["form"] = matched_form(request.POST, written)
                # An htmx request comes from a page whose script runs: a phone's drawing for readers without
                # JavaScript (a <noscript> beside the picture) would never be shown, so it is not drawn; a panel
                # the script did not measure is the default one, as the full page lays it out.
                panel = panel_px(request) or (DEFAULT_PANEL_PX if request.htmx else None)
                context.update(run_explain(data["manifest"], scenario, data["version"], defer_cache=True,
                                           observed=observed, panel=panel))
                context["scenario_yaml"] = scenario_as_yaml(scenario)
                keep_whatif_values(context, request.POST if written is None else {})
    else:
        context.update(_initial(request))
    template = "partials/_result.html" if request.htmx else "pages/index.html"
    if not request.htmx:
        context["page_messages"] = json.dumps(page_messages(), ensure_ascii=False)
    response = AfterSending(render_to_string(template, context, request))
    response.after(remember, context)
    if key and "explanation" in context and len(response.content) <= FRAGMENT_MAX_BYTES and cacheable(context):
        response.after(cache.set, key, response.content.decode("utf-8"))
    return response


class AfterSending(HttpResponse):
    """A response that does some work once the server has sent it: storing the analysis and the
    fragment in the cache (pickling an analysis takes as long as rendering a table) is for the
    next request, so this one does not wait for it.  The WSGI server calls `close()` when the
    body is out (PEP 3333); so does the test client."""

    def __init__(self, content: str) -> None:
        super().__init__(content)
        self._after: list[tuple[Any, tuple[Any, ...]]] = []

    def after(self, work: Any, *args: Any) -> None:
        self._after.append((work, args))

    def close(self) -> None:
        try:
            super().close()
        finally:
            work, self._after = self._after, []
            for fn, args in work:
                fn(*args)


URL_INPUT_LIMIT = 24_000   # characters of compressed input in the address (#i=...): chat tools cut longer links


def page_messages() -> dict[str, Any]:
    """What the page's script may have to say, in the reader's language (the script holds no text)."""
    return {
        "network": gettext("The server could not be reached, so the result below is not for your input. "
                           "Check the connection and press Explain again."),
        "timeout": gettext("The server took too long to answer. Press Explain again."),
        "tooLarge": gettext("The request is too large: the server accepts at most %(limit)s. Explain a smaller "
                            "part, or, where you run the explainer, raise EXPLAINER_MAX_REQUEST_BYTES and "
                            "EXPLAINER_MAX_MANIFEST_BYTES.") % {"limit": filesizeformat(settings.MAX_REQUEST_BYTES)},
        "rateLimited": gettext("Too many requests from your address: try again in {seconds} s."),
        "rateLimitedLater": gettext("Too many requests from your address: try again later."),
        "server": gettext("The server failed to answer (HTTP {status}); the result below is not for your input. "
                          "Try again; if it keeps failing, please report the input."),
        "refused": gettext("The server refused the request (HTTP {status}); the result below is not for your "
                           "input."),
        "urlTooLong": gettext("This input is too large to keep in the address ({size} characters compressed; "
                              "the limit is {limit}). Reloading keeps it in this browser; Share stores it as a "
                              "permalink."),
        "urlUnreadable": gettext("The input in the address could not be read: the link is cut or damaged."),
        "urlTooLarge": gettext("The input in the address is too large to open: unpacked, it holds more than the "
                               "{limit} bytes the server explains. Nothing was put in the editor."),
        "restored": gettext("Your last input was restored from this browser."),
        "exampleLoaded": gettext("The example replaced your text."),
        "undo": gettext("Undo"),
        "undone": gettext("Your text is back."),
        "outOfDate": gettext("Out of date: the input has changed since this result."),
        "keptGood": gettext("The text does not explain as it stands (the problems are above): the picture below "
                            "is of the last version that did."),
        "splitter": gettext("Editor width"),
        "splitterHelp": gettext("Drag, or ←/→ with the keyboard, to resize the editor; Enter hides or shows it."),
        "urlLimit": URL_INPUT_LIMIT,
        "urlMaxBytes": settings.MAX_MANIFEST_BYTES,   # what a link may unpack to (static/js/app.js)
    }


def keep_whatif_values(context: dict[str, Any], post: Any) -> None:
    """The what-if panel is redrawn with each answer: keep what the reader typed."""
    for pod in context.get("pods", ())[:1]:   # kept apart from the (cached) analysis
        context["whatif_values"] = {c["name"]: {k: post.get(f"c.{c['name']}.{k}", "") for k in CONTROLS}
                                    for c in pod.containers}
        context["newrev_values"] = {c["name"]: {k: post.get(f"n.{c['name']}.{k}", "") for k in NEW_CONTROLS}
                                    for c in pod.containers}
    context["pod_controls"] = {k: post.get(k, "") for k in POD_CONTROLS}


def matched_scenario(match: str | None, manifest: str, scenario: Any, version: str,
                     observed: str | None) -> dict[str, Any] | None:
    """The scenario that makes Pod ``match``'s prediction match what the cluster shows (issue 23;
    docs/lifecycle-model.md §36): the scenario in effect with every reproducible divergence written in,
    or None when ``match`` names no Pod with one."""
    index = whole_number(match, 4)      # "²" passes isdigit() but not int() (issue 27)
    if index is None or not observed:
        return None
    pods = run_explain(manifest, scenario, version, observed=observed).get("pods") or []
    seen = pods[index].observed if index < len(pods) else None
    return dict(seen["scenario"]) if seen and seen.get("matchable") else None


def matched_form(post: Any, written: dict[str, Any]) -> ExplainForm:
    """The editor's form after "Make the prediction match": the written scenario in its YAML field, the
    what-if controls empty (the written scenario holds what they said)."""
    data = post.copy()
    for key in list(data):
        if key.startswith((PREFIX, NEW_PREFIX)) or key in POD_CONTROLS or key == "match":
            del data[key]
    data["scenario"] = scenario_as_yaml(written)
    form = ExplainForm(data)
    form.is_valid()
    return form


def form_errors(form: ExplainForm) -> list[ErrorRecord]:
    """Form errors in the shape of the core's, so one panel shows both."""
    return [ErrorRecord(str(message), kind="input", path=field if field != "__all__" else None)
            for field, messages in form.errors.items() for message in messages]


def _initial(request: HttpRequest) -> dict[str, Any]:
    source = request.GET.get("from")
    if source:   # "Edit a copy" of a permalink: the editor pre-filled, nothing stored yet
        link = find_link(request, source, KIND_EXPLAIN)
        if link is None:
            raise Http404("No such permalink")
        scenario = link.scenario_data
        # "Make the prediction match" on the permalink's page: the copy with the scenario it writes
        written = matched_scenario(request.GET.get("match"), link.manifest, scenario, link.version, link.observed)
        scenario = written if written is not None else scenario
        form = ExplainForm(initial={"manifest": link.manifest, "scenario": scenario_as_yaml(scenario or {}),
                                    "version": link.version, "observed": link.observed})
        ctx = run_explain(link.manifest, scenario, link.version, observed=link.observed, panel=panel_px(request))
        return {"form": form, "copied_from": link, **ctx,
                **({"scenario_yaml": scenario_as_yaml(written)} if written is not None else {})}
    slug = request.GET.get("example")
    if slug:
        example = BY_SLUG.get(slug)
        if example is None:
            raise Http404("No such example")
        observed = example.observed()
        form = ExplainForm(initial={"manifest": example.manifest(), "scenario": example.scenario,
                                    "version": d.DEFAULT_VERSION, "observed": observed})
        ctx = run_explain(example.manifest(), example.scenario or None, d.DEFAULT_VERSION, observed=observed,
                          panel=panel_px(request))
        return {"form": form, "example": example, **ctx}
    return {"form": ExplainForm(initial={"version": d.DEFAULT_VERSION})}


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The catalogue with an index and a filter: ``?q=`` words every shown rule holds (in its id, title or
    texts), ``?severity=`` one severity.  The filter works without JavaScript (this view hides what does
    not match); static/js/rules.js filters the same way as the reader types."""
    query = " ".join(request.GET.get("q", "").split())[:100]
    severity = request.GET.get("severity", "")
    if severity not in SEVERITY_WORDS:
        severity = ""
    words = query.lower().split()
    entries = []
    for r in catalogue(gettext):
        texts = [r["id"], r["title"]] + [r[k] for k in RULE_TEXTS]
        found = " ".join(inline.plain(t) for t in texts).lower()
        entries.append({**r, **{f"{k}_html": mark_safe(inline.html(r[k])) for k in ("title", *RULE_TEXTS)},
                        "shown": all(w in found for w in words) and severity in ("", r["severity"])})
    shown = sum(1 for r in entries if r["shown"])
    return render(request, "pages/rules.html", {
        "rules": entries, "features": feature_table(gettext), "feature_versions": SHOWN_VERSIONS,
        "query": query, "severity": severity, "severities": [(k, gettext(v)) for k, v in SEVERITY_WORDS.items()],
        "count": gettext("Showing %(n)s of %(total)s rules.") % {"n": shown, "total": len(entries)},
        "count_template": gettext("Showing %(n)s of %(total)s rules.") % {"n": "%(n)s", "total": len(entries)}})


RULE_TEXTS = ("what", "why", "fix", "fires_when", "quiet_when")
SEVERITY_WORDS = {"error": gettext_noop("Errors"), "warning": gettext_noop("Warnings"), "info": gettext_noop("Info")}


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and feed readers ask for /favicon.ico whatever the page links: the SVG icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


@require_GET
def diagram(request: HttpRequest, digest: str) -> HttpResponse:
    """/diagram/<hash>.svg: the sharing diagram of a Pod the server explained, drawn on demand
    from the DOT it cached under that hash (only DOT made here is ever drawn)."""
    if not re.fullmatch(r"[0-9a-f]{64}", digest):
        raise Http404("not a diagram")
    key = f"diagram-svg:{digest}"
    body = cache.get(key)
    if body is None:
        dot = cache.get(f"dot:{digest}")
        if dot is None:
            raise Http404("This diagram is no longer cached: explain the manifest again.")
        if rate_limited(request, "render"):
            return error_response(429, gettext("Too many pictures drawn for your address; try again in "
                                               "a minute."), request=request)
        try:
            body = '<?xml version="1.0" encoding="UTF-8"?>\n' + render_svg(dot)
        except DiagramError as exc:
            body = Failure(exc.text.render(gettext), transient=exc.transient)
        if not (isinstance(body, Failure) and body.transient):
            cache.set(key, body, timeout=FAILURE_CACHE_SECONDS if isinstance(body, Failure) else EXPORT_CACHE_SECONDS)
    if isinstance(body, Failure):
        return failure_response(body)
    response = HttpResponse(body, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400, immutable"   # named by the hash of what it draws
    return response

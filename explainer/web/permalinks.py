"""Share, open, export, embed and delete permalinks."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET, require_POST

from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.numbers import whole_number
from explainer.web.redact.credentials import IN_OUTPUT
from explainer.render.graphviz.diagram import DiagramError, render_png, render_svg, sharing_diagram
from explainer.render.bounded import bound_answer
from explainer.render.jsonable import explanation_to_dict
from explainer.render.markdown import explanation_as_markdown
from explainer.render.graphviz.png import PngError, svg_to_png
from explainer.render.rollout.svg import render_rollout_svg
from explainer.render.timeline import render_timeline_svg
from explainer.web.cache import EXPORT_CACHE_SECONDS, FAILURE_CACHE_SECONDS, Failure, single_flight
from explainer.web.fit import panel_px
from explainer.web.forms import ExplainForm
from explainer.web.gate import link_inputs
from explainer.web.isolate import gated
from explainer.web.lookup import link_or_404
from explainer.web.models import KIND_EXPLAIN, Permalink
from explainer.web.security import CostlyReadLimited, error_response, rate_limited
from explainer.web.share import UNREDACTABLE, share_input
from explainer.web.present import MAX_PAGE_SVG_BYTES, translate_errors
from explainer.web.views import HtmxHttpRequest, cacheable, failure_response, form_errors, run_explain
from explainer.web.whatif import scenario_as_yaml, scenario_from_post


@require_POST
def share(request: HtmxHttpRequest) -> HttpResponse:
    """Store the editor's input (after a warning about credentials) and show the link once."""
    form = ExplainForm(request.POST)
    context: dict[str, Any] = {"form": form}
    template = "partials/_share.html" if request.htmx else "pages/shared.html"
    if not form.is_valid():
        context["errors"] = form_errors(form)
        return render(request, template, context)
    try:
        scenario = scenario_from_post(request.POST)
    except ManifestError as exc:
        context["errors"] = translate_errors(exc.records)
        return render(request, template, context)
    outcome = share_input(request, form.cleaned_data["manifest"], scenario, form.cleaned_data["version"],
                          request.POST.get("secrets", ""), form.cleaned_data.get("observed") or "")
    if outcome.status == "rate_limited":
        return error_response(429, gettext("Too many links created from your address; try again later."),
                              request=request)
    if outcome.status == "too_large":
        context["too_large"] = outcome.limit
    elif outcome.status == "unredactable":
        context["errors"] = [{"message": gettext(UNREDACTABLE)}]
    elif outcome.status == "secrets":   # a line of the observed output is not one of the editor's: no link to it
        context["hits"] = [{"line": h.line, "what": h.text.render(gettext) if h.text else h.what,
                            "observed": h.text is not None and h.text.msgid == IN_OUTPUT} for h in outcome.hits]
    else:
        assert outcome.link is not None
        context.update({"link": outcome.link, "token": outcome.token,
                        "url": request.build_absolute_uri(_url(outcome.link))})
    return render(request, template, context)


def _url(link: Permalink) -> str:
    return reverse("web:permalink", args=[link.id])


def _explained(link: Permalink, request: HttpRequest | None = None, panel: int | None = None) -> dict[str, Any]:
    """The analysis of a link, its charts laid out for ``panel`` CSS px (web/fit.py); a read that computes it
    again counts against the costly-read limit."""
    if link.kind != KIND_EXPLAIN:
        raise Http404("not an explanation")
    on_miss = None if request is None else lambda: _costly(request)
    return run_explain(link.manifest, link.scenario_data, link.version, on_miss=on_miss,
                       observed=link.observed or None, panel=panel)


def _costly(request: HttpRequest) -> None:
    if rate_limited(request, "costly"):
        raise CostlyReadLimited()


@require_GET
def permalink(request: HttpRequest, pid: str) -> HttpResponse:
    link = link_or_404(request, pid, KIND_EXPLAIN)
    page = _cached_export(request, link, "page", lambda: _page_parts(request, link))
    context = {"link": link, "url": request.build_absolute_uri(_url(link)),
               "scenario_yaml": scenario_as_yaml(link.scenario_data or {}), **page}
    return render(request, "pages/permalink.html", context)


def _page_parts(request: HttpRequest, link: Permalink) -> dict[str, Any]:
    """The analysis part of a permalink page, rendered once per language: the link never
    changes, and the part holds no per-visitor data (the CSRF token lives outside it)."""
    context = _explained(link, panel=panel_px(request))
    # rendered for every visitor alike: never the htmx-only parts, whatever this request carried
    return {"result_html": render_to_string("partials/_result.html",
                                            {**context, "static_page": True, "link_id": link.id}, request=request),
            "summary": _summary(context),
            "titles": [f"{p.kind} {p.name}" for p in context["pods"]],
            "names": ", ".join(p.name for p in context["pods"]),
            "passing": not cacheable(context),
            "has_rollout": bool(context["pods"] and context["pods"][0].rollout_html)}


def _summary(context: dict[str, Any]) -> str:
    parts = []
    for pod in context["pods"]:
        findings = len(pod.findings)
        status = pod.final.get("status", gettext("rejected by the API server"))
        parts.append(gettext("%(kind)s %(name)s: %(status)s, %(n)d pitfall(s)")
                     % {"kind": pod.kind, "name": pod.name, "status": status, "n": findings})
    return "; ".join(parts) or gettext("No Pod in this manifest.")


@xframe_options_exempt
@require_GET
def embed(request: HttpRequest, pid: str) -> HttpResponse:
    link = link_or_404(request, pid, KIND_EXPLAIN)
    context = _explained(link, request, panel_px(request))
    context.update({"link": link, "url": request.build_absolute_uri(_url(link))})
    response = render(request, "pages/embed.html", context)
    response.embeddable = True   # the security middleware lets any page frame it
    return response


@require_GET
def export_json(request: HttpRequest, pid: str) -> JsonResponse:
    link = link_or_404(request, pid, KIND_EXPLAIN)
    data = _cached_export(request, link, "json", lambda: bound_answer(explanation_to_dict(
        link.explanation()), settings.MAX_ANSWER_BYTES, indent=2))
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})


@require_GET
def export_markdown(request: HttpRequest, pid: str) -> HttpResponse:
    link = link_or_404(request, pid, KIND_EXPLAIN)
    def make() -> str:
        expl = link.explanation()
        svg = request.build_absolute_uri(reverse("web:timeline-svg", args=[link.pk]))
        return explanation_as_markdown(
            expl, request.build_absolute_uri(_url(link)), gettext=gettext,
            scenario_yaml=scenario_as_yaml(link.scenario_data or {}),
            timeline_urls=[svg if i == 0 else f"{svg}?pod={i}" for i in range(len(expl.pods))],
            max_bytes=settings.MAX_ANSWER_BYTES)
    text = _cached_export(request, link, "md", make)
    return HttpResponse(text, content_type="text/markdown; charset=utf-8")


def _report(link: Permalink, request: HttpRequest) -> Any:
    index = _pod_index(request)
    pods = link.explanation().pods
    if index >= len(pods):
        raise Http404("no such Pod in this manifest")
    return pods[index]


def _pod_index(request: HttpRequest) -> int:
    index = whole_number(request.GET.get("pod", "0"), 3)   # ASCII digits: "²" is no index
    if index is None:
        raise Http404("?pod= takes the index of a Pod in the manifest: 0, 1, ...")
    return index


class RenderLimited(Exception):
    """The client has used up its budget of pictures drawn (not served from the cache)."""


def _cached_export(request: HttpRequest, link: Permalink, name: str, make: Any, before: Any = None) -> Any:
    """Exports of an immutable link never change: render once per language, then serve from
    the cache.  The link's existence is checked first, so a deleted link is gone at once."""
    pod = f":{_pod_index(request)}" if name.split(".")[0] in ("timeline", "sharing") else ""
    if name == "page":          # the page's charts are laid out for the width the browser measured
        pod = f":{panel_px(request) or ''}"
    key = f"export:{link.id}:{name}{pod}:{get_language()}"
    value = cache.get(key)
    if value is None:
        with single_flight(key):   # the same export asked for at once: made once per process
            value = cache.get(key)
            if value is None:
                value = _make_export(request, name, key, link, make, before)
    return value


def _make_export(request: HttpRequest, name: str, key: str, link: Permalink, make: Any, before: Any) -> Any:
    """``make()``, behind the service's gate when the link is costly (web/isolate.py); what the request counts
    against its client's limits (``before``, and a read of the analysis again) is counted in the worker once a
    slot is held (a busy answer is not counted; the child process never touches the database)."""
    def count() -> None:
        if before is not None:
            before()
        if name in ("page", "json", "md"):   # an analysis computed again
            _costly(request)

    value = gated(link_inputs(link), make, before=count)
    passing = (isinstance(value, Failure) and value.transient) or (isinstance(value, dict) and value.get("passing"))
    if not passing:   # busy, or a run that timed out: another moment may draw it
        cache.set(key, value, timeout=FAILURE_CACHE_SECONDS if isinstance(value, Failure) else EXPORT_CACHE_SECONDS)
    return value


# DOT for people who restyle the diagram in their own Graphviz tools (IANA's type for DOT).
CONTENT_TYPES = {"svg": "image/svg+xml", "png": "image/png", "dot": "text/vnd.graphviz; charset=utf-8"}


def _picture(request: HttpRequest, pid: str, which: str, fmt: str) -> HttpResponse:
    link = link_or_404(request, pid, KIND_EXPLAIN)

    def count() -> None:
        if fmt != "dot" and rate_limited(request, "render"):   # drawing costs a process: counted per client
            raise RenderLimited()

    def make() -> bytes | str | Failure:
        try:
            return _draw(request, link, which, fmt)
        except (DiagramError, PngError) as exc:
            return Failure(str(exc), transient=exc.transient)

    try:
        body = _cached_export(request, link, f"{which}.{fmt}", make, count)
    except RenderLimited:
        return error_response(429, gettext("Too many pictures drawn for your address; try again in a minute."),
                              request=request)
    if isinstance(body, Failure):
        return failure_response(body)
    response = HttpResponse(body, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'inline; filename="{pid}-{which}.{fmt}"'
    return response


def _draw(request: HttpRequest, link: Permalink, which: str, fmt: str) -> bytes | str:
    report = _report(link, request)
    if which == "timeline":
        if report.simulation is None:
            raise Http404("the API server would reject this Pod: there is no timeline")
        svg = render_timeline_svg(report, gettext=gettext)
        size = len(svg.encode("utf-8"))
        if size > MAX_PAGE_SVG_BYTES:   # the page's cap holds for the export too (issue 27)
            raise PngError(gettext("The timeline picture is %(size)s bytes, more than an export holds (%(limit)s); "
                                   "shorten `until` to draw it.")
                           % {"size": f"{size:,}", "limit": f"{MAX_PAGE_SVG_BYTES:,}"})
        return svg if fmt == "svg" else svg_to_png(svg)
    if which == "rollout":          # the workload's rollout (issue 22)
        if report.rollout is None:
            raise Http404("this Pod's kind has no rollout")
        svg = render_rollout_svg(report.rollout, report.pod.source.name or report.pod.name, gettext=gettext)
        size = len(svg.encode("utf-8"))
        if size > MAX_PAGE_SVG_BYTES:   # the same cap as the timeline's (issue 27)
            raise PngError(gettext("The rollout picture is %(size)s bytes, more than an export holds (%(limit)s).")
                           % {"size": f"{size:,}", "limit": f"{MAX_PAGE_SVG_BYTES:,}"})
        return svg if fmt == "svg" else svg_to_png(svg)
    dot = sharing_diagram(report, gettext=gettext)
    if fmt == "dot":
        return dot
    if fmt == "png":
        return render_png(dot)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + render_svg(dot)


@require_GET
def picture(request: HttpRequest, pid: str, which: str, fmt: str) -> HttpResponse:
    """/p/<id>/timeline.svg, timeline.png, rollout.svg, rollout.png, sharing.svg, sharing.png, sharing.dot
    (``?pod=N`` for other Pods)."""
    return _picture(request, pid, which, fmt)


@require_POST
def delete(request: HttpRequest, pid: str) -> HttpResponse:
    link = link_or_404(request, pid)
    if not link.token_matches(request.POST.get("token", "")):
        return render(request, "pages/deleted.html", {"link": link, "wrong_token": True}, status=403)
    link.delete()
    return render(request, "pages/deleted.html", {"pid": pid})

"""Compare two manifests (issue 5): two permalinks, or the editor against a permalink.

``GET /compare/?left=<id>&right=<id>`` shows both timelines on one time axis, the findings
that are new / fixed / unchanged, what the containers now share or no longer share, and a
summary.  The page has one form, ``POST /compare/``, answered with a redirect (post/redirect/
get: a refresh never re-submits): two permalinks go to ``/compare/?left=..&right=..``; a
pasted manifest (the editor's, or one typed on the page) is stored as the right-hand side and
the comparison's own permalink ``/c/<id>/`` opens, which ``POST /compare/share/`` also makes
for two existing permalinks.  The stored side's delete token crosses the redirect in a
short-lived signed cookie for that one page and is shown there once.  The left side is the
"before" (what runs today), the right side the "after" (the proposal).
"""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode, urlsplit

from django.core.cache import cache
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from explainer.lifecycle import defaults as d
from explainer.lifecycle.errors import ErrorRecord, ManifestError
from explainer.render.compare import Comparison, compare, shared_axis_svgs
from explainer.render.markdown import per_rule
from explainer.comparison.rollout import rollout_from_to
from explainer.comparison.textdiff import side_by_side
from explainer.web.compare_diff import diff_html
from explainer.render.rollout.compare import compare_rollouts, shared_axis_rollouts
from explainer.render.rollout.story import story as rollout_story, summary as rollout_summary
from explainer.render.rollout.svg import render_rollout_svg
from explainer.web.forms import ExplainForm
from explainer.web.lookup import TooManyMisses, find_link
from explainer.web.gate import link_inputs
from explainer.web.security import MISSES_MESSAGE, cached_or_counted
from explainer.web.models import KIND_COMPARE, KIND_EXPLAIN, Permalink
from explainer.web.panels import secs
from explainer.web.present import MAX_PAGE_SVG_BYTES, ROLE_LABELS, finding_view as _finding
from explainer.web.share import UNREDACTABLE, share_comparison, share_input
from explainer.web.views import HtmxHttpRequest, form_errors
from explainer.web.whatif import scenario_as_yaml, scenario_from_post

_ID = re.compile(r"^[A-Za-z0-9_-]{12}$")
_IN_PATH = re.compile(r"/(?:p|embed|api/v1/permalinks)/([A-Za-z0-9_-]{12})(?:[/.]|$)")
_COMPARE_PATH = re.compile(r"/c/([A-Za-z0-9_-]{12})(?:/|$)")
NOT_FOUND, RATE_LIMITED = "NotFound", "RateLimited"


def parse_pid(value: str | None) -> str | None:
    """A permalink id from an id or any URL of a permalink (/p/<id>/, its exports, /embed/<id>/)."""
    value = (value or "").strip()
    if _ID.match(value):
        return value
    m = _IN_PATH.search(urlsplit(value).path) if value else None
    return m.group(1) if m else None


def _side(request: HtmxHttpRequest, raw: str, which: str, errors: list[ErrorRecord]) -> Permalink | None:
    """The explain permalink that ``raw`` names, or None with a message in ``errors``."""
    if not raw.strip():
        return None
    pid = parse_pid(raw)
    if pid is None:
        if _COMPARE_PATH.search(urlsplit(raw.strip()).path):
            errors.append(ErrorRecord(gettext("%(raw)s is a comparison; give the permalink of one manifest (/p/…).")
                                      % {"raw": raw.strip()}, kind="input", path=which, reason="Invalid"))
        else:
            errors.append(ErrorRecord(gettext("%(raw)s is not a permalink id or URL.") % {"raw": raw.strip()},
                                      kind="input", path=which, reason="Invalid"))
        return None
    try:
        link = find_link(request, pid, KIND_EXPLAIN)
    except TooManyMisses:
        errors.append(ErrorRecord(gettext(MISSES_MESSAGE), kind="input", path=which, reason=RATE_LIMITED))
        return None
    if link is None:
        errors.append(ErrorRecord(gettext("No permalink %(id)s: it never existed or was deleted.") % {"id": pid},
                                  kind="input", path=which, reason=NOT_FOUND))
    return link


def _final(p: Any) -> dict[str, Any] | None:
    return None if p is None else {"status": p.status, "phase": p.phase, "ready_count": p.ready_count,
                                   "restarts": p.restarts}


COMPARE_CACHE_SECONDS = 7 * 24 * 3600


def comparison_context(request: HtmxHttpRequest, left: Permalink, right: Permalink) -> dict[str, Any]:
    """Everything the comparison part of the page shows, in the reader's language; cached (compressed when
    large, web/cache.py), as both sides are immutable permalinks (the caller has just read them from the
    database, so a deleted side is never served from the cache); computing it again is a costly read."""
    key = f"compare:{left.id}:{right.id}:{get_language()}"
    context = cached_or_counted(request, key, lambda: _comparison_context(left, right), COMPARE_CACHE_SECONDS,
                                link_inputs(left, right))
    return {**context, "left": left, "right": right}


def _comparison_context(left: Permalink, right: Permalink) -> dict[str, Any]:
    before, after = left.explanation(), right.explanation()
    comp: Comparison = compare(before, after)
    summary = [t.render(gettext) for t in comp.summary]
    pairs = []
    budget = [MAX_COMPARE_PICTURES_BYTES]   # what the timelines of every pair may take together (issue 27)
    for pair in comp.pods:
        titles = (gettext("Before: Pod %(pod)s (%(id)s)") % {"pod": pair.left.pod.name, "id": left.id}
                  if pair.left is not None else None,
                  gettext("After: Pod %(pod)s (%(id)s)") % {"pod": pair.right.pod.name, "id": right.id}
                  if pair.right is not None else None)
        left_svg, right_svg = shared_axis_svgs(pair.left, pair.right, pair.view_end, gettext=gettext, titles=titles)
        left_svg, left_note = _fitting(left_svg, budget)
        right_svg, right_note = _fitting(right_svg, budget)
        rollout = _rollout_sides(pair, left, right, before, after, budget)
        if rollout is not None and rollout.get("sentence"):
            summary.append(rollout["sentence"] if len(comp.pods) == 1 else "%s %s: %s" % (
                pair.kind, pair.name, rollout["sentence"]))
        pairs.append({
            "rollout": rollout,
            "kind": pair.kind, "name": pair.name,
            # whether each side has the Pod (not the reports: a cached context holds what the page shows only)
            "left": pair.left is not None, "right": pair.right is not None, "left_svg": left_svg, "right_svg": right_svg,
            "left_note": left_note, "right_note": right_note,
            "view_end": f"{pair.view_end:g}",
            "summary": [t.render(gettext) for t in pair.summary],
            "finding_groups": [_group("new", gettext("New"), pair.new), _group("fixed", gettext("Fixed"), pair.fixed),
                               _group("unchanged", gettext("Unchanged"), pair.unchanged)],
            "sharing": [{"topic": s.topic, "change": s.change, "text": s.text.render(gettext)} for s in pair.sharing],
            "starts": [{"container": s.container, "role": gettext(ROLE_LABELS.get(s.role, s.role)),
                        "before": s.before, "after": s.after, "in_before": s.in_before, "in_after": s.in_after,
                        "delta": s.delta, "changed": s.changed,
                        "cause": s.cause.render(gettext) if s.cause is not None else ""} for s in pair.starts],
            "final_before": _final(pair.final_before), "final_after": _final(pair.final_after),
        })
    heads = (gettext("Before · %(id)s") % {"id": left.id}, gettext("After · %(id)s") % {"id": right.id})
    text = side_by_side(left.manifest, right.manifest)
    scenario_b, scenario_a = scenario_as_yaml(left.scenario_data or {}), scenario_as_yaml(right.scenario_data or {})
    # what the page shows, not the comparison itself (both explanations): that is what the cache holds (issue 27)
    return {"summary": summary, "pairs": pairs,
            "text_diff": diff_html(text, *heads), "text_counts": (text.removed, text.added),
            "scenario_diff": diff_html(side_by_side(scenario_b, scenario_a), *heads)
            if scenario_b != scenario_a else "",
            "left": left, "right": right, "left_errors": before.errors, "right_errors": after.errors,
            "left_scenario": scenario_b, "right_scenario": scenario_a}


def _rollout_sides(pair: Any, left: Permalink, right: Permalink, before: Any, after: Any,
                   budget: list[int]) -> dict[str, Any] | None:
    """Both sides' rollouts of a workload on one axis and the numbers that differ, and the rollout from
    the first manifest to the second (issue 22)."""
    sides = compare_rollouts(pair.left, pair.right)
    if sides is None:
        return None
    between = rollout_from_to(pair.left, pair.right, before, after)
    moving: dict[str, Any] = {}
    if between is not None:
        moving = {"between_svg": render_rollout_svg(between, sides.right_name, gettext=gettext, title=gettext(
                      "From %(a)s to %(b)s: the rollout of %(name)s") % {"a": left.id, "b": right.id,
                                                                          "name": sides.right_name}),
                  "between_facts": rollout_summary(between, gettext),
                  "between_steps": [{"t": secs(t), "text": text.render(gettext)} for t, text, _pod in rollout_story(between)]}
    titles = (gettext("Before: rollout of %(name)s (%(id)s)") % {"name": sides.left_name, "id": left.id}
              if sides.left is not None else None,
              gettext("After: rollout of %(name)s (%(id)s)") % {"name": sides.right_name, "id": right.id}
              if sides.right is not None else None)
    left_svg, right_svg = shared_axis_rollouts(sides, gettext=gettext, titles=titles)
    (left_svg, left_note), (right_svg, right_note) = _fitting(left_svg, budget), _fitting(right_svg, budget)
    if "between_svg" in moving:     # the page's cap holds for the rollouts' pictures too (issue 27)
        moving["between_svg"], moving["between_note"] = _fitting(moving["between_svg"], budget)
    return {**moving, "left_svg": left_svg, "right_svg": right_svg, "left_note": left_note,
            "right_note": right_note, "differ": sides.differ,
            "sentence": sides.sentence.render(gettext) if sides.sentence is not None and sides.differ else "",
            "rows": [{"what": what.render(gettext), "before": a, "after": b, "changed": a != b}
                     for what, a, b in sides.rows]}


# The page's parts within its cap (5 MiB; issue 27) by construction: every timeline at most MAX_PAGE_SVG_BYTES
# and all of them at most MAX_COMPARE_PICTURES_BYTES; each line-by-line view at most MAX_DIFF_HTML_BYTES
# (compare_diff.py); the tables beside them hold some hundred bytes a container.
MAX_COMPARE_PICTURES_BYTES = 3 * 1024 * 1024


def _fitting(svg: str | None, budget: list[int]) -> tuple[str | None, str]:
    """A timeline picture the page shows, or none and why: the page's cap holds here too (issue 27).
    ``budget``: what the page's pictures may still take, taken from."""
    if svg is None:
        return svg, ""
    if len(svg) <= min(MAX_PAGE_SVG_BYTES, budget[0]):
        budget[0] -= len(svg)
        return svg, ""
    if len(svg) <= MAX_PAGE_SVG_BYTES:
        return None, gettext("The timelines of this comparison are more than a page shows (%(limit)s together): "
                             "this one is left out; compare fewer Pods to see it.") % {
            "limit": f"{MAX_COMPARE_PICTURES_BYTES:,}"}
    return None, gettext("The timeline picture is %(size)s bytes, more than a page shows (%(limit)s); shorten `until` "
                         "to see it.") % {"size": f"{len(svg):,}", "limit": f"{MAX_PAGE_SVG_BYTES:,}"}


def _group(key: str, label: str, findings: Any) -> dict[str, Any]:
    """One list of findings of the comparison: at most MAX_FINDINGS_PER_RULE of one rule (issue 27)."""
    kept, more = per_rule(findings)
    return {"key": key, "label": label, "findings": [_finding(f) for f in kept], "count": f"{len(findings):,}",
            "more": f"{sum(more.values()):,}" if more else ""}


def _status(errors: list[ErrorRecord]) -> int:
    if any(e.reason == NOT_FOUND for e in errors):
        return 404
    if any(e.reason == RATE_LIMITED for e in errors):
        return 429
    return 400 if errors else 200


def _page(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    context.setdefault("form", ExplainForm(initial={"version": d.DEFAULT_VERSION}))
    # One form for two permalinks or a pasted manifest: the manifest is optional in the browser.
    context["form"].use_required_attribute = False
    return render(request, "pages/compare.html", context, status=status)


def _editor_form(left: Permalink | None) -> ExplainForm:
    """The paste form, pre-filled with the left-hand input: edit it into the proposal."""
    if left is None:
        return ExplainForm(initial={"version": d.DEFAULT_VERSION})
    return ExplainForm(initial={"manifest": left.manifest, "version": left.version,
                                "scenario": scenario_as_yaml(left.scenario_data or {})})


@require_http_methods(["GET", "POST"])
def compare_view(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        if request.POST.get("manifest", "").strip() or not request.POST.get("right", "").strip():
            return _compare_pasted(request)
        return _compare_two(request)
    left_raw, right_raw = request.GET.get("left", ""), request.GET.get("right", "")
    left_id, right_id = parse_pid(left_raw), parse_pid(right_raw)
    if (left_id and left_id != left_raw) or (right_id and right_id != right_raw):   # a URL was pasted
        query = urlencode({k: v for k, v in (("left", left_id or left_raw), ("right", right_id or right_raw)) if v})
        return HttpResponseRedirect(f"{reverse('web:compare')}?{query}")
    errors: list[ErrorRecord] = []
    left = _side(request, left_raw, "left", errors)
    right = _side(request, right_raw, "right", errors)
    context: dict[str, Any] = {"errors": errors, "left_raw": left_raw, "right_raw": right_raw,
                               "left": left, "right": right, "form": _editor_form(left)}
    if left is not None and right is not None:
        context.update(comparison_context(request, left, right))
    return _page(request, context, status=_status(errors))


def _posted_sides(request: HtmxHttpRequest, errors: list[ErrorRecord]) -> tuple[str, str, Any, Any]:
    """The posted left and right (as typed) and the permalinks they name (None, with an error, if not)."""
    left_raw, right_raw = request.POST.get("left", ""), request.POST.get("right", "")
    return left_raw, right_raw, _side(request, left_raw, "left", errors), _side(request, right_raw, "right", errors)


def _compare_two(request: HtmxHttpRequest) -> HttpResponse:
    """Two permalinks from the page's form: redirect to the comparison's own address."""
    errors: list[ErrorRecord] = []
    left_raw, right_raw, left, right = _posted_sides(request, errors)
    if left is None or right is None:
        if not errors:
            errors.append(ErrorRecord(gettext("Give the permalink (id or URL) to compare with."), kind="input",
                                      path="left"))
        return _page(request, {"errors": errors, "left_raw": left_raw, "right_raw": right_raw, "left": left,
                               "right": right, "form": _editor_form(left)}, status=_status(errors))
    return HttpResponseRedirect(f"{reverse('web:compare')}?{urlencode({'left': left.id, 'right': right.id})}",
                                status=303)


TOKEN_COOKIE_SALT = "compare-token"
TOKEN_COOKIE_SECONDS = 600


def _token_cookie(pid: str) -> str:
    return f"compare_token_{pid}"


def _compare_pasted(request: HtmxHttpRequest) -> HttpResponse:
    """The left side is a permalink, the right side the posted manifest: store it, then compare."""
    box: dict[str, Any] = {}
    errors: list[ErrorRecord] = []
    left_raw = request.POST.get("left", "")
    if not left_raw.strip():
        errors.append(ErrorRecord(gettext("Give the permalink (id or URL) to compare with."), kind="input",
                                  path="left"))
    left = _side(request, left_raw, "left", errors)
    form = ExplainForm(request.POST)
    scenario: dict[str, Any] = {}
    if not form.is_valid():
        errors += form_errors(form)
    else:
        try:
            scenario = scenario_from_post(request.POST)
        except ManifestError as exc:
            errors += list(exc.records)
    if not errors:
        outcome = share_input(request, form.cleaned_data["manifest"], scenario, form.cleaned_data["version"],
                              request.POST.get("secrets", ""), form.cleaned_data.get("observed") or "")
        if outcome.status == "too_large":
            box["too_large"] = outcome.limit
        elif outcome.status == "rate_limited":
            errors.append(ErrorRecord(gettext("Too many links created from your address; try again later."),
                                      kind="input", reason=RATE_LIMITED))
        elif outcome.status == "secrets":
            box["hits"] = list(outcome.hits)
        elif outcome.status == "unredactable":
            errors.append(ErrorRecord(gettext(UNREDACTABLE), kind="input", path="manifest"))
        else:
            right, token = outcome.link, outcome.token
            assert right is not None
            assert left is not None
            link, _ = Permalink.store_compare(left.id, right.id)
            target = reverse("web:compare-permalink", args=[link.id])
            if token is None:     # nothing to show once: go to the comparison
                if request.htmx:
                    response = HttpResponse()
                    response["HX-Redirect"] = target
                    return response
                return HttpResponseRedirect(target, status=303)
            if not request.htmx:   # the comparison's page shows the stored side's delete token once
                response = HttpResponseRedirect(target, status=303)
                response.set_signed_cookie(_token_cookie(link.id), f"{right.id}:{token}", salt=TOKEN_COOKIE_SALT,
                                           max_age=TOKEN_COOKIE_SECONDS, path=target, httponly=True,
                                           secure=request.is_secure(), samesite="Strict")
                return response
            box.update({"compare_link": link, "compare_url": request.build_absolute_uri(target), "stored": right,
                        "stored_url": request.build_absolute_uri(reverse("web:permalink", args=[right.id])),
                        "token": token})
    box["errors"] = errors
    if request.htmx:
        return render(request, "partials/_compare.html", box)
    context = {**box, "form": form, "left": left, "left_raw": left_raw, "pasting": True}
    return _page(request, context, status=_status(errors) if errors else 413 if box.get("too_large") else 200)


@require_POST
def share(request: HtmxHttpRequest) -> HttpResponse:
    """The comparison of two permalinks gets its own permalink."""
    errors: list[ErrorRecord] = []
    left_raw, right_raw, left, right = _posted_sides(request, errors)
    if left is None or right is None:
        if not errors:
            errors.append(ErrorRecord(gettext("Give two permalinks to compare."), kind="input"))
        return _page(request, {"errors": errors, "left_raw": left_raw, "right_raw": right_raw,
                               "left": left, "right": right}, status=_status(errors))
    outcome = share_comparison(request, left, right)
    if outcome.status == "rate_limited":
        errors.append(ErrorRecord(gettext("Too many links created from your address; try again later."),
                                  kind="input", reason=RATE_LIMITED))
        return _page(request, {"errors": errors, "left_raw": left_raw, "right_raw": right_raw,
                               "left": left, "right": right}, status=429)
    assert outcome.link is not None
    return HttpResponseRedirect(reverse("web:compare-permalink", args=[outcome.link.id]), status=303)


@require_GET
def compare_permalink(request: HtmxHttpRequest, pid: str) -> HttpResponse:
    try:
        link = find_link(request, pid, KIND_COMPARE)
    except TooManyMisses:
        return _page(request, {"errors": [ErrorRecord(gettext(MISSES_MESSAGE), kind="input", reason=RATE_LIMITED)]},
                     status=429)
    if link is None:
        return _page(request, {"errors": [ErrorRecord(gettext("No comparison %(id)s: it never existed or was "
                                                              "deleted.") % {"id": pid}, kind="input")]},
                     status=404)
    sides = {p.id: p for p in Permalink.objects.filter(pk__in=[link.left, link.right], kind=KIND_EXPLAIN)}
    left, right = sides.get(link.left), sides.get(link.right)
    context: dict[str, Any] = {"link": link, "url": request.build_absolute_uri(request.path),
                               "left": left, "right": right, "form": _editor_form(left)}
    if left is None or right is None:
        gone = ", ".join(i for i in (link.left, link.right) if i not in sides)
        context["errors"] = [ErrorRecord(gettext("This comparison cannot be shown: permalink %(ids)s was "
                                                 "deleted.") % {"ids": gone}, kind="input")]
        return _page(request, context, status=404)
    context.update(comparison_context(request, left, right))
    context.update(_token_once(request, link, right))
    response = _page(request, context)
    if "token" in context:
        response.delete_cookie(_token_cookie(link.id), path=request.path, samesite="Strict")
    return response


def _token_once(request: HtmxHttpRequest, link: Permalink, right: Permalink) -> dict[str, Any]:
    """The delete token of the side that the redirecting POST stored, if it left one for this page."""
    value = request.get_signed_cookie(_token_cookie(link.id), default=None, salt=TOKEN_COOKIE_SALT,
                                      max_age=TOKEN_COOKIE_SECONDS)
    stored_id, _, token = (value or "").partition(":")
    if not token or stored_id != right.id:
        return {}
    return {"token": token, "compare_link": link, "compare_url": request.build_absolute_uri(request.path),
            "stored": right, "stored_url": request.build_absolute_uri(reverse("web:permalink", args=[right.id]))}

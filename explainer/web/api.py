"""The JSON API (issue 5): explain, and create / read / delete permalinks.

Every answer is JSON, errors included: ``{"error": message, "errors": [records]}`` with a
proper status code, never an HTML page or a traceback.  Bodies are JSON objects
``{manifest, scenario, kubernetesVersion, observed}`` (the scenario as an object or as YAML text;
``observed`` kubectl's output to compare with the prediction) or a form with the same field names.

CSRF: command-line tools and CI send no cookies and need no token.  A request that carries
the CSRF cookie comes from a browser session of the site, so it gets Django's full CSRF check
(`api_csrf`); a cross-site page cannot make a browser send a valid token.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from explainer.explain import explain
from explainer.render.compare import compare
from explainer.render.bounded import bound_answer
from explainer.render.jsonable import comparison_to_dict, explanation_to_dict
from explainer.web.lookup import TooManyMisses, find_link
from explainer.web.models import KIND_EXPLAIN, Permalink
from explainer.web.openapi.document import openapi_document
from explainer.web.cache import EXPORT_CACHE_SECONDS
from explainer.web.gate import BUSY_MESSAGE, RETRY_AFTER_SECONDS, ServerBusy, link_inputs
from explainer.web.isolate import gated
from explainer.web.security import (JSON_PARAMS, MISSES_MESSAGE, CostlyReadLimited, cached_or_counted, error_response,
                                    request_limits, storage_error)
from explainer.web.share import UNREDACTABLE, share_input
from explainer.web.api_input import (ApiError, _body, _check_length, _field_error, _manifest, _observed, _scenario,
                                     _too_big, _version)

log = logging.getLogger(__name__)

View = Callable[..., HttpResponse]
# Errors that make the request itself bad (400); validation and schema errors describe a Pod
# the API server would reject: the request was fine, the answer says why (200).
INPUT_KINDS = frozenset({"syntax", "structure", "limit", "scenario", "input"})


# ---- CSRF for the cookie-based use -------------------------------------------------------------
class _CsrfCheck(CsrfViewMiddleware):
    """Django's own CSRF check, answering in JSON."""

    def _reject(self, request: HttpRequest, reason: str) -> HttpResponse:
        return error_response(403, f"CSRF check failed: {reason} A browser session must send the "
                              "X-CSRFToken header; clients without cookies need no token.")


def api_csrf(view: View) -> View:
    """Enforce CSRF when the request carries the site's CSRF (or session) cookie, skip it otherwise."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if settings.CSRF_COOKIE_NAME in request.COOKIES or settings.SESSION_COOKIE_NAME in request.COOKIES:
            check = _CsrfCheck(lambda r: HttpResponse())
            check.process_request(request)
            rejected = check.process_view(request, None, (), {})
            if rejected is not None:
                return rejected
        return view(request, *args, **kwargs)

    return csrf_exempt(wrapped)


def api_view(*methods: str) -> Callable[[View], View]:
    """JSON for every outcome: 405 for other methods, 413 for big bodies, 500 without a traceback."""
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in allowed:
                response = error_response(405, f"Method {request.method} is not allowed here; use "
                                          f"{' or '.join(methods)}.")
                response["Allow"] = ", ".join(sorted(allowed))
                return response
            try:
                _check_length(request)
                return view(request, *args, **kwargs)
            except ApiError as exc:
                return error_response(exc.status, exc.message, exc.records, **exc.extra)
            except RequestDataTooBig:
                return _too_big()
            except RecursionError:
                return error_response(400, "The input is nested too deeply.")
            except DatabaseError as exc:   # full, or not reachable: say which (issue 27)
                return storage_error(request, exc)
            except ServerBusy:
                response = error_response(503, BUSY_MESSAGE, busy=True)
                response["Retry-After"] = str(RETRY_AFTER_SECONDS)
                return response
            except CostlyReadLimited:
                response = error_response(429, "Too many answers computed afresh for your address (permalinks and "
                                               "comparisons not in the cache); try again in a minute.")
                response["Retry-After"] = str(settings.COSTLY_READ_RATE_WINDOW)
                return response
            except Exception:   # never a traceback to a client
                log.exception("API error on %s %s", request.method, request.path)
                return error_response(500, "Internal error: the explainer could not answer this request.")

        return api_csrf(wrapped)

    return decorate


def _json(data: dict[str, Any], status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, json_dumps_params=JSON_PARAMS)


# ---- the endpoints --------------------------------------------------------------------------------
@api_view("POST")
def explain_view(request: HttpRequest) -> HttpResponse:
    """The CLI's JSON contract for a manifest; 400 when the input itself is bad."""
    data = _body(request)
    manifest = _manifest(data, settings.MAX_MANIFEST_BYTES)
    scenario = _scenario(data)
    version = _version(data, scenario)
    observed = _observed(data, settings.MAX_MANIFEST_BYTES)
    limits = request_limits()

    def answer() -> tuple[bytes | None, list[Any]]:
        """The JSON answer, or (None, the errors) when the input itself is bad: in a child for costly input."""
        expl = explain(manifest, scenario, version, limits=limits, observed=observed)
        bad = [e for e in expl.errors if e.kind in INPUT_KINDS]
        if bad:
            return None, [bad[0].one_line(), expl.errors]
        return _json(bound_answer(explanation_to_dict(expl), settings.MAX_ANSWER_BYTES)).content, []

    body, bad = gated([(manifest, scenario), (observed or "", None)], answer)
    if body is None:
        return error_response(400, f"The input cannot be explained: {bad[0]}", bad[1])
    return HttpResponse(body, content_type="application/json")


def _link_url(request: HttpRequest, link: Permalink) -> str:
    name = "web:permalink" if link.kind == KIND_EXPLAIN else "web:compare-permalink"
    return request.build_absolute_uri(reverse(name, args=[link.id]))


@api_view("POST")
def permalinks_view(request: HttpRequest) -> HttpResponse:
    """Store an input (idempotent): 201 with the delete token the first time, 200 after."""
    data = _body(request)
    stored = settings.MAX_STORED_BYTES < settings.MAX_MANIFEST_BYTES
    manifest = _manifest(data, min(settings.MAX_STORED_BYTES, settings.MAX_MANIFEST_BYTES),
                         "EXPLAINER_MAX_STORED_BYTES" if stored else "EXPLAINER_MAX_MANIFEST_BYTES")
    scenario = _scenario(data)
    version = _version(data, scenario)
    observed = _observed(data, min(settings.MAX_STORED_BYTES, settings.MAX_MANIFEST_BYTES),
                         "EXPLAINER_MAX_STORED_BYTES" if stored else "EXPLAINER_MAX_MANIFEST_BYTES") or ""
    decision = data.get("secrets")
    if decision not in (None, "", "redact", "keep"):
        raise _field_error("secrets", 'secrets must be "redact" or "keep".')
    outcome = share_input(request, manifest, scenario, version, decision, observed)
    if outcome.status == "too_large":   # `_manifest` and `_observed` refuse a larger one first, with the same message
        text = observed if outcome.field == "observed" else manifest
        what = "observed output" if outcome.field == "observed" else "manifest"
        raise _field_error(outcome.field, f"The {what} is {len(text.encode('utf-8')):,} bytes; the limit is "
                                          f"{outcome.limit:,} bytes.", 413)
    if outcome.status == "rate_limited":   # one budget per client for the share form and the API
        raise ApiError(429, "Too many links created from your address; try again later.")
    if outcome.status == "unredactable":
        raise ApiError(422, UNREDACTABLE, secrets=[{"line": h.line, "what": h.what} for h in outcome.hits])
    if outcome.status == "secrets":
        return _json({"error": "The manifest seems to hold credentials; a permalink is readable by anyone who "
                      'has it. Send the request again with "secrets": "redact" (values replaced by '
                      '<redacted>) or "secrets": "keep".',
                      "errors": [], "secrets": [{"line": h.line, "what": h.what} for h in outcome.hits]}, 409)
    link, token = outcome.link, outcome.token
    assert link is not None
    body: dict[str, Any] = {"id": link.id, "url": _link_url(request, link), "redacted": link.redacted}
    if token is None:
        return _json(body)
    body["deleteToken"] = token
    response = _json(body, 201)
    response["Location"] = request.build_absolute_uri(reverse("api:permalink", args=[link.id]))
    return response


def _get_link(request: HttpRequest, pid: str) -> Permalink:
    try:
        link = find_link(request, pid)
    except TooManyMisses:
        raise ApiError(429, MISSES_MESSAGE) from None
    if link is None:
        raise ApiError(404, f"No permalink {pid!r}: it never existed or was deleted.")
    return link


def _explained(link: Permalink) -> dict[str, Any]:
    expl = link.explanation()
    return bound_answer(explanation_to_dict(expl), settings.MAX_ANSWER_BYTES)


def _compared(left: Permalink, right: Permalink) -> dict[str, Any]:
    limits = request_limits()
    return bound_answer(comparison_to_dict(compare(
        explain(left.manifest, left.scenario_data, left.version, limits=limits),
        explain(right.manifest, right.scenario_data, right.version, limits=limits))), settings.MAX_ANSWER_BYTES)


def permalink_data(request: HttpRequest, link: Permalink) -> dict[str, Any]:
    """A link's answer; its analysis is cached (links never change), and computing it again is a costly read."""
    base: dict[str, Any] = {"id": link.id, "kind": link.kind, "created": link.created.isoformat(),
                            "url": _link_url(request, link)}
    if link.kind == KIND_EXPLAIN:
        explanation = cached_or_counted(request, f"api-permalink:{link.id}", lambda: _explained(link),
                                        EXPORT_CACHE_SECONDS, link_inputs(link))
        return {**base, "manifest": link.manifest, "scenario": link.scenario_data,
                "kubernetesVersion": link.version, "redacted": link.redacted,
                "observed": link.observed or None, "explanation": explanation}
    sides = {p.id: p for p in Permalink.objects.filter(pk__in=[link.left, link.right], kind=KIND_EXPLAIN)}
    left, right = sides.get(link.left), sides.get(link.right)
    comparison = None
    if left is not None and right is not None:
        comparison = cached_or_counted(request, f"api-compare:{left.id}:{right.id}", lambda: _compared(left, right),
                                       EXPORT_CACHE_SECONDS, link_inputs(left, right))
    return {**base, "left": link.left, "right": link.right,
            "leftUrl": _link_url(request, left) if left else None,
            "rightUrl": _link_url(request, right) if right else None,
            "comparison": comparison}


@api_view("GET", "DELETE")
def permalink_view(request: HttpRequest, pid: str) -> HttpResponse:
    link = _get_link(request, pid)
    if request.method == "DELETE":
        token = request.headers.get("X-Delete-Token", "")
        if not token and request.body:
            data = _body(request)
            token = data.get("deleteToken") or ""
        if not isinstance(token, str) or not token:
            raise _field_error("deleteToken", "Send the delete token in the X-Delete-Token header or as "
                               '{"deleteToken": ...} in a JSON body.')
        if not link.token_matches(token):
            raise ApiError(403, "That delete token does not match this permalink.")
        link.delete()
        return HttpResponse(status=204)
    return _json(permalink_data(request, link))


@api_view("GET")
def openapi_view(request: HttpRequest) -> HttpResponse:
    response = _json(openapi_document(request.build_absolute_uri("/").rstrip("/")))
    response["Access-Control-Allow-Origin"] = "*"    # a public description: any tool may read it
    return response


@api_view("GET", "POST", "PUT", "PATCH", "DELETE")
def not_found_view(request: HttpRequest, rest: str = "") -> HttpResponse:
    return error_response(404, f"No API endpoint at {request.path}; see {reverse('api:openapi')}.")


__all__ = ["api_csrf", "explain_view", "permalinks_view", "permalink_view", "openapi_view", "not_found_view"]

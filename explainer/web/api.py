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

import json
import logging
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from explainer.explain import explain
from explainer.lifecycle import defaults as d
from explainer.lifecycle.errors import ErrorRecord, ManifestError
from explainer.lifecycle.scenario import scenario_from_data
from explainer.lifecycle.scenario_text import plain, read_scenario_text
from explainer.render.compare import compare
from explainer.render.bounded import bound_answer
from explainer.render.jsonable import comparison_to_dict, explanation_to_dict
from explainer.web.models import KIND_EXPLAIN, Permalink
from explainer.web.openapi import openapi_document
from explainer.web.security import JSON_PARAMS, error_response, request_limits
from explainer.web.share import share_input

log = logging.getLogger(__name__)

View = Callable[..., HttpResponse]
# Errors that make the request itself bad (400); validation and schema errors describe a Pod
# the API server would reject: the request was fine, the answer says why (200).
INPUT_KINDS = frozenset({"syntax", "structure", "limit", "scenario", "input"})


class ApiError(Exception):
    """Stop and answer ``{"error": message, "errors": records}`` with ``status``."""

    def __init__(self, status: int, message: str, records: list[ErrorRecord] | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.records, self.extra = status, message, records or [], extra


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
            except Exception:   # never a traceback to a client
                log.exception("API error on %s %s", request.method, request.path)
                return error_response(500, "Internal error: the explainer could not answer this request.")

        return api_csrf(wrapped)

    return decorate


def _body_limit() -> int:
    return settings.MAX_MANIFEST_BYTES * 4


def _too_big() -> JsonResponse:
    return error_response(413, f"The request body is larger than {_body_limit():,} bytes "
                               "(4 × EXPLAINER_MAX_MANIFEST_BYTES; raise that setting where the explainer runs).")


def _check_length(request: HttpRequest) -> None:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise ApiError(400, "Content-Length is not a number.") from None
    if length > _body_limit():
        raise ApiError(413, f"The request body is larger than {_body_limit():,} bytes.")


# ---- reading a request --------------------------------------------------------------------------
def _body(request: HttpRequest) -> dict[str, Any]:
    """The fields of a JSON object body, or of a form body."""
    ctype = request.content_type or ""
    if ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        try:
            return {k: request.POST.get(k) for k in request.POST}
        except TooManyFieldsSent:
            raise ApiError(400, "The form has too many fields.") from None
    raw = request.body
    if len(raw) > _body_limit():
        raise RequestDataTooBig()
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "The body is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"The body is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}).",
                       [ErrorRecord(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno, kind="syntax")]) from None
    except RecursionError:
        raise ApiError(400, "The JSON body is nested too deeply.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "The body must be a JSON object: {\"manifest\": ..., \"scenario\": ..., "
                       "\"kubernetesVersion\": ...}.")
    where = _lone_surrogate(data, "")
    if where is not None:
        raise ApiError(400, f"The body holds a lone UTF-16 surrogate (an escape such as \\ud800 without its "
                       f"pair) in {where or 'a key'}: that is not text. Send valid Unicode.",
                       [ErrorRecord("lone UTF-16 surrogate", path=where or None, kind="input")])
    return data


_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(value: Any, path: str) -> str | None:
    """The path of the first string (or key) in ``value`` that holds a lone surrogate, or None.
    `json.loads` accepts "\\ud800"; such a string cannot be written as UTF-8 anywhere later."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return where
        elif isinstance(item, dict):
            for key, v in item.items():
                name = f"{where}.{key}" if where else str(key)
                if _SURROGATE.search(key):
                    return name.encode("ascii", "backslashreplace").decode("ascii")
                stack.append((v, name))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))
    return None


def _field_error(path: str, message: str, status: int = 400) -> ApiError:
    return ApiError(status, message, [ErrorRecord(message, path=path, kind="input")])


def _manifest(data: dict[str, Any], limit: int, setting: str = "EXPLAINER_MAX_MANIFEST_BYTES") -> str:
    manifest = data.get("manifest")
    if manifest is None or (isinstance(manifest, str) and not manifest.strip()):
        raise _field_error("manifest", "manifest is required: the YAML or JSON text of a Pod, Deployment, Job, ...")
    if not isinstance(manifest, str):
        raise _field_error("manifest", "manifest must be a string (the manifest's YAML or JSON text).")
    if "\x00" in manifest:
        raise _field_error("manifest", "The manifest holds NUL characters: is it a binary file?")
    size = len(manifest.encode("utf-8"))
    if size > limit:
        raise _field_error("manifest", f"The manifest is {size:,} bytes; the limit is {limit:,} bytes ({setting} "
                                       "raises it where the explainer runs).", 413)
    return manifest


def _observed(data: dict[str, Any], limit: int, setting: str = "EXPLAINER_MAX_MANIFEST_BYTES") -> str | None:
    """kubectl's output to compare with the prediction (docs/lifecycle-model.md §34), or None."""
    observed = data.get("observed")
    if observed is None or (isinstance(observed, str) and not observed.strip()):
        return None
    if not isinstance(observed, str):
        raise _field_error("observed", "observed must be a string: kubectl's output (get pod -o yaml|json, get "
                                       "events, describe pod, get pod).")
    if "\x00" in observed:
        raise _field_error("observed", "The observed output holds NUL characters: is it a binary file?")
    size = len(observed.encode("utf-8"))
    if size > limit:
        raise _field_error("observed", f"The observed output is {size:,} bytes; the limit is {limit:,} bytes "
                                       f"({setting} raises it where the explainer runs).", 413)
    return observed


def _scenario(data: dict[str, Any]) -> dict[str, Any] | None:
    """The scenario as a checked, plain mapping (None for none); 400 with its errors otherwise."""
    raw = data.get("scenario")
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, str):
        try:
            raw = read_scenario_text(raw)
        except ManifestError as exc:
            raise ApiError(400, "The scenario is not valid YAML.",
                           [_as_scenario(r) for r in exc.records]) from None
        if raw is None:
            return None
    elif not isinstance(raw, dict):
        raise _field_error("scenario", "scenario must be an object or YAML text (deleteAt, containers, ...).")
    try:
        scenario_from_data(raw)
    except ManifestError as exc:
        raise ApiError(400, "The scenario is not valid.", list(exc.records)) from None
    plain_data = plain(raw)
    if isinstance(plain_data.get("containers"), dict):
        plain_data["containers"] = {k: v for k, v in plain_data["containers"].items() if v}
    return {k: v for k, v in plain_data.items() if v not in ({}, [], None)} or None


def _as_scenario(r: ErrorRecord) -> ErrorRecord:
    return ErrorRecord(r.message, r.line, r.column, r.path, "scenario", r.reason)


def _version(data: dict[str, Any], scenario: dict[str, Any] | None) -> str:
    version = data.get("kubernetesVersion")
    if version in (None, ""):
        version = (scenario or {}).get("kubernetesVersion") or d.DEFAULT_VERSION
    version = str(version)
    if version not in d.SUPPORTED_VERSIONS:
        raise _field_error("kubernetesVersion", f"Kubernetes {version} is not supported; choose one of "
                           f"{', '.join(d.SUPPORTED_VERSIONS)}.")
    return version


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
    expl = explain(manifest, scenario, version, limits=request_limits(), observed=observed)
    bad = [e for e in expl.errors if e.kind in INPUT_KINDS]
    if bad:
        return error_response(400, f"The input cannot be explained: {bad[0].one_line()}", expl.errors)
    return _json(bound_answer(explanation_to_dict(expl), settings.MAX_ANSWER_BYTES))


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


def _get_link(pid: str) -> Permalink:
    link = Permalink.objects.filter(pk=pid).first()
    if link is None:
        raise ApiError(404, f"No permalink {pid!r}: it never existed or was deleted.")
    return link


def _explained(link: Permalink) -> dict[str, Any]:
    expl = link.explanation()
    return bound_answer(explanation_to_dict(expl), settings.MAX_ANSWER_BYTES)


def permalink_data(request: HttpRequest, link: Permalink) -> dict[str, Any]:
    base: dict[str, Any] = {"id": link.id, "kind": link.kind, "created": link.created.isoformat(),
                            "url": _link_url(request, link)}
    if link.kind == KIND_EXPLAIN:
        return {**base, "manifest": link.manifest, "scenario": link.scenario_data,
                "kubernetesVersion": link.version, "redacted": link.redacted,
                "observed": link.observed or None, "explanation": _explained(link)}
    sides = {p.id: p for p in Permalink.objects.filter(pk__in=[link.left, link.right], kind=KIND_EXPLAIN)}
    left, right = sides.get(link.left), sides.get(link.right)
    comparison = None
    if left is not None and right is not None:
        limits = request_limits()
        comparison = comparison_to_dict(compare(
            explain(left.manifest, left.scenario_data, left.version, limits=limits),
            explain(right.manifest, right.scenario_data, right.version, limits=limits)))
    return {**base, "left": link.left, "right": link.right,
            "leftUrl": _link_url(request, left) if left else None,
            "rightUrl": _link_url(request, right) if right else None,
            "comparison": comparison}


@api_view("GET", "DELETE")
def permalink_view(request: HttpRequest, pid: str) -> HttpResponse:
    link = _get_link(pid)
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

"""Reading an API request (web/api.py): the body as JSON or a form, each field checked, and `ApiError`, the
answer a bad one gets.  Every size is checked before the text is read further; every message names its field."""
from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, JsonResponse

from explainer.lifecycle import defaults as d
from explainer.lifecycle.errors import ErrorRecord, ManifestError
from explainer.lifecycle.scenario.document import scenario_from_data
from explainer.lifecycle.scenario.text import plain, read_scenario_text
from explainer.web.security import error_response


class ApiError(Exception):
    """Stop and answer ``{"error": message, "errors": records}`` with ``status``."""

    def __init__(self, status: int, message: str, records: list[ErrorRecord] | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.records, self.extra = status, message, records or [], extra


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
    where = _lone_surrogate(data, "") if _SURROGATE_ESCAPE.search(raw) else None
    if where is not None:
        raise ApiError(400, f"The body holds a lone UTF-16 surrogate (an escape such as \\ud800 without its "
                       f"pair) in {where or 'a key'}: that is not text. Send valid Unicode.",
                       [ErrorRecord("lone UTF-16 surrogate", path=where or None, kind="input")])
    return data


_SURROGATE = re.compile("[\ud800-\udfff]")
# A surrogate can only reach the parsed body through a JSON escape (the body was read as UTF-8, which has none):
# a body without one is not walked at all.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _lone_surrogate(value: Any, path: str) -> str | None:
    """The path of the first string (or key) in ``value`` that holds a lone surrogate, or None.
    `json.loads` accepts "\\ud800"; such a string cannot be written as UTF-8 anywhere later.

    Paired surrogates (an emoji written as two escapes) are joined by `json.loads`, so UTF-8 writes the value
    whole exactly when nothing is lone: that one C-speed check answers for the common case, and the walk that
    names the place runs only when there is something to name (a walk of a 2 MB body of 40,000 entries took
    0.36 s of the worker's interpreter lock)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        return None
    except UnicodeEncodeError:
        pass
    stack: list[tuple[Any, Any]] = [(value, (None, path))]
    while stack:
        item, chain = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return _path(chain)
        elif isinstance(item, dict):
            for key, v in item.items():
                if _SURROGATE.search(key):
                    return _path((chain, f".{key}")).encode("ascii", "backslashreplace").decode("ascii")
                stack.append((v, (chain, f".{key}")))
        elif isinstance(item, list):
            stack.extend((v, (chain, f"[{i}]")) for i, v in enumerate(item))
    return None


def _path(chain: Any) -> str:
    """``a.b[2].c`` from the chain of (parent, part) pairs the walk kept."""
    parts = []
    while chain is not None:
        chain, part = chain
        parts.append(part)
    return "".join(reversed(parts)).lstrip(".")


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
    _within_the_container_limit(raw)
    try:
        scenario_from_data(raw)
    except ManifestError as exc:
        raise ApiError(400, "The scenario is not valid.", list(exc.records)) from None
    plain_data = plain(raw)
    if isinstance(plain_data.get("containers"), dict):
        plain_data["containers"] = {k: v for k, v in plain_data["containers"].items() if v}
    return {k: v for k, v in plain_data.items() if v not in ({}, [], None)} or None


# The scenario's keys of one entry per container: each entry names (debug: adds) a container, so a scenario
# with more of them than a request may hold containers is refused before any entry is read (issue 27: 40,000
# debug entries cost the worker a second of checking before explain() named the limit).
_PER_CONTAINER = {"debug": "debug entries", "imageUpdates": "image updates", "containers": "container entries"}


def _within_the_container_limit(raw: dict[str, Any]) -> None:
    limit = settings.MAX_CONTAINERS
    for key, what in _PER_CONTAINER.items():
        entries = raw.get(key)
        if isinstance(entries, (list, dict)) and limit is not None and len(entries) > limit:
            raise _field_error(f"scenario.{key}", f"The scenario holds {len(entries):,} {what}; the limit is "
                               f"{limit:,} containers per request (EXPLAINER_MAX_CONTAINERS raises it where the "
                               "explainer runs).")


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

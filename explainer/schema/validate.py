"""Check a manifest object against the strict OpenAPI schema of a Kubernetes version.

The schemas are the JSON Schema (draft 2020-12) files that ship inside the
``kubernetes-validate`` package, ``kubernetes-json-schema/v{X.Y}.0-local-strict/``:
one file per kind and group-version (``pod-v1.json``, ``deployment-apps-v1.json``)
whose ``$ref`` s point into ``_definitions.json``.  "Strict" means every object has
``additionalProperties: false``, so a misspelt or too-new field is reported, as
``kubectl --validate=strict`` would.

We read the files ourselves rather than calling ``kubernetes_validate.validate``: that
reports only the first error and re-reads 1 MB of JSON on every call.  Here the
definitions are parsed once per version.  A valid object (nearly every one) is recognised by
closures that `compiled.py` builds from the schema once, lazily per definition; only an
object they do not prove valid goes through jsonschema, whose errors become the records
below.  jsonschema itself is imported only then, so a command-line run over valid files
never loads it.  (Measured on the 200-container Pod: 56 ms in jsonschema, ~2 ms compiled;
see the commit that introduced `compiled.py` for the options compared.)

The schema knows field names, types and required fields.  It does not know the API
server's rules (allowed values, cross-field checks); another module handles those.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from typing import TYPE_CHECKING

from explainer.lifecycle.errors import ErrorRecord
from explainer.lifecycle.manifest.yamlload import format_path, position

from .compiled import Check, Compiler
from .formats import FORMAT_CHECKS as _FORMAT_CHECKS
from .messages import _did_you_mean, _message, _quote, _unexpected_keys

if TYPE_CHECKING:   # imported when an object is not proven valid: see _validator
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

__all__ = [
    "SUPPORTED_SCHEMA_VERSIONS",
    "has_schema",
    "serving_api_version",
    "normalise_version",
    "validate_document",
]

DEFINITIONS_ID = "https://kubernetes.io/api/_definitions.json"
_DIR_RE = re.compile(r"^v(\d+)\.(\d+)\.0-local-strict$")
# What a kind and an apiVersion may look like before they become part of a file name.
_KIND_RE = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,62}$")
_API_VERSION_RE = re.compile(r"^(?:([a-z0-9][a-z0-9.-]{0,252})/)?(v[0-9]+(?:(?:alpha|beta)[0-9]+)?)$")


def _schema_root() -> Path:
    """``.../site-packages/kubernetes_validate/kubernetes-json-schema`` (without importing it)."""
    spec = importlib.util.find_spec("kubernetes_validate")
    if spec is None or not spec.submodule_search_locations:  # pragma: no cover - install problem
        raise ImportError("the kubernetes-validate package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "kubernetes-json-schema"


SCHEMA_ROOT = _schema_root()


def _versions_on_disk() -> tuple[str, ...]:
    found = []
    for entry in SCHEMA_ROOT.iterdir() if SCHEMA_ROOT.is_dir() else ():
        m = _DIR_RE.match(entry.name)
        if m and (entry / "_definitions.json").is_file():
            found.append((int(m.group(1)), int(m.group(2))))
    return tuple(f"{major}.{minor}" for major, minor in sorted(found))


SUPPORTED_SCHEMA_VERSIONS: tuple[str, ...] = _versions_on_disk()


def normalise_version(version: str) -> str:
    """'v1.34.0', '1.34.0' or '1.34' -> '1.34'; ValueError for a version we have no schema for."""
    text = str(version).strip().lstrip("vV")
    parts = text.split(".")
    short = ".".join(parts[:2])
    if len(parts) in (2, 3) and all(p.isdigit() for p in parts) and short in SUPPORTED_SCHEMA_VERSIONS:
        return short
    raise ValueError(f"no Kubernetes schema for version {version!r}; "
                     f"supported: {', '.join(SUPPORTED_SCHEMA_VERSIONS)}")


def _version_dir(version: str) -> Path:
    return SCHEMA_ROOT / f"v{version}.0-local-strict"


# --- loading, cached ------------------------------------------------------------------------

@lru_cache(maxsize=None)  # bounded: one entry per version directory on disk
def _definitions(version: str) -> dict[str, Any]:
    with (_version_dir(version) / "_definitions.json").open(encoding="utf-8") as fh:
        return json.load(fh)


@lru_cache(maxsize=None)  # bounded: one entry per version directory on disk
def _compiler(version: str) -> Compiler:
    return Compiler(_definitions(version).get("$defs") or {}, _FORMAT_CHECKS)


@lru_cache(maxsize=None)  # bounded: one entry per version directory on disk
def _registry(version: str) -> Any:
    from referencing import Registry, Resource

    contents = _definitions(version)
    resource = Resource.from_contents(contents)
    return Registry().with_resource(contents.get("$id", DEFINITIONS_ID), resource).crawl()


def _schema_file(kind: str, api_version: str) -> tuple[str, str, str] | None:
    """(file name, group, version) for a kind and apiVersion, or None if they are not names."""
    if not isinstance(kind, str) or not isinstance(api_version, str):
        return None
    m = _API_VERSION_RE.match(api_version)
    if not _KIND_RE.match(kind) or not m:
        return None
    group, gv_version = m.group(1) or "", m.group(2)
    middle = f"{group.split('.')[0]}-" if group else ""
    return f"{kind.lower()}-{middle}{gv_version}.json", group, gv_version


@lru_cache(maxsize=512)  # keys come from user input: bounded
def _schema(version: str, kind: str, api_version: str) -> dict[str, Any] | None:
    found = _schema_file(kind, api_version)
    if found is None:
        return None
    name, group, gv_version = found
    path = _version_dir(version) / name
    if not path.is_file():
        return None
    with path.open(encoding="utf-8") as fh:
        schema = json.load(fh)
    # The file must be the top-level schema of exactly this kind in exactly this group:
    # "podspec-v1.json" exists but is no kind, and "apps.example.com/v1" is not "apps/v1".
    gvks = schema.get("x-kubernetes-group-version-kind") or []
    if not any(g.get("group") == group and g.get("kind") == kind and g.get("version") == gv_version
               for g in gvks):
        return None
    return schema


@lru_cache(maxsize=512)  # one per schema above
def _proves_valid(version: str, kind: str, api_version: str) -> Check:
    return _compiler(version).check(_schema(version, kind, api_version))


@lru_cache(maxsize=512)  # one per schema above
def _validator(version: str, kind: str, api_version: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator, FormatChecker

    formats = FormatChecker(formats=())
    for name, check in _FORMAT_CHECKS.items():
        formats.checks(name)(check)
    return Draft202012Validator(_schema(version, kind, api_version), registry=_registry(version),
                                format_checker=formats)


def has_schema(kind: Any, api_version: Any, version: str) -> bool:
    """Whether the schema of ``version`` knows this kind in this apiVersion (False for CRDs)."""
    if not isinstance(kind, str) or not isinstance(api_version, str):
        return False
    return _schema(normalise_version(version), kind, api_version) is not None


@lru_cache(maxsize=512)  # keys come from user input: bounded
def serving_api_version(kind: Any, version: str) -> str | None:
    """The apiVersion in which ``version`` serves the built-in ``kind`` (GA before beta before alpha), or None."""
    if not isinstance(kind, str) or not _KIND_RE.match(kind):
        return None
    found: list[tuple[int, int, str]] = []
    for path in sorted(_version_dir(normalise_version(version)).glob(f"{kind.lower()}-*.json")):
        with path.open(encoding="utf-8") as fh:
            gvks = json.load(fh).get("x-kubernetes-group-version-kind") or []
        for g in gvks:
            if g.get("kind") == kind:
                gv = f"{g['group']}/{g['version']}" if g.get("group") else g.get("version", "")
                number = re.match(r"v(\d+)", g.get("version", ""))
                found.append((2 if "alpha" in gv else 1 if "beta" in gv else 0,
                              -int(number.group(1)) if number else 0, gv))
    return min(found)[2] if found else None


# --- validation -----------------------------------------------------------------------------

def _subtree(data: Any, at: tuple[Any, ...]) -> Any:
    node = data
    for seg in at:
        node = node[seg]
    return node


# Fields the published schema marks required but the API server does not require (a missing
# `omitempty`/`+optional` in the Go types), per definition, with who says so.  They are warnings, not
# errors (docs/lifecycle-model.md §5.3).  Found by comparing the `required` lists of every version's
# _definitions.json (1.25-1.37) with each other, and those a Pod template reaches with the API server's validation.
SCHEMA_ONLY_REQUIRED: dict[tuple[str, str], str] = {
    # required in the schema up to 1.32; kubernetes/kubernetes PR #130233 made the schema agree in 1.33.
    ("io.k8s.api.apps.v1.StatefulSetSpec", "serviceName"):
        "the API server never required it (kubernetes/kubernetes PR #130233 corrected the schema in 1.33)",
    # required in the schema up to 1.28; pkg/apis/batch/validation `validatePodFailurePolicyRule`
    # requires one of onExitCodes and onPodConditions.
    ("io.k8s.api.batch.v1.PodFailurePolicyRule", "onPodConditions"):
        "the API server requires onExitCodes or onPodConditions, not both (the schema agrees from 1.29)",
    # required in the schema up to 1.34; pkg/apis/batch/v1/defaults.go `SetDefaults_Job` sets it to True.
    ("io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern", "status"):
        "the API server defaults it to \"True\" (the schema agrees from 1.35)",
    # required in every version's schema; pkg/apis/core/validation `validateHTTPGetAction` checks only the name.
    ("io.k8s.api.core.v1.HTTPHeader", "value"):
        "the API server checks only the header's name, and sends an empty value",
}


@lru_cache(maxsize=None)  # bounded: one entry per version directory on disk
def _definition_names(version: str) -> dict[int, str]:
    return {id(body): name for name, body in (_definitions(version).get("$defs") or {}).items()}


def validate_document(data: Any, document_index: int, version: str,
                      at: tuple[Any, ...] = ()) -> list[ErrorRecord]:
    """Every schema error of the object at path ``at`` of ``data``, as ``ErrorRecord`` s (see
    `check_document`, which also returns the differences only the schema sees, as warnings)."""
    return check_document(data, document_index, version, at)[0]


def check_document(data: Any, document_index: int, version: str,
                   at: tuple[Any, ...] = ()) -> tuple[list[ErrorRecord], list[ErrorRecord]]:
    """(errors, warnings): every schema error of the object at path ``at`` of ``data``, as ``ErrorRecord`` s,
    apart from fields only the schema requires (SCHEMA_ONLY_REQUIRED), which are warnings.

    ``version`` is a Kubernetes minor version ('1.34').  Paths in the records start at the
    document root (``items[1].spec...`` for a List item); lines and columns come from the
    positions yamlload recorded.  An object without kind/apiVersion, or whose kind has no
    schema (a custom resource), gives no errors: see ``has_schema``.
    """
    version = normalise_version(version)
    at = tuple(at)
    obj = _subtree(data, at)
    if not isinstance(obj, dict):
        return [], []
    kind, api_version = obj.get("kind"), obj.get("apiVersion")
    if not isinstance(kind, str) or not isinstance(api_version, str):
        return [], []
    if _schema(version, kind, api_version) is None or _proves_valid(version, kind, api_version)(obj):
        return [], []
    errors: list[ErrorRecord] = []
    warnings: list[ErrorRecord] = []
    for error in _validator(version, kind, api_version).iter_errors(obj):
        only = _schema_only(error, version)
        for rec in _records(error, data, at, document_index, version):
            if only is None:
                errors.append(rec)
            else:
                warnings.append(dataclasses.replace(
                    rec, kind="schema-only", reason="Schema only",
                    message=f"{_quote(only[0])} is required only by the published OpenAPI schema of Kubernetes "
                            f"{version}: {only[1]}. The API server accepts the object; tools that validate "
                            "against that schema (kubeconform, kubectl's client-side validation) reject it."))
    key = lambda r: (r.line or 0, r.path or "", r.column or 0, r.message)   # noqa: E731
    return sorted(errors, key=key), sorted(warnings, key=key)


def _schema_only(error: ValidationError, version: str) -> tuple[str, str] | None:
    """(field, why) for a `required` error that is the schema's alone; None when the API server requires it too."""
    if error.validator != "required" or not isinstance(error.instance, dict):
        return None
    definition = _definition_names(version).get(id(error.schema))
    missing = [k for k in error.validator_value if k not in error.instance and repr(k) in error.message]
    why = SCHEMA_ONLY_REQUIRED.get((definition or "", missing[0])) if missing else None
    return (missing[0], why) if why else None


def _records(error: ValidationError, data: Any, at: tuple[Any, ...], document: int,
             version: str) -> Iterator[ErrorRecord]:
    path = at + tuple(error.absolute_path)
    if error.validator == "additionalProperties":
        for key in _unexpected_keys(error.instance, error.schema):
            key_path = path + (key,)
            line, column = position(data, key_path)
            hint = _did_you_mean(key, error.schema)
            yield ErrorRecord(
                f"unknown field {_quote(key)} (not in the Kubernetes {version} schema)"
                + (f"; did you mean {_quote(hint)}?" if hint else ""),
                line, column, format_path(key_path), "schema", "Unknown field", document)
        return
    if error.validator in ("oneOf", "anyOf") and error.instance is None:
        return  # null for an int-or-string is "unset" to the API server
    message, reason = _message(error)
    line, column = position(data, path)
    yield ErrorRecord(message, line, column, format_path(path) or None, "schema", reason, document)

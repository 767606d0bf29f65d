"""The OpenAPI schema of `pods[].sharing` (docs/lifecycle-model.md §16), kept apart from web/openapi/document.py's own."""
from __future__ import annotations

from typing import Any

from explainer.lifecycle.sharing.report import MAX_EXCHANGES

_STR, _INT, _BOOL = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
_NAMES = {"type": "array", "items": _STR}


def _obj(required: list[str], properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties, **extra}


def sharing_schema() -> dict[str, Any]:
    """The `Sharing` schema: namespaces, volumes (pairs listed up to MAX_EXCHANGES, groups for the rest), ports."""
    return _obj(["namespaces", "volumes", "ports", "conflicts"], {
        "namespaces": {"type": "object", "additionalProperties": _obj(["groups"], {"groups": {
            "type": "array", "items": _obj(["containers", "scope"], {
                "containers": _NAMES, "scope": {"type": "string", "enum": ["pod", "node", "container"]},
                "because": _STR})}})},
        "volumes": {"type": "array", "items": _obj(["name", "type", "mounts"], {
            "name": _STR, "type": _STR, "mounts": {"type": "array", "items": {"type": "object"}},
            "sources": _NAMES,
            "exchanges": {"type": "array", "items": _obj(["from", "to"], {"from": _STR, "to": _STR}),
                          "description": "Pairs of containers data can flow between through this volume (from "
                                         "a writer to another container that mounts it, where the directories "
                                         "their subPaths give them overlap), writer by writer; at most "
                                         f"{MAX_EXCHANGES}: exchangesLeftOut counts the rest."},
            "writers": {**_NAMES, "description": "The containers that mount it writable."},
            "readers": {**_NAMES, "description": "Every container that mounts it: without subPaths, data can flow "
                                                 "from each writer to each other reader."},
            "exchangesLeftOut": {"type": "integer",
                                 "description": f"Pairs past the first {MAX_EXCHANGES} of exchanges."},
            "alwaysReadOnly": _BOOL})},
        "undeclared": {"type": "array", "items": {"type": "object"}},
        "ports": {"type": "array", "items": {"type": "object"}},
        "conflicts": {"type": "array", "items": _obj(["port", "protocol", "containers"], {
            "port": _INT, "protocol": _STR, "containers": _NAMES})},
        "exposure": {"type": "array", "items": {"type": "object"}},
        "filesystem": {"type": "object"}})

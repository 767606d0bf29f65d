"""Scenario text -> data, once for the web front ends (the what-if form and the JSON API; the CLI hands
its file's text to `explain()`, which reads it in `scenario.document.parse_scenario`).

The scenario is YAML (or JSON) written by a person; it is read with the same reader as manifests
(lines, limits, duplicate keys), then turned into plain ``dict``/``list`` values that can be edited,
stored as canonical JSON and dumped again.
"""
from __future__ import annotations

from typing import Any

from ..manifest.yamlload import Limits, load_documents

SCENARIO_LIMITS = Limits(max_bytes=64 * 1024, subject="scenario")


def read_scenario_text(text: str) -> Any:
    """The first document of a scenario text, with its lines (`LMap`/`LList`); None when there is none.

    Raises ManifestError with the reader's records (kind "syntax", "limit", ...) when it is not YAML.
    """
    docs = load_documents(text, SCENARIO_LIMITS)
    return docs[0].data if docs else None


def plain(value: Any) -> Any:
    """`LMap`/`LList` -> ``dict``/``list`` with string keys, so the mapping can be edited, stored as
    canonical JSON (sorted keys need one type) and dumped as YAML."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value

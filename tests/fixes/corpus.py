"""Every manifest the fix property runs over: the fixtures and the gallery, each with the
version, gates and scenario its header comments name (as the findings tests read them)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tests.findings.conftest import fixture_meta

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCES = (ROOT / "tests" / "fixtures", ROOT / "explainer" / "examples")


def manifests() -> list[Path]:
    return sorted(p for top in SOURCES for p in top.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))


def settings(text: str) -> tuple[dict[str, Any] | None, str]:
    """(scenario data, version) from a fixture's header: `# version:`, `# gates:`, `# scenario:`."""
    meta = fixture_meta(text)
    scenario: dict[str, Any] = {}
    if "scenario" in meta:
        scenario = yaml.safe_load(meta["scenario"]) or {}
    if "gates" in meta:
        scenario["featureGates"] = {k: v == "true" for k, v in (g.split("=") for g in meta["gates"].split(","))}
    return scenario or None, meta.get("version", "1.34")

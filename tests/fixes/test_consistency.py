"""Findings on one cause never give contradicting fixes, on any supported version: over every fixture
and gallery example, at every version (1.28 with and without the SidecarContainers gate),

- applying every fixable finding of the explanation (fix_all: one at a time, each proved by explaining
  again) leaves no fix that failed, adds no error, and no finding a fix removed comes back;
- no two patches of one explanation set the same field to different values;
- where native sidecars are off, no fix (patch or text) adds ``restartPolicy: Always``;
- in a Job or CronJob, no fix (patch or text) moves an init container into ``containers``.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from explainer.explain import explain
from explainer.findings.patch import MoveItem, SetKey, plain
from explainer.fixes import error_key, fix_all
from explainer.lifecycle.defaults import SUPPORTED_VERSIONS
from explainer.lifecycle.admission.validate import sidecars_enabled

from .corpus import ROOT, manifests, settings

MANIFESTS = manifests()
# (version, SidecarContainers gate override): every supported version, and 1.28 both ways
VERSIONS = [(v, None) for v in SUPPORTED_VERSIONS] + [("1.28", True)]


def _scenario(path: Path, gate: bool | None) -> tuple[dict[str, Any] | None, str]:
    scenario, _version = settings(path.read_text(encoding="utf-8"))
    if gate is not None:
        scenario = dict(scenario or {})
        scenario["featureGates"] = {**scenario.get("featureGates", {}), "SidecarContainers": gate}
    return scenario, _version


def _writes(edits: tuple[Any, ...]) -> dict[tuple[Any, ...], Any]:
    """Field path -> value for every field a patch sets (moved items: their set keys at the move's source)."""
    out: dict[tuple[Any, ...], Any] = {}
    for e in edits:
        if isinstance(e, SetKey):
            out[tuple(e.path)] = plain(e.value)
        elif isinstance(e, MoveItem):
            out[tuple(e.path) + ("->",)] = tuple(e.to)
            for key, value in e.set:
                out[tuple(e.path) + (key,)] = plain(value)
    return out


def _load(fix: str) -> Any:
    """A fix snippet as data; a name from a hostile fixture may make it no YAML: then nothing to read."""
    try:
        return yaml.safe_load(fix)
    except yaml.YAMLError:
        return None


def _always(node: Any) -> bool:
    if isinstance(node, dict):
        return node.get("restartPolicy") == "Always" or any(_always(v) for v in node.values())
    if isinstance(node, list):
        return any(_always(v) for v in node)
    return False


def _moved_into_containers(fix: Any, init_names: set[str]) -> set[str]:
    """Names of init containers a fix snippet lists under ``containers``."""
    if isinstance(fix, list):   # a snippet of one container entry ("- name: x ...") is no move
        return set()
    items = fix.get("containers") if isinstance(fix, dict) else None
    return {c.get("name") for c in items or [] if isinstance(c, dict)} & init_names


@pytest.mark.parametrize("version,gate", VERSIONS, ids=[f"{v}{'' if g is None else '-gate-on'}" for v, g in VERSIONS])
def test_fixes_of_one_explanation_agree(version: str, gate: bool | None) -> None:
    problems: list[str] = []
    for path in MANIFESTS:
        text = path.read_text(encoding="utf-8")
        scenario, _v = _scenario(path, gate)
        where = f"{path.relative_to(ROOT)} on {version}{' (gate on)' if gate else ''}"
        expl = explain(text, scenario, version)
        native = sidecars_enabled(version, (scenario or {}).get("featureGates", {}))
        for report in expl.pods:
            doc, pod = report.pod.source.document, report.pod
            inits = {c.name for c in pod.init_containers}
            seen: dict[tuple[Any, ...], tuple[str, Any]] = {}
            for f in report.findings:
                who = f"{f.id} ({f.container})"
                for field, value in _writes(f.patch).items():
                    key = (doc,) + field
                    if key in seen and seen[key][1] != value:
                        problems.append(f"{where}: {who} and {seen[key][0]} set {field} differently")
                    seen.setdefault(key, (who, value))
                snippet = _load(f.fix)
                if not native and (_always(snippet) or any(v == "Always" for k, v in _writes(f.patch).items()
                                                           if k[-1] == "restartPolicy")):
                    problems.append(f"{where}: {who} writes restartPolicy: Always without native sidecars")
                if pod.batch and (_moved_into_containers(snippet, inits) or any(
                        isinstance(e, MoveItem) and e.to[-1] == "containers" for e in f.patch)):
                    problems.append(f"{where}: {who} moves an init container into the Job's containers")
        if not any(f.fixable for r in expl.pods for f in r.findings):
            continue
        out = fix_all(text, scenario, version)
        if out.failed:
            problems.append(f"{where}: fixes that did not prove out {[(f.id, f.container) for f in out.failed]}")
        assert out.explanation is not None
        new = Counter(error_key(e) for e in out.explanation.errors) - Counter(error_key(e) for e in expl.errors)
        if new:
            problems.append(f"{where}: the fixes add errors {sorted(new)}")
        back = {(f.id, f.container) for f in out.fixed} & {(f.id, f.container) for f in out.remaining}
        if back:
            problems.append(f"{where}: fixed findings came back {sorted(back)}")
    assert not problems, "\n".join(problems)

"""Each rule fires on its fires.yaml, at the right container and line, and stays quiet on quiet.yaml."""
from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
import yaml

from explainer.findings import RULES, Severity, run_rules

from .conftest import context_for, context_for_fixture, findings_for_fixture, fixture_meta

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "findings"
SEEDS = FIXTURES / "seeds"
CASES = FIXTURES / "cases"
EVERY_FIXTURE = sorted(FIXTURES.rglob("*.yaml"))


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _ids(rule: ModuleType) -> str:
    return rule.ID


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_rule_fires_on_its_fixture(rule: ModuleType) -> None:
    text = _read(FIXTURES / rule.ID / "fires.yaml")
    expected = fixture_meta(text).get("container")
    assert expected, f"{rule.ID}/fires.yaml needs a '# container: NAME' (or '-') header line"
    found = [f for f in findings_for_fixture(text) if f.id == rule.ID]
    assert found, f"{rule.ID} did not fire on its fires.yaml"
    f = found[0]
    assert f.container == (None if expected == "-" else expected)
    assert f.line is not None and f.path
    text = f.to_dict()
    assert text["title"] == rule.TITLE and f.references[0] == rule.DOCS_URL
    assert text["explanation"] and f.fix.strip()
    if f.container:
        assert f.container in text["explanation"], "the explanation names the container"
        assert f.container in f.fix, "the fix uses the container's name"


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_rule_is_quiet_on_its_fixture(rule: ModuleType) -> None:
    found = [f for f in findings_for_fixture(_read(FIXTURES / rule.ID / "quiet.yaml")) if f.id == rule.ID]
    assert not found, f"{rule.ID} fired on its quiet.yaml: {found[0].explanation.render()}"


@pytest.mark.parametrize("path", sorted(SEEDS.glob("bad_*.yaml")), ids=lambda p: p.stem)
def test_seed_counter_example_produces_its_finding(path: Path) -> None:
    text = _read(path)
    meta = _meta(text)
    found = [(f.id, f.container) for f in run_rules(context_for_fixture(text))]
    assert (meta["finding"], meta["container"]) in found, found


@pytest.mark.parametrize("path", sorted(SEEDS.glob("good_*.yaml")), ids=lambda p: p.stem)
def test_seed_good_example_has_no_error(path: Path) -> None:
    errors = [f for f in run_rules(context_for_fixture(_read(path))) if f.severity is Severity.ERROR]
    assert not errors, [f"{f.id} at {f.container}: {f.explanation.render()}" for f in errors]


@pytest.mark.parametrize("path", sorted(CASES.glob("*.yaml")), ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    """One variant per file; its header says which finding it must (or must not) produce."""
    text = _read(path)
    meta = _meta(text)
    findings = findings_for_fixture(text)
    if "no-finding" in meta:
        assert meta["no-finding"] not in {f.id for f in findings}, [f.explanation.render() for f in findings]
        return
    container = None if meta["container"] == "-" else meta["container"]   # "-": about the input, not a container
    found = [f for f in findings if f.id == meta["finding"] and f.container == container]
    assert found, [(f.id, f.container) for f in findings]
    if "severity" in meta:
        assert found[0].severity.value == meta["severity"]


@pytest.mark.parametrize("path", EVERY_FIXTURE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_finding_is_complete_and_sorted(path: Path) -> None:
    findings = run_rules(context_for_fixture(_read(path)))
    assert findings == sorted(findings, key=lambda f: f.sort_key())
    findings += findings_for_fixture(_read(path))[len(findings):]
    for f in findings:
        assert f.line is not None and f.path, f"{f.id}: no line or path"
        assert f.explanation.render().endswith("."), f"{f.id}: explanation should be whole sentences"
        yaml.safe_load(f.fix)  # the fix is a YAML snippet the user can paste
        assert set(f.to_dict()) == {"id", "severity", "container", "path", "line", "title",
                                    "explanation", "fix", "fixable", "references"}


def test_rules_run_without_a_simulation() -> None:
    """A rejected Pod has no simulation; rules still explain it (here: the undeclared volume)."""
    ctx = context_for(_read(FIXTURES / "mount-without-volume" / "fires.yaml"))
    assert ctx.simulation is None
    assert "mount-without-volume" in {f.id for f in run_rules(ctx)}


def _meta(text: str) -> dict[str, str]:
    meta = fixture_meta(text)
    for line in text.splitlines():
        for key in ("finding", "no-finding", "severity"):
            if line.startswith(f"# {key}:"):
                meta[key] = line.split(":", 1)[1].strip()
    return meta


@pytest.mark.parametrize("seconds,fires", [(3600, True), (86400 * 30, True), (360000000, False), (2147483647, False)])
def test_a_sleep_of_a_year_or_more_is_sleeping_for_ever(seconds: int, fires: bool) -> None:
    text = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {a: b}}\n"
            "  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers:\n        - name: app\n"
            f"          image: busybox:1.36\n          command: [sh, -c, 'sleep {seconds}']\n")
    found = [f for f in run_rules(context_for_fixture(text)) if f.id == "finite-command-under-always"]
    assert bool(found) == fires

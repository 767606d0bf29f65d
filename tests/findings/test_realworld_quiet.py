"""Issue 17's rules on real public manifests: quiet where the manifest is right, and every finding
they give there is one a reviewer judged correct (the `# expect:` header lines)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from explainer.explain import explain

REALWORLD = Path(__file__).resolve().parent.parent / "fixtures" / "realworld"
RULES_17A = ("finite-command-under-always", "service-without-prestop-drain", "liveness-same-as-readiness",
             "liveness-checks-dependency", "exec-probe-default-timeout", "probe-timeout-exceeds-period",
             "termination-grace-zero", "active-deadline-on-pod-template", "job-onfailure-restarts-in-place")
MIN_QUIET = 5
_HEADER = re.compile(r"^# (source|licence|trimmed|expect|quiet-for): ?(.*)$")


def _headers(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _HEADER.match(line)
        if not m:
            if line.startswith("#"):
                continue
            break
        out.setdefault(m.group(1), []).append(m.group(2).strip())
    return out


FIXTURES = sorted(p for p in REALWORLD.glob("*.yaml") if "quiet-for" in _headers(p))


def _findings(path: Path) -> set[tuple[str, str]]:
    expl = explain(path.read_text(encoding="utf-8"))
    assert expl.ok, [e.one_line() for e in expl.errors]
    return {(f.id, f.container or "-") for r in expl.pods for f in r.findings}


def test_every_rule_has_five_real_manifests_it_is_quiet_on() -> None:
    counts = {rule: 0 for rule in RULES_17A}
    for path in FIXTURES:
        for rule in " ".join(_headers(path)["quiet-for"]).split():
            counts[rule] = counts.get(rule, 0) + 1
    assert all(n >= MIN_QUIET for n in counts.values()), counts


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_real_manifest_headers_name_source_and_licence(path: Path) -> None:
    headers = _headers(path)
    assert headers["source"][0].startswith("https://github.com/") and "/blob/" in headers["source"][0]
    assert headers["licence"][0] in ("Apache-2.0", "MIT", "BSD-3-Clause", "BSD-2-Clause")


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_rules_are_quiet_where_the_real_manifest_is_right(path: Path) -> None:
    quiet = set(" ".join(_headers(path)["quiet-for"]).split())
    fired = {(rule, c) for rule, c in _findings(path) if rule in quiet}
    assert not fired, f"{path.name}: {sorted(fired)}"


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_what_issue_17a_rules_say_on_real_manifests_was_judged_correct(path: Path) -> None:
    expected = {tuple(e.split()) for e in _headers(path).get("expect", [])}
    found = _findings(path)
    ours = {f for f in found if f[0] in RULES_17A}
    assert ours <= expected, f"{path.name}: not judged correct: {sorted(ours - expected)}"
    missing = {e for e in expected if e[0] in RULES_17A} - ours
    assert not missing, f"{path.name}: expected but not found: {sorted(missing)}"

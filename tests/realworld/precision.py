"""Findings precision on the real-world fixtures (`tests/fixtures/realworld/`), computed, never typed.

Each fixture is a public project's manifest with header comments::

    # source: https://github.com/OWNER/REPO/blob/COMMIT/PATH
    # licence: Apache-2.0
    # trimmed: which documents were kept            (only when the file was trimmed)
    # expect: RULE-ID CONTAINER                      (one line per finding that is correct; `-` for no container)
    # expect: none                                   (a manifest on which no finding is correct)

Every fixture is explained once, in-process, with the CLI's defaults (the newest supported
version, or the fixture's `# version:` header).  A finding counts as *true* when an `expect:`
line names its rule and container, otherwise as *false*; an `expect:` line that no finding
matches counts as *missed*.  Matching is by (rule, container) within a file, so a rule that
reports the same container once per probe, or once per Pod of a multi-document file, is judged
as one fact.

    python -m tests.realworld.precision            # print the table (Markdown)
    python -m tests.realworld.precision --write    # and rewrite it in README.md between the markers

`make precision` runs the first; `make precision PRECISION_ARGS=--write` the second.  The
suite checks that README.md holds exactly the table this computes, so a change to a rule that
changes a figure must regenerate it (and say why in its commit).
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from explainer.explain import Explanation, explain
from explainer.findings import BY_ID

ROOT = Path(__file__).resolve().parent.parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "realworld"
README = ROOT / "README.md"
BEGIN = "<!-- precision:begin (make precision PRECISION_ARGS=--write) -->"
END = "<!-- precision:end -->"

# Rules an `expect:` line may name before this build has them: the ids issue 17 promises (a
# public interface once they land).  Their expected findings count as missed until then.
PLANNED = frozenset({
    "finite-command-under-always", "service-without-prestop-drain", "liveness-same-as-readiness",
    "liveness-checks-dependency", "exec-probe-default-timeout", "probe-timeout-exceeds-period",
    "termination-grace-zero", "active-deadline-on-pod-template", "job-onfailure-restarts-in-place",
    "poststart-calls-own-server", "prestop-exec-binary-missing", "npm-pid1-swallows-sigterm",
    "heap-exceeds-memory-limit", "classic-sidecar-stops-before-app", "probe-host-loopback",
    "app-listens-on-loopback", "probe-scheme-mismatch", "hostport-blocks-surge",
})
LICENCES = frozenset({"Apache-2.0", "MIT", "BSD-2-Clause", "BSD-3-Clause", "CC-BY-4.0"})

_HEADER = re.compile(r"# (source|licence|trimmed|expect|version): (.*)$")
SOURCE = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+/blob/[0-9a-f]{40}/\S+$")


@dataclass(frozen=True)
class Fixture:
    path: Path
    text: str
    header: dict[str, list[str]]

    @property
    def expected(self) -> frozenset[tuple[str, str]]:
        """The (rule, container) pairs a correct tool reports on this manifest."""
        pairs = []
        for line in self.header.get("expect", []):
            if line.strip() != "none":
                rule, _, container = line.strip().partition(" ")
                pairs.append((rule, container.strip() or "-"))
        return frozenset(pairs)


@dataclass
class Row:
    rule: str
    fires: int = 0
    true: int = 0
    false: int = 0
    missed: int = 0
    where: dict[str, list[str]] = field(default_factory=lambda: {"false": [], "missed": []})

    @property
    def precision(self) -> str:
        return f"{100 * self.true / self.fires:.0f}%" if self.fires else "–"


def read_fixture(path: Path) -> Fixture:
    text = path.read_text(encoding="utf-8")
    header: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = _HEADER.match(line)
        if not m:
            break
        header.setdefault(m.group(1), []).append(m.group(2))
    return Fixture(path, text, header)


def fixtures() -> list[Fixture]:
    return [read_fixture(p) for p in sorted(FIXTURES.glob("*.yaml"))]


@cache
def explained(path: Path) -> Explanation:
    """One explanation per fixture and process (the tests share it)."""
    fx = read_fixture(path)
    version = fx.header.get("version", [None])[0]
    return explain(fx.text, None, version)


def found(expl: Explanation) -> Counter[tuple[str, str]]:
    """(rule, container) of every finding; "-" for one about the Pod, or about a Service of the input."""
    counts = Counter((f.id, f.container or "-") for report in expl.pods for f in report.findings)
    counts.update((f.id, "-") for f in expl.findings)
    return counts


def rows() -> list[Row]:
    """One row per rule of the catalogue, and per planned rule an `expect:` line names."""
    table = {rule: Row(rule) for rule in sorted(BY_ID)}
    for fx in fixtures():
        got = found(explained(fx.path))
        expected = fx.expected
        name = fx.path.name
        for (rule, container), n in got.items():
            row = table.setdefault(rule, Row(rule))
            row.fires += n
            if (rule, container) in expected:
                row.true += n
            else:
                row.false += n
                row.where["false"].append(f"{name} ({container})")
        for rule, container in sorted(expected - set(got)):
            row = table.setdefault(rule, Row(rule))
            row.missed += 1
            row.where["missed"].append(f"{name} ({container})")
    return sorted(table.values(), key=lambda r: (r.rule not in BY_ID, r.rule))


def markdown(table: list[Row]) -> str:
    lines = ["| rule | fires | true | false | missed | precision |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in table:
        name = f"`{r.rule}`" if r.rule in BY_ID else f"`{r.rule}` (planned, not in this build)"
        lines.append(f"| {name} | {r.fires} | {r.true} | {r.false} | {r.missed} | {r.precision} |")
    total = Row("total", *(sum(getattr(r, k) for r in table) for k in ("fires", "true", "false", "missed")))
    lines.append(f"| **total** | **{total.fires}** | **{total.true}** | **{total.false}** | **{total.missed}** "
                 f"| **{total.precision}** |")
    files = fixtures()
    pods = sum(len(explained(fx.path).pods) for fx in files)
    rejected = sum(1 for fx in files if explained(fx.path).errors)
    lines += ["", f"{len(files)} manifests, {pods} Pods; {rejected} of the manifests also get an error "
                  "(the API server would reject them, or their structure is broken)."]
    return "\n".join(lines) + "\n"


def details(table: list[Row]) -> str:
    """Where each false and missed finding is (printed, not stored in the README)."""
    out = []
    for r in table:
        for kind in ("false", "missed"):
            for where in r.where[kind]:
                out.append(f"{kind:6} {r.rule}: {where}")
    return "\n".join(out)


def rewrite(readme: str, table: str) -> str:
    start, end = readme.index(BEGIN) + len(BEGIN), readme.index(END)
    return readme[:start] + "\n" + table + readme[end:]


def in_readme(readme: str) -> str:
    start, end = readme.index(BEGIN) + len(BEGIN), readme.index(END)
    return readme[start:end].lstrip("\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the table in README.md")
    parser.add_argument("--details", action="store_true", help="list every false and missed finding")
    args = parser.parse_args(argv)
    table = rows()
    text = markdown(table)
    sys.stdout.write(text)
    if args.details:
        sys.stdout.write("\n" + details(table) + "\n")
    if args.write:
        readme = README.read_text(encoding="utf-8")
        new = rewrite(readme, text)
        if new != readme:
            README.write_text(new, encoding="utf-8")
            print(f"rewrote the table in {README.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

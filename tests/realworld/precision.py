"""Findings precision on real-world manifests, computed, never typed.

Two sets of the same 90 cases:

- ``tests/fixtures/realworld/``: the project's own, minimal manifests written after public ones, each
  keeping the facts the rules read (the container layout, commands, ports, probes, hooks, resources,
  volumes, the workload's strategy and its Services) and naming the manifest it follows;
- ``../shared/realworld/``: the public manifests themselves (with their sources and licences), when that
  folder is there.  They are not the project's text and are not part of it.

Each file starts with header comments::

    # after: https://github.com/OWNER/REPO/blob/COMMIT/PATH      (the project's: the manifest it follows)
    # source: https://github.com/OWNER/REPO/blob/COMMIT/PATH     (../shared's: where it was copied from)
    # licence: Apache-2.0                                        (../shared's)
    # expect: RULE-ID CONTAINER      (one line per finding that is correct; `-` for no container)
    # expect: none                   (a manifest on which no finding is correct)
    # quiet-for: RULE-ID ...         (rules it exercises while being right about them)

Every fixture is explained once, in-process, with the CLI's defaults (the newest supported
version, or the fixture's `# version:` header).  A finding counts as *true* when an `expect:`
line names its rule and container, otherwise as *false*; an `expect:` line that no finding
matches counts as *missed*.  Matching is by (rule, container) within a file, so a rule that
reports the same container once per probe, or once per Pod of a multi-document file, is judged
as one fact.

    python -m tests.realworld.precision            # print the table (Markdown)
    python -m tests.realworld.precision --write    # and rewrite it in README.md between the markers
    python -m tests.realworld.precision --fixtures tests/fixtures/realworld    # a set of one's choice

By default it reads ../shared/realworld when that folder is there, else the project's set, and says
which on stderr; the table's last line names the set too.  `make precision` runs the first;
`make precision PRECISION_ARGS=--write` the second.  The suite checks that README.md holds exactly
the table computed on the set it names (the project's, which the suite always has), so a change to a
rule that changes a figure must regenerate it (and say why in its commit).
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
FIXTURES = ROOT / "tests" / "fixtures" / "realworld"     # the project's own
SHARED = ROOT.parent / "shared" / "realworld"            # the public manifests, when they are there
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

_HEADER = re.compile(r"# (after|source|licence|trimmed|expect|quiet-for|version): (.*)$")
SOURCE = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+/blob/[0-9a-f]{40}/\S+$")
_NAMED = re.compile(r"^Computed on `([^`]+)`")


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


def fixtures(folder: Path = FIXTURES) -> list[Fixture]:
    return [read_fixture(p) for p in sorted(folder.glob("*.yaml"))]


def default_folder() -> Path:
    """../shared/realworld when it is there, else the project's set."""
    return SHARED if SHARED.is_dir() else FIXTURES


def named(folder: Path) -> str:
    """How the table names a set: its path from the project's root."""
    folder = folder.resolve()
    if folder == SHARED.resolve():
        return "../shared/realworld/"
    return (folder.relative_to(ROOT).as_posix() if folder.is_relative_to(ROOT) else str(folder)) + "/"


def named_in(table: str) -> Path | None:
    """The set a table says it was computed on."""
    for line in table.splitlines():
        m = _NAMED.match(line)
        if m:
            return SHARED if m.group(1) == "../shared/realworld/" else ROOT / m.group(1)
    return None


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


def rows(folder: Path = FIXTURES) -> list[Row]:
    """One row per rule of the catalogue, and per planned rule an `expect:` line names."""
    table = {rule: Row(rule) for rule in sorted(BY_ID)}
    for fx in fixtures(folder):
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


def markdown(table: list[Row], folder: Path = FIXTURES) -> str:
    lines = ["| rule | fires | true | false | missed | precision |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in table:
        name = f"`{r.rule}`" if r.rule in BY_ID else f"`{r.rule}` (planned, not in this build)"
        lines.append(f"| {name} | {r.fires} | {r.true} | {r.false} | {r.missed} | {r.precision} |")
    total = Row("total", *(sum(getattr(r, k) for r in table) for k in ("fires", "true", "false", "missed")))
    lines.append(f"| **total** | **{total.fires}** | **{total.true}** | **{total.false}** | **{total.missed}** "
                 f"| **{total.precision}** |")
    files = fixtures(folder)
    pods = sum(len(explained(fx.path).pods) for fx in files)
    rejected = sum(1 for fx in files if explained(fx.path).errors)
    lines += ["", f"{len(files)} manifests, {pods} Pods; {rejected} of the manifests also get an error "
                  "(the API server would reject them, or their structure is broken).", "",
              f"Computed on `{named(folder)}`: " + (
                  "the public manifests themselves." if any("source" in fx.header for fx in files) else
                  "minimal manifests written for this project after public ones, each naming the one it follows.")]
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
    parser.add_argument("--fixtures", type=Path, default=None,
                        help="the folder of manifests (default: ../shared/realworld when it is there, else "
                             "tests/fixtures/realworld)")
    args = parser.parse_args(argv)
    folder = args.fixtures.resolve() if args.fixtures is not None else default_folder()
    print(f"precision over {named(folder)} ({len(fixtures(folder))} manifests)", file=sys.stderr)
    table = rows(folder)
    text = markdown(table, folder)
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

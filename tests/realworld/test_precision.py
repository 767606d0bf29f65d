"""The real-world fixtures: each is the project's own, names the public manifest it follows, is judged
(`expect:` lines), explains without a crash, and README.md holds the precision table computed on the
set it names."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from explainer.findings import BY_ID

from .precision import (BEGIN, END, FIXTURES, PLANNED, README, SHARED, SOURCE, explained, fixtures, in_readme,
                        markdown, named, named_in, read_fixture, rewrite, rows)

FILES = sorted(FIXTURES.glob("*.yaml"))


def _id(path: Path) -> str:
    return path.name


def test_the_set_is_large_and_from_many_projects() -> None:
    projects = {read_fixture(p).header["after"][0].split("/")[4] for p in FILES}
    assert len(FILES) >= 45 and len(projects) >= 20


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_every_fixture_names_what_it_follows_and_its_judgement(path: Path) -> None:
    fx = read_fixture(path)
    assert len(fx.header.get("after", [])) == 1 and SOURCE.match(fx.header["after"][0]), \
        "needs '# after: https://github.com/OWNER/REPO/blob/COMMIT/PATH' (a 40-digit commit)"
    # written here: no copied text, so no licence line (../shared/realworld/ keeps the public manifests)
    assert "source" not in fx.header and "licence" not in fx.header
    expects = fx.header.get("expect", [])
    assert expects, "needs '# expect: RULE CONTAINER' lines, or '# expect: none'"
    assert expects == ["none"] or "none" not in expects
    # The kept documents parse (a trimmed file keeps whole documents).
    assert list(yaml.safe_load_all(fx.text))


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_every_fixture_explains_or_gets_a_line_numbered_error(path: Path) -> None:
    expl = explained(path)            # explain() never raises; the cache shares it with the table
    assert expl.pods or expl.errors or expl.skipped
    for error in expl.errors:
        assert error.line, f"an error without a line: {error.message}"
    containers = {c.name for report in expl.pods for c in report.pod.all_containers}
    for rule, container in read_fixture(path).expected:
        assert rule in BY_ID or rule in PLANNED, f"expect: {rule} is no rule"
        assert container == "-" or container in containers, f"expect: {rule} {container}: no such container"


def test_readme_holds_the_computed_precision_table() -> None:
    """Regenerate with `make precision PRECISION_ARGS=--write` when a rule or a label changes."""
    readme = README.read_text(encoding="utf-8")
    assert BEGIN in readme and END in readme
    folder = named_in(in_readme(readme))
    assert folder is not None, "the table names the set it was computed on"
    if not folder.is_dir():
        assert folder == SHARED, folder
        pytest.skip("the table was computed on ../shared/realworld/, which is not here")
    assert in_readme(readme) == markdown(rows(folder), folder), \
        "README.md's findings-precision table is stale: run `make precision PRECISION_ARGS=--write`"


def test_the_table_names_the_set() -> None:
    assert named_in(markdown(rows())) == FIXTURES
    assert named(FIXTURES) == "tests/fixtures/realworld/" and named(SHARED) == "../shared/realworld/"
    assert named_in(f"| rule |\nComputed on `{named(SHARED)}`: the public manifests.\n") == SHARED


def test_the_table_counts_true_false_and_missed_per_rule() -> None:
    table = {r.rule: r for r in rows()}
    for r in table.values():
        assert r.fires == r.true + r.false
    assert set(BY_ID) <= set(table)
    total_expected = sum(len(fx.expected) for fx in fixtures())
    matched = sum(1 for fx in fixtures() for pair in fx.expected
                  if pair in {(f.id, f.container or "-") for rep in explained(fx.path).pods for f in rep.findings})
    assert sum(r.missed for r in table.values()) == total_expected - matched


def test_rewrite_replaces_only_the_table() -> None:
    readme = f"before\n{BEGIN}\nold table\n{END}\nafter\n"
    assert rewrite(readme, "| new |\n") == f"before\n{BEGIN}\n| new |\n{END}\nafter\n"


def test_the_fixture_readme_lists_every_fixture() -> None:
    text = (FIXTURES / "README.md").read_text(encoding="utf-8")
    listed = {line.split("`")[1] for line in text.splitlines() if line.startswith("| `")}
    assert listed == {p.name for p in FILES}

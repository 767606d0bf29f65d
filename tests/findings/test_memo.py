"""Rules share what they read of a container only while run_rules goes over one Pod, and sharing
changes no finding."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.findings import POD_RULES, RULES, run_rules
from explainer.findings.helpers import listen_ports, outbound_kind
from explainer.findings.memo import _RUN, one_run, per_run
from explainer.findings.registry import complete

from .conftest import context_for, context_for_fixture

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "findings"
EVERY_FIXTURE = sorted(FIXTURES.rglob("*.yaml"))


@pytest.mark.parametrize("path", EVERY_FIXTURE, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_run_rules_finds_what_each_rule_finds_alone(path: Path) -> None:
    ctx = context_for_fixture(path.read_text(encoding="utf-8"))
    alone = sorted((complete(d) for rule in POD_RULES for d in rule.check(ctx)), key=lambda f: f.sort_key())
    shared = run_rules(ctx)
    assert [f.to_dict() for f in shared] == [f.to_dict() for f in alone]
    assert [f.patch for f in shared] == [f.patch for f in alone]


def test_answers_are_shared_within_a_run_and_dropped_after_it() -> None:
    calls: list[object] = []

    @per_run
    def read(x: object) -> list[object]:
        calls.append(x)
        return [x]

    a, b = object(), object()
    with one_run():
        assert read(a) is read(a) and read(b) == [b]
        assert calls == [a, b]
    assert _RUN.get() is None
    read(a), read(a)   # outside a run: every call reads again
    assert calls == [a, b, a, a]


def test_an_equal_container_is_not_the_same_container() -> None:
    ctx = context_for("""
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - {name: a, image: gcr.io/cloud-sql-connectors/cloud-sql-proxy:2, ports: [{containerPort: 5432}]}
    - {name: b, image: example/app:1}
""")
    a, b = ctx.pod.containers
    with one_run():
        assert outbound_kind(a) == "cloud-sql" and outbound_kind(b) is None
        assert listen_ports(a, ctx.pod) == [5432] and listen_ports(a) == [5432] and listen_ports(b, ctx.pod) == []
    assert _RUN.get() is None


def test_run_rules_leaves_no_run_open() -> None:
    ctx = context_for("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                      "    - {name: a, image: example/app:1}\n")
    run_rules(ctx)
    assert _RUN.get() is None

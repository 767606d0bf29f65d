"""What the rules read of a container is worked out once per rule context (findings/facts.py), and
sharing it changes no finding."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from explainer.findings import POD_RULES, run_rules
from explainer.findings import helpers, scripts
from explainer.findings.facts import Facts, answer
from explainer.findings.registry import complete
from explainer.lifecycle.commands.guess import guess_run
from explainer.lifecycle.commands.evidence import loopback_bind
from explainer.lifecycle.commands.probe_faults import probe_faults

from .conftest import context_for, context_for_fixture

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "findings"
EVERY_FIXTURE = sorted(FIXTURES.rglob("*.yaml"))
# each answer of Facts, and the function it caches (of the container, and of its Pod)
ANSWERS = {
    "program": lambda c, pod: scripts.program(c),
    "names": lambda c, pod: scripts.names_of(c),
    "words": lambda c, pod: helpers.words(c),
    "outbound_kind": lambda c, pod: helpers.outbound_kind(c),
    "calls_on_change": lambda c, pod: helpers.calls_on_change(c),
    "inbound_or_exporter": lambda c, pod: helpers.is_inbound_or_exporter(c),
    "listen_ports": lambda c, pod: helpers.listen_ports(c),
    "reachable": lambda c, pod: helpers.reachable(c),
    "waited_ports": lambda c, pod: helpers.waited_ports(c),
    "mentioned_paths": lambda c, pod: scripts.mentioned_paths(c),
    "localhost_use": lambda c, pod: scripts.localhost_use(c),
    "looks_like_proxy": lambda c, pod: scripts.looks_like_proxy(c),
    "run_guess": lambda c, pod: guess_run(c, True),
    "loopback_bind": lambda c, pod: loopback_bind(c),
    "probe_faults": lambda c, pod: probe_faults(c, pod),
}


def test_every_answer_is_listed() -> None:
    cached = {name for name, value in vars(Facts).items() if isinstance(value, answer)}
    assert cached == set(ANSWERS)


@pytest.mark.parametrize("path", EVERY_FIXTURE, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_run_rules_finds_what_each_rule_finds_alone(path: Path) -> None:
    ctx = context_for_fixture(path.read_text(encoding="utf-8"))
    # each rule with a context of its own (a copy: nothing worked out yet), as a rule timed or tested alone
    alone = sorted((complete(d) for rule in POD_RULES for d in rule.check(dataclasses.replace(ctx))),
                   key=lambda f: f.sort_key())
    shared = run_rules(ctx)
    assert [f.to_dict() for f in shared] == [f.to_dict() for f in alone]
    assert [f.patch for f in shared] == [f.patch for f in alone]


@pytest.mark.parametrize("path", EVERY_FIXTURE[::7], ids=lambda p: str(p.relative_to(FIXTURES)))
def test_each_answer_is_the_function_it_caches(path: Path) -> None:
    ctx = context_for_fixture(path.read_text(encoding="utf-8"))
    for c in ctx.pod.all_containers:
        facts = ctx.facts(c)
        for name, fn in ANSWERS.items():
            assert getattr(facts, name) == fn(c, ctx.pod), (c.name, name)


def test_answers_are_kept_for_the_context_and_not_after_it() -> None:
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
    assert ctx.facts(a) is ctx.facts(a) and ctx.facts(a).listen_ports is ctx.facts(a).listen_ports
    assert ctx.facts(a).outbound_kind == "cloud-sql" and ctx.facts(b).outbound_kind is None
    assert ctx.facts(a).listen_ports == [5432] and ctx.facts(b).listen_ports == []
    other = dataclasses.replace(ctx)     # another context of the same Pod works everything out again
    assert other.facts(a) is not ctx.facts(a) and other.facts(a).listen_ports == [5432]


def test_an_equal_container_is_not_the_same_container() -> None:
    ctx = context_for("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                      "    - {name: a, image: example/app:1}\n")
    a = ctx.pod.containers[0]
    twin = dataclasses.replace(a, image="envoyproxy/envoy:v1.30")
    assert ctx.facts(twin) is not ctx.facts(a)
    assert ctx.facts(twin).looks_like_proxy and not ctx.facts(a).looks_like_proxy

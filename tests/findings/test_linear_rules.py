"""The rules made linear in containers say exactly what the pairwise versions said."""
from __future__ import annotations

import pickle
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explainer.findings.i18n import Names, Text
from explainer.findings.rules import missing_resources, sidecar_start_order_assumed
from explainer.findings.helpers import dials, is_inbound_or_exporter, listen_ports, outbound_kind, waits_for
from tests.profiles import examples

from .conftest import context_for


def _pairwise_start_order(ctx: Any) -> list[tuple[str, list[tuple[str, int]], bool]]:
    """The rule's decision written pairwise: every container compared with every other, each
    read again for every comparison (helpers.dials without the rule's port index)."""
    out = []
    for s in ctx.pod.containers:
        ports = listen_ports(s)
        users, waiters = [], []
        for a in ctx.pod.containers:
            if a is s or is_inbound_or_exporter(a):
                continue
            if waits_for(a, ports):
                waiters.append(a.name)
            else:
                users += [(d.user, d.port) for d in dials(a, ports)]
        plain = [a for a in ctx.pod.containers if a is not s and not is_inbound_or_exporter(a)
                 and outbound_kind(a) is None]
        if users or (outbound_kind(s) and plain and not waiters):
            out.append((s.name, users, bool(users)))
    return out


PORTS = st.sampled_from([8080, 9000, 15001])
COMMANDS = st.one_of(
    st.just(None),
    PORTS.map(lambda p: f"curl -s http://localhost:{p}/ && exec app"),
    PORTS.map(lambda p: f"until nc -z localhost {p}; do sleep 1; done; exec app"),
    st.just("while true; do sleep 5; done"),
)
CONTAINER = st.fixed_dictionaries({
    "image": st.sampled_from(["example/app:1", "envoyproxy/envoy:v1.30", "busybox:1.36",
                              "gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.0", "quay.io/brancz/kube-rbac-proxy:v0.16.0"]),
    "ports": st.lists(PORTS, max_size=2, unique=True),
    "command": COMMANDS,
    "requests": st.booleans(),
})


def _manifest(containers: list[dict[str, Any]]) -> str:
    specs = []
    for i, c in enumerate(containers):
        spec: dict[str, Any] = {"name": f"c{i}", "image": c["image"]}
        if c["ports"]:
            spec["ports"] = [{"containerPort": p} for p in c["ports"]]
        if c["command"]:
            spec["command"] = ["sh", "-c", c["command"]]
        if c["requests"]:
            spec["resources"] = {"requests": {"cpu": "10m"}}
        specs.append(spec)
    return yaml.safe_dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                           "spec": {"containers": specs}})


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(CONTAINER, min_size=1, max_size=6))
def test_start_order_rule_decides_as_the_pairwise_comparison_did(containers: list[dict[str, Any]]) -> None:
    ctx = context_for(_manifest(containers))
    found = list(sidecar_start_order_assumed.check(ctx))
    expected = _pairwise_start_order(ctx)
    assert [f.container for f in found] == [name for name, _u, _x in expected]
    for f, (name, users, _x) in zip(found, expected):
        text = f.explanation.render()
        if users:
            assert all(f"{user} connects to localhost:{port}" in text for user, port in users)
        else:
            assert "is a Cloud SQL Auth Proxy" in text and "before it is ready" in text


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(CONTAINER, min_size=1, max_size=6))
def test_missing_resources_names_every_other_running_container(containers: list[dict[str, Any]]) -> None:
    ctx = context_for(_manifest(containers))
    for f in missing_resources.check(ctx):
        rivals = [c.name for c in ctx.pod.sidecars + ctx.pod.containers if c.name != f.container]
        text = f.explanation.render()
        if rivals:
            assert f"competes with {', '.join(rivals)} for the whole life" in text
        else:
            assert "competes with the other Pods on its node." in text


def test_names_leave_out_one_and_pickle_as_their_text() -> None:
    names = Names(["a", "b", "c"], 1)
    assert str(names) == "a, c" and f"{names}" == "a, c" and names == "a, c"
    assert str(Names(["a", "b"])) == "a, b" and str(Names(["a"], 0)) == ""
    text = Text("with {rivals}", {"rivals": names})
    assert text.render() == "with a, c"
    assert pickle.loads(pickle.dumps(text)) == text
    assert hash(text) == hash(Text("with {rivals}", {"rivals": "a, c"}))


def test_names_from_a_start() -> None:
    assert str(Names(["a", "b", "c"], start=1)) == "b, c" and len(Names(["a", "b", "c"], start=1)) == 2
    assert str(Names(["a", "b", "c"], skip=2, start=1)) == "b" and len(Names(["a", "b", "c"], 2, 1)) == 1
    assert str(Names(["a"], start=1)) == "" and len(Names(["a"], start=1)) == 0
    assert len(Names(["a", "b"], skip=0, start=1)) == 1

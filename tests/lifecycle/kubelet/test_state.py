"""The simulated kubelet's state has one declared home (kubelet/state.py, runtime.py): the parts keep only
what simulate.py hands them, and fast-forward's signature covers every field of the Pod's and each
container's state, or says why it leaves one out (issue 24)."""
from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

from explainer.lifecycle.scenario.behaviour import Behaviour, Run
from explainer.lifecycle.kubelet.state import SIGNATURE_LEAVES_OUT as POD_LEAVES_OUT
from explainer.lifecycle.kubelet.state import PodState
from explainer.lifecycle.model import Container
from explainer.lifecycle.kubelet.prober import Probing
from explainer.lifecycle.kubelet.restart_all import RestartAll
from explainer.lifecycle.kubelet.runtime import SIGNATURE_LEAVES_OUT, ContainerState, Kill
from explainer.lifecycle.kubelet.scenario_actions import ScenarioActions
from explainer.lifecycle.kubelet.startup import Startup
from explainer.lifecycle.kubelet.status import RuntimeStatus
from explainer.lifecycle.kubelet.termination import Termination

NOW, BO_MAX = 20.0, 300.0


@pytest.mark.parametrize("part", [Startup, Probing, Termination, RestartAll, ScenarioActions], ids=lambda p: p.__name__)
def test_a_part_keeps_only_what_it_is_handed(part: type) -> None:
    handed = set(inspect.signature(part.__init__).parameters) - {"self"}
    assert set(part.__slots__) == handed


def _other(value: Any) -> Any:
    """A value of the same kind that differs (times stay multiples of 1/8 s, as fast-forward needs)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value + "-other"
    raise AssertionError(f"no other value for {value!r}")


def _running() -> ContainerState:
    """A container with every field in play: running, under a kill, backed off, once failed to pull, and
    read by a pending timer."""
    spec = Container(name="app", role="app", index=0, image="example/app:1", path="spec.containers[0]", line=None)
    c = ContainerState(spec, Behaviour(runs=(Run(5.0, 1), Run(None, 0))), RuntimeStatus("app", 0, "ContainerCreating"))
    c.alive, c.start_t, c.kill = True, 12.0, Kill(40.0, "Deleted", False)
    c.bo_delay, c.bo_updated, c.finished_at = 10.0, 1.0, 11.0
    c.img_delay, c.img_retry_at = 5.0, 25.0
    st = c.st
    st.state, st.exit_code, st.last_exit, st.started, st.ready, st.exit_reason = "running", 1, 1, True, True, "OOMKilled"
    return c


def _signature(c: ContainerState) -> Any:
    return c.signature(NOW, BO_MAX, timed=True)


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(ContainerState)])
def test_the_container_signature_covers_each_field_or_says_why_not(name: str) -> None:
    c = _running()
    if name in SIGNATURE_LEAVES_OUT or name == "st":   # st: field by field, below
        return
    before = _signature(c)
    value = getattr(c, name)
    setattr(c, name, None if value is not None and name == "kill" else _other(value))
    assert _signature(c) != before, f"ContainerState.{name} changes nothing fast-forward compares"


@pytest.mark.parametrize("name", RuntimeStatus.__slots__)
def test_the_container_signature_covers_each_status_field_or_says_why_not(name: str) -> None:
    c = _running()
    if f"st.{name}" in SIGNATURE_LEAVES_OUT:
        return
    before = _signature(c)
    value = getattr(c.st, name)
    setattr(c.st, name, _other(value) if value is not None else "set")
    assert _signature(c) != before, f"RuntimeStatus.{name} changes nothing fast-forward compares"


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(Kill)])
def test_the_kill_signature_covers_each_field(name: str) -> None:
    k = Kill(40.0, "Deleted", False)
    before = k.signature(NOW)
    value = getattr(k, name)
    setattr(k, name, _other(value) if value is not None else 3.0)
    assert k.signature(NOW) != before


def test_what_the_container_signature_leaves_out_is_a_field() -> None:
    names = {f.name for f in dataclasses.fields(ContainerState)} | {f"st.{n}" for n in RuntimeStatus.__slots__}
    assert set(SIGNATURE_LEAVES_OUT) <= names


def test_an_inexact_time_has_no_signature() -> None:
    c = _running()
    c.finished_at = 11.1
    assert _signature(c) is None


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(PodState)])
def test_the_pod_signature_covers_each_field_or_says_why_not(name: str) -> None:
    state = PodState(sandbox=True, sandbox_ever=True, initialized=True, alive_total=2, alive_apps=1,
                     forced_phase="Failed", status_reason="DeadlineExceeded")
    before = state.signature()
    assert before is not None
    value = getattr(state, name)
    if name in POD_LEAVES_OUT:
        if name != "sidecar_heap":   # the others are work in progress or the Pod's end: no signature at all
            setattr(state, name, [(print, ())] if isinstance(value, list) else ("x",) if name == "restart_all"
                    else _other(value) if value is not None else "set")
            assert state.signature() is None, name
        return
    setattr(state, name, _other(value) if value is not None else "set")
    assert state.signature() != before, f"PodState.{name} changes nothing fast-forward compares"


def test_what_the_pod_signature_leaves_out_is_a_field() -> None:
    assert set(POD_LEAVES_OUT) <= {f.name for f in dataclasses.fields(PodState)}

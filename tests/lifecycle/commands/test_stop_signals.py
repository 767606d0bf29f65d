"""lifecycle.stopSignal with and without the ContainerStopSignals gate (issue 12 point 3; docs/lifecycle-model.md §19)."""
from __future__ import annotations

import pytest

from explainer.lifecycle.signals import exit_code
from tests.lifecycle.engine import run

STOP = "deleteAt: 10\ncontainers: {nginx: {stopSeconds: 1}}\n"
GATE = "featureGates: {ContainerStopSignals: true}\n"


def _terminating(pod: dict) -> str:
    return next(e["message"] for e in pod["events"] if e["type"] == "terminating")


def _exit(pod: dict) -> int:
    return [e["exitCode"] for e in pod["events"] if e["type"] == "exited"][-1]


@pytest.mark.parametrize("version", ["1.33", "1.35", "1.36", "1.37"])
def test_without_the_gate_the_field_is_dropped_and_sigterm_is_sent(version: str) -> None:
    pod = run("pods/stop_signal", STOP, version)
    assert pod["admitted"] is True
    assert _terminating(pod).startswith("SIGTERM;") and _exit(pod) == 143
    assert any("drops lifecycle.stopSignal from nginx" in n for n in pod["notes"])


@pytest.mark.parametrize("version", ["1.33", "1.37"])
def test_with_the_gate_the_chosen_signal_is_sent_and_the_exit_code_is_128_plus_n(version: str) -> None:
    pod = run("pods/stop_signal", STOP + GATE, version)
    assert pod["admitted"] is True
    assert _terminating(pod).startswith("SIGQUIT (lifecycle.stopSignal);")
    assert _exit(pod) == 131
    assert not any("stopSignal" in n for n in pod["notes"])


def test_with_the_gate_it_needs_spec_os_name() -> None:
    pod = run("pods/stop_signal_no_os", STOP + GATE, "1.37")
    assert pod["admitted"] is False
    [err] = [e for e in pod["errors"] if e["path"] == "spec.containers[0].lifecycle.stopSignal"]
    assert err["reason"] == "Forbidden" and "spec.os.name" in err["message"] and err["line"] == 10


def test_without_the_gate_no_os_name_is_needed() -> None:
    assert run("pods/stop_signal_no_os", STOP, "1.37")["admitted"] is True


@pytest.mark.parametrize("signal,code", [("SIGTERM", 143), ("SIGQUIT", 131), ("SIGINT", 130), ("SIGUSR1", 138),
                                         ("SIGRTMIN+3", 165), (None, 143)])
def test_exit_codes_of_signals(signal: str | None, code: int) -> None:
    assert exit_code(signal) == code


def test_before_1_33_the_field_is_unknown() -> None:
    pod = run("pods/stop_signal", STOP, "1.32")
    assert pod["admitted"] is False
    assert any("stopSignal" in e["message"] and "unknown field" in e["message"] for e in pod["errors"])

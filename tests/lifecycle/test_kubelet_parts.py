"""Each part of the simulated kubelet assigns only the shared state it declares (issue 16).

The parts (mixins over kubelet_state.KubeletState) read the whole state, which `mypy` checks; what
each may change is its ``CHANGES``: an assignment, an append or a pop on any other attribute of
``self`` is a new dependency between the parts and has to be declared where a reader sees it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from explainer.lifecycle.fastforward import FastForwardMixin
from explainer.lifecycle.kubelet_state import KubeletState
from explainer.lifecycle.probing import ProbingMixin
from explainer.lifecycle.restart_all import RestartAllMixin
from explainer.lifecycle.scenario_actions import ScenarioActionsMixin
from explainer.lifecycle.startup import StartupMixin
from explainer.lifecycle.termination import TerminationMixin

LIFECYCLE = Path(__file__).resolve().parents[2] / "explainer" / "lifecycle"
PARTS = [(StartupMixin, "startup"), (ProbingMixin, "probing"), (TerminationMixin, "termination"),
         (RestartAllMixin, "restart_all"), (FastForwardMixin, "fastforward"),
         (ScenarioActionsMixin, "scenario_actions")]
_WRITE = re.compile(r"self\.([a-z_]+)(?:\s*[+\-]?=(?!=)|\.append\(|\.extend\(|\.clear\(|\.pop\(|\[[^\]]*\]\s*=)")


@pytest.mark.parametrize("part,module", PARTS, ids=[m for _p, m in PARTS])
def test_a_part_assigns_only_what_it_declares(part: type, module: str) -> None:
    written = set(_WRITE.findall((LIFECYCLE / f"{module}.py").read_text(encoding="utf-8"))) - {"s"}
    declared = part.__dict__["CHANGES"]
    assert written <= declared, f"{module}.py also assigns {sorted(written - declared)}: add it to CHANGES"
    assert declared <= set(KubeletState.__annotations__), sorted(declared - set(KubeletState.__annotations__))

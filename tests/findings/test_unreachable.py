"""unreachable.blocked reads the timeline's probe faults: the same as commands.probe_faults.probe_faults."""
from __future__ import annotations

from pathlib import Path

from explainer.lifecycle.commands.probe_faults import probe_faults

from .conftest import context_for_fixture

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "findings"


def test_the_timelines_probe_faults_are_probe_faults() -> None:
    compared = faulty = 0
    for path in sorted(FIXTURES.rglob("*.yaml")):
        ctx = context_for_fixture(path.read_text(encoding="utf-8"))
        if ctx.simulation is None:   # rejected: no timeline, and blocked() computes the faults itself
            continue
        for c in ctx.pod.all_containers:
            if c.name in ctx.simulation.behaviours and c.probes:
                faults = probe_faults(c, ctx.pod)
                assert ctx.simulation.behaviours[c.name].probe_faults == faults, path
                compared += 1
                faulty += bool(faults)
    assert compared > 30 and faulty > 3, (compared, faulty)   # the fixtures exercise it

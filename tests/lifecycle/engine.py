"""Helpers for the engine tests: run a fixture, flatten its events to readable strings."""
from __future__ import annotations

from typing import Any

from explainer.explain import explain
from explainer.render.jsonable import explanation_to_dict
from tests.conftest import load_manifest


def run(fixture: str, scenario: str | None = None, version: str | None = None) -> dict[str, Any]:
    """The JSON of the first Pod of tests/fixtures/<fixture>.yaml."""
    out = explanation_to_dict(explain(load_manifest(fixture), scenario, version))
    assert out["pods"], out["errors"]
    return out["pods"][0]


def events(pod: dict[str, Any]) -> list[str]:
    """'t container type' (+ '=code' for exits), e.g. '2 init-a exited=0'."""
    out = []
    for e in pod["events"]:
        s = f"{e['t']:g} {e['container'] or '-'} {e['type']}"
        if e["type"] == "exited":
            s += f"={e['exitCode']}"
        out.append(s)
    return out


def statuses(pod: dict[str, Any]) -> list[str]:
    """kubectl STATUS values over time, consecutive repeats folded."""
    out: list[str] = []
    for p in pod["statusTimeline"]:
        if not out or out[-1] != p["status"]:
            out.append(p["status"])
    return out


def assert_in_order(actual: list[str], expected: list[str]) -> None:
    """Each expected item occurs in ``actual``, in this order (others may come between)."""
    pos = 0
    for item in expected:
        try:
            pos = actual.index(item, pos) + 1
        except ValueError:
            raise AssertionError(f"{item!r} not found in order after position {pos}:\n  " + "\n  ".join(actual)) from None


def first(pod: dict[str, Any], container: str | None, kind: str, n: int = 1) -> float:
    """Time of the n-th event of ``kind`` for ``container``."""
    seen = 0
    for e in pod["events"]:
        if e["container"] == container and e["type"] == kind:
            seen += 1
            if seen == n:
                return e["t"]
    raise AssertionError(f"no {kind} #{n} for {container}")


def count(pod: dict[str, Any], container: str | None, kind: str) -> int:
    return sum(1 for e in pod["events"] if e["container"] == container and e["type"] == kind)

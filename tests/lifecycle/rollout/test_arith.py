"""The controllers' number arithmetic (docs/lifecycle-model.md §26.1): intstr's GetScaledValueFromIntOrPercent and
deployment_util.go ResolveFenceposts / MaxUnavailable, with the examples of ResolveFenceposts' own comment."""
from __future__ import annotations

import pytest

from explainer.lifecycle.rollout.arith import resolve_fenceposts, scaled_value


@pytest.mark.parametrize("value,total,up,expected", [
    (3, 10, True, 3), ("25%", 10, True, 3), ("25%", 10, False, 2), ("25%", 4, False, 1), ("25%", 1, True, 1),
    ("25%", 1, False, 0), ("0%", 7, True, 0), ("100%", 7, False, 7), ("33%", 300, True, 99), ("1%", 2, False, 0),
    ("150%", 4, True, 6), (None, 5, True, 0),
])
def test_scaled_value(value, total: int, up: bool, expected: int) -> None:
    assert scaled_value(value, total, up) == expected


def test_a_string_without_percent_is_not_a_value() -> None:
    with pytest.raises(ValueError):
        scaled_value("3", 10, True)


@pytest.mark.parametrize("surge,unavailable,desired,expected", [
    # ResolveFenceposts' comment: "2 desired, max unavailable 1%, surge 0% - should scale old(-1), then new(+1)"
    ("0%", "1%", 2, (0, 1)), ("0%", "1%", 1, (0, 1)),
    # "2 desired, max unavailable 25%, surge 1% - should scale new(+1), then old(-1)": surge ceil(0.02) = 1
    ("1%", "25%", 2, (1, 0)), ("1%", "25%", 1, (1, 0)),
    ("1%", "0%", 2, (1, 0)),
    ("25%", "25%", 10, (3, 2)), ("25%", "25%", 4, (1, 1)), ("25%", "25%", 1, (1, 0)),
    (0, 5, 3, (0, 3)),          # MaxUnavailable caps at the replicas
    (0, 0, 3, (0, 1)),          # both 0: unavailable 1 (validation refuses writing both as 0)
    ("25%", "25%", 0, (0, 0)),  # 0 replicas: MaxUnavailable is 0
])
def test_resolve_fenceposts(surge, unavailable, desired: int, expected: tuple[int, int]) -> None:
    assert resolve_fenceposts(surge, unavailable, desired) == expected

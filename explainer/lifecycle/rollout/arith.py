"""The controllers' number arithmetic (docs/lifecycle-model.md §26.1).

k/k staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go `GetScaledValueFromIntOrPercent`: a whole
number is itself, "N%" is N percent of the total, rounded up or down as the caller asks (the product is
computed in floating point there; for these sizes it is exact, so integer arithmetic gives the same answer).
pkg/controller/deployment/util/deployment_util.go `ResolveFenceposts`: maxSurge rounds up, maxUnavailable
rounds down, and when both come to 0 maxUnavailable becomes 1; `MaxUnavailable` caps it at the replicas.
"""
from __future__ import annotations

from ..numbers import atoi_clamped


def scaled_value(value: int | str | None, total: int, round_up: bool, default: int = 0) -> int:
    """`GetScaledValueFromIntOrPercent`; None is ``default`` (`intstr.ValueOrDefault`)."""
    if value is None:
        return default
    if isinstance(value, int):
        return value
    # ASCII digits only ("²%" is no percentage); past int64 the controller's Atoi fails and the model takes
    # the largest int64, as validation does (issue 27: 5,000 digits are never converted)
    percent = atoi_clamped(value[:-1]) if value.endswith("%") else None
    if percent is not None:
        n = percent * total
        return -(-n // 100) if round_up else n // 100
    raise ValueError(f"{value!r} is neither a whole number nor a percentage")   # admission refuses it (§26.1)


def resolve_fenceposts(max_surge: int | str | None, max_unavailable: int | str | None,
                       desired: int) -> tuple[int, int]:
    """(surge, unavailable) as the Deployment controller resolves them (`ResolveFenceposts`, then
    `MaxUnavailable`'s cap at the replicas and its 0 for 0 replicas)."""
    surge = scaled_value(max_surge, desired, True)
    unavailable = scaled_value(max_unavailable, desired, False)
    if surge == 0 and unavailable == 0:
        unavailable = 1   # "on the theory that surge might not work due to quota"
    if desired == 0:
        return surge, 0
    return surge, min(unavailable, desired)

"""Rollouts written out by hand for the picture's tests (what lifecycle/rollout computes, for numbers
chosen to show one drawing rule each)."""
from __future__ import annotations

from explainer.lifecycle.i18n import Text
from explainer.lifecycle.rollout.model import Rollout, RolloutCount, RolloutPod, RolloutStep, Stall

P, C = RolloutPod, RolloutCount


def rolling(n: int = 4, ready_after: float = 5.0, gone_after: float = 2.0) -> Rollout:
    """A Deployment of ``n`` replicas, maxSurge 1 and maxUnavailable 1, new Pods Ready ``ready_after`` s
    after they are created, old ones gone ``gone_after`` s after their deletion: at each step one new
    Pod is created and one old one deleted, as rolloutRolling does with both fenceposts at 1."""
    pods: list[RolloutPod] = []
    counts = [C(0.0, n, n, 0, n, n, 0)]
    steps = []
    t = 0.0
    for i in range(n):
        pods.append(P(f"web-new-{i}", "new", t, t + ready_after, t + ready_after, None, None))
        pods.append(P(f"web-old-{i}", "old", None, None, None, t, t + gone_after))
        counts += [C(t, n, n - i - 1, i + 1, n - 1, n - 1, 1), C(t + gone_after, n, n - i - 1, i + 1, n - 1, n - 1, 0),
                   C(t + ready_after, n, n - i - 1, i + 1, n, n, 0)]
        steps.append(RolloutStep(t, Text("The controller creates {p} and deletes {q}.",
                                         {"p": f"web-new-{i}", "q": f"web-old-{i}"})))
        t += ready_after
    return Rollout("Deployment", "RollingUpdate", n, 1, 1, 0, 600, 600.0, t, None, n - 1, n, n + 1,
                   tuple(pods), tuple(counts), tuple(steps), (Text("A note <b>&</b>."),),
                   {"syncDelaySeconds": Text("assumed 0 s")}, capacity_floor=n - 1, surge_ceiling=n + 1)


def stalled(n: int = 3) -> Rollout:
    """maxSurge 1, maxUnavailable 0 (25% of 3 rounds down to 0): one new Pod that never becomes Ready, so
    no old Pod goes, until progressDeadlineSeconds (60 s here) marks it failed."""
    pods = tuple([P("api-new-0", "new", 0.0, None, None, None, None)]
                 + [P(f"api-old-{i}", "old", None, None, None, None, None) for i in range(n)])
    counts = (C(0.0, n, n, 0, n, n, 0), C(0.0, n, n, 1, n, n, 0))
    return Rollout("Deployment", "RollingUpdate", n, 1, 0, 0, 60, 120.0, None,
                   Stall(60.0, "ProgressDeadlineExceeded", Text("Progressing=False")), n, n + 1, n + 1, pods, counts,
                   (RolloutStep(0.0, Text("The controller creates api-new-0."), ("api-new-0",)),),
                   capacity_floor=n, surge_ceiling=n + 1)


def many(n: int = 100) -> Rollout:
    return rolling(n, ready_after=3.0, gone_after=1.0)

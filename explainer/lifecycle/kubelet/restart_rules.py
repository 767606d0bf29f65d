"""Whether an exited container restarts: the Pod's restartPolicy, the container's, its restartPolicyRules.

pkg/api/v1/pod/util.go (release-1.35 to 1.37): `ContainerShouldRestart`, `findMatchingContainerRestartRule`
and `IsContainerRestartable`; docs/lifecycle-model.md §17.  The API server drops the per-container fields
when ContainerRestartRules is off (validate.py), so a container that still has them here is governed by them.
"""
from __future__ import annotations

from ..model import Container, RestartRule

RESTART, RESTART_ALL = "Restart", "RestartAllContainers"


def matching_rule(c: Container, exit_code: int) -> RestartRule | None:
    """`findMatchingContainerRestartRule`: the first rule whose exit codes match, and only when the
    container has its own restartPolicy (rules without one are rejected, or dropped with the gate off)."""
    if c.restart_policy is None:
        return None
    for rule in c.restart_rules:
        if rule.matches(exit_code):
            return rule
    return None


def should_restart(c: Container, pod_policy: str, exit_code: int) -> bool:
    """`ContainerShouldRestart`: a matching Restart rule, else the container's policy, else the Pod's."""
    if c.restart_policy is not None:
        rule = matching_rule(c, exit_code)
        if rule is not None and rule.action == RESTART:
            return True
        return _by_policy(c.restart_policy, exit_code)
    return _by_policy(pod_policy, exit_code)


def is_restartable(c: Container, pod_policy: str) -> bool:
    """`IsContainerRestartable`: could the container ever restart (decides a probe kill's "will be
    restarted")? Any Restart rule, else a container policy other than Never, else the Pod's."""
    if c.restart_policy is not None:
        if any(r.action == RESTART for r in c.restart_rules):
            return True
        return c.restart_policy != "Never"
    return pod_policy != "Never"


def _by_policy(policy: str, exit_code: int) -> bool:
    if policy == "Never":
        return False
    if policy == "OnFailure":
        return exit_code != 0
    return True

"""apiVersions the API server does not serve: removed versions of built-in kinds (docs/lifecycle-model.md §5.2).

An object in a built-in API group (core, apps, batch, policy, extensions, the *.k8s.io groups) whose
kind the target version does not serve in that apiVersion is refused before anything exists:
``no matches for kind "StatefulSet" in version "apps/v1beta1"`` (the REST mapper's NoKindMatchError,
k8s.io/apimachinery/pkg/api/meta/errors.go).  A group of anyone else is a custom resource: its
schema is not ours to know, and it is left alone.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ErrorRecord
from ..i18n import Text, gettext_noop as _
from ..manifest.yamlload import format_path, position

# The API groups Kubernetes itself serves, of every version we know (the API reference's group list;
# "" is the core group of `apiVersion: v1`).  `extensions` is gone since 1.22 but is still Kubernetes'.
BUILT_IN_GROUPS = frozenset({
    "", "admissionregistration.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io", "apps",
    "authentication.k8s.io", "authorization.k8s.io", "autoscaling", "batch", "certificates.k8s.io",
    "coordination.k8s.io", "discovery.k8s.io", "events.k8s.io", "extensions", "flowcontrol.apiserver.k8s.io",
    "internal.apiserver.k8s.io", "networking.k8s.io", "node.k8s.io", "policy", "rbac.authorization.k8s.io",
    "resource.k8s.io", "scheduling.k8s.io", "storage.k8s.io", "storagemigration.k8s.io",
})

# (apiVersion, kind) -> (the release that stopped serving it, what to use instead or None).
# Source: the Deprecated API Migration Guide, https://kubernetes.io/docs/reference/using-api/deprecation-guide/
# (kubernetes/website content/en/docs/reference/using-api/deprecation-guide.md: "v1.16", "v1.22",
# "v1.25", "v1.26" sections); batch/v2alpha1 was alpha (never on by default) and removed in 1.21.
REMOVED: dict[tuple[str, str], tuple[str, str | None]] = {
    **{("extensions/v1beta1", k): ("1.16", "apps/v1") for k in ("Deployment", "DaemonSet", "ReplicaSet")},
    **{("apps/v1beta1", k): ("1.16", "apps/v1") for k in ("Deployment", "StatefulSet", "ReplicaSet")},
    **{("apps/v1beta2", k): ("1.16", "apps/v1") for k in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet")},
    ("extensions/v1beta1", "NetworkPolicy"): ("1.16", "networking.k8s.io/v1"),
    ("extensions/v1beta1", "PodSecurityPolicy"): ("1.16", "policy/v1beta1"),
    ("batch/v2alpha1", "CronJob"): ("1.21", "batch/v1"),
    ("extensions/v1beta1", "Ingress"): ("1.22", "networking.k8s.io/v1"),
    ("networking.k8s.io/v1beta1", "Ingress"): ("1.22", "networking.k8s.io/v1"),
    **{("rbac.authorization.k8s.io/v1beta1", k): ("1.22", "rbac.authorization.k8s.io/v1")
       for k in ("ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding")},
    ("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition"): ("1.22", "apiextensions.k8s.io/v1"),
    ("batch/v1beta1", "CronJob"): ("1.25", "batch/v1"),
    ("policy/v1beta1", "PodDisruptionBudget"): ("1.25", "policy/v1"),
    ("policy/v1beta1", "PodSecurityPolicy"): ("1.25", None),
    ("autoscaling/v2beta1", "HorizontalPodAutoscaler"): ("1.25", "autoscaling/v2"),
    ("autoscaling/v2beta2", "HorizontalPodAutoscaler"): ("1.26", "autoscaling/v2"),
}


def group_of(api_version: str) -> str:
    """'apps/v1' -> 'apps'; 'v1' -> '' (the core group)."""
    return api_version.rpartition("/")[0]


def api_version_error(obj: Any, root: Any, at: tuple[Any, ...], document: int, name: str, version: str,
                      served: Callable[[str, str], bool],
                      serving: Callable[[str], str | None]) -> ErrorRecord | None:
    """The API server's refusal of an object whose built-in apiVersion ``version`` does not serve, or None.

    ``served(kind, apiVersion)`` says whether ``version`` serves it; ``serving(kind)`` names the apiVersion
    it serves the kind in (both from the version's schema, which the core does not import)."""
    if not isinstance(obj, dict):
        return None
    kind, api_version = obj.get("kind"), obj.get("apiVersion")
    if not isinstance(kind, str) or not isinstance(api_version, str) or group_of(api_version) not in BUILT_IN_GROUPS:
        return None
    if served(kind, api_version):
        return None
    head = Text(_('no matches for kind "{kind}" in version "{api_version}"'), {"kind": kind, "api_version": api_version})
    removed = REMOVED.get((api_version, kind))
    current = serving(kind)
    replacement = removed[1] if removed else None
    while replacement and (replacement, kind) in REMOVED and not served(kind, replacement):
        replacement = REMOVED[(replacement, kind)][1]    # PodSecurityPolicy: extensions -> policy -> none
    if removed and replacement:
        why = Text(_("{api_version} {kind} was removed in Kubernetes {removed}; migrate to {replacement} "
                     "(kubectl-convert, or edit apiVersion and check the fields the migration guide names)."),
                   {"api_version": api_version, "kind": kind, "removed": removed[0], "replacement": replacement})
    elif removed:
        why = Text(_("{api_version} {kind} was removed in Kubernetes {removed}, with no replacement."),
                   {"api_version": api_version, "kind": kind, "removed": removed[0]})
    elif current:
        why = Text(_("Kubernetes {version} serves {kind} as {current}."),
                   {"version": version, "kind": kind, "current": current})
    else:
        why = Text(_("Kubernetes {version} has no kind {kind} in the built-in group {group}; a custom resource "
                     "needs a group of its own."), {"version": version, "kind": kind,
                                                      "group": group_of(api_version) or "core (v1)"})
    line, column = position(root, at + ("apiVersion",))
    return ErrorRecord(Text(_("{head}: {why}"), {"head": head, "why": why}), line, column,
                       format_path(at + ("apiVersion",)), "validation", "no matches for kind", document, name)

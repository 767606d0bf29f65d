"""The `probe-on-plain-init` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import Remove, path_of, plain_init_to_sidecar

ID = "probe-on-plain-init"
TITLE = gettext_noop("Probe or hook on a plain init container")
SEVERITY = Severity.ERROR
DOCS_URL = DOCS["init-containers"]
REFERENCES = (DOCS["sidecar-containers"],)
WHAT = gettext_noop("Probes or lifecycle hooks on a plain init container.")
WHY = gettext_noop(
    "A plain init container runs to completion, so the API server forbids livenessProbe, "
    'readinessProbe, startupProbe and lifecycle on it ("may not be set for init containers '
    'without restartPolicy=Always") and rejects the whole Pod.')
FIX_TEXT = gettext_noop(
    "Remove them, or, if the container is meant to keep running beside the app, make it a "
    "native sidecar with `restartPolicy: Always`, where probes and hooks are allowed.")
FIRES_WHEN = gettext_noop("an init container without restartPolicy: Always has a probe or a hook.")
QUIET_WHEN = gettext_noop("plain init containers have neither (sidecars may).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
initContainers:
  - name: $name
    restartPolicy: Always   # only if it should keep running; otherwise delete the $fields
"""
EXAMPLE = {"fields": "probes and lifecycle hooks"}

FIX_NO_SIDECARS = """
initContainers:
  - name: $name  # delete its $fields: it runs to completion
                 # (Kubernetes $version has no native sidecars)
"""


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.init_containers:
        if c.role != "init":
            continue
        fields = [f"{p.kind}Probe" for p in c.probes] + (["lifecycle"] if c.post_start or c.pre_stop else [])
        if not fields:
            continue
        listed = ", ".join(fields)
        explanation = Text(gettext_noop(
            "Init container {c} sets {fields}, which the API server forbids on an init "
            "container without restartPolicy: Always: it runs to completion, so there is nothing to "
            "probe and no hook point. The Pod is rejected and never created."), {"c": c.name, "fields": listed})
        fix = (fill(FIX, name=c.name, fields=listed) if ctx.sidecars_enabled
               else fill(FIX_NO_SIDECARS, name=c.name, fields=listed, version=ctx.version))
        yield ctx.finding(ID, c, ctx.container_path(c, fields[0]), explanation, fix, patch=_patch(ctx, c, fields))


def _patch(ctx: RuleContext, c: Container, fields: list[str]) -> tuple[Remove, ...] | None:
    """Fixable: a plain init container runs to completion, so its probes and hooks can never act;
    they go.  One that never completes becomes a native sidecar instead (where the version has
    them), keeping them, as init-never-completes's fix does: the two fixes agree."""
    guess = ctx.facts(c).run_guess
    if guess.seconds is None:   # it never completes: a native sidecar if that is certain, else a person
        return plain_init_to_sidecar(ctx, c) if guess.certain else None
    return tuple(Remove(path_of(c.path) + (f,)) for f in fields)

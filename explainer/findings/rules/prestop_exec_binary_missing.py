"""The `prestop-exec-binary-missing` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.commands.evidence import missing_hook_binary
from explainer.lifecycle.model import Container
from explainer.lifecycle.admission.versions import version_tuple

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import Remove, SetKey, path_of
from ..unreachable import blocked, listing

ID = "prestop-exec-binary-missing"
TITLE = gettext_noop("A hook or exec probe runs a program the image does not have")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["hooks"] + "#hook-handler-implementations"
REFERENCES = (
    "https://github.com/kubernetes-csi/csi-driver-host-path/issues/175",
    "https://github.com/linkerd/linkerd2/issues/6723",
    "https://github.com/projectcontour/contour/issues/1254",
    "https://github.com/GoogleCloudPlatform/cloud-sql-proxy/issues/317",
    "https://github.com/aws/aws-app-mesh-controller-for-k8s/issues/605",
    "https://github.com/zendesk/samson/pull/3468",
)
WHAT = gettext_noop(
    "A preStop, postStart or exec probe runs sh, sleep or curl in an image that has none (distroless, "
    "scratch): it fails at once.")
WHY = gettext_noop(
    "The kubelet runs an exec hook inside the container's own filesystem. Distroless and scratch-based "
    "images carry the program and little else: no shell, no sleep, no curl. The runtime cannot start the "
    "command (\"executable file not found\", exit code 126), the hook fails at once with "
    "FailedPreStopHook, and the kill goes on straight to SIGTERM: the delay that was meant to let "
    "endpoints drain never happens, and requests in flight are dropped. A postStart hook that cannot start "
    "fails too (FailedPostStartHook): the kubelet kills the container at every start, a crash loop. An exec "
    "probe that cannot start errors at every check, and the kubelet throws errored results away: a "
    "readiness probe never lets the container be Ready, a liveness probe never kills it, whatever happens "
    "to the program.")
FIX_TEXT = gettext_noop(
    "Use the sleep action (preStop: {sleep: {seconds: 5}}, beta and on by default from Kubernetes 1.30, GA "
    "in 1.34), which needs no binary in the image; probe with httpGet, tcpSocket or grpc, which the kubelet "
    "runs itself; else a binary the image has (or its :debug variant).")
FIRES_WHEN = gettext_noop(
    "a preStop or postStart exec hook, or an exec probe, runs a shell or a common tool (sh, bash, sleep, curl, wget, kill, ...) and the "
    "container's image is known by its name to have none (distroless, scratch-based, well-known minimal "
    "images); the finding says it is inferred from the image name.")
QUIET_WHEN = gettext_noop(
    "the hook is a sleep or httpGet action, the probe is not exec, runs the image's own binary, or the image is not known to lack "
    "a shell (a :debug or -alpine variant has one).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  lifecycle:
    preStop:
      sleep:
        seconds: $seconds        # runs in the kubelet: no binary needed in the image
"""
FIX_POSTSTART = """
- name: $name
  lifecycle: {}    # drop the postStart exec: the image cannot run it (or use the image's :debug variant)
"""
FIX_PROBE = """
- name: $name
  $kind:
    httpGet:              # the kubelet runs httpGet, tcpSocket and grpc checks itself: no program in the image
      path: /healthz      # a placeholder: what the program serves
      port: 8080          # a placeholder: the port it listens on
"""
EXAMPLE = {"seconds": "5", "kind": "livenessProbe"}
SLEEP_ACTION_ON = (1, 30)          # PodLifecycleSleepAction: beta, on by default
_ONLY_SLEEP = re.compile(r"^\s*(?:exec\s+)?(?:/bin/|/usr/bin/)?sleep\s+(\d{1,9})\s*$")


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        yield from _post_start(ctx, c)
        yield from _probes(ctx, c)
        # kuberuntime_container.go `executePreStopHook` runs the command in the container and only records
        # FailedPreStopHook when it fails; `killContainer` goes on to the stop signal
        prog = missing_hook_binary(c)
        if prog is None:
            continue
        hook = c.pre_stop
        assert hook is not None
        seconds = _sleep_only(hook.command)
        explanation = Text(gettext_noop(
            "The preStop hook of {c} runs {prog}, and the image {image} has none (inferred from the image "
            "name: it is a distroless or scratch-based image). The runtime cannot start the hook, which fails "
            "at once (FailedPreStopHook, exit code 126); SIGTERM follows immediately, so {what} never "
            "happens."),
            {"c": c.name, "prog": prog, "image": c.image,
             "what": Text(gettext_noop("the {seconds} s drain delay"), {"seconds": seconds}) if seconds
             else Text(gettext_noop("what the hook was meant to do"))})
        fix_seconds = seconds if seconds and seconds <= ctx.pod.termination_grace_period else 5
        path = ctx.container_path(c, "lifecycle.preStop")
        patch = None
        if seconds and seconds <= ctx.pod.termination_grace_period and \
                version_tuple(ctx.version) >= SLEEP_ACTION_ON:
            patch = (SetKey(path_of(path + ".sleep"), {"seconds": seconds}, after="exec"), Remove(path_of(path + ".exec")))
        yield ctx.finding(ID, c, path + ".exec.command", explanation, fill(FIX, name=c.name, seconds=fix_seconds),
                          patch=patch)


def _post_start(ctx: RuleContext, c: Container) -> Iterator[Finding]:
    """A postStart exec the image cannot start: FailedPostStartHook, and `startContainer` kills the container
    (behaviour.py reads the same, docs/lifecycle-model.md §29.2)."""
    prog = missing_hook_binary(c, "postStart")
    if prog is None:
        return
    at = ctx.trace_time(c, "poststart_done")
    restarts = ctx.simulation.restart_counts.get(c.name, 0) if ctx.simulation is not None else 0
    shown = Text(gettext_noop(" The timeline shows it from {t} s: {n} restarts by {until} s."),
                 {"t": at, "n": restarts, "until": f"{ctx.simulation.until:g}"}) \
        if at is not None and ctx.simulation is not None else ""
    explanation = Text(gettext_noop(
        "The postStart hook of {c} runs {prog}, and the image {image} has none (inferred from the image name: "
        "it is a distroless or scratch-based image). The runtime cannot start the hook, which fails at once "
        "(FailedPostStartHook, exit code 126): the kubelet kills {c} and counts the start as failed, at every "
        "start, so {c} never stays up (CrashLoopBackOff).{shown}"),
        {"c": c.name, "prog": prog, "image": c.image, "shown": shown})
    yield ctx.finding(ID, c, ctx.container_path(c, "lifecycle.postStart.exec.command"), explanation,
                      fill(FIX_POSTSTART, name=c.name))


def _probes(ctx: RuleContext, c: Container) -> Iterator[Finding]:
    """Exec probes the image cannot start: every check errors and `doProbe` discards it (commands/probe_faults.py)."""
    probes = blocked(ctx, c, ID)
    if not probes:
        return
    first = probes[0][0]
    explanation = Text(gettext_noop(
        "{c} cannot pass {probes}. Every check errors and the kubelet throws errored results away: {what}"),
        {"c": c.name, "probes": listing(probes), "what": _errored(probes[0][0].kind, c.name)})
    yield ctx.finding(ID, c, ctx.container_path(c, f"{first.kind}Probe.exec.command"), explanation,
                      fill(FIX_PROBE, name=c.name, kind=f"{first.kind}Probe"))


def _errored(kind: str, name: str) -> Text:
    if kind == "readiness":
        return Text(gettext_noop("{c} is never Ready, so its Pod gets no Service traffic."), {"c": name})
    if kind == "liveness":
        return Text(gettext_noop("the probe never kills {c}, whatever happens to its program: it checks "
                                 "nothing."), {"c": name})
    return Text(gettext_noop("{c} never counts as started, so its liveness and readiness probes never run and "
                             "it is never Ready."), {"c": name})


def _sleep_only(command: tuple[str, ...]) -> int | None:
    """N when the hook does nothing but ``sleep N`` (bare or through ``sh -c``): the sleep action replaces it."""
    words = list(command)
    if len(words) >= 3 and words[0].rsplit("/", 1)[-1] in ("sh", "bash", "ash", "dash") and words[1] == "-c":
        text = " ".join(words[2:])
    else:
        text = " ".join(words)
    m = _ONLY_SLEEP.match(text)
    return int(m.group(1)) if m else None

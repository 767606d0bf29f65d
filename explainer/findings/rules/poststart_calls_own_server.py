"""The `poststart-calls-own-server` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.commands.evidence import poststart_self_call

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "poststart-calls-own-server"
TITLE = gettext_noop("postStart calls the container's own server")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["hooks"] + "#hook-handler-execution"
REFERENCES = (
    "https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kuberuntime/kuberuntime_container.go",
    "https://github.com/kubernetes/kubernetes/issues/78286",
    "https://github.com/kubernetes/website/pull/54086",
    "https://github.com/onosproject/onos-helm-charts/pull/557",
    "https://github.com/kubernetes/kubernetes/issues/85966",
)
WHAT = gettext_noop("A postStart hook calls the container's own server: it races the entrypoint and is refused.")
WHY = gettext_noop(
    "The kubelet runs postStart right after the runtime has started the container, at the same moment as "
    "the entrypoint; nothing waits for the program to listen. A hook that calls the container's own port "
    "(an httpGet hook, or curl to localhost) usually finds nothing listening yet: the connection is "
    "refused, the hook fails, and the kubelet records FailedPostStartHook, kills the container and "
    "restarts it by its policy, with back-off; every restart races again.")
FIX_TEXT = gettext_noop(
    "Retry until the server answers (until curl -fsS localhost:PORT/...; do sleep 1; done, or curl "
    "--retry-connrefused), or do the work from the program itself or a Job.")
FIRES_WHEN = gettext_noop(
    "a postStart hook is an httpGet on the container's own port, or an exec hook that calls localhost on a "
    "port the container declares or listens on, with no wait loop or retry.")
QUIET_WHEN = gettext_noop(
    "the hook calls another container or host, waits in a loop or retries refused connections, or does "
    "not call a server at all.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  lifecycle:
    postStart:
      exec:
        command:
          - sh
          - -c
          - |
            # wait until the server listens, then call it (bounded: 60 tries)
            for i in $$(seq 60); do curl -fsS http://localhost:$port/ && exit 0; sleep 1; done; exit 1
"""
EXAMPLE = {}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        # kuberuntime_container.go `startContainer`: postStart runs as soon as the runtime has started the
        # container; on failure `killContainer` with reason FailedPostStartHook (evidence.py reads the call)
        call = poststart_self_call(ctx.pod, c)
        if call is None:
            continue
        b = ctx.behaviour(c)
        shown = Text(gettext_noop(
            " The timeline shows it: FailedPostStartHook, {c} killed and restarted with back-off."),
            {"c": c.name}) \
            if b.post_start_exit_code else ""
        how = Text(gettext_noop("an httpGet on port {port}"), {"port": call.port}) if call.how == "httpGet" else \
            Text(gettext_noop("{how} to localhost:{port}"), {"port": call.port, "how": call.how})
        race = Text(gettext_noop("It runs at the same moment as the entrypoint, with nothing waiting for the "
                                 "server to listen, so the call is refused") if call.certain else
                    gettext_noop("It only waits a fixed time first, so whenever the server is slower than "
                                 "that (a cold start, a busy node) the call is refused"))
        explanation = Text(gettext_noop(
            "The postStart hook of {c} calls its own server ({how}). {race}: the hook fails, and the kubelet "
            "records FailedPostStartHook, kills {c} and restarts it by the Pod's restartPolicy, with "
            "back-off; each restart races again.{shown}"),
            {"c": c.name, "how": how, "race": race, "shown": shown})
        yield ctx.finding(ID, c, ctx.container_path(c, "lifecycle.postStart"), explanation,
                          fill(FIX, name=c.name, port=call.port))

"""The `npm-pid1-swallows-sigterm` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.commands.evidence import package_manager_pid1

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..scripts import main_field

ID = "npm-pid1-swallows-sigterm"
TITLE = gettext_noop("npm start is the main process: the server misses SIGTERM")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["pod-lifecycle"] + "#pod-termination"
REFERENCES = (
    "https://github.com/nodejs/docker-node/blob/main/docs/BestPractices.md#cmd",
    "https://github.com/npm/npm/issues/4603",
    "https://github.com/nodejs/docker-node/issues/2029",
    "https://github.com/paketo-buildpacks/nodejs/issues/37",
    "https://github.com/TryGhost/docker-library-ghost/issues/37",
    "https://github.com/argotorg/sourcify/pull/2070",
)
WHAT = gettext_noop(
    "npm start (or yarn, pnpm) is the container's main process: the server does not get a clean SIGTERM.")
WHY = gettext_noop(
    "The kubelet's stop signal goes to the container's main process only. With npm start that is npm, "
    "which runs the start script through a shell as a child. Depending on the version, npm passes SIGTERM "
    "on or not (npm 6 and several npm 10 releases did not; yarn 1 does not), and it does not wait for the "
    "server's shutdown either way: the server's SIGTERM handler may never run, and the container is "
    "killed at the end of the grace period (exit code 137) or ends with its connections cut. The Node.js "
    "Docker image's best practices say to start node directly.")
FIX_TEXT = gettext_noop(
    "Run the program itself (command: [\"node\", \"server.js\"]), so it is PID 1 and gets the signal; if it "
    "starts children of its own, put an init such as tini in front (or shareProcessNamespace: true, whose "
    "pause process is PID 1, knowing it lets containers see each other's processes).")
FIRES_WHEN = gettext_noop(
    "a container's command and args (or the program a shell execs) are npm, yarn or pnpm running a script "
    "(start, run ...), and the Pod does not share its process namespace.")
QUIET_WHEN = gettext_noop(
    "the command runs node (or another program) directly, or an init such as tini or dumb-init is the main "
    "process.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  command: ["node", "server.js"]   # what the "$script" script runs, as PID 1
"""
EXAMPLE = {"script": "start"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.pod.share_process_namespace:
        return
    for c in ctx.pod.containers + ctx.pod.sidecars:
        words = package_manager_pid1(c)
        if words is None:
            continue
        explanation = Text(gettext_noop(
            "{c} runs {words} as its main process, so the kubelet's SIGTERM goes to {tool}, not to the "
            "server it starts through a shell. Whether {tool} passes the signal on depends on its version, "
            "and it does not wait for the server to shut down: at every deletion or rollout the server may "
            "never run its shutdown, and {c} ends by SIGKILL after the grace period ({grace} s, exit code "
            "137) or with its connections cut."),
            {"c": c.name, "words": words, "tool": words.split()[0], "grace": ctx.pod.termination_grace_period})
        yield ctx.finding(ID, c, ctx.container_path(c, main_field(c)), explanation,
                          fill(FIX, name=c.name, script=words.split(maxsplit=1)[1]))

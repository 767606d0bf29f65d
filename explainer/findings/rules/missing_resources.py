"""The `missing-resources` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.qos import BEST_EFFORT

from ..base import Finding, RuleContext, Severity, fill
from ..docstring import rule_docstring
from ..i18n import Names, Text, gettext_noop

ID = "missing-resources"
TITLE = gettext_noop("No resource requests")
SEVERITY = Severity.INFO
DOCS_URL = DOCS["resources"]
WHAT = gettext_noop("A sidecar or app container has no request for CPU or memory, and no limit it would default to.")
WHY = gettext_noop(
    "The scheduler places a Pod by the sum of its containers' requests. A container without a request for a "
    "resource is counted as needing none of it, so the node can be overcommitted: under contention it gets "
    "the minimum CPU share and it is among the first the kernel OOM-kills, and a sidecar without requests "
    "competes with the app for what the app asked for. A limit without a request is not missing: the API "
    "server sets the request to the limit, and a Pod whose every container limits cpu and memory that way "
    "is Guaranteed.")
FIX_TEXT = gettext_noop(
    "Set resources.requests for the resources that have neither a request nor a limit (sizes are yours: the "
    "fix writes placeholders), never above a limit the container sets.")
FIRES_WHEN = gettext_noop("a sidecar or app container has neither a request nor a limit for cpu or memory.")
QUIET_WHEN = gettext_noop(
    "every such container requests (or limits) both; pod-level resources decide (1.32+); plain init "
    "containers are not checked: they run one at a time and end before the app starts, and the scheduler "
    "counts the largest of them against the app containers' sum, not beside it.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  resources:
    requests:    # placeholders
$lines"""
PLACEHOLDER = {"cpu": "      cpu: <CPU>\n", "memory": "      memory: <MEMORY>\n"}
EXAMPLE = {"lines": PLACEHOLDER["cpu"] + PLACEHOLDER["memory"]}
_EFFECT = {"cpu": gettext_noop(" Under CPU contention it gets the minimum share."),
           "memory": gettext_noop(" When memory runs short it is among the first the kernel OOM-kills."),
           "cpu+memory": gettext_noop(" Under CPU contention it gets the minimum share, and when memory runs short "
                                      "it is among the first the kernel OOM-kills.")}
_ROLE = {"sidecar": gettext_noop("Sidecar"), "app": gettext_noop("App container")}
# the fixed parts of every explanation, made once (a Text is not changed once made)
_ROLE_TEXT = {role: Text(msgid) for role, msgid in _ROLE.items()}
_EFFECT_TEXT = {key: Text(msgid) for key, msgid in _EFFECT.items()}
_ALONE = Text(gettext_noop("with the other Pods on its node"))


def check(ctx: RuleContext) -> Iterator[Finding]:
    pod = ctx.pod
    qos = ctx.pod_qos()
    if qos.pod_level:   # spec.resources is what the scheduler reserves (docs/lifecycle-model.md §25.3)
        return
    running = pod.sidecars + pod.containers
    names = [x.name for x in running]   # one list for every finding: each leaves its own name out
    of = qos.by_name()
    note = _qos_note(qos.qos_class)
    for i, c in enumerate(running):
        res = of.get(c.name)
        without = res.without_request if res is not None else ()
        if not without:
            continue
        when = (Text(gettext_noop("with {rivals} for the whole life of the Pod"), {"rivals": Names(names, i)})
                if len(names) > 1 else _ALONE)
        missing = " and ".join(without)
        if res.defaulted:
            have = Text(gettext_noop(" Its {resources} request defaults to its limit, so only {missing} is "
                                     "unreserved."), {"resources": " and ".join(res.defaulted), "missing": missing})
        else:
            have = ""
        explanation = Text(gettext_noop(
            "{role} {c} has neither a request nor a limit for {missing}: the scheduler reserves none for it, "
            "so the node may not have room for it, and it competes {when}.{effect}{have} The Pod's QoS class "
            "is {qos}{qos_note}."),
            {"role": _ROLE_TEXT[c.role], "c": c.name, "missing": missing, "when": when, "have": have,
             "effect": _EFFECT_TEXT["+".join(without)], "qos": qos.qos_class, "qos_note": note})
        lines = "".join(PLACEHOLDER[r] for r in without)
        yield ctx.finding(ID, c, ctx.container_path(c, "resources"), explanation,
                          fill(FIX, name=c.name, lines=lines))


def _qos_note(qos_class: str) -> Text | str:
    if qos_class == BEST_EFFORT:
        return Text(gettext_noop(" (no container sets requests or limits): the first evicted when the node runs "
                                 "short"))
    return Text(gettext_noop(" (evicted after BestEffort Pods, before Guaranteed ones, when the node runs short)"))

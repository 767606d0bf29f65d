"""'What happens, step by step': the events of a simulation told in plain words."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..lifecycle.model import Container, Pod
from ..lifecycle.kubelet.restart_rules import RESTART_ALL, matching_rule, should_restart
from ..lifecycle.kubelet.simulate import Simulation
from ..lifecycle.kubelet.trace import TraceEvent
from ..lifecycle.traffic.states import DRAINING, GONE, NOT_READY, SERVING
from .i18n import Text, gettext_noop as _
from explainer.lifecycle.records import record

if TYPE_CHECKING:   # a type only: a Pod no Service selects is told without the lane (the CLI's start-up)
    from ..lifecycle.traffic.lane import Traffic


@record
class Step:
    t: float
    container: str | None
    text: Text
    assumed: bool = False
    kind: str = ""                      # the event's type ("restarted" for a start after a restart)
    steps: tuple["Step", ...] = ()      # a summary's steps, shown on request (collapse_crash_loops)


def _m(e: TraceEvent) -> Text | str:
    """The event's message for a {m} field: its `Text` (translated with the sentence) when it has one."""
    return e.text if e.text is not None else e.message


def _secs(x: float) -> str:
    return f"{x:g}"


def story(pod: Pod, sim: Simulation, traffic: Traffic | None = None) -> list[Step]:
    """One numbered step per event that changes what a reader should picture; with ``traffic``, the
    Pod's endpoint and its failure windows too, each after the events of its moment (docs/lifecycle-model.md §27)."""
    specs: dict[str, Container] = {c.name: c for c in pod.all_containers}
    specs.update({c.name: c for c in sim.debug_containers})
    steps: list[Step] = []
    for i, e in enumerate(sim.events):
        text = _sentence(e, specs.get(e.container or ""), pod, sim.events, i)
        if text is not None:
            kind = "restarted" if e.type == "started" and e.restart_count else e.type
            steps.append(Step(e.t, e.container, text, e.assumed, kind))
    if traffic is not None:
        extra = [Step(t, None, text, assumed, "traffic") for t, text, assumed in story_texts(traffic)]
        steps = sorted(steps + extra, key=lambda s: s.t)      # stable: the events of a moment first
    # the ending goes where its time is: after every event up to then (a tie keeps cause before its
    # outcome), before any event that comes later (a Job's Pod deleted after it Succeeded)
    at = next((i for i, s in enumerate(steps) if s.t > sim.end_time), len(steps))
    steps.insert(at, Step(sim.end_time, None, _ending(sim)))
    return steps


# What happens over and over in a crash loop (of any container): a run of these is one loop.
_LOOP_KINDS = frozenset({"exited", "backoff", "restarted", "ready", "not_ready", "liveness_failed",
                         "startup_probe_ok", "startup_probe_failed", "terminating", "killed"})


def collapse_crash_loops(steps: list[Step], *, keep: int = 2, least: int = 2) -> list[Step]:
    """After a container's first ``keep`` restarts, the rest of its crash loop becomes one step
    ("app exits and is restarted 5 more times, back-off 40 s → 300 s") holding the steps it
    summarises.  Only runs of crash-loop steps are folded, and only ``least`` restarts or more."""
    out: list[Step] = []
    restarts: dict[str | None, int] = {}
    i = 0
    while i < len(steps):
        step = steps[i]
        out.append(step)
        i += 1
        if step.kind != "restarted":
            continue
        restarts[step.container] = restarts.get(step.container, 0) + 1
        if restarts[step.container] != keep:
            continue
        end = i
        while end < len(steps) and steps[end].kind in _LOOP_KINDS:
            end += 1
        ours = [j for j in range(i, end) if steps[j].kind == "restarted" and steps[j].container == step.container]
        if len(ours) < least:
            continue
        hidden = steps[i:ours[-1] + 1]
        out.append(Step(hidden[0].t, step.container, _loop_summary(step.container or "", hidden, steps[:i]),
                        any(s.assumed for s in hidden), "crash_loop", tuple(hidden)))
        i = ours[-1] + 1
    return out


def _loop_summary(name: str, hidden: list[Step], before: list[Step]) -> Text:
    delays = []
    last_exit = next((s.t for s in reversed(before) if s.container == name and s.kind == "exited"), None)
    for s in hidden:
        if s.container != name:
            continue
        if s.kind == "exited":
            last_exit = s.t
        elif s.kind == "restarted" and last_exit is not None:
            delays.append(s.t - last_exit)
    n = sum(1 for s in hidden if s.kind == "restarted" and s.container == name)
    if not delays or delays[0] == delays[-1]:
        return Text(_("{c} exits and is restarted {n} more times, back-off {a} s each time."),
                    {"c": name, "n": n, "a": _secs(delays[0] if delays else 0)})
    return Text(_("{c} exits and is restarted {n} more times, back-off {a} s → {b} s."),
                {"c": name, "n": n, "a": _secs(delays[0]), "b": _secs(delays[-1])})


def _ending(sim: Simulation) -> Text:
    last = sim.timeline[-1]
    if last.phase in ("Succeeded", "Failed"):
        return Text(_("The Pod ends {phase} at {t} s (kubectl shows {status})."),
                    {"phase": last.phase, "t": _secs(sim.end_time), "status": last.status})
    if last.status == "Terminating" and sim.end_time < sim.until:
        # before 1.27 a deleted Pod leaves the API in the phase it had (docs/lifecycle-model.md §33)
        return Text(_("At {t} s every container has stopped and the Pod leaves the API in phase {phase}: before "
                      "Kubernetes 1.27 the kubelet does not move a deleted Pod to Failed or Succeeded first."),
                    {"t": _secs(sim.end_time), "phase": last.phase})
    return Text(_("At {t} s, where the simulation stops, the Pod is {phase}: kubectl shows {status}, "
                  "READY {ready}."), {"t": _secs(sim.end_time), "phase": last.phase, "status": last.status,
                                      "ready": last.ready_count})


def _sentence(e: TraceEvent, c: Container | None, pod: Pod, events: list[TraceEvent], i: int) -> Text | None:
    name = e.container or ""
    k = e.type
    if k == "sandbox_ready":
        if pod.host_network:
            return Text(_("The kubelet creates the Pod sandbox. With hostNetwork: true it makes no network "
                          "namespace of its own: every container uses the node's network namespace and IP "
                          "address, and reaches the node's ports on localhost."))
        return Text(_("The kubelet creates the Pod sandbox: the network namespace and IP address that every "
                      "container of the Pod shares."))
    if k == "started" and c is not None:
        return _started(e, c, pod)
    if k == "poststart_done" and e.reason == "FailedPostStartHook":
        return Text(_("{c}'s postStart hook fails (FailedPostStartHook, exit code {code}): the kubelet kills {c}, "
                      "and the start counts as failed."), {"c": name, "code": e.exit_code})
    if k == "poststart_done":
        return Text(_("{c}'s postStart hook finishes; only now is {c} reported Running, and only now does the "
                      "kubelet go on to the next container."), {"c": name})
    if k == "startup_probe_ok":
        if c is not None and c.role == "sidecar":
            return Text(_("{c}'s startupProbe succeeds: the sidecar counts as started, so the next container "
                          "may start."), {"c": name})
        return Text(_("{c}'s startupProbe succeeds: liveness and readiness checks begin."), {"c": name})
    if k == "startup_probe_failed":
        return Text(_("{c}'s startupProbe gives up ({m}): the kubelet kills the container."), {"c": name, "m": _m(e)})
    if k == "ready":
        return Text(_("{c} is ready ({m})."), {"c": name, "m": _m(e)})
    if k == "liveness_failed":
        return Text(_("{c}'s livenessProbe fails ({m}): the kubelet kills the container."), {"c": name, "m": _m(e)})
    if k == "exited":
        return _exited(e, c, pod)
    if k == "backoff":
        if e.reason == "ImagePullBackOff":
            return Text(_("The kubelet backs off before pulling {c}'s image again ({m})."), {"c": name, "m": _m(e)})
        return Text(_("{c} is in CrashLoopBackOff: {m}."), {"c": name, "m": _m(e)})
    if k == "image_pull_failed" and e.reason == "InvalidImageName":
        # pkg/kubelet/images/image_manager.go `EnsureImageExists` (docs/lifecycle-model.md §28)
        return Text(_("The kubelet cannot parse {c}'s image reference (InvalidImageName: {m}). Nothing is pulled "
                      "and nothing retries with a back-off: every sync fails the same way, so {c} never starts "
                      "until the image is changed."), {"c": name, "m": _m(e)})
    if k == "image_pull_failed":
        return Text(_("The kubelet cannot pull {c}'s image (ErrImagePull). A container that never ran has no "
                      "exit code, so the Pod stays Pending whatever its restartPolicy."), {"c": name})
    if k == "delete_requested":
        return Text(_("The Pod is deleted ({m}). From now on nothing is restarted; liveness and startup probes "
                      "stop."), {"m": _m(e)})
    if k == "prestop_started":
        return Text(_("{c}'s preStop hook starts ({m}); SIGTERM waits until it ends."), {"c": name, "m": _m(e)})
    if k == "prestop_done":
        if e.reason == "GracePeriodExceeded":
            return Text(_("The grace period runs out while {c}'s preStop hook still runs; the kubelet stops waiting "
                          "for it."), {"c": name})
        if e.reason == "FailedPreStopHook" and e.exit_code == 137:
            return Text(_("{c}'s preStop hook is killed with every other process of the Pod (FailedPreStopHook, "
                          "exit code 137)."), {"c": name})
        if e.reason == "FailedPreStopHook":
            return Text(_("{c}'s preStop hook fails (FailedPreStopHook, exit code {code}); the kubelet goes on to "
                          "the stop signal at once."), {"c": name, "code": e.exit_code})
        return Text(_("{c}'s preStop hook ends."), {"c": name})
    if k == "terminating":
        if c is not None and c.role == "sidecar":
            return Text(_("Sidecar {c} gets SIGTERM ({m}): sidecars stop after the app containers, in reverse "
                          "order."), {"c": name, "m": _m(e)})
        if c is not None and c.stop_signal is not None:
            return Text(_("The kubelet stops {c} with its stop signal {signal} instead of SIGTERM ({m})."),
                        {"c": name, "signal": c.stop_signal, "m": _m(e)})
        return Text(_("The kubelet sends {c} SIGTERM ({m})."), {"c": name, "m": _m(e)})
    if k == "killed":
        if e.reason == "RestartAllContainers":
            return Text(_("{c} is killed at once: a RestartAllContainers restart runs no preStop hook and does "
                          "not wait for the grace period."), {"c": name})
        return Text(_("The grace period is over: SIGKILL for {c}."), {"c": name})
    if k == "all_containers_restarting":
        if e.reason == "RestartAllContainersStarted":
            return Text(_("{m}. The kubelet kills every running container, sidecars and ephemeral containers "
                          "included."), {"m": _m(e)})
        return Text(_("Every container is removed but the sandbox stays (same IP, same volumes); "
                      "AllContainersRestarting goes back to False. The Pod is Pending again and starts over: init "
                      "containers in order, then sidecars, then app containers, each restart count one higher. "
                      "Ephemeral containers are not restarted."))
    if k == "sandbox_lost" and e.reason == "PauseExited":
        # build/pause/linux/pause.c `sigdown`; pid_namespaces(7) (docs/lifecycle-model.md §30)
        return Text(_("{m}. pause exits on SIGTERM, and when PID 1 of a PID namespace ends the kernel SIGKILLs "
                      "every other process in it: every container still running ends with 137 at this moment, and "
                      "the sandbox is gone."), {"m": _m(e)})
    if k == "sandbox_lost":
        return Text(_("The node reboots: the sandbox and every container are gone. The kubelet builds a new "
                      "sandbox and runs the init containers again, from the first."))
    if k == "deadline_exceeded":
        return Text(_("activeDeadlineSeconds has passed: the Pod fails (DeadlineExceeded) and the kubelet stops "
                      "its containers."))
    if k == "debug_requested":
        return Text(_("{m}."), {"m": _m(e)})
    return None


def _started(e: TraceEvent, c: Container, pod: Pod) -> Text:
    text = _started_text(e, c, pod)
    if c.resize_restart and not e.restart_count:
        # in-place resize is GA from 1.35 (not modelled): say what resizing this container would do
        return Text(_("{said} Its resizePolicy says RestartContainer for {resources}: an in-place resize of "
                      "that resource restarts the container."),
                    {"said": text, "resources": ", ".join(c.resize_restart)})
    return text


def _started_text(e: TraceEvent, c: Container, pod: Pod) -> Text:
    name = c.name
    if e.restart_count:
        return Text(_("{c} starts again (restart {n})."), {"c": name, "n": e.restart_count})
    if c.role == "init":
        last = c.index == len(pod.init_containers) - 1
        if last:
            return Text(_("Init container {c} starts; it must exit 0 before the app containers can start."), {"c": name})
        nxt = pod.init_containers[c.index + 1].name
        return Text(_("Init container {c} starts; it must exit 0 before {next} can start."), {"c": name, "next": nxt})
    if c.role == "sidecar":
        if c.startup_probe:
            return Text(_("Native sidecar {c} starts (an init container with restartPolicy: Always). The kubelet "
                          "waits for its startupProbe before starting the next container; it keeps running "
                          "beside the app."), {"c": name})
        return Text(_("Native sidecar {c} starts (an init container with restartPolicy: Always). With no "
                      "startupProbe it counts as started at once, so the next container starts right away, "
                      "whether or not it is ready to serve."), {"c": name})
    if c.role == "ephemeral":
        target = f" --target={c.target}" if c.target else ""
        return Text(_("Ephemeral container {c} joins the running Pod (kubectl debug{target}). It is never "
                      "restarted and not part of start-up."), {"c": name, "target": target})
    if c.index == 0 and len(pod.containers) > 1:
        return Text(_("App container {c} starts. The kubelet starts app containers one after another in list "
                      "order, but the API promises no order between them: nothing may rely on it."), {"c": name})
    return Text(_("App container {c} starts."), {"c": name})


def _exited(e: TraceEvent, c: Container | None, pod: Pod) -> Text:
    name = e.container or ""
    code = e.exit_code
    if c is not None and c.role == "init" and code == 0:
        return Text(_("Init container {c} exits 0: step {i} of {n} is done."),
                    {"c": name, "i": c.index + 1, "n": len(pod.init_containers)})
    if e.reason == "Unknown":
        return Text(_("{c} is gone with the sandbox (exit code {code})."), {"c": name, "code": code})
    said = Text(_("{c} exits with code {code} ({m})."), {"c": name, "code": code, "m": _m(e)})
    if c is not None and c.role in ("app", "init") and c.restart_policy is not None and code is not None \
            and e.message == "the main process ends":
        return Text(_("{said} {decision}"), {"said": said, "decision": _restart_decision(c, pod, code)})
    return said


def _restart_decision(c: Container, pod: Pod, code: int) -> Text:
    """Which restart rule (or policy) decided, as `ContainerShouldRestart` reads them (docs/lifecycle-model.md §17)."""
    rule = matching_rule(c, code)
    if rule is not None:
        where = {"i": rule.index, "op": rule.operator, "values": ", ".join(str(v) for v in rule.values)}
        if rule.action == RESTART_ALL:
            return Text(_("restartPolicyRules[{i}] ({op} {values}) matches: RestartAllContainers."), where)
        return Text(_("restartPolicyRules[{i}] ({op} {values}) matches: Restart, whatever the restartPolicy "
                      "({policy})."), where | {"policy": c.restart_policy})
    again = should_restart(c, pod.restart_policy, code)
    if c.restart_rules:
        msg = (_("No restart rule matches, so its own restartPolicy {policy} decides: it is restarted.") if again
               else _("No restart rule matches, so its own restartPolicy {policy} decides: it is not restarted."))
    else:
        msg = (_("Its own restartPolicy {policy} decides, not the Pod's ({pod}): it is restarted.") if again
               else _("Its own restartPolicy {policy} decides, not the Pod's ({pod}): it is not restarted."))
    return Text(msg, {"policy": c.restart_policy, "pod": pod.restart_policy})


# ---- the traffic (docs/lifecycle-model.md §27) -------------------------------------------------------
def assumed_from(traffic: Traffic) -> float | None:
    """Where the traffic row stops following the Pod's own lanes: a deletion the model assumed
    (lifecycle/traffic/deletion.py) that the scenario does not make; None when the lanes show it all."""
    return traffic.deletion_at if traffic.deletion_at is not None and traffic.deletion_assumed else None


def story_texts(traffic: Traffic) -> list[tuple[float, Text, bool]]:
    """The story's traffic steps: (t, sentence, assumed), in time order.  Each interval and failure
    window in the core's words (lifecycle/traffic/text.py) where it has them; the first names the
    Service; after a deletion the model assumed, a step says so and the rest are marked assumed."""
    out: list[tuple[float, Text, bool]] = []
    services = [s for s in traffic.services if s]
    svc: Text = (Text(_("the Services {names}"), {"names": ", ".join(services)}) if len(services) > 1 else
                 Text(_("the Service {names}"), {"names": services[0]}) if services else
                 Text(_("a Service that selects it (none in the input; assumed)")))
    since = assumed_from(traffic)
    previous = None
    for n, i in enumerate(traffic.intervals):
        said = i.text if i.text is not None else _state_sentence(i.state, previous, traffic)
        previous = i.state
        if said is None:
            continue
        if n == 0:
            said = Text(_("Traffic through {svc}: {said}"), {"svc": svc, "said": said})
        after = since is not None and i.start >= since - 1e-9
        out.append((i.start, said, (i.state == DRAINING and traffic.propagation_assumed) or after))
    for w in traffic.failure_windows:
        said = w.text if w.text is not None else Text(
            _("From {t0} s to {t1} s requests may still arrive while nothing listens."),
            {"t0": _secs(w.start), "t1": _secs(w.end)})
        out.append((w.start, Text(_("{said} Clients get errors (502, 503, connection refused)."),
                                  {"said": said}), since is not None and w.start >= since - 1e-9))
    if since is not None:     # first among the steps of its moment (the sort below is stable)
        out.insert(0, (since, Text(_("Suppose the Pod is deleted at {t} s (the scenario deletes "
                                                "nothing, so the traffic shows the deletion the findings assume; "
                                                "deleteAt sets another moment)."), {"t": _secs(since)}), True))
    out.sort(key=lambda s: s[0])
    return out


def _state_sentence(state: str, previous: str | None, traffic: Traffic) -> Text | None:
    if state == NOT_READY:
        return Text(_("The Pod's endpoint is not ready: it gets no requests."))
    if state == SERVING:
        return Text(_("The Pod's endpoint is ready: it gets requests."))
    if state == DRAINING:
        return Text(_("The Pod's endpoint leaves the ready endpoints, but the proxies learn of it only "
                                 "{s} s later: until then they may still send it requests."),
                    {"s": _secs(traffic.propagation_seconds)})
    if state == GONE:
        return Text(_("The proxies no longer send the Pod requests."))
    return None

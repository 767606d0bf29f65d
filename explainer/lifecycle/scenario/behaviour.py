"""How each container behaves in a scenario: the scenario's values first, then readings of the manifest.

``behaviour_for`` resolves one container's runs, hooks and stop from its scenario entry (``scenario/document.py``
reads and checks it); whatever the entry leaves out is guessed (``commands/guess.py``, ``evidence.py``) and
reported as assumed.
"""
from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any, Mapping, Protocol

from .. import defaults as d
from ..commands.guess import guess_run, guess_stop, hook_seconds, runs_only_known, term_trap
from ..commands.evidence import heap_over_limit, missing_hook_binary, poststart_self_call
from ..commands.expand import Expanded, expand_container, expand_hook
from ..commands.files import missing_file
from ..i18n import Phrase, gettext_noop as _
from ..model import Container, Pod
from ..commands.mounted_scripts import hook_text
from ..records import quick_init
from ..commands.probe_faults import ProbeFault, probe_faults
from ..commands.shutdown import PAUSE, Stop, exit_stops, prestop_stops
from ..signals import exit_code as signal_exit_code
from explainer.lifecycle.records import record


@record
class Run:
    seconds: float | None          # None: runs until stopped
    exit_code: int
    reason: str | None = None      # OOMKilled: the kernel ends the run, not the program


@quick_init   # one per container, and per debug container (records.py)
@record
class Behaviour:
    """How one container behaves in this scenario; ``assumed`` maps a field to why."""

    runs: tuple[Run, ...]
    image_pull_fails: bool = False
    startup_seconds: float = 0.0
    failing_probes: frozenset[str] = frozenset()
    post_start_seconds: float | None = 0.0   # None: the hook never ends
    post_start_exit_code: int = 0        # not 0: the hook fails (FailedPostStartHook), the container is killed
    pre_stop_seconds: float | None = 0.0
    pre_stop_exit_code: int = 0
    stop_seconds: float | None = 0.0     # None: ignores SIGTERM
    stop_exit_code: int = d.EXIT_SIGTERM
    assumed: dict[str, Phrase] = field(default_factory=dict)
    probe_faults: dict[str, ProbeFault] = field(default_factory=dict)   # probes that cannot pass (commands/probe_faults.py)
    pre_stop_stops: tuple[Stop, ...] = ()    # calls in its preStop hook that end a main process (shutdown.py)
    exit_stops: tuple[Stop, ...] = ()        # calls after its own work that end another container

    def run(self, n: int) -> Run:
        """The n-th run (0-based); the last entry repeats."""
        return self.runs[min(n, len(self.runs) - 1)]


class ScenarioEntries(Protocol):
    """What ``behaviour_for`` reads of a ``scenario.document.Scenario``: each container's entry by name."""

    @property
    def containers(self) -> Mapping[str, Mapping[str, Any]]: ...



def behaviour_for(c: Container, pod: Pod, scenario: ScenarioEntries) -> Behaviour:
    """The resolved behaviour of ``c``: scenario values first, then guesses from the manifest."""
    entry = scenario.containers.get(c.name)
    raw = {k: v for k, v in entry.items() if v is not None} if entry else {}   # null: not given
    assumed: dict[str, Phrase] = {}
    # the process sees its arguments after the kubelet's $(VAR) and a shell's $VAR (docs/lifecycle-model.md §9.1)
    exp = expand_container(c)
    ce = c if (exp.command, exp.args) == (c.command, c.args) else dataclasses.replace(
        c, command=exp.command, args=exp.args)
    runs = _oom_runs(c, pod, raw, assumed) or _runs(ce, pod, raw, assumed, exp)
    post_start_code = _post_start_fails(c, pod, raw, assumed)
    faults = _probe_faults(c, pod, raw, assumed)
    post_start_seconds = (float(raw.get("postStartSeconds", 0) or 0) if post_start_code else
                          _hook_default(c.post_start, c, raw, "postStartSeconds", assumed, 0.0))
    pre_stop_code = _pre_stop_fails(c, raw, assumed)
    pre_stop_seconds = (float(raw.get("preStopSeconds", 0) or 0) if pre_stop_code and "preStopExitCode" not in raw
                        else _hook_default(c.pre_stop, c, raw, "preStopSeconds", assumed, 0.0))
    stops = _pre_stop_stops(c, pod)
    if stops and "preStopSeconds" in assumed and not pre_stop_code:
        assumed["preStopSeconds"] = _reading(stops[0], assumed["preStopSeconds"])
    stop_seconds = _stop_seconds(ce, pod, raw, assumed)
    stop_code = _stop_exit_code(ce, c, raw)   # the stopSeconds reading says why (commands/guess.py `term_trap`)
    return Behaviour(
        runs=runs,
        image_pull_fails=raw.get("imagePull") == "fails",
        startup_seconds=float(raw.get("startupSeconds", 0) or 0),
        failing_probes=frozenset(raw.get("failingProbes") or ()),
        post_start_seconds=post_start_seconds,
        post_start_exit_code=post_start_code,
        pre_stop_seconds=pre_stop_seconds,
        pre_stop_exit_code=pre_stop_code,
        stop_seconds=stop_seconds,
        stop_exit_code=stop_code,
        assumed=assumed,
        probe_faults=faults,
        pre_stop_stops=stops,
        exit_stops=exit_stops(ce, ce.script, pod) if c.role != "ephemeral" else (),
    )


_EXIT_0 = Phrase(_("assumed to exit with code 0"))   # made once: a Phrase is immutable


def _runs(c: Container, pod: Pod, raw: dict[str, Any], assumed: dict[str, Phrase],
          exp: Expanded | None = None) -> tuple[Run, ...]:
    if isinstance(raw.get("runs"), list) and raw["runs"]:
        # a run may say how it ended: ``reason: OOMKilled``, the kernel's OOM kill (docs/lifecycle-model.md §36)
        return tuple(Run(_as_duration(r.get("runSeconds", "forever"), "forever"), int(r.get("exitCode", 0)),
                         "OOMKilled" if r.get("reason") == "OOMKilled" else None)
                     for r in raw["runs"])
    if c.role == "ephemeral":
        seconds = _as_duration(raw.get("runSeconds", "forever"), "forever")
        if "runSeconds" not in raw:
            assumed["runSeconds"] = Phrase(_("a debug session is assumed to stay open"))
        return (Run(seconds, int(raw.get("exitCode", 0))),)
    finite_by_default = c.role == "init" or (pod.batch and c.role == "app")
    if "runSeconds" in raw:
        seconds = _as_duration(raw["runSeconds"], "forever")
    else:
        guess = guess_run(c, finite_by_default)
        seconds = guess.seconds
        if seconds is None and "exitCode" in raw:
            seconds = d.ASSUMED_FINITE_RUN_SECONDS
            assumed["runSeconds"] = Phrase(_("the scenario gives an exit code, so it is assumed to exit after 1 s"))
        elif not guess.certain:
            assumed["runSeconds"] = guess.why
        elif exp is not None and exp.unknown:
            assumed["runSeconds"] = Phrase(_("its command uses {names}, set outside the manifest (valueFrom or "
                                             "envFrom), so what it does is not known: {why}"),
                                           {"names": _names(exp.unknown), "why": guess.why})
    if "exitCode" not in raw and seconds is not None:
        assumed.setdefault("exitCode", _EXIT_0)
    return (Run(seconds, int(raw.get("exitCode", 0))),)


def _oom_runs(c: Container, pod: Pod, raw: dict[str, Any], assumed: dict[str, Phrase]) -> tuple[Run, ...] | None:
    """A JVM whose maximum heap reaches the memory limit is OOM-killed once the heap fills (docs/lifecycle-model.md §24.1)."""
    if c.role not in ("app", "sidecar") or {"runs", "runSeconds", "exitCode"} & set(raw):
        return None
    over = heap_over_limit(pod, c)
    if over is None:
        return None
    heap, _limit, written = over
    assumed["runSeconds"] = Phrase(_("its heap ({heap}) can grow to the memory limit ({limit}) before the JVM's "
                                     "own memory is counted: assumed OOM-killed after {seconds} s of load"),
                                   {"heap": heap.written, "limit": written, "seconds": f"{d.ASSUMED_OOM_SECONDS:g}"})
    return (Run(d.ASSUMED_OOM_SECONDS, d.EXIT_SIGKILL, "OOMKilled"),)


def _probe_faults(c: Container, pod: Pod, raw: dict[str, Any], assumed: dict[str, Phrase]) -> dict[str, ProbeFault]:
    """The probes that cannot pass (commands/probe_faults.py); one that is only assumed to fail (a file nothing creates,
    docs/lifecycle-model.md §29.1) gives way to a scenario that says how the probes behave."""
    faults = probe_faults(c, pod)
    for kind, fault in list(faults.items()):
        if not fault.assumed:
            continue
        if "startupSeconds" in raw or "failingProbes" in raw:
            del faults[kind]
        else:
            assumed.setdefault("startupSeconds", Phrase(_("its {kind} probe is assumed never to pass: {why}"),
                                                        {"kind": kind, "why": fault.why}))
    return faults


def _post_start_fails(c: Container, pod: Pod, raw: dict[str, Any], assumed: dict[str, Phrase]) -> int:
    """The scenario's postStartExitCode, else 1 when the hook calls the container's own server (docs/lifecycle-model.md §24.3)."""
    if "postStartExitCode" in raw:
        return int(raw["postStartExitCode"])
    if "postStartSeconds" in raw:
        return 0
    prog = missing_hook_binary(c, "postStart")
    if prog is not None:   # docs/lifecycle-model.md §29.2
        why = Phrase(_("the image {image} has no {prog} (inferred from the image name): the runtime cannot start "
                       "the hook, which fails at once with code 126"), {"image": c.image, "prog": prog})
        assumed["postStartExitCode"] = assumed["postStartSeconds"] = why
        return d.EXIT_EXEC_NOT_FOUND
    call = poststart_self_call(pod, c)
    if call is None:
        return _post_start_file(c, assumed)
    why = Phrase(
        _("the hook calls port {port} of its own container as it starts; the server is not listening yet, "
          "so the call is refused at once") if call.certain else
        _("the hook calls port {port} of its own container after a fixed wait; assumed refused, as when the "
          "server is slower than the wait"), {"port": call.port})
    assumed["postStartExitCode"] = why
    if not call.certain:   # the event is marked assumed only where the race may go either way
        assumed["postStartSeconds"] = why
    return 1


def _post_start_file(c: Container, assumed: dict[str, Phrase]) -> int:
    """1 when the postStart hook only tests a file nothing creates (files.py, docs/lifecycle-model.md §29.1)."""
    hook = c.post_start
    if hook is None or hook.handler != "exec":
        return 0
    path = missing_file(c, hook.command, runs_only_known(c))
    if path is None:
        return 0
    assumed["postStartExitCode"] = assumed["postStartSeconds"] = Phrase(_(
        "the hook tests {path}, and nothing creates that file (assumed: the image does not ship it), so it fails"),
        {"path": path})
    return 1


def _pre_stop_fails(c: Container, raw: dict[str, Any], assumed: dict[str, Phrase]) -> int:
    """The scenario's preStopExitCode, else 126 when the image has no such program (docs/lifecycle-model.md §24.3)."""
    if "preStopExitCode" in raw:
        return int(raw["preStopExitCode"])
    prog = None if "preStopSeconds" in raw else missing_hook_binary(c)
    if prog is None:
        return 0
    assumed["preStopSeconds"] = Phrase(_("the image {image} has no {prog} (inferred from the image name): the "
                                         "runtime cannot start the hook, which fails at once with code 126"),
                                       {"image": c.image, "prog": prog})
    return d.EXIT_EXEC_NOT_FOUND


def _hook_default(hook: Any, c: Container, raw: dict[str, Any], key: str, assumed: dict[str, Phrase],
                  fallback: float) -> float | None:
    if key in raw:
        return _as_duration(raw[key], "forever")
    if hook is None:
        return fallback
    if hook.handler == "sleep" and hook.sleep_seconds is not None:
        return float(hook.sleep_seconds)
    if hook.handler == "exec":
        exp = expand_hook(hook.command, c)
        seconds = hook_seconds(hook_text(c, exp.command))
        assumed[key] = (Phrase(_("the hook's command loops forever")) if seconds is None else
                        Phrase(_("the hook's command sleeps {seconds} s"), {"seconds": f"{seconds:g}"}) if seconds else
                        Phrase(_("the hook is assumed to finish at once")))
        if exp.unknown:
            assumed[key] = Phrase(_("the hook's command uses {names}, set outside the manifest (valueFrom or "
                                    "envFrom): {why}"), {"names": _names(exp.unknown), "why": assumed[key]})
        elif exp.used and seconds:
            assumed[key] = Phrase(_("{why}, with {names} from the container's env"),
                                  {"names": _names(exp.used), "why": assumed[key]})
        return seconds
    assumed[key] = Phrase(_("the {handler} hook is assumed to answer at once"), {"handler": hook.handler})
    return fallback


def _pre_stop_stops(c: Container, pod: Pod) -> tuple[Stop, ...]:
    hook = c.pre_stop
    if hook is None or hook.handler != "exec":
        return ()
    # with shareProcessNamespace `kill 1` reaches the pause process, not the main process: a PAUSE stop
    # (shutdown.py, docs/lifecycle-model.md §30)
    return prestop_stops(c, hook_text(c, expand_hook(hook.command, c).command), pod)


def _reading(stop: Stop, said: Phrase) -> Phrase:
    """One reading of a preStop that ends a main process (docs/lifecycle-model.md §9.2, docs/lifecycle-model.md §30): the sleeps before
    the call, the call, and what the script does after it; the timeline, the story and the findings use it."""
    if stop.kind == PAUSE:
        return Phrase(_("the hook's command sleeps {seconds} s, then {how}: the kernel ends every process of the "
                        "Pod with it, this hook's own too"), {"seconds": f"{stop.offset:g}", "how": stop.how})
    if stop.waits:
        return Phrase(_("the hook's command sleeps {seconds} s, then {how}, and waits until it has exited"),
                      {"seconds": f"{stop.offset:g}", "how": stop.how})
    return said


def _stop_exit_code(ce: Container, c: Container, raw: dict[str, Any]) -> int:
    """The exit code after the stop signal: the scenario's, a shell's `trap 'exit N' TERM` (commands/guess.py
    `term_trap`, docs/lifecycle-model.md §30.2), else 128 + the signal (lifecycle.stopSignal, docs/lifecycle-model.md §19)."""
    if "stopExitCode" in raw:
        return int(raw["stopExitCode"])
    trap = term_trap(ce) if c.stop_signal in (None, "SIGTERM") and "trap" in ce.script else None
    if trap is not None and trap.exit_code is not None:
        return trap.exit_code
    return signal_exit_code(c.stop_signal)


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(f"${n}" for n in names)


def _stop_seconds(c: Container, pod: Pod, raw: dict[str, Any], assumed: dict[str, Phrase]) -> float | None:
    if "stopSeconds" in raw:
        return _as_duration(raw["stopSeconds"], "never")
    # with shareProcessNamespace the pause process is PID 1, so the main process is not
    seconds, why = guess_stop(c, pid1=not pod.share_process_namespace)
    assumed["stopSeconds"] = why
    return seconds


def _as_duration(v: Any, word: str) -> float | None:
    return None if v == word else float(v)

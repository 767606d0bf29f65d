"""PID 1 of a shared process namespace, preStops that wait, and a trap's exit code (docs/lifecycle-model.md §30).

Sources: build/pause/linux/pause.c (`sigdown` on SIGINT and SIGTERM exits 0; no other handler); pid_namespaces(7)
(init gets from inside only the signals it handles; when it exits every process of the namespace is
SIGKILLed); kuberuntime_container.go `killContainer` and `executePreStopHook`; kuberuntime_manager.go
`computePodActions` (a changed sandbox: kill and re-create); the bash manual and POSIX `trap` (a trap runs
between commands, `wait` is interrupted).
"""
from __future__ import annotations

import pytest

from explainer.lifecycle.manifest.parse import parse_pod
from explainer.lifecycle.commands.shutdown import PAUSE, SIGNAL, prestop_stops
from explainer.lifecycle.commands.guess import guess_stop, term_trap
from tests.lifecycle.engine import count, events, first, simulated


def _pod(script: str, shared: bool = True, security: str = "") -> tuple:
    text = (f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  shareProcessNamespace: {str(shared).lower()}\n"
            f"  containers:\n    - name: app\n      image: example/app:1.0\n{security}")
    pod = parse_pod(text)
    return pod, pod.containers[0], script


KILLS = [
    # (preStop script, shared namespace, kind of stop or None, seconds before it)
    ("sleep 5; kill -SIGTERM 1; while pidof app >/dev/null; do sleep 1; done;", True, PAUSE, 5),   # seed 002
    ("kill 1", True, PAUSE, 0),                     # the first command, no flag
    ("kill -TERM 1 && sleep 30", True, PAUSE, 0),
    ("kill -s TERM 1", True, PAUSE, 0),
    ("kill -15 1", True, PAUSE, 0),
    ("kill -INT 1", True, PAUSE, 0),                # pause.c: SIGINT is `sigdown` too
    ("kill -HUP 1", True, None, 0),                 # no handler in pause: the kernel drops it
    ("kill -9 1", True, None, 0),                   # SIGKILL from inside the namespace: dropped too
    ("kill -QUIT 1", True, None, 0),
    ("sleep 5; kill -SIGTERM 1", False, SIGNAL, 5), # its own PID namespace: its own main process
    ("kill 1", False, SIGNAL, 0),
]


@pytest.mark.parametrize("script,shared,kind,offset", KILLS, ids=[k[0][:30] + str(k[1]) for k in KILLS])
def test_where_a_kill_of_pid1_stands_and_what_it_reaches(script: str, shared: bool, kind: str | None,
                                                         offset: float) -> None:
    pod, c, _s = _pod(script, shared)
    stops = prestop_stops(c, "/bin/sh -c " + script, pod)
    if kind is None:
        assert not stops
        return
    (stop,) = stops
    assert (stop.kind, stop.offset) == (kind, offset)


def test_a_user_that_may_not_signal_pause_is_refused() -> None:
    pod, c, script = _pod("kill 1", True, "      securityContext: {runAsUser: 1000}\n")
    assert prestop_stops(c, "sh -c kill 1", pod) == ()
    pod, c, script = _pod("kill 1", True, "      securityContext: {runAsUser: 1000, capabilities: {add: [KILL]}}\n")
    assert prestop_stops(c, "sh -c kill 1", pod)[0].kind == PAUSE


def test_seed_002_deleted_at_60_every_container_ends_with_137_at_65() -> None:
    """pause exits at 65 s (the preStop's 5 s sleep, then kill -SIGTERM 1): app and envoy, still in its own
    10 s preStop, end with 137 at once; the Pod ends Failed at 65 s, not 70 s."""
    pod = simulated("seeds/web-app-pod", "deleteAt: 60")
    assert [e for e in pod.events if e.type == "sandbox_lost"][0].reason == "PauseExited"
    assert first(pod, None, "sandbox_lost") == 65
    for name in ("app", "envoy-sidecar"):
        exits = [e for e in pod.events if e.container == name and e.type == "exited"]
        assert (exits[-1].t, exits[-1].exit_code) == (65, 137)
        done = [e for e in pod.events if e.container == name and e.type == "prestop_done"]
        assert (done[-1].t, done[-1].exit_code, done[-1].reason) == (65, 137, "FailedPreStopHook")
    assert count(pod, "app", "terminating") == 0     # the kubelet's SIGTERM never comes
    assert pod.end_time == 65 and pod.final_phase == "Failed"


def test_a_kill_of_pid1_as_the_first_command_ends_the_pod_at_the_deletion() -> None:
    pod = simulated("pods/prestop_kill_pid1_first", "deleteAt: 10")
    assert first(pod, None, "sandbox_lost") == 10 and pod.end_time == 10
    assert {e.exit_code for e in pod.events if e.type == "exited"} == {137}


def test_outside_a_deletion_the_pod_starts_again_in_a_new_sandbox() -> None:
    """A liveness kill runs the preStop; pause exits; the next sync finds the sandbox changed and starts the
    Pod again, init containers first (computePodActions)."""
    pod = simulated("pods/liveness_prestop_kills_pause", "containers: {app: {failingProbes: [liveness]}}\nuntil: 60")
    lost = first(pod, None, "sandbox_lost")
    assert lost == first(pod, "app", "liveness_failed") + 2
    assert first(pod, None, "sandbox_ready", 2) == lost and first(pod, "setup", "started", 2) == lost
    # each new start fails its liveness probe again, and each kill ends the Pod's processes again
    assert count(pod, None, "sandbox_lost") == count(pod, "app", "liveness_failed") >= 2


def test_a_prestop_that_waits_for_its_program_ends_when_the_program_has_exited() -> None:
    """Without a shared namespace `kill -SIGTERM 1` reaches app's own program; the hook's loop waits until it
    has exited (stopSeconds 8), so the hook lasts 5 + 8 s and the kubelet's own SIGTERM finds it gone."""
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: app\n"
            "    image: example/app:1.0\n    lifecycle: {preStop: {exec: {command: [/bin/sh, -c, "
            "'sleep 5; kill -SIGTERM 1; while pidof app >/dev/null; do sleep 1; done;']}}}\n")
    pod = simulated("", "deleteAt: 10\ncontainers: {app: {stopSeconds: 8}}", text=text)
    exits = [e for e in pod.events if e.type == "exited"]
    assert (exits[0].t, exits[0].exit_code) == (23, 143)
    assert count(pod, "app", "terminating") == 0


TRAPS = [
    # (script, seconds to exit after SIGTERM, exit code)
    ("trap 'exit 0' TERM\necho started\nwhile true; do sleep 1; done", 1.0, 0),   # the gallery's app
    ('trap "exit 0" TERM; sleep infinity & wait', 0.0, 0),
    ("trap 'exit 3' SIGTERM; while true; do sleep 5; done", 5.0, 3),
    ("trap cleanup TERM; cleanup() { echo bye; exit 2; }; sleep infinity & wait", 0.0, 2),
    ("trap 'echo got it' TERM; while true; do sleep 1; done", None, None),     # the script goes on
    ("trap 'exit 0' INT; sleep 100", None, None),                              # no TERM trap: ignored as PID 1
    ("trap 'exit 0' TERM; sleep 3600", 3600.0, 0),                             # only when the sleep ends
]


@pytest.mark.parametrize("script,seconds,code", TRAPS, ids=[t[0][:30] for t in TRAPS])
def test_a_shells_sigterm_trap(script: str, seconds: float | None, code: int | None) -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: busybox\n"
            f"    command: [sh, -c, {script!r}]\n")
    c = parse_pod(text).containers[0]
    assert guess_stop(c)[0] == seconds
    trap = term_trap(c)
    assert (trap.exit_code if trap is not None and trap.seconds is not None else None) == code


def test_the_gallery_app_exits_0_a_second_after_sigterm() -> None:
    pod = simulated("seeds/native-sidecar-example", "deleteAt: 30")
    (e,) = [e for e in pod.events if e.container == "app" and e.type == "exited"]
    assert (e.t, e.exit_code) == (31, 0)

"""Stop signals a container may name (`lifecycle.stopSignal`) and their Linux numbers.

The names are the API's `Signal` values (k8s.io/api core/v1 types.go; validation.go
`supportedStopSignalsLinux`, Windows only SIGTERM and SIGKILL); a process killed by signal n
exits 128 + n, as the runtime reports it (docs/lifecycle-model.md §4).
"""
from __future__ import annotations

_NUMBERED = {
    "SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6, "SIGIOT": 6, "SIGBUS": 7,
    "SIGFPE": 8, "SIGKILL": 9, "SIGUSR1": 10, "SIGSEGV": 11, "SIGUSR2": 12, "SIGPIPE": 13, "SIGALRM": 14,
    "SIGTERM": 15, "SIGSTKFLT": 16, "SIGCHLD": 17, "SIGCLD": 17, "SIGCONT": 18, "SIGSTOP": 19, "SIGTSTP": 20,
    "SIGTTIN": 21, "SIGTTOU": 22, "SIGURG": 23, "SIGXCPU": 24, "SIGXFSZ": 25, "SIGVTALRM": 26, "SIGPROF": 27,
    "SIGWINCH": 28, "SIGIO": 29, "SIGPOLL": 29, "SIGPWR": 30, "SIGSYS": 31, "SIGRTMIN": 34, "SIGRTMAX": 64,
}
LINUX_SIGNALS: dict[str, int] = dict(_NUMBERED)
LINUX_SIGNALS.update({f"SIGRTMIN+{i}": 34 + i for i in range(1, 16)})
LINUX_SIGNALS.update({f"SIGRTMAX-{i}": 64 - i for i in range(1, 15)})
WINDOWS_SIGNALS = ("SIGTERM", "SIGKILL")
DEFAULT_STOP_SIGNAL = "SIGTERM"


def exit_code(signal: str | None) -> int:
    """The exit code the runtime reports for a process that the stop signal ends: 128 + n."""
    return 128 + LINUX_SIGNALS.get(signal or DEFAULT_STOP_SIGNAL, 15)

"""How a container's main process answers the stop signal: at once, after its trap, or not at all.

A manifest says nothing about it; the command does, to a reviewer: a shell as PID 1 without a trap ignores
SIGTERM, a trap runs between commands, `exec` hands PID 1 to the program.  Every reading here is reported
as assumed (`behaviour.py`), and a scenario's stopSeconds or stopExitCode replaces it.  Sections (§) refer to
docs/lifecycle-model.md.
"""
from __future__ import annotations

import re

from ..i18n import Phrase, gettext_noop as _
from ..model import Container
from .mounted_scripts import runs_shell_script
from explainer.lifecycle.records import record

_EXITS_ON_SIGTERM = Phrase(_("assumed to exit at once on SIGTERM (code 143)"))
_SHELL_IGNORES_SIGTERM = Phrase(_("a shell as PID 1 ignores SIGTERM unless it traps it"))
_SHELLS = re.compile(r"^(/usr)?(/bin/)?(ba|a|da|z)?sh$")
_SCAN_LIMIT = 16_384
_SLEEP = re.compile(r"\bsleep\s+(\d+(?:\.\d+)?)([smhd]?)\b")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)


def guess_stop(c: Container, pid1: bool = True) -> tuple[float | None, Phrase]:
    """How the main process answers SIGTERM: (seconds to exit, or None if it ignores it; why).

    PID 1 gets no default signal handling from the kernel: a shell script or a bare ``sleep``
    running as PID 1 ignores SIGTERM unless it traps it, so the kubelet's SIGKILL at the end
    of the grace period is what stops it.
    """
    argv = c.command + c.args
    if argv and pid1:
        prog = argv[0]
        # a mounted script with a shell's #! line runs as that shell (mounted_scripts.py)
        shell = bool(_SHELLS.match(prog) or runs_shell_script(c, prog))
        trap = term_trap(c) if shell and "trap" in c.script else None
        if trap is not None:
            return trap.seconds, trap.why
        if shell:
            single = _bash_single_command(argv) if prog.rsplit("/", 1)[-1] == "bash" else None
            if single is not None and not any(path == single for path, _body in c.files):
                # bash -c with one simple command execs it (bash's ONESHOT: `execute_command_internal`
                # with CMD_NO_FORK), so that program is PID 1, not the shell
                name = single.rsplit("/", 1)[-1]
                if name in _NO_HANDLER:
                    return None, Phrase(_("the script execs {prog}, which as PID 1 has no SIGTERM handler"),
                                        {"prog": name})
                return 0.0, _EXITS_ON_SIGTERM
            execs = _EXEC.findall(c.script[:_SCAN_LIMIT])
            if not execs:
                return None, _SHELL_IGNORES_SIGTERM
            last = execs[-1].rsplit("/", 1)[-1]
            if last in _NO_HANDLER:
                return None, Phrase(_("the script execs {prog}, which as PID 1 has no SIGTERM handler"), {"prog": last})
        elif prog.rsplit("/", 1)[-1] in _NO_HANDLER:
            return None, Phrase(_("{prog} as PID 1 has no SIGTERM handler"), {"prog": prog})
    return 0.0, _EXITS_ON_SIGTERM


_EXEC = re.compile(r"\bexec\s+(\S+)")


@record
class Trap:
    """A shell's handler for SIGTERM (`trap '…' TERM`): how soon it runs and the code it exits with."""

    seconds: float | None          # 0: at once (the shell waits in `wait`); else when its foreground sleep ends;
                                   # None: the handler does not end the script, which goes on
    exit_code: int | None          # `exit N` in the handler; None: not known (128 + 15 stands)
    why: Phrase


# trap 'handler' TERM INT, trap "handler" SIGTERM, trap handler 15 (a function's name)
_TRAP = re.compile(r"\btrap\s+(?:(['\"])(.*?)\1|([A-Za-z_][\w]*))\s+([A-Z0-9 \t]+?)\s*(?:;|\n|$)", re.S)
_TERM_NAMES = {"TERM", "SIGTERM", "15"}
_EXIT_N = re.compile(r"\bexit\s+(\d{1,3})\b")
_WAIT = re.compile(r"(?:^|[;&\n]|\bdo|\bthen)\s*wait\b")


def term_trap(c: Container) -> Trap | None:
    """The SIGTERM trap of ``c``'s shell script, or None when it traps no SIGTERM.

    POSIX sh and bash run a trap only between commands: when SIGTERM arrives while the shell waits for a
    foreground command (`sleep 3600`), the handler runs once that command has ended; the `wait` builtin is
    interrupted at once (bash manual, "Signals"; POSIX "trap").  So a loop of `sleep N` exits up to N s
    after SIGTERM, a final `sleep 3600` only when it ends, `sleep infinity & wait` at once."""
    script = c.script[:_SCAN_LIMIT]
    m = next((m for m in _TRAP.finditer(script) if _TERM_NAMES & set(m.group(4).split())), None)
    if m is None:
        return None
    after = script[m.end():]
    if _EXEC.search(after):
        return None           # the program exec'd replaces the shell: its own handling counts
    handler = m.group(2) if m.group(2) is not None else _function_body(script, m.group(3))
    if not re.search(r"\b(exit|kill)\b", handler or ""):
        # the handler runs and the script goes on: SIGTERM changes nothing, SIGKILL ends it
        return Trap(None, None, Phrase(_("its script traps SIGTERM with a handler that does not exit, so the "
                                         "script goes on")))
    codes = _EXIT_N.findall(handler or "")
    waits = bool(_WAIT.search(after))
    # `exit` alone gives the status of the last command: `wait` interrupted (143), or a sleep that ended (0)
    code = int(codes[-1]) if codes else (None if waits else 0)
    said = {"code": code if code is not None else 143}
    if waits:
        return Trap(0.0, code, Phrase(_("its script traps SIGTERM and, waiting in `wait`, exits {code} at once"),
                                      said))
    sleeps = [float(n) * _UNITS[u] for n, u in _SLEEP.findall(after)] if "sleep" in after else []
    if sleeps:
        seconds = max(sleeps)
        return Trap(seconds, code, Phrase(_(
            "its script traps SIGTERM, but a shell runs a trap only once the foreground command ends: it exits "
            "{code} when its sleep of {seconds} s is over"), {**said, "seconds": _fmt(seconds)}))
    return Trap(0.0, code, Phrase(_("its script traps SIGTERM and exits {code}"), said))


def _function_body(script: str, name: str | None) -> str:
    if not name:
        return ""
    m = re.search(rf"\b{re.escape(name)}\s*\(\s*\)\s*\{{(.*?)\}}", script, re.S)
    return m.group(1) if m else ""


def _bash_single_command(argv: tuple[str, ...]) -> str | None:
    """The program of ``bash -c 'ONE SIMPLE COMMAND'`` (None for anything else: a list, a pipe, a
    loop, a subshell, a trap): bash runs such a command string by exec'ing the program.  Command
    substitutions and quoted text may hold anything; only the command line itself counts."""
    flags = [i for i, a in enumerate(argv[1:], 1) if a.startswith("-") and not a.startswith("--") and "c" in a]
    if not flags or flags[0] + 1 >= len(argv):
        return None
    text = _without_substitutions(argv[flags[0] + 1]).strip()
    if not text or re.search(r"[;&|`(){}\n]|\b(trap|exec)\b", text):
        return None
    words = [w for w in text.split() if not re.match(r"^[A-Za-z_]\w*=", w)]   # FOO=bar cmd: still cmd
    return words[0] if words else None


def _without_substitutions(text: str) -> str:
    """``text`` with quoted strings, ``${...}`` and ``$(...)``/``$((...))`` replaced by a word."""
    out, i, depth = [], 0, 0
    while i < len(text):
        ch = text[i]
        if depth == 0 and ch in "'\"":
            end = text.find(ch, i + 1)
            if end < 0:
                return text   # unbalanced: leave it as it is (the caller then sees the quote)
            out.append("Q")
            i = end + 1
            continue
        if depth == 0 and text.startswith("${", i):   # ${VAR}, ${VAR:-default}: a word
            end = text.find("}", i + 2)
            if end < 0:
                return text
            out.append("S")
            i = end + 1
            continue
        if text.startswith("$(", i):
            depth += 1
            i += 2
            continue
        if depth:
            depth += (ch == "(") - (ch == ")")
            if depth == 0:
                out.append("S")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out) if depth == 0 else text
_NO_HANDLER = ("sleep", "tail")



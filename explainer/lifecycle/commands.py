"""What a container's command probably does: finish after N seconds, or run forever.

The model needs each process's run time, and a manifest does not state it.  These guesses
read the command the way a reviewer would (``sleep 5`` finishes, ``while true`` does not, a
proxy image with no command is a server); every guess is reported as assumed, and a
scenario can overrule it.  The findings reuse them, so the simulation and the pitfalls
agree about which init container never completes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .i18n import Phrase, gettext_noop as _
from .defaults import ASSUMED_FINITE_RUN_SECONDS as d_ASSUMED_RUN
from .model import Container
from .mounted_scripts import runs_shell_script

# Each pattern with why the run never ends (the whole reason, a message id).
_FOREVER_PATTERNS = (
    (re.compile(r"\bsleep\s+(inf|infinity)\b"), _("its command sleeps forever (sleep infinity)")),
    (re.compile(r"\bwhile\s+(true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))\s*;?\s*do\b"),
     _("its command loops forever (while true)")),
    (re.compile(r"\bfor\s*\(\(\s*;\s*;\s*\)\)"), _("its command loops forever (for ((;;)))")),
    (re.compile(r"\btail\s+(-[a-zA-Z]*[fF]\b|--follow\b)"), _("its command follows a file forever (tail -f)")),
    (re.compile(r"\bsleep\s+\d{4,}\b"), None),  # handled below as long finite sleeps
)
_LOOPS = (_FOREVER_PATTERNS[1][1], _FOREVER_PATTERNS[2][1])
# The reasons without fields, made once: every container's behaviour is read with one of them.  A Phrase
# is immutable (a str with its Text), so one object can stand in every Behaviour that gives this reason.
_FOREVER_WHY = {why: Phrase(why) for _pattern, why in _FOREVER_PATTERNS if why is not None}
_WAITS_IN_LOOP = Phrase(_("its command waits in a loop for something outside the Pod; "
                           "assumed to be there after 1 s"))
_SERVER_COMMAND = Phrase(_("its command starts a long-running process"))
_FINISH_1S = Phrase(_("assumed to finish after 1 s"))
_RUNS_UNTIL_STOPPED = Phrase(_("assumed to run until stopped, as a service does"))
_EXITS_ON_SIGTERM = Phrase(_("assumed to exit at once on SIGTERM (code 143)"))
_SHELL_IGNORES_SIGTERM = Phrase(_("a shell as PID 1 ignores SIGTERM unless it traps it"))
_FOREVER_WORDS = ("sleep", "while", "for", "tail")   # the literal each of the first four patterns needs
_WAIT_LOOP = re.compile(r"\b(until|while\s+!)\b[^;]{0,400};\s*do\b")
# Heuristics read at most this much of a command: enough for any real script, and it
# bounds the work a hostile 1 MiB command can cause.
_SCAN_LIMIT = 16_384
_SLEEP = re.compile(r"\bsleep\s+(\d+(?:\.\d+)?)([smhd]?)\b")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
# Images that serve until stopped when run with no command of their own.
_SERVER_IMAGES = re.compile(
    r"(^|/)(nginx|httpd|apache|envoy|proxyv2|istio-proxy|haproxy|traefik|caddy|redis|memcached|"
    r"postgres(ql)?|mysql|mariadb|mongo(db)?|rabbitmq|kafka|zookeeper|consul|vault|etcd|"
    r"elasticsearch|grafana|prometheus|node-exporter|statsd-exporter|fluent-bit|fluentd|"
    r"filebeat|vector|otel|opentelemetry-collector|jaeger|linkerd2?-proxy|cloud-sql-proxy|"
    r"oauth2-proxy|registry|pause|log-agent|proxy)([:@]|$)")
_SERVER_NAMES = re.compile(r"(sidecar|proxy|envoy|agent|exporter|fluent|logger|log-|-log|"
                           r"collector|mesh|istio|linkerd|vault|server|nginx)", re.I)
_SETUP_NAMES = re.compile(r"(^|[-_])(init|setup|bootstrap|prepare|migrate)([-_]|$)", re.I)
_SERVER_VERBS = {"serve", "server", "run", "start", "daemon", "agent", "proxy", "listen", "watch"}


@dataclass(frozen=True, slots=True)
class RunGuess:
    seconds: float | None          # None: runs until stopped
    why: Phrase                    # English, translatable (a str: the findings quote it)
    certain: bool = False          # read from an explicit sleep, not guessed from names


def guess_run(c: Container, default_finite: bool) -> RunGuess:
    """How long one run of ``c``'s main process lasts, and why we think so."""
    script = c.script[:_SCAN_LIMIT]
    why = _forever(script)
    if why is not None:
        return RunGuess(None, _FOREVER_WHY[why], certain=True)
    if (("until" in script or "while" in script) and _WAIT_LOOP.search(script)) or _left_loop(script):
        return RunGuess(1.0, _WAITS_IN_LOOP)
    finite = None if default_finite else finite_run(c)
    if finite is not None:   # an app container of a long-running Pod whose command ends
        return finite
    sleeps = [float(n) * _UNITS[u] for n, u in _SLEEP.findall(script)] if "sleep" in script else []
    # a long-running Pod's app container that sleeps and then runs something else (`sleep 5; exec
    # nginx`) keeps running: only init and Job containers are read as "the sleeps, then it ends"
    if default_finite and sleeps and not re.search(r"\bdo\b", script):
        total = sum(sleeps)
        return RunGuess(total, Phrase(_("its command sleeps {seconds} s and then ends"), {"seconds": _fmt(total)}),
                        certain=True)
    if not c.command and not c.args and _SERVER_IMAGES.search(_image_name(c.image)):
        return RunGuess(None, Phrase(_("the image {image} is a server that runs until stopped"), {"image": c.image}))
    if _looks_like_server_command(c):
        return RunGuess(None, _SERVER_COMMAND)
    # a name that says it sets something up (istio-init, linkerd-init, ...) is a one-shot, whatever it names
    if default_finite and not c.command and _SERVER_NAMES.search(c.name) and not _SETUP_NAMES.search(c.name):
        return RunGuess(None, Phrase(_("its name suggests a long-running helper ({c})"), {"c": c.name}))
    if default_finite:
        return RunGuess(1.0, _FINISH_1S)
    return RunGuess(None, _RUNS_UNTIL_STOPPED)


_SHELLS = re.compile(r"^(/usr)?(/bin/)?(ba|a|da|z)?sh$")
# Commands that do their work and end: a script made of nothing else certainly finishes.
_ONE_SHOT = frozenset({"echo", "printf", "true", ":", "date", "env", "printenv", "hostname", "uname", "id",
                       "whoami", "pwd", "ls", "mkdir", "touch", "cp", "mv", "rm", "ln", "chmod", "chown", "cd",
                       "export", "set", "sync", "exit", "test", "[", "sleep", "cat", "df", "nproc", "wc"})
_CONTROL = frozenset({"while", "until", "for", "do", "done", "if", "then", "else", "elif", "fi", "case", "esac",
                      "function", "trap", "wait", "select", "(", "((", "!"})
_GROUPING = re.compile(r"[{}`]|\$\(\(|(?<![&>])&(?![&>])")   # blocks, command substitution, backgrounding
_STATEMENTS = re.compile(r"\n|;|&&|\|\||\|")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def _may_group(script: str) -> bool:
    """False when _GROUPING cannot match: none of the text its branches start with ({, }, `, $((, &) is there."""
    return "{" in script or "}" in script or "`" in script or "&" in script or "$((" in script


def runs_only_known(c: Container) -> bool:
    """Whether ``c``'s command (or ``sh -c`` script) runs nothing but shell control words and the one-shot
    programs above (echo, sleep, date, ...), none of which writes a file the script does not name: so a
    file the script does not name is written by nobody (files.py, docs/lifecycle-model.md §29.1)."""
    script = shell_script(c)
    if script is None or (_may_group(script) and _GROUPING.search(script)) or c.files:
        return False
    for statement in _STATEMENTS.split(script):
        words = [w for w in statement.split() if not _ASSIGNMENT.match(w)]
        while words and (words[0] in _CONTROL or words[0] == "exec"):
            words = words[1:]
        if words and words[0].rsplit("/", 1)[-1] not in _ONE_SHOT and words[0] not in ("]", "]]", "[["):
            return False
    return True


def shell_script(c: Container) -> str | None:
    """The text a container's command runs: the ``sh -c`` script, else the command line; None when empty."""
    argv = c.command + c.args
    if not argv:
        return None
    prog = argv[0].rsplit("/", 1)[-1]
    if _SHELLS.match(argv[0]) or _SHELLS.match(prog):
        if "-c" not in argv[1:2] and not (len(argv) > 1 and argv[1].startswith("-") and "c" in argv[1]):
            return None
        return (argv[2] if len(argv) > 2 else "")[:_SCAN_LIMIT]
    return " ".join(argv)[:_SCAN_LIMIT]


def finite_run(c: Container) -> RunGuess | None:
    """A main process that certainly ends: its command (or ``sh -c`` script) runs only one-shot
    commands (echo, date, a finite sleep, ...), so one run lasts its sleeps (1 s when it has none)."""
    argv = c.command + c.args
    if not argv:
        return None
    prog = argv[0].rsplit("/", 1)[-1]
    if _SHELLS.match(argv[0]) or _SHELLS.match(prog):
        if "-c" not in argv[1:2] and not (len(argv) > 1 and argv[1].startswith("-") and "c" in argv[1]):
            return None
        script = argv[2] if len(argv) > 2 else ""
    else:
        script = " ".join(argv)
    script = script[:_SCAN_LIMIT]
    if "#" in script:        # comment lines go (without a "#" the lines would be joined back as they are)
        script = "\n".join(ln for ln in script.splitlines() if not ln.strip().startswith("#"))
    else:
        script = "\n".join(script.splitlines())
    if not script.strip() or (_may_group(script) and _GROUPING.search(script)):
        return None
    seconds = 0.0
    names = []
    for statement in _STATEMENTS.split(script):
        words = statement.split()
        if "=" in statement:     # FOO=bar: assignments before the command are not its name
            words = [w for w in words if "=" not in w or not _ASSIGNMENT.match(w)]
        if words and words[0] == "exec":
            words = words[1:]
        if not words:
            continue
        name = words[0].rsplit("/", 1)[-1]
        if words[0] in _CONTROL or name not in _ONE_SHOT:
            return None
        if name == "sleep":
            m = _SLEEP.fullmatch(" ".join(words[:2]))
            if m is None:
                return None   # sleep infinity, sleep $T: not certainly finite
            seconds += float(m.group(1)) * _UNITS[m.group(2)]
        elif name == "cat" and len(words) == 1:
            return None       # cat with no file reads stdin: it may wait for ever
        if name not in names:
            names.append(name)
    if seconds:
        return RunGuess(seconds, Phrase(_("its command sleeps {seconds} s and then ends"), {"seconds": _fmt(seconds)}),
                        certain=True)
    # it certainly ends; how long it takes is assumed (so not ``certain``: the trace marks it)
    return RunGuess(d_ASSUMED_RUN, Phrase(_("its command only runs {programs}: one-shot programs that end at "
                                            "once (1 s assumed)"), {"programs": ", ".join(names)}))


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


@dataclass(frozen=True, slots=True)
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


_LOOP = re.compile(r"\b(while|until)\b.{0,2000}?\bdone\b", re.S)


def hook_seconds(script: str) -> float | None:
    """Duration of an exec hook: its top-level sleeps (None when it loops forever).

    Sleeps inside a ``while``/``until`` loop wait for something else (a process to go away):
    how long is unknown, so only the sleeps outside loops count.
    """
    script = script[:_SCAN_LIMIT]
    if _forever(script) is not None:
        return None
    outside = _LOOP.sub(" ", script)
    return sum(float(n) * _UNITS[u] for n, u in _SLEEP.findall(outside))


# A `while true` / `for ((;;))` loop whose body breaks, returns or exits ends when it has what it waits for.
_LEFT_LOOP = re.compile(r"\b(?:while\s+(?:true|:)|for\s*\(\(\s*;\s*;\s*\)\))\s*;?\s*do\b(?:(?!\bdone\b).){0,4000}?"
                        r"\b(?:break|return|exit)\b", re.S)


def _forever(script: str) -> str | None:
    """Why the script never ends (a message id), or None.  A loop that can leave (`break`, `return`,
    `exit` in its body) is a wait, not forever."""
    for (pattern, why), word in zip(_FOREVER_PATTERNS[:4], _FOREVER_WORDS):
        if word not in script:      # each pattern starts with its word: skip the regex when it is absent
            continue
        for m in pattern.finditer(script):
            if not (why in _LOOPS and _may_leave(script) and _LEFT_LOOP.match(script, m.start())):
                return why
    return None


def _may_leave(script: str) -> bool:
    """False when _LEFT_LOOP cannot match anywhere: it needs a break, return or exit."""
    return "break" in script or "return" in script or "exit" in script


def _left_loop(script: str) -> bool:
    if ("while" not in script and "for" not in script) or not _may_leave(script):
        return False
    return any(_LEFT_LOOP.match(script, m.start()) for pattern, _why in _FOREVER_PATTERNS[1:3]
               for m in pattern.finditer(script))


def _looks_like_server_command(c: Container) -> bool:
    words = [w for w in (c.command + c.args) if not w.startswith("-")]
    if len(words) < 2:
        return False
    return words[-1].lower() in _SERVER_VERBS


def _image_name(image: str) -> str:
    return image.rsplit("@", 1)[0].lower()


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)

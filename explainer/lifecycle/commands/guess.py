"""What a container's command probably does: finish after N seconds, or run forever.

The model needs each process's run time, and a manifest does not state it.  These guesses
read the command the way a reviewer would (``sleep 5`` finishes, ``while true`` does not, a
proxy image with no command is a server); every guess is reported as assumed, and a
scenario can overrule it.  The findings reuse them, so the simulation and the pitfalls
agree about which init container never completes.
"""
from __future__ import annotations

import re

from ..i18n import Phrase, gettext_noop as _
from ..defaults import ASSUMED_FINITE_RUN_SECONDS as d_ASSUMED_RUN
from ..model import Container
from .stopping import Trap, guess_stop, term_trap   # re-exported: callers found them here
from explainer.lifecycle.records import record

__all__ = ["RunGuess", "Trap", "finite_run", "guess_run", "guess_stop", "hook_seconds", "runs_only_known",
           "shell_script", "term_trap"]

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
_FOREVER_WORDS = ("sleep", "while", "for", "tail")   # the literal each of the first four patterns needs
_WAIT_LOOP = re.compile(r"\b(until|while\s+!)\b[^;]{0,400};\s*do\b")
# Heuristics read at most this much of a command: enough for any real script, and it
# bounds the work a hostile 1 MiB command can cause.
_SCAN_LIMIT = 16_384
_SLEEP = re.compile(r"\bsleep\s+(\d{1,15}(?:\.\d{1,9})?)([smhd]?)\b")   # longer numbers: not a sleep we can time
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


@record
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
    if not script.strip():
        return None
    if _may_group(script) and _GROUPING.search(script):
        return _ends_with_sleep(script)
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
            return _ends_with_sleep(script)
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


_LAST = re.compile(r"(?:^|;|&&|\n|(?<![&>])&(?![&>]))\s*(?:exec\s+)?sleep\s+(\d+(?:\.\d+)?)([smhd]?)\s*;?\s*$")
_TOP_EXEC = re.compile(r"(?:^|[;\n]|&&)\s*exec\s")


def _ends_with_sleep(script: str) -> RunGuess | None:
    """A script whose last step is a finite ``sleep N`` ends: the steps before it are expected to end, or the
    sleep would never run (docs/lifecycle-model.md §31.5).  Not when a step before it replaces the shell
    (``exec``), when the sleep runs only after a failure (``||``), or when it sits inside a loop or a block."""
    body = script.rstrip()
    m = _LAST.search(body)
    if m is None or "||" in body[max(0, m.start() - 4):m.start() + 2] or _TOP_EXEC.search(body[:m.start()]):
        return None
    if re.search(r"\b(done|fi|esac|\})\s*$", body[:m.start()].rstrip(" ;&\n")) and re.search(
            r"\b(do|then)\b", body[:m.start()]) is None:
        return None
    seconds = float(m.group(1)) * _UNITS[m.group(2)]
    return RunGuess(seconds, Phrase(_("its command ends with sleep {seconds}: the steps before it are expected to "
                                      "end, or the sleep would never run; one run is taken to last the sleep"),
                                    {"seconds": _fmt(seconds)}))


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

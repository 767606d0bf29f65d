"""Scripts that end a main process themselves: ``kill -TERM 1``, a proxy's ``/quitquitquit``, ``nginx -s quit``.

A preStop hook that signals PID 1 or calls a shutdown endpoint makes the container exit during the hook,
not at the kubelet's SIGTERM; a Job's worker that calls its proxy's shutdown endpoint when it is done lets
the proxy exit, so the Pod can complete (docs/lifecycle-model.md §9.2).  Only calls at a command's place in
the script count (``work; curl …/quitquitquit``), not words inside another command's arguments.

Which container an endpoint stops: the one that declares the port, else a known proxy on its default
admin port with the endpoint switched on — Istio's pilot-agent (15020) and Envoy admin (15000),
cloud-sql-proxy (``--admin-port``, 9091) only when started with ``--quitquitquit``, linkerd-proxy (4191,
``/shutdown``) unless ``LINKERD2_PROXY_SHUTDOWN_ENDPOINT_ENABLED`` says false.
"""
from __future__ import annotations

import re

from .guess import hook_seconds
from ..i18n import Phrase, gettext_noop as _
from ..model import Container, Pod
from ..numbers import is_whole_number, whole_number
from ..manifest.yamlload import parse_path
from explainer.lifecycle.records import record

SIGNAL, ENDPOINT, PAUSE = "signal", "endpoint", "pause"
_SCAN_LIMIT = 16_384
# Separators between commands of a shell script, and what the next command depends on.
_SEP = re.compile(r"(\|\||&&|;|\n|\|)")
_WORDS = re.compile(r"[^\s'\"]+|'[^']*'|\"[^\"]*\"")
_SHELL = re.compile(r"^(?:/usr)?(?:/bin/)?(?:ba|a|da|z)?sh$")
_URL = re.compile(r"(?:https?://)?(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)(?::(\d{1,5}))?/(quitquitquit|shutdown)\b")
# kill's ways to name SIGTERM, SIGINT and SIGQUIT (a handler in PID 1 may end it); SIGKILL from inside the
# container's own PID namespace is ignored by its init process (pid_namespaces(7)), so it is not listed.
_KILL_SIGNALS = {"", "-TERM", "-SIGTERM", "-15", "-s TERM", "-s SIGTERM", "-INT", "-SIGINT", "-2", "-s INT",
                 "-QUIT", "-SIGQUIT", "-3", "-s QUIT", "-HUP", "-1"}
_KILL_PID1 = re.compile(r"^kill\s+((?:-s\s+)?-?[A-Z0-9]*\s+)?1$")
_ISTIO_IMAGE = re.compile(r"(^|/)(proxyv2|istio-proxy|proxy_debug)([:@]|$)")
_LINKERD_IMAGE = re.compile(r"(^|/)(proxy|linkerd2?-proxy)([:@]|$)")
_CLOUD_SQL_IMAGE = re.compile(r"(^|/)(cloud-sql-proxy|cloudsql-proxy|gce-proxy)([:@]|$)")


@record
class Stop:
    """One call in a script that ends ``target``'s main process."""

    target: str                    # the container whose main process ends ("" for PAUSE: every container)
    kind: str                      # SIGNAL (exits as it answers SIGTERM) | ENDPOINT (exits at once) |
                                   # PAUSE (the Pod's PID 1 exits, and the kernel SIGKILLs every process)
    offset: float                  # seconds of top-level sleeps before the call (hooks)
    how: Phrase                    # English, translatable: "kill -TERM 1", "POST /quitquitquit (cloud-sql-proxy)"
    on_success: bool = False       # only after the previous command succeeded (``work && curl …``)
    waits: bool = False            # the script then waits for the target to be gone (``while pidof app``)


# After the call, a loop that waits while the program is still there: `while pidof app`, `while kill -0 $PID`,
# `until ! pgrep x`, or the shell's `wait`.
_WAITS_AFTER = re.compile(r"\b(?:while|until)\b[^;\n]{0,200}\b(?:pidof|pgrep|kill\s+-0|ps)\b|\bwait\b")


def prestop_stops(c: Container, script: str, pod: Pod) -> tuple[Stop, ...]:
    """Calls in ``c``'s preStop hook (``script``: its command, expanded) that end a main process, wherever
    they stand in the script (the first command included)."""
    out = []
    for before, op, cmd in _commands(script):
        stop = _stop(cmd, c, pod, self_ok=True)
        if stop is not None:
            offset = hook_seconds(before) or 0.0
            after = script[len(before) + script[len(before):].find(cmd) + len(cmd):]
            out.append(Stop(stop.target, stop.kind, offset, stop.how, op == "&&",
                            waits=stop.kind != PAUSE and bool(_WAITS_AFTER.search(after[:_SCAN_LIMIT]))))
    return tuple(out)


def exit_stops(c: Container, script: str, pod: Pod) -> tuple[Stop, ...]:
    """Calls that end another container when ``c``'s main command has done its work: a shutdown endpoint
    after the work (``work; curl …``), in an ``EXIT`` trap, or ``linkerd-await --shutdown -- work``."""
    if "shutdown" not in script and "quitquitquit" not in script:
        return ()     # each of those calls names its endpoint (`_URL`) or `--shutdown` in the script's text
    out = []
    argv = script.split()
    if argv[:1] and argv[0].rsplit("/", 1)[-1] == "linkerd-await" and "--shutdown" in argv:
        target = _endpoint_target(4191, "shutdown", pod, c)
        if target is not None:
            out.append(Stop(target.name, ENDPOINT, 0.0, Phrase(_("linkerd-await --shutdown ends {target}"),
                                                               {"target": target.name})))
    trap = re.search(r"\btrap\s+(['\"])(.*?)\1\s+(?:EXIT|0)\b", script)
    if trap:
        for _before, _op, cmd in _commands(trap.group(2)):
            stop = _stop(cmd, c, pod, self_ok=False)
            if stop is not None:
                out.append(stop)
    commands = _commands(script)
    for i, (_before, op, cmd) in enumerate(commands):
        if i == 0 or op == "||":
            continue      # the work itself, or a call made only when the work failed
        stop = _stop(cmd, c, pod, self_ok=False)
        if stop is not None:
            out.append(Stop(stop.target, stop.kind, 0.0, stop.how, op == "&&"))
    return tuple(dict.fromkeys(out))


def _commands(script: str) -> list[tuple[str, str, str]]:
    """(text before, operator before, command) for each command of a shell script, in order."""
    script = script[:_SCAN_LIMIT]
    parts = _SEP.split(script)
    out = []
    op = ""
    pos = 0
    for i, part in enumerate(parts):
        if i % 2:
            op = part
        else:
            cmd = part.strip()
            if cmd:
                out.append((script[:pos], op, cmd))
        pos += len(part)
    return out


def _stop(cmd: str, c: Container, pod: Pod, self_ok: bool) -> Stop | None:
    words = [w.strip("'\"") for w in _WORDS.findall(cmd)]
    while words and (words[0] in ("exec", "command") or re.match(r"^[A-Za-z_]\w*=", words[0]) or (
            _SHELL.match(words[0]) and len(words) > 2 and re.match(r"^-\w*c\w*$", words[1]))):
        words = words[2:] if _SHELL.match(words[0]) else words[1:]   # `sh -c kill 1`: the first command too
    if not words:
        return None
    prog = words[0].rsplit("/", 1)[-1]
    text = " ".join(words)
    if self_ok and prog == "kill" and _KILL_PID1.match(text):
        flag = text[4:-1].strip()
        if pod.share_process_namespace:
            return _pause_stop(text, flag, c, pod)
        if pod.host_pid:
            return None       # PID 1 is the node's init: refused, or a signal it ignores
        if flag in _KILL_SIGNALS:
            return Stop(c.name, SIGNAL, 0.0, Phrase(_("{command} signals its main process"), {"command": text}))
        return None
    if self_ok and prog == "nginx" and len(words) >= 3 and words[1] == "-s" and words[2] in ("quit", "stop"):
        return Stop(c.name, SIGNAL, 0.0, Phrase(_("{command} signals its main process"), {"command": text}))
    if self_ok and prog == "wait-shutdown":      # ingress-nginx: SIGTERM to the controller, then waits
        return Stop(c.name, SIGNAL, 0.0, Phrase(_("{command} sends SIGTERM to the controller"), {"command": text}))
    if self_ok and prog == "pilot-agent" and "request" in words and "quitquitquit" in words:
        target = c if _is_istio(c) else None
        return Stop(c.name, ENDPOINT, 0.0, Phrase(_("{command} ends the proxy"), {"command": text})) \
            if target is not None else None
    if prog in ("curl", "wget"):
        m = _URL.search(text)
        if m is None:
            return None
        port = int(m.group(1) or 80)
        target = _endpoint_target(port, m.group(2), pod, c)
        if target is None or (target is c and not self_ok):
            return None
        return Stop(target.name, ENDPOINT, 0.0, Phrase(_("{command} ends {target}"),
                                                       {"command": f"{prog} …:{port}/{m.group(2)}",
                                                        "target": target.name}))
    return None


# The signals the pause process handles (build/pause/linux/pause.c: `sigdown` on SIGINT and SIGTERM, which
# calls exit(0)); any other signal sent to it from inside its PID namespace is dropped (pid_namespaces(7)).
PAUSE_SIGNALS = frozenset({"", "-TERM", "-SIGTERM", "-15", "-s TERM", "-s SIGTERM", "-s 15", "-INT", "-SIGINT",
                           "-2", "-s INT", "-s SIGINT"})
# pause runs as user 65535 since pause 3.5 (build/pause/CHANGELOG.md, k/k #97963); a container that is
# neither root nor that user, without CAP_KILL, may not signal it ("Operation not permitted")
PAUSE_UID = 65535


def _pause_stop(text: str, flag: str, c: Container, pod: Pod) -> Stop | None:
    """`kill 1` in a Pod with shareProcessNamespace: PID 1 is the pause process.  SIGTERM or SIGINT makes it
    exit, and when PID 1 of a PID namespace ends the kernel SIGKILLs every other process in it (pid_namespaces(7)):
    every container of the Pod ends with 137 (docs/lifecycle-model.md §30)."""
    if flag not in PAUSE_SIGNALS or not may_signal_pause(c, pod):
        return None
    return Stop("", PAUSE, 0.0, Phrase(_("{command} ends the pause process, PID 1 of the Pod's shared PID "
                                         "namespace"), {"command": text}))


def may_signal_pause(c: Container, pod: Pod) -> bool:
    """Whether ``c``'s processes may signal the pause process: root (the default when the manifest does not say),
    the pause user itself, or CAP_KILL added."""
    uid = _setting(pod, c, "runAsUser")
    if uid is None or uid in (0, PAUSE_UID):
        return True
    caps = _container_setting(pod, c, ("capabilities", "add"))
    return isinstance(caps, list) and any(str(x).upper() in ("KILL", "CAP_KILL", "ALL") for x in caps)


def _setting(pod: Pod, c: Container, key: str) -> int | None:
    """A securityContext number, the container's over the Pod's."""
    value = _container_setting(pod, c, (key,))
    if value is None:
        value = _raw(pod, tuple(pod.spec_path) + ("securityContext", key))
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _container_setting(pod: Pod, c: Container, keys: tuple[str, ...]) -> object:
    return _raw(pod, tuple(parse_path(c.path)) + ("securityContext",) + keys)


def _raw(pod: Pod, path: tuple) -> object:
    node = pod.raw
    for seg in path:
        if isinstance(node, dict) and seg in node:
            node = node[seg]
        elif isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
            node = node[seg]
        else:
            return None
    return node


def _endpoint_target(port: int, path: str, pod: Pod, caller: Container) -> Container | None:
    """The container that serves ``/path`` on ``port`` and exits when it is called."""
    running = [o for o in pod.init_containers + pod.containers if o.role != "init"]
    for o in running:
        if path == "quitquitquit" and _is_cloud_sql(o) and port == _cloud_sql_admin_port(o):
            return o if "--quitquitquit" in o.args + o.command else None
    for o in running:
        if path == "quitquitquit" and _is_istio(o) and port in (15020, 15000):
            return o
        if path == "shutdown" and port == 4191 and _is_linkerd(o):
            enabled = next((e.value for e in o.env if e.name == "LINKERD2_PROXY_SHUTDOWN_ENDPOINT_ENABLED"), None)
            return o if enabled != "false" else None
    declared = [o for o in running if any(p.container_port == port for p in o.ports)]
    if path == "quitquitquit" and len(declared) == 1 and not _is_cloud_sql(declared[0]):
        return declared[0]
    return None


def _is_istio(c: Container) -> bool:
    return bool(_ISTIO_IMAGE.search(_image(c))) or c.name == "istio-proxy"


def _is_linkerd(c: Container) -> bool:
    return c.name == "linkerd-proxy" or ("linkerd" in c.image and bool(_LINKERD_IMAGE.search(_image(c))))


def _is_cloud_sql(c: Container) -> bool:
    return bool(_CLOUD_SQL_IMAGE.search(_image(c)))


def _cloud_sql_admin_port(c: Container) -> int:
    for i, a in enumerate(c.args):
        if a.startswith("--admin-port="):
            return whole_number(a.split("=", 1)[1], 5) or 9091
        if a == "--admin-port" and i + 1 < len(c.args) and is_whole_number(c.args[i + 1], 5):
            return int(c.args[i + 1])
    return 9091


def _image(c: Container) -> str:
    return c.image.rsplit("@", 1)[0].lower()

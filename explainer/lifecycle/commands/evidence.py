"""What a manifest says about behaviour it does not state: heap sizes, binds, hooks and images.

A reviewer reads more than durations out of a manifest: a JVM's ``-Xmx`` beside the memory
limit, a probe aimed at ``localhost``, ``uvicorn`` started without ``--host``, a preStop
``sh -c`` in a distroless image.  These readings are shared by the simulation (scenario/document.py
turns them into assumed behaviour: an OOM kill, probes that fail, hooks that fail) and by
the findings, so that the timeline and the pitfalls agree.  Each reading returns why, in
words a finding can quote ("inferred from the image name").  Sections (§) refer to
docs/lifecycle-model.md.
"""
from __future__ import annotations

import posixpath
import re
from typing import Any

from ..i18n import Phrase, gettext_noop as _
from ..model import Container, Pod
from ..numbers import is_whole_number, whole_number
from ..quantity import as_bytes
from ..manifest.yamlload import parse_path
from explainer.lifecycle.records import record

_SCAN_LIMIT = 16_384
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def raw_at(pod: Pod, path: str | tuple[Any, ...]) -> Any:
    """The manifest's value at ``path`` (a container path such as spec.containers[0].ports), or None."""
    node = pod.raw
    for seg in parse_path(path) if isinstance(path, str) else path:
        if isinstance(node, dict) and seg in node:
            node = node[seg]
        elif isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
            node = node[seg]
        else:
            return None
    return node


# ---- memory: the JVM heap against the container's limit (§24.1) ---------------------------------------------

# -Xmx2g, -Xmx1024m, -XX:MaxHeapSize=2147483648 (the JVM reads k/m/g/t in either case; no suffix: bytes)
_XMX = re.compile(r"(?<![\w-])-(?:Xmx|XX:MaxHeapSize=)(\d+)([kKmMgGtT]?)(?![\w.])")
_JVM_UNITS = {"": 1, "k": 2 ** 10, "m": 2 ** 20, "g": 2 ** 30, "t": 2 ** 40}
# env vars a JVM or its start script reads options from (the JVM itself: JAVA_TOOL_OPTIONS,
# JDK_JAVA_OPTIONS, _JAVA_OPTIONS; start scripts: JAVA_OPTS, CATALINA_OPTS, ES_JAVA_OPTS, ...)
_JVM_ENV = re.compile(r"(^|_)(JAVA|JVM|JDK|CATALINA|HEAP|ES_JAVA|KAFKA_HEAP|SPARK_\w*JAVA)(_\w*)?_?OPT(S|IONS)$|"
                      r"^(JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|JAVA_OPTS|JVM_OPTS|KAFKA_HEAP_OPTS|"
                      r"ES_JAVA_OPTS|CATALINA_OPTS|HEAP_OPTS)$")


def memory_limit(pod: Pod, c: Container) -> tuple[float, str] | None:
    """(bytes, as written) of ``c``'s resources.limits.memory, when the manifest states one."""
    raw = raw_at(pod, c.path + ".resources.limits.memory")
    size = as_bytes(raw)
    return (size, str(raw)) if size else None


@record
class Heap:
    bytes: float
    written: str          # -Xmx2g
    field: str            # args, command, env[1].value
    source: str           # "args", or the env var's name
    words: tuple[str, ...] = ()   # what that field holds: command or args, or the env var's value alone


def jvm_max_heap(c: Container) -> Heap | None:
    """The maximum heap ``c``'s JVM is given: the last ``-Xmx`` on its command line, else in an
    options variable of its env.  The command line wins over JAVA_OPTS-style variables, which
    start scripts put before it; ``_JAVA_OPTIONS`` is read last by the JVM and wins over both."""
    found: list[Heap] = []
    for field, words in (("command", c.command), ("args", c.args)):
        text = " ".join(words)[:_SCAN_LIMIT]
        if "-X" not in text:      # both of _XMX's spellings start so: skip the regex when it is absent
            continue
        for m in _XMX.finditer(text):
            found.append(Heap(_jvm_bytes(m), m.group(0), field, field, words))
    env = []
    for i, var in enumerate(c.env):
        if var.value and "-X" in var.value and _JVM_ENV.search(var.name):
            for m in _XMX.finditer(var.value[:_SCAN_LIMIT]):
                env.append(Heap(_jvm_bytes(m), m.group(0), f"env[{i}].value", var.name, (var.value,)))
    override = [h for h in env if h.source == "_JAVA_OPTIONS"]
    if override:
        return override[-1]
    if found:
        return found[-1]
    return env[-1] if env else None


def _jvm_bytes(m: re.Match[str]) -> float:
    return float(m.group(1)) * _JVM_UNITS[m.group(2).lower()]


def heap_over_limit(pod: Pod, c: Container) -> tuple[Heap, float, str] | None:
    """(heap, limit bytes, limit as written) when the JVM's maximum heap alone reaches the memory limit."""
    heap = jvm_max_heap(c)
    if heap is None:
        return None
    limit = memory_limit(pod, c)
    if limit is None or heap.bytes < limit[0]:
        return None
    return heap, limit[0], limit[1]


def human_bytes(n: float) -> str:
    for unit, size in (("Gi", 2 ** 30), ("Mi", 2 ** 20), ("Ki", 2 ** 10)):
        if n >= size:
            return f"{n / size:.3g}{unit}"
    return f"{n:g}"


# ---- probes the kubelet cannot pass (§8.1, §24.2) ---------------------------------------------------------

def resolve_port(c: Container, port: Any) -> int | None:
    """The port number a probe connects to: pkg/probe/util.go `ResolveContainerPort` — a number,
    a name looked up in the container's own ports (`findPortByName`), else a number written as text."""
    if isinstance(port, bool):
        return None
    if isinstance(port, int):
        return port
    if isinstance(port, str):
        for p in c.ports:
            if p.name == port:
                return p.container_port
        return whole_number(port)
    return None


def port_name(c: Container, port: Any) -> str | None:
    if isinstance(port, str) and not is_whole_number(port):
        return port
    number = resolve_port(c, port)
    for p in c.ports:
        if p.container_port == number and p.name:
            return p.name
    return None


HTTPS_PORTS = frozenset({443, 8443})
HTTP_PORTS = frozenset({80})


def scheme_mismatch(c: Container, get: dict) -> tuple[str, str, Phrase] | None:
    """(scheme used, scheme the port speaks, why) when an httpGet probe talks the wrong protocol."""
    scheme = str(get.get("scheme") or "HTTP").upper()
    port = get.get("port")
    name = (port_name(c, port) or "").lower()
    number = resolve_port(c, port)
    https_name = name in ("https", "tls", "ssl") or name.startswith("https") or name.endswith("-https")
    http_name = name in ("http", "web") or (name.startswith("http") and not name.startswith("https")) \
        or name.endswith("-http")
    if scheme == "HTTP" and (https_name or (not http_name and number in HTTPS_PORTS)):
        why = Phrase(_("the port is named {name}"), {"name": name}) if https_name else \
            Phrase(_("port {port} is the HTTPS port"), {"port": number})
        return "HTTP", "HTTPS", why
    if scheme == "HTTPS" and (http_name or (not https_name and number in HTTP_PORTS)):
        why = Phrase(_("the port is named {name}"), {"name": name}) if http_name else \
            Phrase(_("port {port} is the plain HTTP port"), {"port": number})
        return "HTTPS", "HTTP", why
    return None


@record
class Bind:
    """A server started bound to loopback only."""

    program: str          # uvicorn
    port: int
    field: str            # command / args
    flag: str             # the flag that would change it: --host


# program (as its command word) -> (default port, the flag that sets the address, env vars that set it)
_LOOPBACK_SERVERS = {
    "uvicorn": (8000, "--host", ("UVICORN_HOST",)),
    "gunicorn": (8000, "--bind", ("GUNICORN_CMD_ARGS", "PORT")),
    "flask": (5000, "--host", ("FLASK_RUN_HOST",)),
    "runserver": (8000, "0.0.0.0:PORT", ()),
    "hugo": (1313, "--bind", ("HUGO_BIND",)),
    "jupyter": (8888, "--ip", ()),
    "jupyter-notebook": (8888, "--ip", ()),
    "jupyter-lab": (8888, "--ip", ()),
}
_HOST_FLAGS = re.compile(r"(^|\s)(--host|-h|--bind|-b|--ip|--listen|--address|--addr|-c|--config|"
                         r"--fd|--uds|--ServerApp\.ip|--NotebookApp\.ip)(=|\s|$)")
_PORT_FLAG = re.compile(r"(?:^|\s)(?:--port|-p)(?:=|\s+)(\d{1,5})\b")


def loopback_bind(c: Container) -> Bind | None:
    """A server ``c`` runs that listens on 127.0.0.1 by default, started without an address.

    uvicorn, gunicorn, ``flask run``, Django's ``runserver``, ``hugo server`` and Jupyter bind
    127.0.0.1 unless told otherwise (their documented defaults).  The command (or the last
    command of a shell script) is read; a host/bind flag, a config file or an env var that
    sets the address means it is told otherwise.
    """
    for field, text in (("command", " ".join(c.command + c.args)),):
        text = text[:_SCAN_LIMIT]
        # the process that stays: an exec'd one, else the last simple command of a script
        parts = [p.strip() for p in re.split(r"[;&|\n]", text) if p.strip()]
        if not parts:
            return None
        words = parts[-1].split()
        if words and posixpath.basename(words[0]).rstrip("0123456789.") in ("sh", "bash", "ash", "dash", "zsh") \
                and len(words) > 2 and words[1] == "-c":
            words = words[2:]
        while words and (words[0] == "exec" or posixpath.basename(words[0]).startswith("python")
                         or words[0] in ("-m", "poetry", "pipenv", "run", "uv") or "=" in words[0]):
            words = words[1:]
        if not words:
            return None
        prog = posixpath.basename(words[0])
        rest = " ".join(words[1:])
        key = prog
        if prog.endswith("manage.py") and words[1:2] == ["runserver"]:
            key = "runserver"
        elif prog == "flask" and "run" not in words[1:]:
            return None
        elif prog == "hugo" and "server" not in words[1:] and "serve" not in words[1:]:
            return None
        elif prog == "jupyter" and not ({"notebook", "lab"} & set(words[1:])):
            return None
        if key not in _LOOPBACK_SERVERS:
            return None
        default_port, flag, env_names = _LOOPBACK_SERVERS[key]
        if any(v.name in env_names for v in c.env):
            return None
        if key == "runserver":
            after = words[2:]
            addr = next((w for w in after if not w.startswith("-")), None)
            if addr is not None and not is_whole_number(addr, 5):
                return None   # runserver 0.0.0.0:8000 (or a host name): told where to listen
            port = int(addr) if addr else default_port
            return Bind("manage.py runserver", port, field, flag)
        if _HOST_FLAGS.search(" " + rest):
            return None
        m = _PORT_FLAG.search(" " + rest)
        return Bind(prog, int(m.group(1)) if m else default_port, field, flag)
    return None


# ---- hooks that fail (§24.3) ------------------------------------------------------------------------------

# Images known to ship no shell and no coreutils: distroless and scratch-based ones.
_SHELLLESS = re.compile(
    r"(distroless|(^|/)coredns/coredns|(^|/)coredns:|csi-node-driver-registrar|cloud-sql-connectors/cloud-sql-proxy|"
    r"cloudsql-docker/gce-proxy|linkerd/proxy|(^|/)kube-state-metrics|(^|/)metrics-server|cgr\.dev/chainguard/static|"
    r"envoyproxy/envoy-distroless|(^|/)fluent/fluent-bit([:@]|$))", re.I)
_HAS_SHELL_TAG = re.compile(r":[^/@]*(debug|alpine|buster|bullseye|bookworm|busybox|-dev\b|shell)", re.I)
_TOOLS = frozenset({"sh", "bash", "ash", "dash", "zsh", "sleep", "curl", "wget", "kill", "pkill", "killall",
                    "nc", "rm", "echo", "cat", "test", "true", "touch", "timeout", "ls", "pidof", "pgrep", "ps",
                    "grep", "stat", "[", "nslookup", "ping"})


def shellless_image(image: str) -> bool:
    """Whether ``image`` is known to have no shell (distroless, scratch-based, well-known minimal images)."""
    return bool(_SHELLLESS.search(image)) and not _HAS_SHELL_TAG.search(image)


def missing_hook_binary(c: Container, kind: str = "preStop") -> str | None:
    """The program an exec hook runs when ``c``'s image (by its name) cannot have it."""
    hook = c.pre_stop if kind == "preStop" else c.post_start
    if hook is None or hook.handler != "exec":
        return None
    return missing_binary(c, hook.command)


def missing_binary(c: Container, command: tuple[str, ...]) -> str | None:
    """The program an exec command (a hook's or a probe's) starts, when ``c``'s image (by its name) has no
    such program: a shell or a common tool in a distroless or scratch-based image (§24.3, §29.2)."""
    if not command or not shellless_image(c.image):
        return None
    prog = posixpath.basename(command[0])
    return prog if prog in _TOOLS else None


_SELF_CALL = re.compile(r"(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)(?::(\d{1,5}))?")
_CALLERS = re.compile(r"\b(curl|wget|nc|http(?!s?://)|httpie|grpcurl|grpc_health_probe|redis-cli|psql|mysql|"
                      r"mongo|mongosh|rabbitmqctl|kafka-[\w-]+|cqlsh|ldapsearch|dsconf|mc|vault|consul)\b")
_RETRIES = re.compile(r"--retry-connrefused|--retry-all-errors|\buntil\b|\bwhile\b|\bfor\s+\w+\s+in\b|"
                      r"\bwait-for|\bwait_for|\bdockerize\b|--wait\b|-wait\b")
_SLEEP_FIRST = re.compile(r"\bsleep\s+\d")


@record
class SelfCall:
    port: int
    how: str              # "httpGet" or the program: curl
    certain: bool         # called at once, with no wait or retry before it


def poststart_self_call(pod: Pod, c: Container) -> SelfCall | None:
    """A postStart hook that calls ``c``'s own server, which starts at the same moment (§9).

    The kubelet runs postStart right after the runtime starts the container (kuberuntime_container.go
    `startContainer`), while the entrypoint is still starting: a server that is not listening
    yet refuses the call, the hook fails, and `startContainer` kills the container
    (FailedPostStartHook).  A wait loop or a retry on refused connections avoids the race.
    """
    hook = c.post_start
    if hook is None:
        return None
    own = {p.container_port for p in c.ports if p.protocol == "TCP"}
    bind = loopback_bind(c)
    if bind is not None:
        own.add(bind.port)
    if hook.handler == "httpGet":
        raw = raw_at(pod, c.path + ".lifecycle.postStart.httpGet") or {}
        port = resolve_port(c, raw.get("port")) if isinstance(raw, dict) else None
        host = str(raw.get("host") or "") if isinstance(raw, dict) else ""
        if port is None or port not in own or (host and host.lower() not in LOOPBACK_HOSTS):
            return None   # another container's port (a mesh agent's, say) or another host: not its own server
        return SelfCall(port, "httpGet", certain=True)
    if hook.handler != "exec":
        return None
    text = " ".join(hook.command)[:_SCAN_LIMIT]
    if _RETRIES.search(text) or not _CALLERS.search(text):
        return None
    for m in _SELF_CALL.finditer(text):
        port = int(m.group(1)) if m.group(1) else None
        if port is not None and port in own:
            prog = _CALLERS.search(text)
            return SelfCall(port, prog.group(1) if prog else "exec", certain=not _SLEEP_FIRST.search(text[:m.start()]))
    return None


# ---- npm and friends as PID 1 (§24.4) ---------------------------------------------------------------------

_WRAPPERS = {"npm": ("start", "run", "run-script", "test"), "yarn": ("start", "run", "dev", "serve"),
             "pnpm": ("start", "run", "dev", "serve")}


def package_manager_pid1(c: Container) -> str | None:
    """``npm start`` (``yarn start``, ``pnpm run x``) as the main process: the words, or None."""
    words = list(c.command + c.args)
    if words and posixpath.basename(words[0]) in ("sh", "bash", "ash", "dash") and len(words) >= 3 \
            and words[1] == "-c":
        script = " ".join(words[2:]).strip()
        m = re.search(r"(?:^|[;&\n]\s*)exec\s+(.+)$", script)
        if not m:
            return None   # a shell stays PID 1: shell-pid1-ignores-sigterm speaks about that
        words = m.group(1).split()
    if not words:
        return None
    prog = posixpath.basename(words[0])
    if prog in _WRAPPERS and len(words) > 1 and words[1] in _WRAPPERS[prog]:
        return " ".join(words[:3] if words[1] in ("run", "run-script") and len(words) > 2 else words[:2])
    return None

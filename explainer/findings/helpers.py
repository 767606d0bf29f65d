"""What a helper container is for, read from its own manifest: which way traffic goes through it,
which ports it listens on, and whether the manifest already makes the app wait for it.

A helper matters at the app's start-up only when the app reaches it then: the app dials its port
on localhost, or all of the app's traffic goes through it (a service-mesh proxy, a database
proxy).  Other helpers (a PgBouncer, a Vault Agent, a cache) count where the app dials them.  An inbound proxy (kube-rbac-proxy, oauth2-proxy, an nginx in front of the app) and an
exporter dial the app, per request and with retries: the app does not need them to start.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explainer.lifecycle.model import Container, Pod
from explainer.lifecycle.yamlload import parse_path

from .memo import per_run
from .scripts import image_name, localhost_ports, may_name_proxy, program, sources, wait_loops

if TYPE_CHECKING:
    from .base import RuleContext

# Outbound helpers: the app's traffic goes through them, so it needs them from its first request.
# (key, pattern on the container's name, image name or program); the rule words each key.
OUTBOUND: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("cloud-sql", re.compile(r"cloud[-_]?sql[-_]?proxy|gce-proxy|alloydb-auth-proxy", re.I)),
    ("istio", re.compile(r"^istio-proxy$|^proxyv2$", re.I)),
    ("linkerd", re.compile(r"^linkerd-proxy$", re.I)),
)
# Inbound proxies and exporters: they dial the app, per request; the app does not wait for them.
INBOUND = re.compile(r"kube-rbac-proxy|oauth2?[-_]?proxy|^nginx|^haproxy|^traefik|^caddy|^ingress|auth[-_]proxy", re.I)
EXPORTER = re.compile(r"exporter", re.I)
# A configuration reloader (jimmidyson/configmap-reload, prometheus-operator's config-reloader, ...): it calls
# the program's reload endpoint (`--webhook-url=http://localhost:9090/-/reload`) when a mounted file changes,
# and retries (configmap-reload `--webhook-retries`): a call on change, not a dependency at start-up.
RELOADER = re.compile(r"config-?map-?reload|config-reloader|(^|[-_/])reloader($|[-_:])", re.I)
_RELOAD_ARG = re.compile(r"^--?(?:webhook|reload)[-_]url[= ]", re.I)

# --port=5432, --listen=:8080, --http-address=0.0.0.0:4180, -instances=p:r:db=tcp:5432, --admin-port 9091
_PORT_ARG = re.compile(r"(?:^|\s)--?(?:[\w-]*?(?:port|listen|address|bind)[\w-]*)[= ](?:[\w.\[\]:-]*:)?(\d{1,5})\b")
_INSTANCES = re.compile(r"=tcp:(?:[\w.]+:)?(\d{1,5})\b")
_ENV_ADDR = re.compile(r"(?:^|[\s:])(\d{1,5})$")
_ADMIN_ARG = re.compile(r"admin|metrics|health|telemetry|debug|probe", re.I)
_ADDR_ENV = re.compile(r"ADDR|LISTEN|PORT", re.I)


@dataclass(frozen=True, slots=True)
class Dial:
    """Container ``user`` reaches ``port`` on localhost, as its ``field`` says."""

    user: str
    port: int
    field: str


def _words(c: Container) -> list[str]:
    return [w for w in (c.name, image_name(c.image), program(c) or "") if w]


def _image_path(c: Container) -> str:
    return c.image.split("@", 1)[0].rsplit(":", 1)[0].lower()


@per_run
def outbound_kind(c: Container) -> str | None:
    """Which outbound helper ``c`` is (a key of OUTBOUND), or None.  Linkerd's proxy image is
    plainly ``proxy``, so its container name or its image's path decides."""
    words = _words(c)
    if "linkerd" in _image_path(c) and image_name(c.image) == "proxy":
        words.append("linkerd-proxy")
    words = [w for w in words if may_name_proxy(w)]   # every OUTBOUND pattern names "proxy"
    for key, pattern in OUTBOUND:
        for w in words:
            if pattern.search(w):
                return key
    return None


@per_run
def calls_on_change(c: Container) -> bool:
    """A configuration reloader: whatever it dials on localhost it dials when a file changes, with retries
    (docs/lifecycle-model.md §31.4)."""
    return any(RELOADER.search(w) for w in _words(c)) or any(_RELOAD_ARG.match(a) for a in c.args + c.command)


def is_inbound_or_exporter(c: Container) -> bool:
    """A reverse proxy in front of the app, or an exporter scraping it: it dials the app, lazily."""
    if outbound_kind(c) is not None:
        return False
    for w in _words(c):
        if INBOUND.search(w) or EXPORTER.search(w):
            return True
    return False


@per_run
def listen_ports(c: Container, pod: Pod | None = None) -> list[int]:
    """Ports ``c`` listens on, from what its manifest says, best first: the port its own readiness
    (or startup, or liveness) check uses, declared TCP ports, then
    ports in its args and command (``--port=``, ``--listen=``, ``--http-address=:8080``,
    ``-instances=...=tcp:5432``; admin and metrics ports last), then env values that are
    addresses (``0.0.0.0:4191``)."""
    probes = probe_ports(pod, c) if pod is not None else []
    out: list[int] = probes[:1] + [p.container_port for p in c.ports if p.protocol == "TCP"]
    serving, admin = [], []
    for word in c.command + c.args:
        if "port" in word or "listen" in word or "address" in word or "bind" in word:   # what _PORT_ARG names
            for m in _PORT_ARG.finditer(" " + word):
                (admin if _ADMIN_ARG.search(word.split("=", 1)[0]) else serving).append(int(m.group(1)))
        if "=tcp:" in word:
            serving += [int(p) for p in _INSTANCES.findall(word)]
    out += serving + admin
    for env in c.env:
        if env.value and _ADDR_ENV.search(env.name) and ":" in env.value:
            out += [int(p) for p in _ENV_ADDR.findall(env.value.strip())]
    out += probes
    seen: list[int] = []
    for p in out:
        if 0 < p < 65536 and p not in seen:
            seen.append(p)
    return seen


def probe_ports(pod: Pod, c: Container) -> list[int]:
    """Numeric ports of ``c``'s own readiness, startup and liveness checks (httpGet, tcpSocket, grpc)."""
    node: Any = pod.raw
    for seg in parse_path(c.path):
        node = node[seg] if isinstance(node, (dict, list)) and (seg in node if isinstance(node, dict)
                                                                else 0 <= seg < len(node)) else None
    out: list[int] = []
    if not isinstance(node, dict):
        return out
    for key in ("readinessProbe", "startupProbe", "livenessProbe"):
        probe = node.get(key)
        if not isinstance(probe, dict):
            continue
        for handler in ("httpGet", "tcpSocket", "grpc"):
            action = probe.get(handler)
            port = action.get("port") if isinstance(action, dict) else None
            if isinstance(port, int) and not isinstance(port, bool):
                out.append(port)
    return out


@per_run
def reachable(user: Container) -> dict[int, str]:
    """Every port ``user`` reaches on localhost -> the field that says so: ``localhost:5432`` in a
    URL or address, or a port number beside a localhost host (``--host=127.0.0.1 --port=5432``,
    ``DB_HOST=127.0.0.1`` with ``DB_PORT=5432``), or ``localhost:5432`` in a ConfigMap file of the same
    input that it mounts (its configuration).  Read once per container (linear rules)."""
    found: dict[int, str] = {}
    texts = sources(user)
    for field, text in texts:
        for port in sorted(localhost_ports(text)):
            found.setdefault(port, _label(user, field))
    if any(_LOCAL_HOST.search(t) for _f, t in texts):
        for field, text in texts:
            for number in _NUMBER.findall(text):
                if 0 < int(number) < 65536:
                    found.setdefault(int(number), _label(user, field))
    for path, text in user.config:   # a ConfigMap of the same input it mounts: only explicit localhost:PORT
        for port in sorted(localhost_ports(text)):
            found.setdefault(port, f"config file {path}")
    return found


_LOCAL_HOST = re.compile(r"(?:^|[\s=\"'])(?:localhost|127\.0\.0\.1)(?:$|[\s\"'])")
_NUMBER = re.compile(r"(?:^|[\s=:\"'])(\d{2,5})(?=$|[\s\"'/])")


def dials(user: Container, ports: list[int], reach: dict[int, str] | None = None) -> list[Dial]:
    """Where ``user`` reaches one of ``ports`` on localhost (``reachable``)."""
    reach = reachable(user) if reach is None else reach
    return [Dial(user.name, port, reach[port]) for port in sorted(set(ports) & set(reach))]


@per_run
def waited_ports(user: Container) -> set[int]:
    """Ports ``user`` waits for in an until/while loop before it goes on."""
    return set().union(*(localhost_ports(" ".join(wait_loops(text))) for _f, text in sources(user)))


def waits_for(user: Container, ports: list[int]) -> bool:
    return bool(waited_ports(user) & set(ports))


_ENV_FIELD = re.compile(r"env\[(\d+)\]\.value$")


def _label(c: Container, field: str) -> str:
    """``env[2].value`` -> ``env DATABASE_URL``; other fields as they are."""
    m = _ENV_FIELD.match(field)
    return f"env {c.env[int(m.group(1))].name}" if m else field


def annotations(pod: Pod) -> dict[str, str]:
    """The Pod template's (or Pod's) annotations as strings."""
    node: Any = pod.raw
    for seg in tuple(pod.spec_path[:-1]) + ("metadata", "annotations"):
        node = node.get(seg) if isinstance(node, dict) else None
    return {str(k): str(v) for k, v in node.items()} if isinstance(node, dict) else {}


_HOLD = re.compile(r"[\"']?holdApplicationUntilProxyStarts[\"']?\s*:\s*(true|false)", re.I)


def hold_setting(pod: Pod, c: Container) -> tuple[str, bool] | None:
    """A documented wait setting for helper ``c`` in the manifest: (where it is written, on or off).
    Istio's ``holdApplicationUntilProxyStarts`` (in ``proxy.istio.io/config`` or the proxy's
    PROXY_CONFIG), Linkerd's ``config.linkerd.io/proxy-await``."""
    notes = annotations(pod)
    for key, value in notes.items():
        if key == "config.linkerd.io/proxy-await" and "linkerd" in c.name + c.image:
            return key, value.strip().lower() == "enabled"
        m = _HOLD.search(value) if key == "proxy.istio.io/config" else None
        if m and c.name == "istio-proxy":
            return key, m.group(1).lower() == "true"
    for env in c.env:
        m = _HOLD.search(env.value or "") if env.name == "PROXY_CONFIG" else None
        if m:
            return f"env {env.name}", m.group(1).lower() == "true"
    return None


def waits_in_post_start(c: Container) -> bool:
    """``c``'s postStart hook waits for it to be ready (``pilot-agent wait``, ``linkerd-await``):
    the kubelet starts the next container only after the hook returns
    (kuberuntime_container.go startContainer runs the hook before it returns)."""
    hook = c.post_start
    if hook is None:
        return False
    text = " ".join(hook.command) if hook.command else ""
    return bool(re.search(r"\bawait\b|linkerd-await|pilot-agent\s+wait\b|\bwait\b", text))


def drain_seconds(ctx: RuleContext, containers: tuple[Container, ...] | list[Container], unbounded: float) -> float:
    """At a deletion, how long the longest preStop plus shutdown among ``containers`` takes;
    ``unbounded`` when one of them never ends (a hook or a process that ignores SIGTERM)."""
    longest = 0.0
    for c in containers:
        b = ctx.behaviour(c)
        if b.pre_stop_seconds is None or b.stop_seconds is None:
            return unbounded
        longest = max(longest, b.pre_stop_seconds + b.stop_seconds)
    return longest

"""What a helper container is for, read from its own manifest: which way traffic goes through it,
which ports it listens on, and whether the manifest already makes the app wait for it.

A helper matters at the app's start-up only when the app reaches it then: the app dials its port
on localhost, or all of the app's traffic goes through it (a service-mesh proxy, a database
proxy).  Other helpers (a PgBouncer, a Vault Agent, a cache) count where the app dials them.  An inbound proxy (kube-rbac-proxy, oauth2-proxy, an nginx in front of the app) and an
exporter dial the app, per request and with retries: the app does not need them to start.
"""
from __future__ import annotations

import re
from explainer.lifecycle.model import Container, Pod

from .scripts import image_name, localhost_ports, may_name_proxy, program, sources, wait_loops
from explainer.lifecycle.records import record

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


@record
class Dial:
    """Container ``user`` reaches ``port`` on localhost, as its ``field`` says."""

    user: str
    port: int
    field: str


def words(c: Container, prog: str | None = None) -> list[str]:
    """The words that name ``c``: its name, its image's name and its program (``prog``, when known)."""
    return [w for w in (c.name, image_name(c.image), (prog if prog is not None else program(c)) or "") if w]


def _image_path(c: Container) -> str:
    return c.image.split("@", 1)[0].rsplit(":", 1)[0].lower()


def outbound_kind(c: Container, named: list[str] | None = None) -> str | None:
    """Which outbound helper ``c`` is (a key of OUTBOUND), or None.  Linkerd's proxy image is
    plainly ``proxy``, so its container name or its image's path decides.  ``named``: `words` of ``c``."""
    found = list(words(c) if named is None else named)
    if "linkerd" in _image_path(c) and image_name(c.image) == "proxy":
        found.append("linkerd-proxy")
    found = [w for w in found if may_name_proxy(w)]   # every OUTBOUND pattern names "proxy"
    for key, pattern in OUTBOUND:
        for w in found:
            if pattern.search(w):
                return key
    return None


def calls_on_change(c: Container, named: list[str] | None = None) -> bool:
    """A configuration reloader: whatever it dials on localhost it dials when a file changes, with retries
    (docs/lifecycle-model.md §31.4).  ``named``: `words` of ``c``."""
    return any(RELOADER.search(w) for w in (words(c) if named is None else named)) or \
        any(_RELOAD_ARG.match(a) for a in c.args + c.command)


def is_inbound_or_exporter(c: Container) -> bool:
    """A reverse proxy in front of the app, or an exporter scraping it: it dials the app, lazily."""
    named = words(c)
    return outbound_kind(c, named) is None and inbound_or_exporter_words(named)


def inbound_or_exporter_words(named: list[str]) -> bool:
    """Whether one of the words that name a container (not an outbound helper) names an inbound proxy or an
    exporter."""
    return any(INBOUND.search(w) or EXPORTER.search(w) for w in named)


def listen_ports(c: Container) -> list[int]:
    """Ports ``c`` listens on, from what its manifest says, best first: the port its own readiness
    (or startup, or liveness) check uses, declared TCP ports, then
    ports in its args and command (``--port=``, ``--listen=``, ``--http-address=:8080``,
    ``-instances=...=tcp:5432``; admin and metrics ports last), then env values that are
    addresses (``0.0.0.0:4191``)."""
    probes = probe_ports(c)
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


def probe_ports(c: Container) -> list[int]:
    """Numeric ports of ``c``'s own readiness, startup and liveness checks (httpGet, tcpSocket, grpc)."""
    return [p.port for p in (c.readiness_probe, c.startup_probe, c.liveness_probe)
            if p is not None and isinstance(p.port, int)]


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


_HOLD = re.compile(r"[\"']?holdApplicationUntilProxyStarts[\"']?\s*:\s*(true|false)", re.I)


def hold_setting(pod: Pod, c: Container) -> tuple[str, bool] | None:
    """A documented wait setting for helper ``c`` in the manifest: (where it is written, on or off).
    Istio's ``holdApplicationUntilProxyStarts`` (in ``proxy.istio.io/config`` or the proxy's
    PROXY_CONFIG), Linkerd's ``config.linkerd.io/proxy-await``."""
    notes = dict(pod.annotations)
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


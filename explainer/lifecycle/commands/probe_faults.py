"""Probes that cannot pass, whatever the container does: "this probe cannot pass, because …".

Each reason is a small function ``(probe, container, pod) -> ProbeFault | None`` listed in
``REASONS``; the first that answers wins.  A fault has one of two outcomes, because the kubelet
treats them differently (docs/lifecycle-model.md §8.1):

- ``errors``: the prober cannot even build the check (a port name the container does not
  declare: pkg/probe/util.go `ResolveContainerPort` → `findPortByName` fails, and the runner
  returns an error).  pkg/kubelet/prober/worker.go `doProbe` throws an errored result away
  ("Prober error, throw away the result"), so the worker's result keeps its initial value:
  readiness Failure (never Ready), liveness Success (never kills), startup Unknown (the
  container never counts as started, never killed for it either).
- ``fails``: the check runs and fails every time (nothing listens on the port): counted like any
  failure, so readiness never passes and liveness/startup kill after failureThreshold checks.
"""
from __future__ import annotations

import re
from typing import Callable

from .guess import runs_only_known
from .evidence import LOOPBACK_HOSTS, loopback_bind, missing_binary, resolve_port, scheme_mismatch
from .files import missing_file
from ..i18n import Phrase, gettext_noop as _
from ..model import Container, Pod, Probe
from explainer.lifecycle.records import record

ERRORS, FAILS = "errors", "fails"
_NETWORK = ("httpGet", "tcpSocket", "grpc")


@record
class ProbeFault:
    outcome: str                   # ERRORS | FAILS (see the module docstring)
    why: Phrase                    # English, translatable: "port name http is not declared by app"
    rule: str | None = None        # the finding that speaks about this mistake, when one does
    assumed: bool = False          # read from what the manifest does not show: a scenario may say otherwise


def probe_fault(probe: Probe, c: Container, pod: Pod) -> ProbeFault | None:
    """Why ``probe`` of ``c`` can never pass, or None when it may."""
    if probe.handler == "exec":
        return _no_such_program(probe, c, pod) or _file_nothing_creates(probe, c, pod)
    if probe.handler not in _NETWORK or probe.port is None:
        return None
    for reason in REASONS:
        fault = reason(probe, c, pod)
        if fault is not None:
            return fault
    return None


def probe_faults(c: Container, pod: Pod) -> dict[str, ProbeFault]:
    """Every probe of ``c`` that cannot pass, by kind (startup, readiness, liveness)."""
    out: dict[str, ProbeFault] = {}
    if c.startup_probe is None and c.readiness_probe is None and c.liveness_probe is None:
        return out        # no probe (`Container.probes` would be empty)
    for p in c.probes:
        fault = probe_fault(p, c, pod)
        if fault is not None:
            out[p.kind] = fault
    return out


def _undeclared_name(probe: Probe, c: Container, pod: Pod) -> ProbeFault | None:
    """A port name the probed container does not declare (only its own ports count, not the Pod's)."""
    if not isinstance(probe.port, str) or resolve_port(c, probe.port) is not None:
        return None
    elsewhere = [o.name for o in pod.all_containers if o is not c and any(p.name == probe.port for p in o.ports)]
    if elsewhere:
        return ProbeFault(ERRORS, Phrase(_("its port name {port} is not among {c}'s ports (only {other} declares it, "
                                           "and the kubelet looks the name up in the probed container alone)"),
                                         {"port": probe.port, "c": c.name, "other": elsewhere[0]}))
    return ProbeFault(ERRORS, Phrase(_("its port name {port} is not among {c}'s ports, so the kubelet cannot "
                                       "resolve it"), {"port": probe.port, "c": c.name}))


# A flag that tells a server where to listen: --port=8080, --listen-address=:9100,
# --health-probe-bind-address=0.0.0.0:8081, --http-port 8080.
_LISTEN_FLAG = re.compile(r"--[\w.-]*(?:port|listen|bind|addr|address)[\w.-]*(?:=|\s+)(?:[\w.\[\]-]*:)?(\d{2,5})\b")


def _nothing_listens(probe: Probe, c: Container, pod: Pod) -> ProbeFault | None:
    """A numeric port nothing in the Pod listens on, where that is knowable: the probed container
    declares its ports, is told by flags where to listen and those flags name exactly its declared
    ports; no container declares the probed port and no command, argument or env value mentions it;
    and no other long-running container shares the Pod's network (it might listen there)."""
    port = resolve_port(c, probe.port)
    if port is None or probe.host is not None or not c.ports:
        return None
    alone = 0 if c.role == "init" else 1      # at most this many long-running containers: c itself
    # another long-running container may listen there (app containers counted first: a Pod of many
    # of them answers without walking its init containers, so a probe per container stays cheap)
    if len(pod.containers) > alone or len(pod.containers) + len(pod.sidecars) > alone:
        return None
    if any(p.container_port == port for o in pod.all_containers for p in o.ports):
        return None
    said = [c.script] + [e.value or "" for e in c.env]
    if any(re.search(rf"(?<!\d){port}(?!\d)", text) for text in said) or any(e.value is None for e in c.env) \
            or any(r.via == "envFrom" for r in c.env_refs):
        return None
    listens = {int(n) for n in _LISTEN_FLAG.findall(c.script)}
    declared = {p.container_port for p in c.ports}
    if not listens or listens != declared:
        return None
    return ProbeFault(FAILS, Phrase(_("nothing listens on port {port}: {c} declares and is told to listen on "
                                      "{ports}"), {"port": port, "c": c.name,
                                                   "ports": ", ".join(str(p) for p in sorted(declared))}))


def _host_loopback(probe: Probe, c: Container, pod: Pod) -> ProbeFault | None:
    """``host: localhost`` without hostNetwork: pkg/kubelet/prober/prober.go `runProbe` connects from the
    node to ``host`` (the Pod IP only when it is empty), so the probe reaches the node's loopback (§8.1)."""
    host = (probe.host or "").strip().lower()
    if host not in LOOPBACK_HOSTS or pod.host_network:
        return None
    return ProbeFault(FAILS, Phrase(_("it asks the node's {host}, not the container: the kubelet makes the "
                                      "connection from the node"), {"host": host}), "probe-host-loopback")


def _scheme_mismatch(probe: Probe, c: Container, pod: Pod) -> ProbeFault | None:
    """HTTP to a port named https (or 443/8443), or HTTPS to a port named http (or 80): `runProbe` builds
    the URL with the scheme as written, and the other side cannot answer it (§8.1)."""
    if probe.handler != "httpGet":
        return None
    bad = scheme_mismatch(c, {"port": probe.port, "scheme": probe.scheme})
    if bad is None:
        return None
    return ProbeFault(FAILS, Phrase(_("it speaks {used} to a port that speaks {wants} ({why})"),
                                    {"used": bad[0], "wants": bad[1], "why": bad[2]}), "probe-scheme-mismatch")


def _loopback_server(probe: Probe, c: Container, pod: Pod) -> ProbeFault | None:
    """The server on the probed port listens on 127.0.0.1 only (uvicorn without --host, ...): the check
    from the node to the Pod IP is refused (evidence.py `loopback_bind`; §8.1)."""
    if probe.host is not None or pod.host_network:
        return None
    bind = loopback_bind(c)
    if bind is None or resolve_port(c, probe.port) != bind.port:
        return None
    return ProbeFault(FAILS, Phrase(_("{program} listens on 127.0.0.1:{port} only (no {flag} in the command), "
                                      "and the probe connects to the Pod IP"),
                                    {"program": bind.program, "port": bind.port, "flag": bind.flag}),
                      "app-listens-on-loopback")


def _no_such_program(probe: Probe, c: Container, pod: Pod) -> ProbeFault | None:
    """An exec probe whose program the image does not have (a shell in a distroless image): the runtime
    cannot start it, ExecSync returns an error, and `doProbe` throws the errored result away
    (docs/lifecycle-model.md §29.2).  Inferred from the image name."""
    prog = missing_binary(c, probe.command)
    if prog is None:
        return None
    return ProbeFault(ERRORS, Phrase(_("the image {image} has no {prog} (inferred from the image name), so the "
                                       "runtime cannot start the check"), {"image": c.image, "prog": prog}),
                      "prestop-exec-binary-missing", assumed=True)


def _file_nothing_creates(probe: Probe, c: Container, pod: Pod) -> ProbeFault | None:
    """An exec probe that tests a file nothing in the manifest creates (files.py; docs/lifecycle-model.md
    §29.1): the check runs and fails, from the first one on.  Assumed: the image might ship the file."""
    path = missing_file(c, probe.command, runs_only_known(c))
    if path is None:
        return None
    return ProbeFault(FAILS, Phrase(_("it tests {path}, and nothing creates that file: {c}'s command runs only "
                                      "programs that write no file it does not name, and no hook, env value or "
                                      "volume mount names it (assumed: the image does not ship it)"),
                                    {"path": path, "c": c.name}), "tested-file-never-created", assumed=True)


# The reasons, most certain first.  Add one: a function of (probe, container, pod) -> ProbeFault | None.
REASONS: tuple[Callable[[Probe, Container, Pod], ProbeFault | None], ...] = (
    _undeclared_name,
    _host_loopback,
    _scheme_mismatch,
    _loopback_server,
    _nothing_listens,
)

"""The `liveness-checks-dependency` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

import re
from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill, flow_yaml
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop

ID = "liveness-checks-dependency"
TITLE = gettext_noop("livenessProbe checks a dependency")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["probes"]
REFERENCES = ("https://github.com/kubernetes/kubernetes/issues/58452",
              "https://github.com/Apicurio/apicurio-registry-operator/issues/215",
              "https://github.com/super-productivity/super-productivity/issues/9599")
WHAT = gettext_noop("A livenessProbe that checks a database, a cache or another service, not the process.")
WHY = gettext_noop(
    "Liveness failures restart the container. A liveness check that reaches a dependency (a "
    "`pg_isready -h db`, a `redis-cli -h cache ping`, a `curl` to another Service, a `/health/db` "
    "path) fails whenever that dependency blips, and then the kubelet restarts every replica at "
    "once: a restart cannot repair the database, it drops the work in flight, and all the replicas "
    "reconnect together just as the dependency comes back.")
FIX_TEXT = gettext_noop(
    "Check the dependency in the readinessProbe (unready Pods get no traffic but keep running) and "
    "let liveness check only the process itself.")
FIRES_WHEN = gettext_noop(
    "a livenessProbe's exec command reaches a host other than the container itself (a URL, a "
    "`-h`/`--host` of a database client, `nc host port`), or its httpGet path names a dependency "
    "(db, database, redis, cache, deps, dependencies, upstream, backend).")
QUIET_WHEN = gettext_noop(
    "the probe checks the container itself (localhost, its own port or socket), or only the "
    "readinessProbe reaches the dependency.")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  readinessProbe:    # the dependency
    $handler
  livenessProbe:     # the process alone
    tcpSocket: {port: $port}
"""
EXAMPLE = {"handler": 'exec: {command: ["pg_isready", "-h", "db"]}'}

_URL_HOST = re.compile(r"\b(?:https?|grpc|tcp|redis|postgres(?:ql)?|mysql|mongodb|amqp)://(?:[^@/\s'\"]*@)?"
                       r"(\[[^\]]+\]|[^/:\s'\"?]+)")
_CLIENT = re.compile(r"\b(pg_isready|psql|mysqladmin|mysql|redis-cli|mongo|mongosh|cqlsh|nc|ncat|"
                     r"kafka-topics(?:\.sh)?|rabbitmqctl)\b")
_HOST_FLAG = re.compile(r"(?:^|\s)(?:-h|--host|--hostname|--bootstrap-server)(?:=|\s+)?([^\s'\";|&]+)")
_NC = re.compile(r"\b(?:nc|ncat)\s+(?:-[a-zA-Z]+\s+(?:\d+\s+)?)*([^\s-][^\s'\";|&]*)\s+\d+")
_SELF = re.compile(r"^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0|\$\(?hostname.*|\$\{?HOSTNAME\}?|"
                   r"\$\{?\(?(MY_)?POD_IP\)?\}?|\$\(hostname -i\)|/.*)$", re.I)
_DEP_PATH = re.compile(r"(?:^|[/_.?&=-])(db|database|databases|redis|cache|deps|dependencies|upstream|"
                       r"upstreams|backend|backends|postgres|mysql|mongo)(?:$|[/_.?&=-])", re.I)


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        p = c.liveness_probe
        if p is None:
            continue
        what = _dependency(c)
        if what is None:
            continue
        explanation = Text(gettext_noop(
            "{c}'s livenessProbe {what} (inferred from the probe: {detail}). When that dependency is slow "
            "or down for {budget} s, the kubelet restarts {c}, and every replica with it; the restart "
            "cannot fix the dependency. Check it in the readinessProbe instead."),
            {"c": c.name, "what": what, "detail": p.detail, "budget": p.failure_threshold * p.period})
        written = dict(p.written)   # the probe's handlers as written, quoted in the fix
        key = next((k for k in ("exec", "httpGet") if k in written), None)
        handler = flow_yaml(key, written[key]) if key is not None else EXAMPLE["handler"]
        port = next((x.container_port for x in c.ports), 8080)
        yield ctx.finding(ID, c, ctx.container_path(c, "livenessProbe"), explanation,
                          fill(FIX, name=c.name, handler=handler, port=port))


def _dependency(c: Container) -> Text | None:
    p = c.liveness_probe
    assert p is not None
    if p.handler == "exec":
        script = p.detail.removeprefix("exec ")
        for m in _URL_HOST.finditer(script):
            if not _SELF.match(m.group(1)):
                return Text(gettext_noop("calls {host}, another host"), {"host": m.group(1)})
        if _CLIENT.search(script):
            for m in list(_HOST_FLAG.finditer(script)) + list(_NC.finditer(script)):
                if not _SELF.match(m.group(1)):
                    return Text(gettext_noop("connects to {host} with a client, another host"), {"host": m.group(1)})
        return None
    if p.handler == "httpGet":
        if p.host is not None and not _SELF.match(p.host):
            return Text(gettext_noop("calls {host}, another host"), {"host": p.host})
        if p.path is not None and _DEP_PATH.search(p.path):
            return Text(gettext_noop("requests {path}, a path that names a dependency"), {"path": p.path})
    return None

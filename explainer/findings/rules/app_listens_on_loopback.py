"""The `app-listens-on-loopback` rule; its docstring is its catalogue text (`rule_docstring`, below)."""
from __future__ import annotations

from collections.abc import Iterator

from explainer.lifecycle.defaults import DOCS
from explainer.lifecycle.commands.evidence import Bind
from explainer.lifecycle.model import Container

from ..base import Finding, RuleContext, Severity, fill, flow_yaml
from ..docstring import rule_docstring
from ..i18n import Text, gettext_noop
from ..patch import SetKey, path_of
from ..scripts import SHELL
from ..unreachable import blocked, consequence, listing

ID = "app-listens-on-loopback"
TITLE = gettext_noop("Server listens on 127.0.0.1 only")
SEVERITY = Severity.WARNING
DOCS_URL = DOCS["probes"]
REFERENCES = (
    "https://www.uvicorn.org/settings/#socket-binding",
    "https://docs.gunicorn.org/en/stable/settings.html#bind",
    "https://github.com/kubernetes/kubernetes/issues/62594",
    "https://github.com/fastify/fastify/pull/2638",
    "https://github.com/ietf-tools/datatracker/pull/10774",
    "https://github.com/aws-samples/custom-scheduler-eks/issues/8",
)
WHAT = gettext_noop("A server started bound to 127.0.0.1 (uvicorn, gunicorn, flask run, ... without a host flag).")
WHY = gettext_noop(
    "uvicorn, gunicorn, flask run, Django's runserver, hugo server and Jupyter listen on 127.0.0.1 unless "
    "told otherwise. In a Pod that is the Pod's own loopback: the other containers of the Pod reach it, "
    "but the kubelet's probes (sent from the node to the Pod IP) and all Service traffic are refused. A "
    "readiness probe never passes, so the container never becomes Ready; a liveness probe restarts it in "
    "a loop.")
FIX_TEXT = gettext_noop(
    "Tell the server to listen on every interface: --host 0.0.0.0 (uvicorn, flask run), --bind "
    "0.0.0.0:PORT (gunicorn), runserver 0.0.0.0:PORT (Django).")
FIRES_WHEN = gettext_noop(
    "a container's command starts one of those servers without a host or bind flag (nor a config file or "
    "an env var that sets the address), and a probe on the Pod IP or a declared containerPort targets "
    "its port.")
QUIET_WHEN = gettext_noop(
    "the command names the address, the server is another one, or nothing outside the Pod is meant to "
    "reach it (no probe and no declared port on it).")
__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)
FIX = """
- name: $name
  $setting
"""
EXAMPLE = {"setting": 'args: ["uvicorn", "main:app", "--port", "8000", "--host", "0.0.0.0"]'}
_ADDRESS = {"uvicorn": ["--host", "0.0.0.0"], "flask": ["--host", "0.0.0.0"], "hugo": ["--bind", "0.0.0.0"],
            "jupyter": ["--ip", "0.0.0.0"], "jupyter-notebook": ["--ip", "0.0.0.0"],
            "jupyter-lab": ["--ip", "0.0.0.0"]}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.pod.containers + ctx.pod.sidecars:
        if not c.ports and c.startup_probe is None and c.readiness_probe is None and c.liveness_probe is None:
            continue   # no probe it could fail and no declared port: nothing to report whatever it binds
        bind = ctx.facts(c).loopback_bind
        if bind is None:
            continue
        probes = blocked(ctx, c, ID)
        declared = any(p.container_port == bind.port for p in c.ports)
        if not probes and not declared:
            continue
        told = Text(gettext_noop(
            "{c} starts {program} without {flag}, so it listens on 127.0.0.1:{port}, the Pod's own loopback: "
            "Service traffic to the Pod IP on port {port} is refused."),
            {"c": c.name, "program": bind.program, "flag": bind.flag, "port": bind.port})
        if probes:
            explanation = Text(gettext_noop("{told} It cannot pass {probes}. {what}"),
                               {"told": told, "probes": listing(probes),
                                "what": consequence(c, [p for p, _w in probes])})
        else:
            explanation = Text(gettext_noop("{told} Its declared port {port} is never reached from outside "
                                            "the Pod."), {"told": told, "port": bind.port})
        field = "args" if c.args else "command"
        new = _with_address(c, field, bind)
        setting = flow_yaml(field, new) if new is not None else \
            flow_yaml(field, list(getattr(c, field))) + f"   # add {bind.flag} 0.0.0.0"
        yield ctx.finding(ID, c, ctx.container_path(c, field), explanation, fill(FIX, name=c.name, setting=setting),
                          patch=(SetKey(path_of(ctx.container_path(c, field)), new),) if new is not None else None)


def _with_address(c: Container, field: str, bind: Bind) -> list[str] | None:
    """``c``'s command or args with the address flag added at the end, when the server's words are
    list items of their own (not inside a shell script, which a person must edit)."""
    words = list(getattr(c, field))
    if not words or SHELL.match((c.command or c.args)[0]) or any(" " in w for w in words):
        return None
    if bind.program == "gunicorn":
        return words + ["--bind", f"0.0.0.0:{bind.port}"]
    if bind.program == "manage.py runserver":
        return None if any(w.isdigit() for w in words) else words + [f"0.0.0.0:{bind.port}"]
    extra = _ADDRESS.get(bind.program)
    return words + extra if extra else None

"""The sharing diagram: one Pod as a Graphviz DOT graph, and the bounded `dot` run that draws it."""
from __future__ import annotations

import html
import unicodedata
from typing import Any, Callable

import graphviz

from explainer.lifecycle.model import ROLE_APP, ROLE_EPHEMERAL, ROLE_INIT, ROLE_SIDECAR, Container, Pod
from explainer.lifecycle.sharing.analyse import analyse_sharing
from explainer.lifecycle.sharing.report import Mount, SharingReport
from explainer.lifecycle.traffic.lane import Traffic
from .dot import (
    GENERATED_TITLE,
    NOT_INSTALLED,
    DiagramError,
    PendingDot,
    dot_key,
    render_png,
    render_svg,
    start_svg,
    svg_result,
)
from ..i18n import gettext_noop as _

FONT = "Helvetica,Arial,sans-serif"
INK, MUTED, LINE, RED = "#1f2937", "#64748b", "#94a3b8", "#dc2626"
SERVICE_FILL, SERVICE_LINE = "#e0f2fe", "#0284c7"   # a Service of the input, and its requests
# role -> (fill, border, legend text); calm fills that stay apart for common colour blindness.
ROLES = {
    ROLE_INIT: ("#dbeafe", "#60a5fa", _("init container")),
    ROLE_SIDECAR: ("#ede9fe", "#a78bfa", _("native sidecar")),
    ROLE_APP: ("#dcfce7", "#4ade80", _("app container")),
    ROLE_EPHEMERAL: ("#fef3c7", "#f59e0b", _("ephemeral container")),
}
NAMESPACES = {"network": _("network"), "ipc": _("IPC"), "uts": _("UTS"), "pid": _("PID")}
NS_NOTES = {
    ("network", "pod"): _("one IP, localhost"), ("network", "node"): _("the node's IP and ports"),
    ("ipc", "pod"): _("shared memory"), ("ipc", "node"): _("the node's shared memory"),
    ("uts", "pod"): _("one hostname"), ("uts", "node"): _("the node's hostname"),
    ("pid", "pod"): _("one process tree, PID 1 is pause"), ("pid", "node"): _("every process on the node"),
}
# Volumes that outlive the Pod are drawn as disks; the rest as folders.
DISK_TYPES = ("persistentVolumeClaim", "hostPath", "ephemeral", "csi", "nfs", "iscsi")
MAX_TEXT, MAX_PORTS = 60, 12


# Labels used inside f-strings, named here so that `makemessages` can find them.
LEGEND = _("Legend")
OWN_PID = _("own PID namespace")
ALWAYS_RO = _("always read-only")
NOT_DECLARED = _("not declared in spec.volumes")
POD_NAME = _("Pod {name}")
SERVICE_NAME = _("Service {name}")
SELECTS = _("selects {kind} {name}")
NO_PORT = _("targetPort {port}: no container declares it")


def _visible(value: Any, limit: int = MAX_TEXT) -> str:
    """Text for a label: control and format characters shown as escapes, long text cut short."""
    text = "".join(ch.encode("unicode_escape").decode("ascii")
                   if unicodedata.category(ch)[0] == "C" else ch for ch in str(value))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _e(value: Any, limit: int = MAX_TEXT) -> str:
    """Escaped for an HTML-like label; `dot` still expands \\N, \\G, \\l... there, so backslashes double."""
    return html.escape(_visible(value, limit), quote=True).replace("\\", "\\\\")


def _small(text: str, colour: str = MUTED) -> str:
    return f'<FONT POINT-SIZE="8" COLOR="{colour}">{text}</FONT>'


def short_image(image: str) -> str:
    """The image without its registry host, and a digest cut to 12 hex digits."""
    name, at, digest = image.partition("@")
    first, slash, rest = name.partition("/")
    if slash and ("." in first or ":" in first or first == "localhost"):
        name = rest
    return name + (at + digest[:19] if at else "")


class _Diagram:
    """Adds nodes and edges in spec order; every name goes through ``_e`` into an HTML label."""

    def __init__(self, pod: Pod, sharing: SharingReport, gettext: Callable[[str], str],
                 debug_containers: tuple[Container, ...], traffic: Traffic | None = None) -> None:
        self.pod, self.sharing, self.gettext, self.traffic = pod, sharing, gettext, traffic
        self.specs = {c.name: c for c in pod.all_containers + tuple(debug_containers)}
        self.ids: dict[str, str] = {}
        self.own_pid = {g.containers[0] for g in sharing.groups("pid")
                        if g.scope == "container" and len(g.containers) == 1}
        self.network: str | None = None
        self.edges: list[tuple[str, str, dict[str, str]]] = []
        self.count = 0
        # remincross=false keeps the flat edges that hold the containers in spec order.
        self.graph = graphviz.Digraph("pod", graph_attr={
            "rankdir": "LR", "compound": "true", "remincross": "false", "fontname": FONT, "fontsize": "10",
            "fontcolor": INK, "nodesep": "0.25", "ranksep": "0.6", "bgcolor": "white", "pad": "0.2"},
            node_attr={"fontname": FONT, "fontsize": "10", "fontcolor": INK, "color": LINE,
                       "penwidth": "1.2", "margin": "0.12,0.06"},
            edge_attr={"fontname": FONT, "fontsize": "9", "fontcolor": MUTED, "color": LINE,
                       "arrowhead": "none"})

    def t(self, msgid: str, **params: Any) -> str:
        return _e(self.gettext(msgid).format(**params), 200)

    def node(self, graph: graphviz.Digraph, label: str, **attrs: str) -> str:
        node_id = f"n{self.count}"
        self.count += 1
        graph.node(node_id, f"<{label}>", **attrs)
        return node_id

    def edge(self, tail: str | None, head: str | None, **attrs: str) -> None:
        if tail and head:
            self.edges.append((tail, head, attrs))

    def build(self) -> str:
        with self.graph.subgraph(name="cluster_pod") as pod:
            pod.attr(label=f"<<B>{self.t(POD_NAME, name=self.pod.name)}</B>>", style="rounded",
                     color=LINE, bgcolor="#f8fafc", labeljust="l", margin="12")
            # a borderless cluster round the column, so that what every container shares is drawn
            # once, to the whole column
            with pod.subgraph(name="cluster_containers") as box, box.subgraph(name="containers") as column:
                box.attr(style="rounded,dotted", color=LINE, label="", margin="6")
                column.attr(rank="same")
                for name in self.specs:
                    self.container(column, self.specs[name])
                ids = list(self.ids.values())
                for above, below in zip(ids, ids[1:]):   # spec order, top to bottom: with rankdir=LR
                    column.edge(below, above, style="invis")   # a flat edge's tail is drawn below its head
            shared = self.namespaces(pod, "pod", "cluster_shared", _("shared by all containers"))
            self.pid_notes(pod)
            self.volumes(pod)
        flags = [f for f, on in (("hostNetwork", self.pod.host_network), ("hostIPC", self.pod.host_ipc),
                                 ("hostPID", self.pod.host_pid)) if on]
        host = self.namespaces(self.graph, "node", "cluster_node", _("Node ({flags})"), flags=", ".join(flags))
        ids = list(self.ids.values())
        for cluster, target in (("cluster_shared", shared), ("cluster_node", host)):
            if target and ids:   # one edge from the namespaces to all the containers: namespaces left, volumes right
                self.edge(target, ids[len(ids) // 2], ltail=cluster, lhead="cluster_containers")
        self.conflicts()
        self.services()
        for tail, head, attrs in self.edges:
            self.graph.edge(tail, head, **attrs)
        self.legend()
        return self.graph.source

    def container(self, graph: graphviz.Digraph, c: Container) -> None:
        fill, border, role = ROLES.get(c.role, ROLES[ROLE_APP])
        label = f"<B>{_e(c.name)}</B><BR/>" + _small(f"{self.t(role)} · {_e(short_image(c.image), 32)}")
        if c.name in self.own_pid:   # the default: nothing to draw but the fact
            label += "<BR/>" + _small(f"<I>{self.t(OWN_PID)}</I>")
        style = "rounded,filled,dashed" if c.role == ROLE_EPHEMERAL else "rounded,filled"
        self.ids[c.name] = self.node(graph, label, shape="box", style=style, fillcolor=fill,
                                     color=border, **{"class": f"container {c.role} ctr-{len(self.ids)}"})

    def namespaces(self, parent: graphviz.Digraph, scope: str, cluster: str, title: str,
                   **params: str) -> str | None:
        kinds = [k for k, groups in self.sharing.namespaces.items() if any(g.scope == scope for g in groups)]
        if not kinds:
            return None
        first = None
        with parent.subgraph(name=cluster) as sub:
            sub.attr(label=f"<{self.t(title, **params)}>", style="rounded,dashed", color=LINE, bgcolor="white",
                     fontcolor=MUTED, labeljust="l")
            for kind in kinds:
                label = f"<B>{self.t(NAMESPACES[kind])}</B><BR/>{_small(self.t(NS_NOTES[(kind, scope)]))}"
                if kind == "network":
                    label += self.ports()
                node_id = self.node(sub, label, shape="ellipse", style="filled", fillcolor="#f1f5f9",
                                    **{"class": f"namespace {kind}"})
                if kind == "network":
                    self.network = node_id
                first = first or node_id
        return first

    def ports(self) -> str:
        rows = []
        clash = {(x.port, x.protocol, c) for x in self.sharing.conflicts for c in x.containers}
        ports = self.sharing.ports
        for p in ports[:MAX_PORTS]:
            port = f"{p.container_port}/{p.protocol}" + (f" {_visible(p.name, 20)}" if p.name else "")
            msgid = _("{container}: {port}, hostPort {host_port}") if p.host_port else _("{container}: {port}")
            text = self.t(msgid, container=p.container, port=port, host_port=p.host_port)
            bad = (p.container_port, p.protocol, p.container) in clash
            rows.append(_small(text, RED if bad else INK))
        if len(ports) > MAX_PORTS:
            rows.append(_small(self.t(_("and {n} more ports"), n=len(ports) - MAX_PORTS), INK))
        return "".join(f"<BR/>{row}" for row in rows)

    def pid_notes(self, graph: graphviz.Digraph) -> None:
        for g in self.sharing.groups("pid"):
            if g.scope != "container" or len(g.containers) == 1:
                continue
            text = self.t(_("PID namespace of {name}, joined with --target"), name=g.containers[0])
            note = self.node(graph, _small(text, INK),
                             shape="note", style="filled", fillcolor="white", **{"class": "namespace pid"})
            for name in g.containers:
                self.edge(note, self.ids.get(name), style="dotted")

    def volumes(self, graph: graphviz.Digraph) -> None:
        for v in self.sharing.volumes:
            fixed = f" · {self.t(ALWAYS_RO)}" if v.always_read_only else ""
            sources = "".join(f"<BR/>{_e(s)}" for s in v.sources)
            label = f"<B>{_e(v.name)}</B><BR/>{_small(_e(v.type) + fixed + sources)}"
            shape = "cylinder" if v.type in DISK_TYPES else "folder"
            node_id = self.node(graph, label, shape=shape, style="filled", fillcolor="#fff7ed",
                                color="#fdba74", **{"class": "volume"})
            # a subPath mount sees one directory of the volume (docs/lifecycle-model.md §32.1): each such
            # directory is its own node under the volume, so mounts at different subPaths share no node
            parts: dict[str, str] = {}
            for m in v.mounts:
                target = node_id
                if m.sub_path and any(o.sub_path != m.sub_path for o in v.mounts):
                    if m.sub_path not in parts:
                        parts[m.sub_path] = self.node(graph, _small(_e(f"{v.name}/{m.sub_path}"), INK),
                                                      shape="folder", style="filled", fillcolor="#fffbeb",
                                                      color="#fdba74", **{"class": "volume subpath"})
                        self.edge(node_id, parts[m.sub_path], style="dotted", arrowhead="none")
                    target = parts[m.sub_path]
                self.mount(m, target, LINE)
        missing: dict[str, str] = {}
        for u in self.sharing.undeclared:
            if u.volume not in missing:
                label = f"<B>{_e(u.volume)}</B><BR/>{_small(self.t(NOT_DECLARED), RED)}"
                missing[u.volume] = self.node(graph, label, shape="folder", style="filled,dashed",
                                                 fillcolor="#fef2f2", color=RED, fontcolor=RED,
                                                 **{"class": "volume undeclared"})
            self.mount(Mount(u.container, u.mount_path, False, None), missing[u.volume], RED)

    def mount(self, m: Mount, volume: str, colour: str) -> None:
        text = _e(m.mount_path)
        if m.sub_path:
            text = self.t(_("{path} (subPath {sub_path})"), path=_visible(m.mount_path), sub_path=_visible(m.sub_path))
        text += " · " + self.t(_("ro") if m.read_only else _("rw"))
        self.edge(self.ids.get(m.container), volume, label=f"<{text}>", color=colour,
                  fontcolor=MUTED if colour == LINE else colour, style="dashed" if m.read_only else "solid")

    def conflicts(self) -> None:
        drawn = set()   # a container in two conflicts on one port gets one red edge
        for x in self.sharing.conflicts:
            label = self.t(_("{port}/{protocol} conflict"), port=x.port, protocol=x.protocol)
            for name in x.containers:
                if (x.port, x.protocol, name) not in drawn:
                    drawn.add((x.port, x.protocol, name))
                    self.edge(self.network, self.ids.get(name), label=f"<{label}>", color=RED, fontcolor=RED,
                              penwidth="1.5", **{"class": "conflict"})

    def services(self) -> None:
        """The Services of the input that select this Pod (docs/lifecycle-model.md §27.1), each tied to the
        containers its ports reach; a named targetPort nobody declares is a red dashed edge to the Pod."""
        t = self.traffic
        if t is None or t.service_assumed:
            return
        src = self.pod.source
        for name in t.services:
            label = (f"<B>{self.t(SERVICE_NAME, name=name)}</B><BR/>"
                     + _small(self.t(SELECTS, kind=src.kind, name=src.name)))
            node_id = self.node(self.graph, label, shape="box", style="rounded,filled", fillcolor=SERVICE_FILL,
                                color=SERVICE_LINE, **{"class": "service"})
            for r in (r for r in t.routes if r.service == name):
                port = r.port
                text = "" if port is None else _e(f"{port.port} → {port.target}" if port.port is not None
                                                  else f"→ {port.target}")
                if r.container is not None:
                    self.edge(node_id, self.ids.get(r.container), label=f"<{text}>", color=SERVICE_LINE,
                              fontcolor=SERVICE_LINE, arrowhead="normal", **{"class": "service-port"})
                elif port is not None and self.ids:
                    missing = self.t(NO_PORT, port=port.target)
                    self.edge(node_id, next(iter(self.ids.values())), label=f"<{missing}>", color=RED,
                              fontcolor=RED, style="dashed", arrowhead="normal", lhead="cluster_containers",
                              **{"class": "service-port missing"})

    def legend(self) -> None:
        cell = '<TD ALIGN="LEFT">{}</TD>'
        swatch = '<TD BGCOLOR="{}" COLOR="{}" BORDER="1" WIDTH="14"> </TD>'
        keys = [swatch.format(fill, border) + cell.format(_small(self.t(text), INK))
                for role, (fill, border, text) in ROLES.items()
                if any(c.role == role for c in self.specs.values())]
        lines = [("━━", INK, _("read-write mount")), ("╍╍", INK, _("read-only mount"))] \
            if self.sharing.volumes or self.sharing.undeclared else []
        if self.sharing.conflicts or self.sharing.undeclared:
            lines.append(("━━", RED, _("port conflict or missing volume")))
        if self.traffic is not None and not self.traffic.service_assumed:
            lines.append(("━▶", SERVICE_LINE, _("a Service's port and the container it reaches")))
        keys += [f'<TD><FONT COLOR="{colour}">{mark}</FONT></TD>{cell.format(_small(self.t(text), INK))}'
                 for mark, colour, text in lines]
        # The graph's own label, not a node: a node would widen the first rank of the layout.
        self.graph.attr(labelloc="t", labeljust="l", label=(
            '<<TABLE BORDER="1" STYLE="ROUNDED" COLOR="#e2e8f0" CELLBORDER="0" CELLSPACING="4" CELLPADDING="1">'
            f'<TR><TD><B>{self.t(LEGEND)}</B></TD>{"".join(keys)}</TR></TABLE>>'))


def pod_to_dot(pod: Pod, sharing: SharingReport, *, gettext: Callable[[str], str] = lambda s: s,
               debug_containers: tuple[Container, ...] = (), traffic: Traffic | None = None) -> str:
    """DOT source of the sharing diagram; node ids are n0, n1, ... and names live only in labels.
    ``traffic`` adds the Services of the input that select the Pod."""
    return _Diagram(pod, sharing, gettext, tuple(debug_containers), traffic).build()


def sharing_diagram(report: Any, *, gettext: Callable[[str], str] = lambda s: s) -> str:
    """DOT source for one ``PodReport``, including the debug containers of its simulation."""
    debug = tuple(report.simulation.debug_containers) if report.simulation else ()
    sharing = report.sharing if report.sharing.namespaces else analyse_sharing(report.pod, debug)
    return pod_to_dot(report.pod, sharing, gettext=gettext, debug_containers=debug,
                      traffic=getattr(report, "traffic", None))


# The drawing itself lives in dot.py; these names stay importable from here.
__all__ = ["GENERATED_TITLE", "NOT_INSTALLED", "DiagramError", "PendingDot", "dot_key", "pod_to_dot", "render_png",
           "render_svg", "sharing_diagram", "short_image", "start_svg", "svg_result"]

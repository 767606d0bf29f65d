"""The sharing diagram: one Pod as a Graphviz DOT graph, and the bounded `dot` run that draws it."""
from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import subprocess
import threading
import time
import unicodedata
import weakref
from typing import Any, Callable

import graphviz

from ..lifecycle.model import ROLE_APP, ROLE_EPHEMERAL, ROLE_INIT, ROLE_SIDECAR, Container, Pod
from ..lifecycle.sharing import analyse_sharing
from . import dotspare, processes
from .i18n import Text, gettext_noop as _

FONT = "Helvetica,Arial,sans-serif"
INK, MUTED, LINE, RED = "#1f2937", "#64748b", "#94a3b8", "#dc2626"
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
GENERATED_TITLE = re.compile(r"<title>(?:n\d+(?:&#45;&gt;n\d+)?|cluster_\w+|pod)</title>\n?")
NOT_INSTALLED = _("The Graphviz `dot` program is not installed; install the Debian package graphviz.")


# Labels used inside f-strings, named here so that `makemessages` can find them.
LEGEND = _("Legend")
OWN_PID = _("own PID namespace")
ALWAYS_RO = _("always read-only")
NOT_DECLARED = _("not declared in spec.volumes")
POD_NAME = _("Pod {name}")


class DiagramError(Exception):
    """The diagram could not be drawn: ``message`` says why in English, ``text`` translates."""

    def __init__(self, message: str | Text) -> None:
        self.text = message if isinstance(message, Text) else Text(message)
        self.message = self.text.render()
        super().__init__(self.message)


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

    def __init__(self, pod: Pod, sharing: dict, gettext: Callable[[str], str],
                 debug_containers: tuple[Container, ...]) -> None:
        self.pod, self.sharing, self.gettext = pod, sharing, gettext
        self.specs = {c.name: c for c in pod.all_containers + tuple(debug_containers)}
        self.ids: dict[str, str] = {}
        pid = sharing["namespaces"]["pid"]["groups"]
        self.own_pid = {g["containers"][0] for g in pid
                        if g["scope"] == "container" and len(g["containers"]) == 1}
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
        kinds = [k for k, ns in self.sharing["namespaces"].items()
                 if any(g["scope"] == scope for g in ns["groups"])]
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
        clash = {(x["port"], x["protocol"], c) for x in self.sharing["conflicts"] for c in x["containers"]}
        ports = self.sharing["ports"]
        for p in ports[:MAX_PORTS]:
            port = f"{p['containerPort']}/{p['protocol']}" + (f" {_visible(p['name'], 20)}" if p["name"] else "")
            msgid = _("{container}: {port}, hostPort {host_port}") if p["hostPort"] else _("{container}: {port}")
            text = self.t(msgid, container=p["container"], port=port, host_port=p["hostPort"])
            bad = (p["containerPort"], p["protocol"], p["container"]) in clash
            rows.append(_small(text, RED if bad else INK))
        if len(ports) > MAX_PORTS:
            rows.append(_small(self.t(_("and {n} more ports"), n=len(ports) - MAX_PORTS), INK))
        return "".join(f"<BR/>{row}" for row in rows)

    def pid_notes(self, graph: graphviz.Digraph) -> None:
        for g in self.sharing["namespaces"]["pid"]["groups"]:
            if g["scope"] != "container" or len(g["containers"]) == 1:
                continue
            text = self.t(_("PID namespace of {name}, joined with --target"), name=g["containers"][0])
            note = self.node(graph, _small(text, INK),
                             shape="note", style="filled", fillcolor="white", **{"class": "namespace pid"})
            for name in g["containers"]:
                self.edge(note, self.ids.get(name), style="dotted")

    def volumes(self, graph: graphviz.Digraph) -> None:
        for v in self.sharing["volumes"]:
            fixed = f" · {self.t(ALWAYS_RO)}" if v["alwaysReadOnly"] else ""
            sources = "".join(f"<BR/>{_e(s)}" for s in v["sources"])
            label = f"<B>{_e(v['name'])}</B><BR/>{_small(_e(v['type']) + fixed + sources)}"
            shape = "cylinder" if v["type"] in DISK_TYPES else "folder"
            node_id = self.node(graph, label, shape=shape, style="filled", fillcolor="#fff7ed",
                                color="#fdba74", **{"class": "volume"})
            for m in v["mounts"]:
                self.mount(m, node_id, LINE)
        missing: dict[str, str] = {}
        for u in self.sharing["undeclared"]:
            if u["volume"] not in missing:
                label = f"<B>{_e(u['volume'])}</B><BR/>{_small(self.t(NOT_DECLARED), RED)}"
                missing[u["volume"]] = self.node(graph, label, shape="folder", style="filled,dashed",
                                                 fillcolor="#fef2f2", color=RED, fontcolor=RED,
                                                 **{"class": "volume undeclared"})
            self.mount({**u, "readOnly": False, "subPath": None}, missing[u["volume"]], RED)

    def mount(self, m: dict, volume: str, colour: str) -> None:
        text = _e(m["mountPath"])
        if m.get("subPath"):
            text = self.t(_("{path} (subPath {sub_path})"), path=_visible(m["mountPath"]),
                          sub_path=_visible(m["subPath"]))
        text += " · " + self.t(_("ro") if m["readOnly"] else _("rw"))
        self.edge(self.ids.get(m["container"]), volume, label=f"<{text}>", color=colour,
                  fontcolor=MUTED if colour == LINE else colour, style="dashed" if m["readOnly"] else "solid")

    def conflicts(self) -> None:
        drawn = set()   # a container in two conflicts on one port gets one red edge
        for x in self.sharing["conflicts"]:
            label = self.t(_("{port}/{protocol} conflict"), port=x["port"], protocol=x["protocol"])
            for name in x["containers"]:
                if (x["port"], x["protocol"], name) not in drawn:
                    drawn.add((x["port"], x["protocol"], name))
                    self.edge(self.network, self.ids.get(name), label=f"<{label}>", color=RED, fontcolor=RED,
                              penwidth="1.5", **{"class": "conflict"})

    def legend(self) -> None:
        cell = '<TD ALIGN="LEFT">{}</TD>'
        swatch = '<TD BGCOLOR="{}" COLOR="{}" BORDER="1" WIDTH="14"> </TD>'
        keys = [swatch.format(fill, border) + cell.format(_small(self.t(text), INK))
                for role, (fill, border, text) in ROLES.items()
                if any(c.role == role for c in self.specs.values())]
        lines = [("━━", INK, _("read-write mount")), ("╍╍", INK, _("read-only mount"))] \
            if self.sharing["volumes"] or self.sharing["undeclared"] else []
        if self.sharing["conflicts"] or self.sharing["undeclared"]:
            lines.append(("━━", RED, _("port conflict or missing volume")))
        keys += [f'<TD><FONT COLOR="{colour}">{mark}</FONT></TD>{cell.format(_small(self.t(text), INK))}'
                 for mark, colour, text in lines]
        # The graph's own label, not a node: a node would widen the first rank of the layout.
        self.graph.attr(labelloc="t", labeljust="l", label=(
            '<<TABLE BORDER="1" STYLE="ROUNDED" COLOR="#e2e8f0" CELLBORDER="0" CELLSPACING="4" CELLPADDING="1">'
            f'<TR><TD><B>{self.t(LEGEND)}</B></TD>{"".join(keys)}</TR></TABLE>>'))


def pod_to_dot(pod: Pod, sharing: dict, *, gettext: Callable[[str], str] = lambda s: s,
               debug_containers: tuple[Container, ...] = ()) -> str:
    """DOT source of the sharing diagram; node ids are n0, n1, ... and names live only in labels."""
    return _Diagram(pod, sharing, gettext, tuple(debug_containers)).build()


def sharing_diagram(report: Any, *, gettext: Callable[[str], str] = lambda s: s) -> str:
    """DOT source for one ``PodReport``, including the debug containers of its simulation."""
    debug = tuple(report.simulation.debug_containers) if report.simulation else ()
    sharing = report.sharing or analyse_sharing(report.pod, debug)
    return pod_to_dot(report.pod, sharing, gettext=gettext, debug_containers=debug)


class PendingDot:
    """A `dot -T<fmt>` run started now and collected later, so the caller can do its own work
    meanwhile (the drawing runs in another process, on another core).  The DOT text is written
    to dot's standard input at once, so its layout overlaps that work.  Bounded in input size
    and time (issue 6)."""

    def __init__(self, dot_source: str, fmt: str, timeout: float, max_dot_bytes: int, *,
                 spare: bool = True) -> None:
        data = dot_source.encode("utf-8", errors="replace")
        if len(data) > max_dot_bytes:
            raise DiagramError(Text(_("The diagram is too large to draw: {size} bytes of DOT, more than the "
                                      "limit of {limit}."), {"size": len(data), "limit": max_dot_bytes}))
        dot = shutil.which("dot")
        if dot is None:
            raise DiagramError(NOT_INSTALLED)
        self.timeout = timeout
        self.dot, self.fmt, self.source, self.max_dot_bytes = dot, fmt, dot_source, max_dot_bytes
        self.data, self.spare, self.warm = data, spare, False
        self.proc: subprocess.Popen[bytes] | None = None
        # At most a few `dot` at once per process (issue 11): start now if a slot is free,
        # otherwise when the picture is collected, in line for a slot.
        if processes.SLOTS.acquire(blocking=False):
            self._start()

    def _start(self) -> None:
        """Start `dot` (or take this process's warm spare) and write the DOT text to it at once;
        the caller holds a process slot, which the finaliser gives back."""
        warm = dotspare.take() if self.spare and self.fmt == "svg" else None   # fonts already loaded
        self.warm = warm is not None
        if warm is not None:
            self.proc, write_end = warm
        else:
            try:
                read_end, write_end = os.pipe()
            except OSError as exc:   # out of descriptors
                processes.SLOTS.release()
                raise DiagramError(processes.start_failure(exc, "dot") or NOT_INSTALLED) from None
            try:
                self.proc = subprocess.Popen([self.dot, f"-T{self.fmt}"], stdin=read_end, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE)
            except OSError as exc:   # not runnable, removed since which(), or out of descriptors
                os.close(write_end)
                processes.SLOTS.release()
                raise DiagramError(processes.start_failure(exc, "dot") or NOT_INSTALLED) from None
            finally:
                os.close(read_end)
        self.deadline = time.monotonic() + self.timeout
        self._done = weakref.finalize(self, _finish, self.proc)
        _feed(write_end, self.data)

    def result(self) -> bytes:
        if self.proc is None:
            if not processes.SLOTS.acquire(timeout=processes.QUEUE_SECONDS):
                raise DiagramError(processes.BUSY)
            self._start()
        assert self.proc is not None
        try:
            out, err = self.proc.communicate(timeout=max(0.01, self.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self._done()
            raise DiagramError(Text(_("Graphviz took longer than {seconds} s to draw the diagram, so it was "
                                      "stopped."), {"seconds": f"{self.timeout:g}"})) from None
        finally:
            self._done()   # the slot is free again (once), whatever happened
        if self.proc.returncode != 0 or not out:
            lines = err.decode("utf-8", errors="replace").strip().splitlines()
            if self.warm:   # a fresh dot says what went wrong, with its own line numbers
                return self._fresh()
            detail = lines[0][:300] if lines else f"exit status {self.proc.returncode}"
            raise DiagramError(Text(_("Graphviz could not draw the diagram: {detail}"), {"detail": detail}))
        if self.warm:
            out = dotspare.unwrap(out) or self._fresh()
        if self.fmt == "svg":
            dotspare.refill(self.dot)   # for the next diagram, warmed up between requests
        return out

    def _fresh(self) -> bytes:
        left = max(0.01, self.deadline - time.monotonic())
        return PendingDot(self.source, self.fmt, left, self.max_dot_bytes, spare=False).result()


def _feed(fd: int, data: bytes) -> None:
    """Write ``data`` to the pipe ``fd`` and close it, without ever blocking the caller: what the
    pipe's buffer (64 KiB on Linux, a typical diagram is a few KiB) does not take at once, a
    thread writes while `dot` reads.  A `dot` that died early only ends the writing."""
    os.set_blocking(fd, False)
    try:
        done = os.write(fd, data)
    except BlockingIOError:
        done = 0
    except OSError:   # BrokenPipeError: dot is gone; result() reports how it ended
        os.close(fd)
        return
    if done == len(data):
        os.close(fd)
        return
    os.set_blocking(fd, True)
    threading.Thread(target=_write_rest, args=(fd, memoryview(data)[done:]), daemon=True).start()


def _write_rest(fd: int, rest: memoryview) -> None:
    try:
        while rest:
            rest = rest[os.write(fd, rest):]
    except OSError:
        pass
    finally:
        os.close(fd)


def dot_key(dot_source: str, fmt: str = "svg") -> str:
    """A cache key for the drawing of ``dot_source``: the same DOT text always draws the same
    picture (a what-if change or an edited comment in the manifest leaves it unchanged)."""
    digest = hashlib.sha256(dot_source.encode("utf-8", errors="replace")).hexdigest()
    return f"dot:{fmt}:{digest}"


def _finish(proc: subprocess.Popen[bytes]) -> None:
    """Stop `dot` if it still runs and give its process slot back; also when a started picture
    is never collected (the finaliser of its PendingDot)."""
    if proc.poll() is None:
        proc.kill()
        proc.communicate()
    processes.SLOTS.release()


def _run_dot(dot_source: str, fmt: str, timeout: float, max_dot_bytes: int) -> bytes:
    """`dot -T<fmt>` on ``dot_source``, bounded in input size and time (issue 6)."""
    return PendingDot(dot_source, fmt, timeout, max_dot_bytes).result()


def start_svg(dot_source: str, *, timeout: float = 5.0, max_dot_bytes: int = 512_000) -> PendingDot:
    """Start drawing now; ``svg_result(pending)`` collects the picture (or raises DiagramError)."""
    return PendingDot(dot_source, "svg", timeout, max_dot_bytes)


def svg_result(pending: PendingDot) -> str:
    return _clean_svg(pending.result())


def render_svg(dot_source: str, *, timeout: float = 5.0, max_dot_bytes: int = 512_000) -> str:
    """SVG for inlining in HTML: no XML prolog, DOCTYPE or comments, no links or scripts."""
    return _clean_svg(_run_dot(dot_source, "svg", timeout, max_dot_bytes))


def _clean_svg(raw: bytes) -> str:
    svg = raw.decode("utf-8", errors="replace")
    start = svg.find("<svg")
    if start < 0:
        raise DiagramError(_("Graphviz did not return an SVG picture."))
    svg = re.sub(r"<!--.*?-->\n?", "", svg[start:], flags=re.S)
    svg = re.sub(r"<script\b.*?(?:</script\s*>|$)", "", svg, flags=re.S | re.I)
    svg = re.sub(r"</?a\b[^>]*>", "", svg, flags=re.I)
    return GENERATED_TITLE.sub("", svg)


def render_png(dot_source: str, *, timeout: float = 5.0, max_dot_bytes: int = 512_000) -> bytes:
    """PNG bytes of the same drawing, for downloads."""
    return _run_dot(dot_source, "png", timeout, max_dot_bytes)

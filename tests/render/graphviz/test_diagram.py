"""The sharing diagram: DOT golden files, the SVG that `dot` draws, hostile names and the limits on `dot`."""
from __future__ import annotations

import dataclasses
import re
import time
import xml.etree.ElementTree as ET

import pytest

from explainer.explain import PodReport, explain
from explainer.lifecycle.sharing.analyse import analyse_sharing
from explainer.render.graphviz.diagram import (DiagramError, dot_key, pod_to_dot, render_png, render_svg, sharing_diagram,
                                      short_image, start_svg, svg_result)
from tests.conftest import load_manifest

DEBUG = "debug: [{name: debugger, image: 'busybox:1.36', target: app, at: 20, runSeconds: 30}]"
CASES = [
    ("lifecycle-demo", "seeds/lifecycle-demo", None),
    ("web-app-pod", "seeds/web-app-pod", None),
    ("process-sharing-example", "seeds/process-sharing-example", DEBUG),
    ("sharing_port_conflict", "pods/sharing_port_conflict", None),
    ("traffic_web", "pods/traffic_web", None),                                   # a Service of the input
    ("service_target_port_missing", "findings/service-target-port-missing/fires", None),
]
HOSTILE_NAMES = ['a"b', "x:y", "<b>", "]", "->", "{", "|", "back\\slash", "new\nline", "<script>x</script>"]


def _report(fixture: str, scenario: str | None = None) -> PodReport:
    return explain(load_manifest(fixture), scenario).pods[0]


def _svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def _assert_inert(svg: str) -> None:
    root = ET.fromstring(svg)
    tags = {el.tag.rsplit("}", 1)[-1].lower() for el in root.iter()}
    assert not tags & {"script", "a", "foreignobject", "iframe"}, tags
    handlers = [name for el in root.iter() for name in el.attrib if name.lower().startswith("on")]
    assert not handlers


@pytest.mark.parametrize("case,fixture,scenario", CASES, ids=[c[0] for c in CASES])
def test_diagram_matches_golden(case: str, fixture: str, scenario: str | None, golden) -> None:
    golden(f"{case}/diagram.dot", sharing_diagram(_report(fixture, scenario)))


@pytest.mark.parametrize("case,fixture,scenario", CASES, ids=[c[0] for c in CASES])
def test_rendered_svg_is_xml_with_every_container_name(case: str, fixture: str, scenario: str | None) -> None:
    report = _report(fixture, scenario)
    svg = render_svg(sharing_diagram(report))
    assert svg.startswith("<svg") and "<?xml" not in svg and "<!--" not in svg
    texts = _svg_texts(svg)
    debug = report.simulation.debug_containers if report.simulation else []
    for c in list(report.pod.all_containers) + list(debug):
        assert any(t == c.name for t in texts), c.name
    _assert_inert(svg)


def test_node_ids_are_generated_and_names_stay_in_labels() -> None:
    dot = sharing_diagram(_report("seeds/web-app-pod"))
    ids = re.findall(r"^\s*(\S+) \[label=", dot, flags=re.M)
    assert ids == [f"n{i}" for i in range(len(ids))]
    edges = re.findall(r"^\s*(\S+) -> (\S+)", dot, flags=re.M)
    assert edges and all(re.fullmatch(r"n\d+", end) for edge in edges for end in edge)


def test_process_sharing_debug_container_joins_the_pod_pid_namespace() -> None:
    dot = sharing_diagram(_report("seeds/process-sharing-example", DEBUG))
    assert "ephemeral container · busybox:1.36" in dot
    assert "one process tree, PID 1 is pause" in dot
    assert "own PID namespace" not in dot


def test_debug_container_with_target_is_linked_to_the_target_pid_namespace() -> None:
    report = _report("pods/sharing_ephemeral_target", DEBUG)
    dot = sharing_diagram(report)
    note = re.search(r"^\s*(n\d+) \[label=<.*PID namespace of app, joined with --target", dot, flags=re.M)
    ids = dict(re.findall(r"^\s*(n\d+) \[label=<<B>(\w+)</B>", dot, flags=re.M))
    linked = {ids[head] for tail, head in re.findall(r"^\s*(n\d+) -> (n\d+) \[style=dotted\]", dot, flags=re.M)
              if tail == note.group(1)}
    assert linked == {"app", "debugger"}
    assert dot.count("own PID namespace") == 1   # helper keeps its own


def test_a_service_of_the_input_is_tied_to_the_containers_its_ports_reach() -> None:
    """docs/lifecycle-model.md §27.1: the Service, the workload it selects, each port to its container."""
    dot = sharing_diagram(_report("pods/traffic_web"))
    assert "<B>Service web</B>" in dot and "selects Deployment web" in dot
    assert '[label=<80 → http> arrowhead=normal class="service-port"' in dot
    missing = sharing_diagram(_report("findings/service-target-port-missing/fires"))
    assert "targetPort http: no container declares it" in missing and 'class="service-port missing"' in missing
    assumed = sharing_diagram(_report("pods/traffic_bare_pod"))   # an assumed Service is not drawn
    assert 'class=service' not in assumed and "Service" not in assumed


def test_port_conflicts_are_red_edges_to_the_network() -> None:
    dot = sharing_diagram(_report("pods/sharing_port_conflict"))
    ids = dict(re.findall(r"^\s*(n\d+) \[label=<<B>(\w+)</B>", dot, flags=re.M))
    red = re.findall(r"^\s*n\d+ -> (n\d+) \[label=<8080/TCP conflict> class=conflict color=\"#dc2626\"",
                     dot, flags=re.M)
    # early runs before the proxy sidecar starts, so only these three ever hold 8080 together.
    assert sorted(ids[n] for n in red) == ["app", "proxy", "warmup"]


def test_undeclared_mount_is_a_red_volume() -> None:
    dot = sharing_diagram(_report("pods/sharing_undeclared_mount"))
    assert re.search(r'<B>cache</B>.*not declared in spec.volumes.*class="volume undeclared" color="#dc2626"', dot)
    assert re.search(r'label=</cache · rw> color="#dc2626"', dot)


def test_host_namespaces_are_drawn_in_a_node_box_outside_the_pod() -> None:
    dot = sharing_diagram(_report("pods/sharing_host_namespaces"))
    outside = dot.split("subgraph cluster_node", 1)[1]
    assert "Node (hostNetwork, hostIPC, hostPID)" in outside
    assert "the node&#x27;s IP and ports" in outside and "every process on the node" in outside
    assert "cluster_shared" not in dot


def test_read_only_mounts_are_dashed_and_read_write_solid() -> None:
    dot = sharing_diagram(_report("seeds/web-app-pod"))
    assert re.search(r"label=</run/secrets · ro> .*style=dashed", dot)
    assert re.search(r"label=</var/www/static · rw> .*style=solid", dot)


def test_labels_go_through_gettext() -> None:
    zh = {"Pod {name}": "Pod {name}（容器组）", "init container": "Init 容器", "Legend": "图例"}
    dot = sharing_diagram(_report("seeds/lifecycle-demo"), gettext=lambda s: zh.get(s, s))
    assert "Pod lifecycle-demo（容器组）" in dot and "Init 容器 · alpine:3.20" in dot and "图例" in dot
    ET.fromstring(render_svg(dot))


def test_hostile_manifest_renders_inert() -> None:
    report = _report("pods/hostile_names")
    dot = sharing_diagram(report)
    svg = render_svg(dot)
    _assert_inert(svg)
    texts = "\n".join(_svg_texts(svg))
    # Shown as text, character for character (newlines as \n, the long image cut short).
    for shown in ['a"b:<script>alert(1)</script>', "x:y]{|}->\\", '/data/"]; n0 -> n1 [label="x',
                  "sub\\path\\n<b>bold</b>", "/x:y/{a|b}/->/\\\\server\\share", "</TD></TR></TABLE>>];\\n digraph",
                  "/run/&amp;\\l\\N\\G\\t\\u202e<script>", ']"-->', '<i>h"t</i>', "secret/<script>alert('secret')"]:
        assert shown in texts, shown
    nodes = len(re.findall(r"^\s*n\d+ \[label=", dot, flags=re.M))
    assert len(re.findall(r'<g id="node\d+" class="node', svg)) == nodes


def test_hostile_container_names_neither_break_dot_nor_inject_markup() -> None:
    pod = _report("pods/hostile_names").pod
    renamed = {c.name: name for c, name in zip(pod.all_containers, HOSTILE_NAMES)}
    rename = [dataclasses.replace(c, name=renamed[c.name]) for c in pod.all_containers]
    hostile = dataclasses.replace(pod, name='pod"] -> evil <x>', init_containers=tuple(rename[:2]),
                                  containers=tuple(rename[2:]))
    svg = render_svg(pod_to_dot(hostile, analyse_sharing(hostile)))
    _assert_inert(svg)
    texts = _svg_texts(svg)
    assert [n for n in renamed.values() if n in texts] == list(renamed.values())
    assert 'Pod pod"] -> evil <x>' in texts


def test_oversize_dot_is_refused_before_running_dot() -> None:
    dot = sharing_diagram(_report("seeds/web-app-pod"))
    with pytest.raises(DiagramError, match="too large to draw"):
        render_svg(dot, max_dot_bytes=1_000)


def test_slow_dot_is_stopped_at_the_time_limit() -> None:
    dot = "digraph { " + " ".join(f"a{i} -> a{i + 1};" for i in range(2_000)) + " }"
    with pytest.raises(DiagramError, match="longer than 0.001 s"):
        render_svg(dot, timeout=0.001)
    with pytest.raises(DiagramError, match="longer than"):
        render_png(dot, timeout=0.001)


def test_missing_dot_is_a_clear_message(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(DiagramError) as caught:
        render_svg(sharing_diagram(_report("seeds/lifecycle-demo")))
    assert caught.value.message == ("The Graphviz `dot` program is not installed; "
                                    "install the Debian package graphviz.")


def test_dot_syntax_error_is_a_diagram_error() -> None:
    with pytest.raises(DiagramError, match="Graphviz could not draw the diagram: .*syntax error"):
        render_svg("digraph { a -> }")


def test_diagram_error_message_translates() -> None:
    with pytest.raises(DiagramError) as caught:
        render_svg("digraph {}", max_dot_bytes=5)
    zh = {"The diagram is too large to draw: {size} bytes of DOT, more than the limit of {limit}.":
          "图太大：{size} 字节，上限 {limit}。"}
    assert caught.value.text.render(lambda s: zh.get(s, s)) == "图太大：10 字节，上限 5。"


def test_png_is_a_png() -> None:
    assert render_png(sharing_diagram(_report("seeds/lifecycle-demo"))).startswith(b"\x89PNG\r\n\x1a\n")


def test_svg_loses_links_and_scripts_even_if_dot_made_them() -> None:
    svg = render_svg('digraph { a [URL="https://example.com" tooltip="hi"] }')
    assert "<a" not in svg and "xlink:href" not in svg
    ET.fromstring(svg)


@pytest.mark.parametrize("image,short", [
    ("alpine:3.20", "alpine:3.20"),
    ("bitnami/postgresql:16", "bitnami/postgresql:16"),
    ("registry.example.com/app:${APP_VERSION}", "app:${APP_VERSION}"),
    ("localhost:5000/team/tool", "team/tool"),
    ("nginx@sha256:" + "a" * 64, "nginx@sha256:aaaaaaaaaaaa"),
])
def test_short_image(image: str, short: str) -> None:
    assert short_image(image) == short


def test_dot_gets_its_input_when_started_so_the_layout_runs_meanwhile() -> None:
    pending = start_svg('digraph { a -> b }')
    deadline = time.monotonic() + 10
    while pending.proc.poll() is None and time.monotonic() < deadline:   # nobody has called result() yet
        time.sleep(0.005)
    assert pending.proc.returncode == 0
    assert "<svg" in svg_result(pending)


def test_dot_larger_than_a_pipe_buffer_is_written_while_dot_reads() -> None:
    padding = "/* padding */\n" * 20_000   # 300 KB
    svg = render_svg("digraph { " + padding + " a -> b }")
    assert "<svg" in svg and ">a</text>" in svg
    with pytest.raises(DiagramError, match="syntax error"):   # dot stops reading half-way: no hang
        render_svg("digraph { a -> } " + padding)


def test_dot_key_is_by_text_and_format() -> None:
    dot = sharing_diagram(_report("seeds/lifecycle-demo"))
    assert dot_key(dot) == dot_key(str(dot)) != dot_key(dot + " ") and dot_key(dot) != dot_key(dot, "png")
    assert re.fullmatch(r"dot:svg:[0-9a-f]{64}", dot_key(dot))


def test_mounts_at_different_subpaths_meet_at_different_nodes() -> None:
    """Two containers at different subPaths of one volume see different directories
    (docs/lifecycle-model.md §32.1): each directory is its own node, so the diagram draws no shared folder between them."""
    from explainer.explain import explain as _explain
    from explainer.render.graphviz.diagram import sharing_diagram as _diagram
    from tests.lifecycle.test_volumes import POD
    dot = _diagram(_explain(POD).pods[0])
    assert 'data/writer' in dot and 'data/reader' in dot and 'class="volume subpath"' in dot

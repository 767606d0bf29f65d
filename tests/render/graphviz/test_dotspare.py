"""explainer.render.graphviz.dotspare: a warmed-up dot draws the same picture as a fresh one.

Byte for byte but for one thing: Graphviz keeps a graph's clusters in the order of the memory
addresses of their interned names (cgraph's default id discipline), so a dot that has already
read a graph may list sibling clusters in another order and number them (``clustN``) otherwise.
Sibling clusters do not overlap, so the picture is the same; the comparison sorts them.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from explainer.examples import EXAMPLES
from explainer.explain import explain
from explainer.render.graphviz import dotspare
from explainer.render.graphviz.diagram import DiagramError, PendingDot, render_svg, sharing_diagram, start_svg, svg_result


def _fresh(dot: str) -> bytes:
    return PendingDot(dot, "svg", 10, 512_000, spare=False).result()


def _warm(dot: str) -> bytes:
    dotspare.refill(shutil.which("dot") or "dot")
    pending = PendingDot(dot, "svg", 10, 512_000)
    assert pending.warm
    return pending.result()


DIAGRAMS = [sharing_diagram(p) for e in EXAMPLES for p in explain(e.manifest(), e.scenario or None).pods]


_CLUSTER = re.compile(rb'<g id="clust\d+" class="cluster">.*?</g>\n', re.S)


def _picture(svg: bytes) -> tuple[bytes, list[bytes]]:
    """The SVG without its cluster groups, and those groups sorted, their numbering left out."""
    clusters = sorted(re.sub(rb'id="clust\d+"', b"", c) for c in _CLUSTER.findall(svg))
    return _CLUSTER.sub(b"", svg), clusters


@pytest.mark.parametrize("dot", DIAGRAMS, ids=[f"diagram-{i}" for i in range(len(DIAGRAMS))])
def test_a_warm_dot_draws_exactly_what_a_fresh_one_draws(dot: str) -> None:
    warm, fresh = _warm(dot), _fresh(dot)
    assert _picture(warm) == _picture(fresh)
    assert len(_CLUSTER.findall(fresh)) >= 2     # the comparison did see the clusters


def test_collecting_a_drawing_leaves_a_warm_spare_for_the_next() -> None:
    render_svg(DIAGRAMS[0])
    pending = start_svg(DIAGRAMS[1])
    assert pending.warm
    assert _picture(svg_result(pending).encode()) == _picture(render_svg(DIAGRAMS[1]).encode())


def test_dot_errors_read_as_from_a_fresh_dot() -> None:
    with pytest.raises(DiagramError) as fresh:
        PendingDot("digraph { a -> }", "svg", 10, 512_000, spare=False).result()
    render_svg(DIAGRAMS[0])   # a spare is ready
    with pytest.raises(DiagramError) as warm:
        render_svg("digraph { a -> }")
    assert warm.value.message == fresh.value.message
    assert "line 1" in warm.value.message


def test_a_warm_dot_is_stopped_at_the_time_limit() -> None:
    render_svg(DIAGRAMS[0])
    slow = "digraph { " + " ".join(f"a{i} -> a{i + 1};" for i in range(2_000)) + " }"
    with pytest.raises(DiagramError, match="longer than 0.001 s"):
        render_svg(slow, timeout=0.001)


def test_a_spare_from_another_process_is_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    proc = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    monkeypatch.setattr(dotspare, "_spare", (os.getpid() + 1, proc, proc.stdin.fileno()))
    assert dotspare.take() is None
    assert proc.poll() is None   # not ours to stop
    proc.stdin.close()
    proc.wait()


def test_unwrap_refuses_anything_but_two_svg_documents() -> None:
    one = _fresh("digraph g { a }")
    assert dotspare.unwrap(one) is None
    assert dotspare.unwrap(one + b"garbage") is None
    two = subprocess.run(["dot", "-Tsvg"], input=dotspare.WARM_UP + b"digraph g { a }", capture_output=True).stdout
    assert dotspare.unwrap(two) == one
    anonymous = subprocess.run(["dot", "-Tsvg"], input=dotspare.WARM_UP + b"digraph { a }", capture_output=True)
    assert dotspare.unwrap(anonymous.stdout) is None   # left to a fresh dot
    assert render_svg("digraph { a }") == render_svg("digraph { a }")

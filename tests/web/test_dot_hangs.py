"""A `dot` that hangs (issue 27): each run stops at its own time limit, a request that finds every drawing
slot taken is told "busy" at once instead of queueing behind the hung runs, and a picture that failed for a
passing reason (busy, timed out) is never cached as the answer for its input."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from django.test import Client

from explainer.render.graphviz import dot as dotmod, dotspare, processes
from explainer.render.graphviz.diagram import DiagramError, start_svg, svg_result
from tests.conftest import load_manifest

pytestmark = pytest.mark.django_db
DEMO = load_manifest("seeds/lifecycle-demo")


@pytest.fixture
def hanging_dot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`dot` on PATH is a program that never answers (and no warm spare of the real one is left)."""
    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\nexec sleep 600\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    spare = dotspare.take()
    if spare is not None:
        proc, stdin = spare
        proc.kill()
        proc.communicate()
    return fake


def test_with_every_slot_held_by_a_hung_dot_the_next_picture_is_busy_at_once(hanging_dot: Path) -> None:
    hung = [start_svg("digraph { a }", timeout=60) for _ in range(processes.MAX_PROCESSES)]
    try:
        started = time.monotonic()
        with pytest.raises(DiagramError) as caught:
            svg_result(start_svg("digraph { b }", timeout=60))
        waited = time.monotonic() - started
        assert caught.value.transient and "drawing too many pictures at once" in caught.value.message
        assert waited < 5, f"waited {waited:.1f} s in line behind runs that hang (their limit: 60 s)"
    finally:
        for pending in hung:
            pending._done()          # stop them: their slots come back


def test_a_hung_run_stops_at_its_own_limit_and_says_so(hanging_dot: Path) -> None:
    with pytest.raises(DiagramError) as caught:
        svg_result(start_svg("digraph { a }", timeout=0.5))
    assert caught.value.transient and "longer than 0.5 s" in caught.value.message
    assert processes.SLOTS.acquire(blocking=False)     # its slot is free again
    processes.SLOTS.release()


def test_a_page_whose_diagram_timed_out_is_not_cached(hanging_dot: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    usual = dotmod.DOT_SECONDS
    monkeypatch.setattr(dotmod, "DOT_SECONDS", 0.5)
    client = Client()
    form = {"manifest": DEMO, "version": "1.34"}
    first = client.post("/", form, HTTP_HX_REQUEST="true").content.decode()
    assert "longer than 0.5 s" in first
    monkeypatch.setenv("PATH", "/usr/bin:/bin")     # dot works again, with its usual limit (a loaded machine's
    monkeypatch.setattr(dotmod, "DOT_SECONDS", usual)   # real dot may take more than 0.5 s)
    again = client.post("/", form, HTTP_HX_REQUEST="true").content.decode()
    assert "longer than 0.5 s" not in again and 'class="scroll diagram"' in again


def test_pages_beside_hung_runs_answer_busy_without_waiting_in_line(hanging_dot: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dotmod, "DOT_SECONDS", 30)
    hung = [start_svg("digraph { a }", timeout=60) for _ in range(processes.MAX_PROCESSES)]
    answers: list[tuple[float, str]] = []

    def one(i: int) -> None:
        started = time.monotonic()
        body = Client().post("/", {"manifest": DEMO.replace("lifecycle-demo", f"demo-{i}"), "version": "1.34"},
                             HTTP_HX_REQUEST="true").content.decode()
        answers.append((time.monotonic() - started, body))

    try:
        threads = [threading.Thread(target=one, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        for pending in hung:
            pending._done()
    assert len(answers) == 3
    for waited, body in answers:
        assert "drawing too many pictures at once" in body
        assert waited < 10, f"a page waited {waited:.1f} s behind runs that hang"

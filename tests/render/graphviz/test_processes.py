"""At most a few drawing processes per server process; running out of descriptors says so (issue 11)."""
from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from pathlib import Path

from explainer.render.graphviz import processes
from explainer.render.graphviz.diagram import start_svg, svg_result

ROOT = Path(__file__).resolve().parents[3]
DOT = 'digraph g { a -> b; label="%d" }'


def _free_slots() -> int:
    taken = 0
    while processes.SLOTS.acquire(blocking=False):
        taken += 1
    for _ in range(taken):
        processes.SLOTS.release()
    return taken


def test_many_pictures_at_once_run_at_most_the_limit_of_processes_and_all_finish() -> None:
    pending = [start_svg(DOT % i) for i in range(3 * processes.MAX_PROCESSES + 1)]
    assert sum(p.proc is not None for p in pending) == processes.MAX_PROCESSES   # the rest wait in line
    svgs = [svg_result(p) for p in pending]
    assert all(s.startswith("<svg") for s in svgs)
    assert _free_slots() == processes.MAX_PROCESSES


def test_a_picture_started_and_never_collected_gives_its_slot_back() -> None:
    pending = start_svg(DOT % 1)
    proc = pending.proc
    assert proc is not None and _free_slots() == processes.MAX_PROCESSES - 1
    del pending
    gc.collect()
    assert proc.poll() is not None and _free_slots() == processes.MAX_PROCESSES


def test_running_out_of_file_descriptors_is_reported_as_such() -> None:
    code = textwrap.dedent("""
        import os, resource
        from explainer.render.graphviz.diagram import DiagramError, render_svg
        from explainer.render.graphviz.png import PngError, svg_to_png
        render_svg("digraph { a }")            # warm up: imports done, dot found
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        keep = []
        try:
            while True:
                keep.append(os.open(os.devnull, os.O_RDONLY))
        except OSError:
            pass
        for fd in keep[-2:]:                   # leave too few for three pipes
            os.close(fd)
        for draw in (lambda: render_svg("digraph { a }"), lambda: svg_to_png("<svg xmlns='http://www.w3.org/2000/svg'/>")):
            try:
                draw()
            except (DiagramError, PngError) as exc:
                print(exc)
    """)
    done = subprocess.run([sys.executable, "-c", "import resource; resource.setrlimit(resource.RLIMIT_NOFILE, "
                           "(256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))\n" + code],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 2, done.stdout + done.stderr
    assert all("file descriptors" in line and "not installed" not in line for line in lines), lines

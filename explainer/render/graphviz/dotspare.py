"""One `dot -Tsvg` per process kept ready, its fonts already loaded, for the next diagram.

Most of a cold `dot` run on our diagrams is start-up: loading plugins and fonts (fontconfig,
pango) before the first label is measured, ~60% of the run for lifecycle-demo.  dot reads
graph after graph from its standard input, so a spare is started with a tiny warm-up graph
(padded past the reader's buffer, so dot parses and draws it at once) and left waiting.  The
next diagram is written after it and the input closed: dot draws it warm, and of the two SVG
documents it prints the second is kept.  Its root group's id is the only thing dot names
differently for a second graph ("page0,1_graph0"), so that is put back.  The picture is then
what a fresh dot draws (tested), byte for byte but for the order and numbering (``clustN``) of
sibling clusters, which cgraph keeps in the order of their interned names' addresses: a dot
that has read a graph before may list them otherwise.  Sibling clusters do not overlap, so
nothing a reader sees changes.  Anything unexpected (an error, an odd output) is
left to a fresh run, which also gives dot's error message its own line numbers.

A spare belongs to the process that started it (a forked worker never uses its parent's) and
serves one diagram; the next is started when that diagram is collected, so its warm-up runs
between requests, not during one.
"""
from __future__ import annotations

import os
import re
import subprocess
import threading

FONT = "Helvetica,Arial,sans-serif"
WARM_UP = (f'digraph {{ w [shape=box fontname="{FONT}" label=<<B>w</B><BR/><FONT POINT-SIZE="8">w</FONT>>] }}\n'
           + " " * 32_768 + "\n").encode()
_END = b"</svg>\n"
_SECOND_ID = re.compile(rb'<g id="page0,1_graph0" class="graph"')

_lock = threading.Lock()
_spare: tuple[int, subprocess.Popen, int] | None = None   # (owner pid, process, its stdin)


def take() -> tuple[subprocess.Popen, int] | None:
    """The spare (process, fd of its standard input) if this process has a live one."""
    global _spare
    with _lock:
        spare, _spare = _spare, None
    if spare is None:
        return None
    owner, proc, stdin = spare
    if owner != os.getpid():   # inherited through fork: the parent's, not ours to use or close
        return None
    if proc.poll() is not None:
        os.close(stdin)
        proc.communicate()
        return None
    return proc, stdin


def refill(dot: str) -> None:
    """Start a spare unless this process has one."""
    global _spare
    with _lock:
        if _spare is not None and _spare[0] == os.getpid():
            return
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.Popen([dot, "-Tsvg"], stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError:
        os.close(write_end)
        return
    finally:
        os.close(read_end)
    os.set_blocking(write_end, False)
    try:
        complete = os.write(write_end, WARM_UP) == len(WARM_UP)   # fits a pipe's 64 KiB buffer
    except OSError:
        complete = False
    os.set_blocking(write_end, True)
    if not complete:
        os.close(write_end)
        proc.kill()
        proc.communicate()
        return
    with _lock:
        old, _spare = _spare, (os.getpid(), proc, write_end)
    if old is not None and old[0] == os.getpid():   # lost a race: keep one
        os.close(old[2])
        old[1].kill()
        old[1].communicate()


def unwrap(out: bytes) -> bytes | None:
    """The second SVG document of a spare's output, as a fresh dot prints it; None if odd."""
    first = out.find(_END)
    if first < 0:
        return None
    second = out[first + len(_END):]
    if not second.startswith(b"<?xml") or not second.endswith(_END) or second.count(_END) != 1:
        return None
    if b"<title>%" in second:   # an anonymous graph: dot numbers those across the run
        return None
    fixed, n = _SECOND_ID.subn(b'<g id="graph0" class="graph"', second, count=1)
    return fixed if n == 1 else None

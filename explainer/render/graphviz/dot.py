"""The bounded `dot` run that draws a diagram: at most a few processes at once, bounded in input
size and time, a warm spare for SVG (`dotspare.py`), and the SVG cleaned for inlining (issue 6, 11)."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import threading
import time
import weakref

from . import dotspare, processes
from ..i18n import Text, gettext_noop as _

# Each `dot` run's own time limit (issue 27: a run that hangs is stopped then, and meanwhile other requests
# are told "busy" at once, processes.py).  Our diagrams take ~15 ms.
DOT_SECONDS = float(os.environ.get("EXPLAINER_DOT_SECONDS", "5"))
GENERATED_TITLE = re.compile(r"<title>(?:n\d+(?:&#45;&gt;n\d+)?|cluster_\w+|pod)</title>\n?")
NOT_INSTALLED = _("The Graphviz `dot` program is not installed; install the Debian package graphviz.")


class DiagramError(Exception):
    """The diagram could not be drawn: ``message`` says why in English, ``text`` translates.
    ``transient``: the server was busy or the run timed out, so another moment may draw it (the
    answer is not cached; a diagram over the size limit or one dot refuses is)."""

    def __init__(self, message: str | Text, transient: bool = False) -> None:
        self.text = message if isinstance(message, Text) else Text(message)
        self.message = self.text.render()
        self.transient = transient
        super().__init__(self.message)


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
                raise DiagramError(processes.BUSY, transient=True)
            self._start()
        assert self.proc is not None
        try:
            out, err = self.proc.communicate(timeout=max(0.01, self.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self._done()
            raise DiagramError(Text(_("Graphviz took longer than {seconds} s to draw the diagram, so it was "
                                      "stopped."), {"seconds": f"{self.timeout:g}"}), transient=True) from None
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


def start_svg(dot_source: str, *, timeout: float | None = None, max_dot_bytes: int = 512_000) -> PendingDot:
    """Start drawing now; ``svg_result(pending)`` collects the picture (or raises DiagramError)."""
    return PendingDot(dot_source, "svg", DOT_SECONDS if timeout is None else timeout, max_dot_bytes)


def svg_result(pending: PendingDot) -> str:
    return _clean_svg(pending.result())


def render_svg(dot_source: str, *, timeout: float | None = None, max_dot_bytes: int = 512_000) -> str:
    """SVG for inlining in HTML: no XML prolog, DOCTYPE or comments, no links or scripts."""
    return _clean_svg(_run_dot(dot_source, "svg", DOT_SECONDS if timeout is None else timeout, max_dot_bytes))


def _clean_svg(raw: bytes) -> str:
    svg = raw.decode("utf-8", errors="replace")
    start = svg.find("<svg")
    if start < 0:
        raise DiagramError(_("Graphviz did not return an SVG picture."))
    svg = re.sub(r"<!--.*?-->\n?", "", svg[start:], flags=re.S)
    svg = re.sub(r"<script\b.*?(?:</script\s*>|$)", "", svg, flags=re.S | re.I)
    svg = re.sub(r"</?a\b[^>]*>", "", svg, flags=re.I)
    return GENERATED_TITLE.sub("", svg)


def render_png(dot_source: str, *, timeout: float | None = None, max_dot_bytes: int = 512_000) -> bytes:
    """PNG bytes of the same drawing, for downloads."""
    return _run_dot(dot_source, "png", DOT_SECONDS if timeout is None else timeout, max_dot_bytes)

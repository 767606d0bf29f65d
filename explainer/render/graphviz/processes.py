"""How many `dot` and `rsvg-convert` processes one server process may run at once (issue 11).

A page with many Pods, or many requests at once, would otherwise start a drawing process for
each: a thousand at a time exhaust memory and file descriptors.  A bounded semaphore gives out
``MAX_PROCESSES`` slots per process; a request that finds none free waits at most
``QUEUE_SECONDS`` (a quarter of a second: a run about to end hands its slot over) and is then
told that the server is busy.  Each run has its own time-out (dot.py, png.py), so while a `dot`
hangs, other requests get "busy" at once instead of queueing behind it (issue 27: in line for
10 s, then 5 s more for a run of their own, every thread of a worker stalled 5-20 s).  Failing to
start a process for lack of file descriptors or processes is reported as that, not as a missing
program.
"""
from __future__ import annotations

import errno
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..i18n import Text, gettext_noop as _

MAX_PROCESSES = max(1, int(os.environ.get("EXPLAINER_MAX_RENDER_PROCESSES", "2")))
QUEUE_SECONDS = float(os.environ.get("EXPLAINER_RENDER_QUEUE_SECONDS", "0.25"))
SLOTS = threading.BoundedSemaphore(MAX_PROCESSES)

BUSY = _("The server is drawing too many pictures at once; try again in a moment.")
NO_DESCRIPTORS = _("The server has run out of file descriptors (too many open files), so it could not start "
                   "{program}; try again in a moment.")
NO_PROCESSES = _("The server could not start {program}: {reason}.")


class Busy(Exception):
    """No slot became free within ``QUEUE_SECONDS``."""

    transient = True   # another moment may draw it: never cached as the picture's answer


@contextmanager
def slot(timeout: float = QUEUE_SECONDS) -> Iterator[None]:
    """Hold one of the process slots for the duration of the block (waiting for one in line)."""
    if not SLOTS.acquire(timeout=timeout):
        raise Busy(Text(BUSY).render())
    try:
        yield
    finally:
        SLOTS.release()


def start_failure(exc: OSError, program: str) -> Text | None:
    """What went wrong when ``program`` could not be started, unless it is simply missing (None)."""
    if exc.errno in (errno.EMFILE, errno.ENFILE):
        return Text(NO_DESCRIPTORS, {"program": program})
    if exc.errno in (errno.EAGAIN, errno.ENOMEM):
        return Text(NO_PROCESSES, {"program": program, "reason": os.strerror(exc.errno)})
    return None

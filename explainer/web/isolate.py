"""Costly work out of the worker's interpreter (issue 27: no small request may exhaust a worker).

`gated(inputs, work)` runs ``work()`` as it is when the inputs are light.  When they are costly (gate.py) it
takes one of the service's slots and runs ``work()`` in a child process forked for it: the child lowers its
own priority, computes, sends the result back pickled through a pipe and exits; the worker's thread waits on
the pipe without holding the interpreter lock, so the worker's other threads (short requests, ``/healthz``)
run on as if nothing were going on, and the CPU scheduler serves them first.  A child that runs past
``COSTLY_SECONDS`` is killed and the request answered "busy" (`gate.ServerBusy`); an exception in the child is
raised again in the worker (a `ManifestError` is answered as it would have been).

The child is a fork of a threaded worker: it uses only its own thread, it opens a database connection of its
own if it needs one (those of the worker are put aside, never closed: closing would end the worker's session),
its `dot` slots, cache locks and single-flight locks are its own (another thread of the worker may have held
them at the fork), and it ends with ``os._exit`` (no exit handler of the worker runs in it).
"""
from __future__ import annotations

import os
import pickle
import select
import signal
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

from django.conf import settings
from django.core.cache import caches
from django.db import connections

from explainer.render.graphviz import processes
from explainer.web import cache as shared
from explainer.web.gate import ServerBusy, costly, costly_slot

T = TypeVar("T")
CHILD_NICENESS = 10          # below the worker: a short request is served before the costly child
_in_child = False            # True in a child: work it gates runs there at once (it already holds the slot)
_holding = threading.local()  # a thread that holds a slot runs nested costly work in the same child
_put_aside: list[Any] = []   # the worker's database connections, never closed by the child


class _Failed:
    """An exception of the child that could not be pickled: its type name and message."""

    def __init__(self, exc: BaseException) -> None:
        self.text = f"{type(exc).__name__}: {exc}"


def gated(inputs: Iterable[tuple[str, Any]], work: Callable[[], T], before: Callable[[], None] | None = None) -> T:
    """``work()``; in a child process holding one of the service's slots when ``inputs`` are costly.

    ``before()`` runs in the worker just before the work, once a slot is held: what it counts (a costly read
    against the client's rate limit) is not counted for a request that was only told the server is busy.
    Nested in a child's work, ``before`` is left out: the child never touches the database (its caller counts
    what the child will do)."""
    if _in_child:   # the worker that forked this child has counted what it does: no database here
        return work()
    if getattr(_holding, "yes", False) or not costly(*inputs):
        if before is not None:
            before()
        return work()
    with costly_slot():
        if before is not None:
            before()
        _holding.yes = True
        try:
            return run_isolated(work)
        finally:
            _holding.yes = False


def run_isolated(work: Callable[[], T], seconds: float | None = None) -> T:
    """``work()`` computed in a forked child; `ServerBusy` when it takes longer than ``seconds``."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: never returns
        os.close(read)
        _child(work, write)
    os.close(write)
    try:
        data = _read_all(read, time.monotonic() + (settings.COSTLY_SECONDS if seconds is None else seconds), pid)
    finally:
        os.close(read)
    ok, value = pickle.loads(data) if data else (False, _Failed(RuntimeError("the child process ended without an "
                                                                                 "answer")))
    if ok:
        return cast(T, value)
    if isinstance(value, _Failed):
        raise RuntimeError(f"costly work failed in its child process: {value.text}")
    raise value


def _read_all(fd: int, deadline: float, pid: int) -> bytes:
    chunks: list[bytes] = []
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise ServerBusy()   # ran too long: killed below
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        raise
    finally:
        os.waitpid(pid, 0)


def _child(work: Callable[[], Any], fd: int) -> None:
    global _in_child
    code = 1
    try:
        _in_child = True
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2,
                    signal.SIGWINCH, signal.SIGABRT):
            signal.signal(sig, signal.SIG_DFL)   # the worker's handlers (gunicorn's) are not the child's
        os.nice(CHILD_NICENESS)
        for conn in connections.all(initialized_only=True):
            _put_aside.append(conn.connection)
            conn.connection = None               # a fresh one if the work needs the database
        processes.SLOTS = type(processes.SLOTS)(processes.MAX_PROCESSES)   # the worker's holders are not here
        # locks another thread of the worker held at the fork stay held here for ever: fresh ones
        shared._FLIGHTS, shared._FLIGHTS_LOCK = {}, threading.Lock()
        for backend in caches.all(initialized_only=True):
            if hasattr(backend, "_lock"):
                backend._lock = threading.Lock()
        try:
            payload = pickle.dumps((True, work()), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:   # sent back and raised in the worker
            try:
                payload = pickle.dumps((False, exc), protocol=pickle.HIGHEST_PROTOCOL)
                pickle.loads(payload)
            except BaseException:
                payload = pickle.dumps((False, _Failed(exc)), protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view):]
        code = 0
    finally:
        os._exit(code)

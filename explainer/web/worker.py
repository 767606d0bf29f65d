"""The gunicorn worker of this service (gunicorn.conf.py's ``worker_class``): gthread, with a lane for the probes.

gthread hands every connection that has a request to read to one pool of ``threads`` threads, first come first
served.  When every thread is busy (requests waiting for a `dot` run or for a costly slot, gate.py), a probe
waits behind every request queued before it: `make loadtest` saw ``/healthz`` take 1.1-1.7 s while new
diagrams were drawn at saturation.  The readiness probe of deploy/kubernetes/web.yaml times out after 1 s and
takes the Pod out of its Service after two failures, so a busy Pod would be sent away from its work and its
load pushed onto the others, the moment they are busiest too.

`ProbeLaneWorker` reads the first bytes of each request without consuming them (``MSG_PEEK``): a
``GET /healthz`` or ``GET /livez`` is answered by a pool of its own (``PROBE_THREADS`` threads), which the
other requests never fill.  A new connection whose request has not arrived yet waits on the worker's poller,
not in a thread, until there is something to read (gthread would hold a thread for up to 5 s first).
Everything else, including how a probe is answered, is gthread's own code: the probe runs the same
`handle` and the same Django views; only its queue differs.  A probe still shares the worker's interpreter
lock, which isolate.py keeps free of costly work.

A probe must not say all is well while the requests it overtakes never end (a bug that wedges every thread):
when the worker's other requests have made no progress for ``EXPLAINER_PROBE_STUCK_SECONDS`` (120 s; no request
runs that long by design: costly work is killed after ``COSTLY_SECONDS``, 60 s) while some are waiting or
running, probes take their place in the same queue again, and time out as the requests do, so readiness fails
and liveness has the worker's container restarted.
"""
from __future__ import annotations

import os
import re
import selectors
import socket
import threading
import time
from concurrent import futures
from functools import partial
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

PROBE_THREADS = 2
PROBE_QUEUE = 8            # probes waiting in the lane at most; more (a flood of them) join the other requests
PEEK_BYTES = 16
STUCK_SECONDS = float(os.environ.get("EXPLAINER_PROBE_STUCK_SECONDS", "120"))
_PROBE = re.compile(rb"GET /(?:healthz|livez)(?:[ ?]|$)")


def is_probe(first_bytes: bytes) -> bool:
    """Whether a request that begins with these bytes is a health probe (a prefix cut short counts only if it
    could be nothing else: ``GET /healthz`` with nothing after it yet)."""
    return _PROBE.match(first_bytes) is not None


class ProbeLaneWorker(ThreadWorker):
    """gthread whose health probes never wait behind the other requests (the module's docstring)."""

    def init_process(self) -> None:
        self.probe_pool = futures.ThreadPoolExecutor(max_workers=PROBE_THREADS, thread_name_prefix="probe")
        self.probes_waiting = 0
        self.probes_lock = threading.Lock()
        # the other requests, counted on the main thread only (enqueue_req and finish_request run there)
        self.working = 0                      # handed to the pool and not finished
        self.progress_at = time.monotonic()   # when one last finished, or the pool last took one while idle
        super().init_process()

    def stuck(self) -> bool:
        """Whether the other requests have made no progress for STUCK_SECONDS while some wait or run."""
        return self.working > 0 and time.monotonic() - self.progress_at > STUCK_SECONDS

    def enqueue_req(self, conn: Any) -> None:
        first = self._peek(conn)
        if first is None:   # nothing to read yet: the poller wakes us when there is
            self._wait_for_data(conn)
            return
        with self.probes_lock:
            lane = is_probe(first) and self.probes_waiting < PROBE_QUEUE and not self.stuck()
            if lane:
                self.probes_waiting += 1
        conn.probe_lane = lane
        if not lane:
            if self.working == 0:
                self.progress_at = time.monotonic()
            self.working += 1
            super().enqueue_req(conn)
            return
        fs = self.probe_pool.submit(self._probe, conn)
        fs.add_done_callback(lambda fut: self.method_queue.defer(self.finish_request, conn, fut))

    def finish_request(self, conn: Any, fs: Any) -> None:
        if not getattr(conn, "probe_lane", True):
            self.working -= 1
            self.progress_at = time.monotonic()
        conn.probe_lane = True   # counted once; the next request on the connection is counted when enqueued
        super().finish_request(conn, fs)

    def _probe(self, conn: Any) -> Any:
        with self.probes_lock:
            self.probes_waiting -= 1
        return self.handle(conn)

    def _peek(self, conn: Any) -> bytes | None:
        """The first bytes of the next request, left on the socket; b"" when they cannot be read from it
        (TLS, whose bytes say nothing before the handshake; bytes the parser already holds; an HTTP/2
        connection; a closed or failing socket: gthread's own path deals with those), None when the client has
        sent nothing yet."""
        if self.cfg.is_ssl or (conn.initialized and (conn.is_http2 or conn.parser.unreader.buf.getvalue())):
            return b""
        try:
            return conn.sock.recv(PEEK_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT) or b""
        except (BlockingIOError, InterruptedError):
            return None
        except (OSError, ValueError):   # ValueError: a socket that takes no flags
            return b""

    def _wait_for_data(self, conn: Any) -> None:
        """gthread's own way to park a connection that has nothing to read (its ``finish_request`` for a
        deferred connection): on the poller, for at most the keep-alive time."""
        conn.sock.setblocking(False)
        conn.timeout = time.monotonic() + self.cfg.keepalive
        self.pending_conns.append(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn))

    def handle_quit(self, sig: Any, frame: Any) -> None:
        self.probe_pool.shutdown(wait=False)
        super().handle_quit(sig, frame)

    def run(self) -> None:
        try:
            super().run()
        finally:
            self.probe_pool.shutdown(wait=False)

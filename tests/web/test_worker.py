"""The probe lane of the gunicorn worker (explainer/web/worker.py), against real gunicorn: a probe is answered
while every thread of the worker is busy, and a client that sends nothing holds no thread."""
from __future__ import annotations

import fcntl
import io
import json
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from benchmarks.hostile_mix import crash_day
from benchmarks.loadtest import Server
from explainer.web.worker import ProbeLaneWorker, is_probe

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("first", "probe"), [
    (b"GET /healthz HTTP/1.1\r\n", True),
    (b"GET /livez HTTP/1.1\r\nHo", True),
    (b"GET /healthz?x=1 HTTP", True),
    (b"GET /healthz", True),           # the rest not arrived yet: nothing else begins so
    (b"GET /healthzz HTTP/1.1", False),
    (b"GET /healthz/x HTTP/1.1", False),
    (b"POST /healthz HTTP/1.1", False),
    (b"HEAD /healthz HTTP/1.1", False),
    (b"GET / HTTP/1.1\r\n", False),
    (b"GET /p/healthz HTTP/1.1", False),
    (b"get /healthz HTTP/1.1", False),
    (b"GET /heal", False),             # cut short: gthread's own queue, as before
    (b"", False),
    (b"\x16\x03\x01\x02\x00", False),  # a TLS hello
    (b"PRI * HTTP/2.0\r\n", False),
])
def test_which_requests_take_the_probe_lane(first: bytes, probe: bool) -> None:
    assert is_probe(first) is probe


class _Conn:
    """What `_peek` reads of gthread's connection: its socket, and whether its parser already holds bytes."""

    def __init__(self, sock: socket.socket, held: bytes = b"") -> None:
        self.sock, self.initialized, self.is_http2 = sock, bool(held), False
        self.parser = type("P", (), {"unreader": type("U", (), {"buf": io.BytesIO(held)})()})()


@pytest.mark.parametrize(("case", "expected"), [
    ("a probe sent", b"GET /healthz HTT"),   # PEEK_BYTES of it
    ("nothing sent yet", None),
    ("the client closed", b""),
    ("TLS", b""),
    ("bytes the parser holds", b""),
])
def test_peeking_leaves_the_request_on_the_socket(case: str, expected: bytes | None) -> None:
    ours, theirs = socket.socketpair()
    try:
        if case == "a probe sent" or case == "TLS":
            theirs.sendall(b"GET /healthz HTTP/1.1\r\n\r\n")
        if case == "the client closed":
            theirs.close()
        worker = type("W", (), {"cfg": type("C", (), {"is_ssl": case == "TLS"})()})()
        conn = _Conn(ours, b"GET / HTTP/1.1\r\n" if case == "bytes the parser holds" else b"")
        assert ProbeLaneWorker._peek(worker, conn) == expected  # type: ignore[arg-type]
        if expected:
            assert ours.recv(64).startswith(b"GET /healthz HTTP/1.1")   # still there for gthread's parser
    finally:
        ours.close()
        theirs.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # one worker of one thread; the costly slot's lock file where the test can see it taken
    slots = tmp_path_factory.mktemp("slots")
    with Server(1, EXPLAINER_THREADS="1", EXPLAINER_COSTLY_SLOTS="1", EXPLAINER_COSTLY_WAIT_SECONDS="60",
                EXPLAINER_COSTLY_DIR=str(slots)) as s:
        s.slots = slots  # type: ignore[attr-defined]
        yield s


def _get(server: Server, path: str) -> int:
    with urllib.request.urlopen(server.base + path, timeout=120) as r:
        r.read()
        return r.status


def _slot_taken(folder: Path) -> bool:
    """Whether the service's one costly slot is held (explainer/web/gate.py); a free one is let go at once."""
    fd = os.open(folder / "slot-0", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)   # closing drops a lock taken here
    return False


def test_a_probe_is_answered_while_every_thread_is_busy(server: Server) -> None:
    """A costly request takes the worker's only thread (it waits for its child process, which holds the slot);
    a page asked for then waits for the thread, and the probes asked with it are answered before the costly
    request ends."""
    done: list[str] = []
    lock = threading.Lock()
    body = json.dumps(crash_day(500, cap=1, out_of_step=True)).encode()

    def run(name: str, call: Callable[[], int]) -> None:
        status = call()
        with lock:
            done.append(f"{name} {status}")

    def costly() -> int:
        req = urllib.request.Request(server.base + "/api/v1/explain", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            r.read()
            return r.status

    first = threading.Thread(target=run, args=("costly", costly))
    first.start()
    deadline = time.monotonic() + 60
    while not _slot_taken(server.slots) and first.is_alive() and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.01)
    assert first.is_alive() and not done, "the costly request ended before the test could see it running"
    later = [threading.Thread(target=run, args=(name, lambda path=path: _get(server, path)))
             for name, path in (("page", "/"), ("healthz", "/healthz"), ("livez", "/livez"))]
    for t in later:
        t.start()
    for t in [first, *later]:
        t.join(180)
    assert set(done) == {"costly 200", "page 200", "healthz 200", "livez 200"}, done
    assert done.index("healthz 200") < done.index("costly 200") and done.index("livez 200") < done.index("costly 200"), done
    # the control: the page, asked for with the probes, did wait for the thread
    assert done.index("page 200") > done.index("costly 200"), done


def test_a_client_that_sends_nothing_holds_no_thread(server: Server) -> None:
    """gthread would give a silent connection a thread for up to 5 s before parking it; here it waits on the
    worker's poller, so the page asked for after a silent connection (the worker has one thread) is answered
    at once, and the silent connection stays open."""
    silent = [socket.create_connection(("127.0.0.1", server.port))]
    try:
        time.sleep(0.3)
        started = time.monotonic()
        assert _get(server, "/") == 200
        assert time.monotonic() - started < 3.0   # gthread: ≥ 5 s, its wait for the silent clients' data
        for s in silent:
            s.setblocking(False)
            with pytest.raises(BlockingIOError):   # not closed by the server: nothing to read yet
                s.recv(1)
    finally:
        for s in silent:
            s.close()


def test_probes_queue_with_the_requests_again_once_those_make_no_progress(tmp_path: Path) -> None:
    """A costly request waits for the slot, which the test holds: the worker's only thread makes no progress.
    Past EXPLAINER_PROBE_STUCK_SECONDS (1 s here) a probe no longer overtakes it (it times out, as a user's
    request would: readiness fails); once the slot is let go and the request ends, probes take the lane again."""
    with Server(1, EXPLAINER_THREADS="1", EXPLAINER_COSTLY_SLOTS="1", EXPLAINER_COSTLY_WAIT_SECONDS="60",
                EXPLAINER_COSTLY_DIR=str(tmp_path), EXPLAINER_PROBE_STUCK_SECONDS="1") as server:
        assert _get(server, "/healthz") == 200
        held = os.open(tmp_path / "slot-0", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(held, fcntl.LOCK_EX)
        answers: list[int] = []
        body = json.dumps(crash_day(50, cap=1, command=True)).encode()

        def costly() -> None:
            req = urllib.request.Request(server.base + "/api/v1/explain", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=120) as r:
                r.read()
                answers.append(r.status)

        waiting = threading.Thread(target=costly)
        try:
            waiting.start()
            deadline, timed_out = time.monotonic() + 30, False
            while not timed_out and time.monotonic() < deadline:
                try:
                    urllib.request.urlopen(server.base + "/healthz", timeout=2).read()
                    time.sleep(0.2)
                except TimeoutError:
                    timed_out = True
            assert timed_out, "a probe was answered for 30 s while the worker's only request made no progress"
            assert not answers   # the request is still waiting for the slot
        finally:
            os.close(held)       # the slot is free: the request runs and ends
        waiting.join(120)
        assert answers == [200]
        started = time.monotonic()
        assert _get(server, "/healthz") == 200 and time.monotonic() - started < 5

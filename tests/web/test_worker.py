"""The probe lane of the gunicorn worker (explainer/web/worker.py), against real gunicorn: a probe is answered
while every thread of the worker is busy, and a client that sends nothing holds no thread."""
from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest

from benchmarks.hostile_mix import crash_day
from benchmarks.loadtest import Server
from explainer.web.worker import is_probe

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


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    # one worker of two threads; one costly slot, and a long wait for it: two costly requests fill the threads
    with Server(1, EXPLAINER_THREADS="2", EXPLAINER_COSTLY_SLOTS="1", EXPLAINER_COSTLY_WAIT_SECONDS="60") as s:
        yield s


def _get(server: Server, path: str) -> int:
    with urllib.request.urlopen(server.base + path, timeout=120) as r:
        r.read()
        return r.status


def test_a_probe_is_answered_while_every_thread_is_busy(server: Server) -> None:
    """Two costly requests take both threads (one computes in its child, one waits for the slot); a page asked
    for then waits for a thread, and the probes asked with it are answered before either costly one ends."""
    done: list[str] = []
    lock = threading.Lock()
    body = json.dumps(crash_day(500, cap=1, out_of_step=True)).encode()

    def run(name: str, call: object) -> None:
        status = call()  # type: ignore[operator]
        with lock:
            done.append(f"{name} {status}")

    def costly() -> int:
        req = urllib.request.Request(server.base + "/api/v1/explain", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            r.read()
            return r.status

    threads = [threading.Thread(target=run, args=(f"costly{i}", costly)) for i in range(2)]
    for t in threads:
        t.start()
        time.sleep(0.3)          # taken in turn: both threads busy before anything else arrives
    time.sleep(0.5)
    later = [threading.Thread(target=run, args=(name, lambda path=path: _get(server, path)))
             for name, path in (("page", "/"), ("healthz", "/healthz"), ("livez", "/livez"))]
    for t in later:
        t.start()
    for t in threads + later:
        t.join(180)
    first_costly = min(i for i, name in enumerate(done) if name.startswith("costly"))
    assert {"healthz 200", "livez 200"} <= set(done[:first_costly]), done
    # the control: the page, asked for with the probes, did wait for a thread
    assert done.index("page 200") > first_costly, done
    assert sorted(done[first_costly:]) == sorted(["costly0 200", "costly1 200", "page 200"]), done


def test_a_client_that_sends_nothing_holds_no_thread(server: Server) -> None:
    """gthread would give each silent connection a thread for up to 5 s before parking it; here it waits on the
    worker's poller, so the page asked for after two silent connections (as many as the worker has threads)
    is answered at once, and the silent connections stay open."""
    silent = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(2)]
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

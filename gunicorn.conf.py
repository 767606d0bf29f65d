"""gunicorn's settings for `make serve`, `make loadtest` and the service tests (issue 11).

gunicorn reads this file from the directory it starts in.  Threads (gthread): a worker busy
with a long explanation still answers /healthz and short requests from its other threads, and
the worker's heartbeat does not depend on any one request, so a slow request is never the
reason a whole worker is killed; and /healthz and /livez have threads of their own
(explainer/web/worker.py).  Slow clients: gunicorn reads request bodies in the worker;
put a buffering proxy (nginx, a cloud load balancer) in front, as the README says.
"""
import os

bind = os.environ.get("EXPLAINER_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("EXPLAINER_WORKERS", "4"))
# gthread, with a lane of its own for /healthz and /livez: a probe never waits behind the other requests
# (explainer/web/worker.py; the readiness probe times out after 1 s)
worker_class = "explainer.web.worker.ProbeLaneWorker"
threads = int(os.environ.get("EXPLAINER_THREADS", "4"))
timeout = 30               # a worker whose main loop stops for this long is replaced
graceful_timeout = 20
keepalive = 5
# Recycled now and then, a safety net for memory (a large request's memory is handed back after it, below).
# Rarely: a new worker starts with an empty cache (the fragments, pictures and analyses of the local-memory
# cache), so its first requests do all the work again, and at `make loadtest`'s rates (2,000 requests a
# second) one recycle every few seconds was the p99 of the cached paths.
max_requests = 100_000
max_requests_jitter = 10_000
# The application is loaded once, in the arbiter, and each worker starts as a copy of it (wsgi.py also reads
# the URLconf and the templates there): a recycled worker answers at once instead of after a second of imports.
preload_app = True


# Memory (issue 11): glibc gives each thread a malloc arena of its own and keeps what a large
# request freed; with threads that adds up to hundreds of MB per worker after a few large inputs.
# Two arenas per worker, and the freed memory handed back after each large request.
M_ARENA_MAX = -8
LARGE_REQUEST = 64 * 1024


def _libc():
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:   # not glibc: nothing to tune
        return None


def post_fork(server, worker):
    libc = _libc()
    if libc is not None and hasattr(libc, "mallopt"):
        libc.mallopt(M_ARENA_MAX, 2)
    worker.libc = libc
    # Full garbage collections between requests, not in the middle of a big one (explainer/web/collector.py)
    from explainer.web.collector import FullCollections

    worker.collector = FullCollections()
    worker.collector.install()


def post_worker_init(worker):
    collector = getattr(worker, "collector", None)
    if collector is not None:   # the application is loaded: what it holds now stays (collector.py)
        collector.settle()


def pre_request(worker, req):
    collector = getattr(worker, "collector", None)
    if collector is not None:
        collector.started()


def post_request(worker, req, environ, resp):
    collector = getattr(worker, "collector", None)
    if collector is not None:
        collector.finished()
    libc = getattr(worker, "libc", None)
    length = environ.get("CONTENT_LENGTH") or "0"
    if libc is not None and hasattr(libc, "malloc_trim") and length.isdigit() and int(length) > LARGE_REQUEST:
        libc.malloc_trim(0)

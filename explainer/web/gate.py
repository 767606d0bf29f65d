"""The service-wide gate for costly work (issue 27: no small request may exhaust a worker).

A request is *costly* when what is cheap to know before doing the work says it will take long: the input's
size, how many containers it names (``image:`` keys, scenario ``debug`` entries), how many restarts its
scenario can make (``until`` over the back-off cap, per container), or a permalink or comparison that must be
computed afresh.  At most ``COSTLY_SLOTS`` costly requests run at once in the whole service: a slot is an
exclusive ``fcntl.flock`` on one of the files ``slot-<i>`` in one folder per service (``COSTLY_DIR``, by
default a folder under the temporary directory named after the database, so every worker of one deployment
shares it and two test servers do not).  The kernel drops a lock when its holder closes the file or dies, so a
slot is never lost to an error, a time-out or a killed worker.  A costly request that finds every slot taken
waits at most ``COSTLY_WAIT_SECONDS`` and is then answered 503 with Retry-After (`ServerBusy`).  Light requests
never ask for a slot, and ``/healthz`` is light.  What runs in a slot runs in a child process (`isolate.py`),
so it holds no thread and no interpreter lock of the worker that serves everything else.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_noop

BUSY_MESSAGE = gettext_noop("The server is busy with other large explanations; try again in a few seconds.")
RETRY_AFTER_SECONDS = 5

# What makes a request costly, from what is known before any work (the thresholds sit well above every
# example and the normal paths of `make loadtest`, and below each case of the hostile mix that costs
# seconds; benchmarks/hostile_mix.py):
COSTLY_INPUT_BYTES = 128 * 1024     # a manifest (or two, compared) this large: parsing alone costs
COSTLY_CONTAINERS = 50              # containers named (image: keys) plus scenario debug entries
COSTLY_RESTARTS = 20_000            # containers x (until / the crash-loop back-off cap): restarts to simulate
DEFAULT_UNTIL = 600                 # what the simulation runs without `until` (a bound, for the estimate only)
DEFAULT_BACKOFF_CAP = 300           # the kubelet's crash-loop back-off cap (lifecycle/defaults.py)

_IMAGE = re.compile(r"""\bimage["']?\s*:""")


class ServerBusy(Exception):
    """Every slot for costly work was taken for ``COSTLY_WAIT_SECONDS``, or the work ran past
    ``COSTLY_SECONDS``: answered 503 with Retry-After (security.py's middleware and the API's handler)."""

    is_answer = True   # not a fault: CacheFaultMiddleware leaves it alone


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _scenario_dict(scenario: Any) -> dict[str, Any]:
    return scenario if isinstance(scenario, dict) else {}


def cost(manifest: str, scenario: Any = None) -> tuple[int, int, float]:
    """(bytes, containers, restarts): the estimate `costly` judges, in one pass over the text."""
    sc = _scenario_dict(scenario)
    debug = sc.get("debug")
    containers = len(_IMAGE.findall(manifest)) + (len(debug) if isinstance(debug, list) else 0)
    until = _number(sc.get("until")) or DEFAULT_UNTIL
    loop = sc.get("crashLoopBackOff")
    cap = _number(loop.get("maxContainerRestartPeriod")) if isinstance(loop, dict) else None
    cap = cap if cap is not None and cap >= 1 else DEFAULT_BACKOFF_CAP
    return len(manifest.encode("utf-8", "surrogatepass")), containers, containers * until / min(cap, DEFAULT_BACKOFF_CAP)


def costly(*inputs: tuple[str, Any]) -> bool:
    """Whether explaining these (manifest, scenario) inputs together is costly work (a comparison is two)."""
    size = containers = 0
    restarts = 0.0
    for manifest, scenario in inputs:
        b, c, r = cost(manifest or "", scenario)
        size += b
        if c <= settings.MAX_CONTAINERS:   # more: refused at the container limit while read, before simulating
            containers, restarts = containers + c, restarts + r
    return size >= COSTLY_INPUT_BYTES or containers >= COSTLY_CONTAINERS or restarts >= COSTLY_RESTARTS


def link_inputs(*links: Any) -> list[tuple[str, Any]]:
    """What permalinks explain (their manifests, scenarios and kubectl output), for `costly`."""
    return [pair for link in links for pair in ((link.manifest, link.scenario_data), (link.observed or "", None))]


def slot_dir() -> Path:
    """The folder of this service's slots: ``COSTLY_DIR``, or one named after the database every worker uses."""
    if settings.COSTLY_DIR:
        return Path(settings.COSTLY_DIR)
    db = settings.DATABASES["default"]
    who = "\0".join(str(db.get(k, "")) for k in ("ENGINE", "NAME", "HOST", "PORT"))
    return Path(tempfile.gettempdir()) / f"explainer-costly-{hashlib.sha256(who.encode()).hexdigest()[:16]}"


def _try_slots(folder: Path, slots: int) -> int | None:
    """An open file descriptor holding one slot's lock, or None when every slot is held."""
    for i in range(slots):
        fd = os.open(folder / f"slot-{i}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        except BaseException:
            os.close(fd)
            raise
        return fd
    return None


@contextlib.contextmanager
def costly_slot(wait: float | None = None) -> Iterator[None]:
    """Hold one of the service's ``COSTLY_SLOTS`` for the block; `ServerBusy` when none is free in time.

    Each try opens the slot files afresh: a lock taken through one open file is not shared with another
    opening of it, so two threads of one worker exclude each other as two workers do."""
    folder = slot_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    deadline = time.monotonic() + (settings.COSTLY_WAIT_SECONDS if wait is None else wait)
    while True:
        fd = _try_slots(folder, max(1, settings.COSTLY_SLOTS))
        if fd is not None:
            break
        if time.monotonic() >= deadline:
            raise ServerBusy()
        time.sleep(0.05)
    try:
        yield
    finally:
        os.close(fd)   # closing the file drops the lock

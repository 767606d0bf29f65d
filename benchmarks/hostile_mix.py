"""The hostile mix of `make loadtest` (issues 11 and 27): requests that once took the service down, sent
beside the normal paths at a low rate, each with the answers that are correct for it and a bound on its size.

Issue 11's: credential-scan worst cases, 1,000 Pods, ~900 KB inputs, lone surrogates, spoofed
X-Forwarded-For, PNG exports, days of crash loops.  Issue 27's (cost per request, for every input and
scenario key): a day at the node's 1 s back-off cap (in step, and out of step), "Apply fix" on a 320 KB
manifest, 500 containers sharing 16 volumes, 25,000 unmounted volumes, 40,000 debug entries, the JSON and
timeline exports of a 500-container link, and a 500-container comparison.

Costly work runs a few at a time in the whole service (explainer/web/gate.py): a hostile request that finds
every slot taken is answered "busy" (503, Retry-After), and the mix asks again after that time, as a client
should, until its deadline; what counts is the last answer, within the deadline and the size cap.  "Busy"
until the deadline is a correct answer while the service has no slot to spare, but a case that is only ever
refused is a failure: each must be answered in earnest at least once.  The summary says how many "busy" answers
each case got.
"""
from __future__ import annotations

import collections
import json
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable

HOSTILE_RATE = float(os.environ.get("LOADTEST_HOSTILE_RATE", "1"))
HOSTILE_DEADLINE = 60.0   # a hostile request must be answered (or refused) within this
RETRY_ROOM = 20.0         # a busy answer is asked again only when this much of the deadline is left for the work
MAX_ANSWER = 5 * 1024 * 1024 + 300 * 1024   # an answer's cap, and room for a permalink's own manifest
CRASH_LOOPS = "500 containers crash-looping for a day (API)"
SLOW_KINDS, SLOW_EVERY = {CRASH_LOOPS, "200 containers crash-looping for a day (API)",
                          "1 s cap: 500 containers out of step for a day (API)", "500-container comparison (API)",
                          "Apply fix on a 320 KB manifest (page)", "25,000 unmounted volumes (API)"}, 45.0


def crash_day(n: int, cap: int | None = None, out_of_step: bool = False, command: bool = False) -> dict[str, object]:
    """``n`` containers crash-looping for a day; ``cap``: the node's maxContainerRestartPeriod; ``out_of_step``:
    each runs a little longer than the one before (no common period to jump); ``command``: ``sh -c "exit 1"``."""
    run = ", command: [sh, -c, 'exit 1']" if command else ""
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n" + \
        "".join(f"  - {{name: c{i}, image: busybox{run}}}\n" for i in range(n))
    scenario: dict[str, object] = {"until": 86400}
    if not command:
        scenario["containers"] = {f"c{i}": {"runSeconds": 1 + (i * 0.125 if out_of_step else 0), "exitCode": 1}
                                  for i in range(n)}
    if cap:
        scenario["crashLoopBackOff"] = {"maxContainerRestartPeriod": cap}
    return {"manifest": manifest, "scenario": scenario, "kubernetesVersion": "1.35"}


def big_fix_manifest(n: int = 4000) -> str:
    """~320 KB: a long env, and a grace period of 0 (termination-grace-zero: the fix removes it)."""
    env = "".join(f"        - name: VAR_{i}\n          value: \"value number {i} of the environment\"\n" for i in range(n))
    return ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\nspec:\n  terminationGracePeriodSeconds: 0\n"
            "  containers:\n    - name: app\n      image: example/app:1\n      env:\n" + env)


def sharing_pod(containers: int = 500, volumes: int = 16) -> str:
    mounts = "".join(f"      - {{name: v{j}, mountPath: /v{j}}}\n" for j in range(volumes))
    cs = "".join(f"    - name: c{i}\n      image: busybox\n      volumeMounts:\n{mounts}" for i in range(containers))
    vols = "".join(f"    - {{name: v{j}, emptyDir: {{}}}}\n" for j in range(volumes))
    return f"apiVersion: v1\nkind: Pod\nmetadata: {{name: shared}}\nspec:\n  containers:\n{cs}  volumes:\n{vols}"


def hostile_requests(base: str, pid: str, csrf: tuple[str, str], big_pid: str = "", compare_pid: str = "") -> list[tuple[
        str, Callable[[int], urllib.request.Request], set[int]]]:
    """(name, request maker (given a counter), statuses that are a correct answer): the inputs of
    issues 11 and 27 that once took the service down, at their size limits.  ``big_pid``: a permalink of
    500 crash-looping containers; ``compare_pid``: a comparison of two such links."""
    def api(path: str, body: object, headers: dict[str, str] | None = None) -> urllib.request.Request:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        return urllib.request.Request(base + path, data=data, method="POST",
                                      headers={"Content-Type": "application/json", **(headers or {})})

    jwt_comment = "# " + "eyJ-" * (250 * 1024 // 4) + "\nkind: Pod\n"
    pods = "".join(f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\n"
                   f"spec: {{containers: [{{name: c, image: busybox}}]}}\n" for i in range(1000))
    def crash(n: int) -> dict[str, object]:
        manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n" + \
            "".join(f"  - {{name: c{i}, image: busybox}}\n" for i in range(n))
        return {"manifest": manifest, "scenario": {"until": 86400, "containers": {
            f"c{i}": {"runSeconds": 1, "exitCode": 1} for i in range(n)}}}

    def big(n: int) -> str:
        return ("apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  containers:\n"
                f"  - name: app\n    image: 'app:{n}-" + "x" * 900_000 + "'\n")

    page_headers = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
                    "Cookie": f"csrftoken={csrf[0]}", "X-CSRFToken": csrf[1]}
    fix_text, shared = big_fix_manifest(), sharing_pod()
    unmounted = "apiVersion: v1\nkind: Pod\nmetadata: {name: many}\nspec:\n  containers:\n  - {name: app, image: nginx}\n" \
        "  volumes:\n" + "".join(f"  - {{name: v{j}, emptyDir: {{}}}}\n" for j in range(25_000))
    return [
        ("credential scan worst case, 250 KiB (share API)",
         lambda n: api("/api/v1/permalinks", {"manifest": jwt_comment + f"# {n}\n"},
                       {"X-Forwarded-For": f"10.{n % 250}.{n % 199}.1, 203.0.113.9"}), {200, 201, 409, 429}),
        ("1,000 Pods (API)", lambda n: api("/api/v1/explain", {"manifest": pods}), {400}),
        ("1,000 Pods (page)", lambda n: urllib.request.Request(
            base + "/", data=urllib.parse.urlencode({"manifest": pods, "version": "1.34"}).encode(), method="POST",
            headers=page_headers), {200}),
        ("~900 KB distinct input (API)", lambda n: api("/api/v1/explain", {"manifest": big(n)}), {200, 400}),
        ("lone surrogate in JSON (API)", lambda n: api("/api/v1/explain", b'{"manifest": "kind: Pod # \\ud800"}'),
         {400}),
        ("spoofed X-Forwarded-For share (API)", lambda n: api(
            "/api/v1/permalinks", {"manifest": f"kind: Pod\nmetadata: {{name: s{n}}}\n"},
            {"X-Forwarded-For": f"198.51.{n % 250}.{n % 97}, 203.0.113.9"}), {200, 201, 429}),
        ("PNG export", lambda n: urllib.request.Request(f"{base}/p/{pid}/timeline.png"), {200, 429, 503}),
        ("200 containers crash-looping for a day (API)", lambda n: api("/api/v1/explain", crash(200)), {200}),
        (CRASH_LOOPS, lambda n: api("/api/v1/explain", crash(500)), {200}),
        # issue 27: cost per request, for every input and scenario key
        ("1 s cap: 40 containers exit 1 for a day (API)", lambda n: api("/api/v1/explain",
                                                                          crash_day(40, 1, command=True)), {200}),
        ("1 s cap: 500 containers out of step for a day (API)", lambda n: api("/api/v1/explain",
                                                                                crash_day(500, 1, out_of_step=True)),
         {200}),
        ("Apply fix on a 320 KB manifest (page)", lambda n: urllib.request.Request(
            base + "/fix/", method="POST", headers={**page_headers, "HX-Request": "false"},
            data=urllib.parse.urlencode({"manifest": fix_text + f"# {n}\n", "version": "1.35", "rule": "termination-grace-zero",
                                         "line": "6", "container": "", "csrfmiddlewaretoken": csrf[1]}).encode()),
         {200, 429}),
        ("500 containers sharing 16 volumes (API)", lambda n: api("/api/v1/explain", {"manifest": shared}), {200}),
        ("25,000 unmounted volumes (API)", lambda n: api("/api/v1/explain", {"manifest": unmounted}), {200}),
        ("40,000 debug entries (API)", lambda n: api("/api/v1/explain", {
            "manifest": "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: a, image: a}]}\n",
            "scenario": {"debug": [{"name": f"d{i}", "image": "busybox", "at": 5} for i in range(40_000)]}}), {400}),
    ] + ([
        ("JSON export of a 500-container link", lambda n: urllib.request.Request(f"{base}/p/{big_pid}.json"),
         {200, 429}),
        ("timeline.svg export of a 500-container link", lambda n: urllib.request.Request(
            f"{base}/p/{big_pid}/timeline.svg"), {200, 422, 429}),
    ] if big_pid else []) + ([
        ("500-container comparison (API)", lambda n: urllib.request.Request(f"{base}/api/v1/permalinks/{compare_pid}"),
         {200, 429}),
        ("500-container comparison (page)", lambda n: urllib.request.Request(f"{base}/c/{compare_pid}/"), {200, 429}),
    ] if compare_pid else [])


class HostileMix:
    """Sends the hostile requests in turn at ``HOSTILE_RATE`` per second from a background thread
    (each in its own thread, so a slow one does not slow the rate), and records what came back."""

    def __init__(self, base: str, pid: str, csrf: tuple[str, str], big_pid: str = "", compare_pid: str = "") -> None:
        self.base = base
        self.kinds = hostile_requests(base, pid, csrf, big_pid, compare_pid)
        self.results: dict[str, list[tuple[int, float, int]]] = {name: [] for name, _make, _ok in self.kinds}
        self.busy: dict[str, int] = {name: 0 for name, _make, _ok in self.kinds}   # "busy" answers, asked again
        self.refused: dict[str, int] = {name: 0 for name, _make, _ok in self.kinds}   # still busy at the deadline
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []
        self.lock = threading.Lock()

    def __enter__(self) -> "HostileMix":
        self.health: list[float | None] = []
        self.pacer = threading.Thread(target=self._pace, daemon=True)
        self.pacer.start()
        self.prober = threading.Thread(target=self._probe, daemon=True)
        self.prober.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.pacer.join()
        self.prober.join()
        for t in self.threads:
            t.join(timeout=HOSTILE_DEADLINE + 5)

    def _pace(self) -> None:
        n = 0
        last: dict[str, float] = {}
        while not self.stop.wait(1 / HOSTILE_RATE):
            name, make, _ok = self.kinds[n % len(self.kinds)]
            while name in SLOW_KINDS and time.monotonic() - last.get(name, -SLOW_EVERY) < SLOW_EVERY:
                n += 1   # the most expensive inputs: each at most every SLOW_EVERY seconds
                name, make, _ok = self.kinds[n % len(self.kinds)]
            last[name] = time.monotonic()
            t = threading.Thread(target=self._one, args=(name, make(n)), daemon=True)
            t.start()
            self.threads.append(t)
            n += 1

    def _probe(self) -> None:
        """/healthz every half second while the mix runs: how long it takes to answer."""
        while not self.stop.wait(0.5):
            started = time.monotonic()
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=10) as r:
                    r.read()
                self.health.append(time.monotonic() - started)
            except OSError:
                self.health.append(None)

    def _one(self, name: str, req: urllib.request.Request) -> None:
        """One hostile request, as a client that honours Retry-After sends it: a "busy" answer (503 with
        Retry-After: every slot for costly work was taken, explainer/web/gate.py) is asked again after the
        time it names, until the deadline; the time recorded is the whole wait, the answer the last one."""
        started = time.monotonic()
        while True:
            status, size, retry = self._send(req, HOSTILE_DEADLINE - (time.monotonic() - started))
            if retry is None or time.monotonic() - started + retry + RETRY_ROOM >= HOSTILE_DEADLINE:
                break
            with self.lock:
                self.busy[name] += 1
            time.sleep(retry)
        with self.lock:
            if retry is not None:   # still busy at the deadline: a correct answer, counted apart
                self.refused[name] += 1
            self.results[name].append((status, time.monotonic() - started, size))

    @staticmethod
    def _send(req: urllib.request.Request, timeout: float) -> tuple[int, int, float | None]:
        """(status, answer bytes, Retry-After seconds of a busy answer, else None)."""
        try:
            with urllib.request.urlopen(req, timeout=max(1.0, timeout)) as r:
                return r.status, len(r.read()), None
        except urllib.error.HTTPError as exc:
            body = exc.read()
            after = exc.headers.get("Retry-After", "")
            busy = exc.code == 503 and after.isdigit() and b"busy with other large explanations" in body
            return exc.code, len(body), float(after) if busy else None
        except OSError:
            return 0, 0, None   # no answer: connection refused or reset, or a time-out

    def _bad(self, name: str, expected: set[int]) -> int:
        """Answers that are wrong: an unexpected status or too large; "busy" until the deadline is a correct
        answer (the service had no slot for it) unless it is every answer the case got (only ever refused)."""
        got = self.results[name]
        wrong = sum(1 for status, _t, size in got if (status not in expected and status != 503) or size > MAX_ANSWER)
        unexpected_503 = sum(1 for status, _t, _s in got if status == 503 and 503 not in expected) - self.refused[name]
        always_refused = bool(got) and self.refused[name] == len(got)
        return wrong + max(0, unexpected_503) + (1 if always_refused else 0)

    @property
    def ok(self) -> bool:
        answered = all(self._bad(name, expected) == 0 for name, _make, expected in self.kinds)
        return answered and all(t is not None and t < 1.0 for t in self.health)

    def summary(self) -> list[str]:
        lines = []
        for name, _make, expected in self.kinds:
            got = self.results[name]
            if not got:
                lines.append(f"{name:48} not sent")
                continue
            codes = ", ".join(f"{code or 'no answer'} x{n}" for code, n in
                              sorted(collections.Counter(c for c, _t, _s in got).items()))
            bad = self._bad(name, expected)
            busy = f"; {self.busy[name]} busy, asked again" if self.busy[name] else ""
            busy += f"; {self.refused[name]} still busy at the deadline" if self.refused[name] else ""
            busy += "; ONLY EVER REFUSED" if got and self.refused[name] == len(got) else ""
            lines.append(f"{name:52} {len(got):3d} sent; {codes}; slowest {max(t for _c, t, _s in got):.2f} s; "
                         f"largest {max(s for _c, _t, s in got) / 2**20:.2f} MiB{busy}"
                         + (f"; {bad} UNEXPECTED" if bad else ""))
        times = sorted(t for t in self.health if t is not None)
        failed = sum(1 for t in self.health if t is None)
        if times:
            lines.append(f"{'/healthz, every 0.5 s meanwhile':48} {len(self.health):3d} sent; median "
                         f"{times[len(times) // 2] * 1e3:.0f} ms, slowest {times[-1] * 1e3:.0f} ms"
                         + (f"; {failed} UNANSWERED" if failed else "") + "  target < 1 s "
                         + ("ok" if not failed and times[-1] < 1 else "MISSED"))
        return lines



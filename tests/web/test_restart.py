"""Nothing is lost across a server restart (issue 5): a real server process stores a permalink,
is stopped, is started again, and serves the same link.  Marked `postgres`, so `make test`
also runs it with DATABASE_URL pointing at the real PostgreSQL server."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import load_manifest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.postgres


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(env: dict[str, str], port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the server did not start")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=20)


def test_permalinks_survive_a_server_restart(tmp_path: Path) -> None:
    env = {**os.environ, "EXPLAINER_DB_PATH": str(tmp_path / "db.sqlite3"), "EXPLAINER_DEBUG": "true"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = _free_port()
    server = _start(env, port)
    try:
        body = json.dumps({"manifest": load_manifest("seeds/lifecycle-demo") + f"# restart {tmp_path.name}\n",
                           "kubernetesVersion": "1.34"}).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/permalinks", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            created = json.loads(r.read())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/p/{created['id']}.json", timeout=30) as r:
            before = json.loads(r.read())
    finally:
        _stop(server)
    server = _start(env, port)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/p/{created['id']}.json", timeout=30) as r:
            after = json.loads(r.read())
    finally:
        _stop(server)
    assert after == before and after["pods"][0]["name"] == "lifecycle-demo"

"""The service-wide gate for costly work (explainer/web/gate.py, issue 27): what is costly, K slots across
threads and processes, freed on error and on a killed holder, and the busy answer in every form."""
from __future__ import annotations

import json
import multiprocessing
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from benchmarks.hostile_mix import big_fix_manifest, crash_day, sharing_pod
from explainer.examples import BY_SLUG
from explainer.web import gate
from explainer.web.gate import ServerBusy, costly, costly_slot

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_slots(settings: Any, tmp_path: Path) -> None:
    settings.COSTLY_DIR = str(tmp_path / "slots")
    settings.COSTLY_SLOTS = 1
    settings.COSTLY_WAIT_SECONDS = 0.2


def _unmounted(n: int) -> str:
    return ("apiVersion: v1\nkind: Pod\nmetadata: {name: many}\nspec:\n  containers:\n  - {name: app, image: nginx}\n"
            "  volumes:\n" + "".join(f"  - {{name: v{j}, emptyDir: {{}}}}\n" for j in range(n)))


def _pods(n: int) -> str:
    return "".join(f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\n"
                   f"spec: {{containers: [{{name: c, image: busybox}}]}}\n" for i in range(n))


def _day(**kw: Any) -> tuple[str, Any]:
    d = crash_day(**kw)
    return str(d["manifest"]), d["scenario"]


CASES = [   # (what, (manifest, scenario), costly)
    ("an example", (BY_SLUG["lifecycle-demo"].manifest(), None), False),
    ("an example for a day", (BY_SLUG["lifecycle-demo"].manifest(), {"until": 86400}), False),
    ("ten containers crash-looping for a day", _day(n=10), False),
    ("200 containers crash-looping for a day", _day(n=200), True),
    ("40 containers at the 1 s cap for a day", _day(n=40, cap=1, command=True), True),
    ("500 containers sharing 16 volumes", (sharing_pod(), None), True),
    ("25,000 unmounted volumes", (_unmounted(25_000), None), True),
    ("a 320 KB manifest", (big_fix_manifest(), None), True),
    ("1,000 Pods (refused at the Pod limit while read)", (_pods(1000), None), False),
    ("40,000 debug entries (refused at the container limit)",
     ("kind: Pod\nspec: {containers: [{name: a, image: a}]}\n",
      {"debug": [{"name": f"d{i}", "image": "b"} for i in range(40_000)]}), False),
    ("60 debug entries", ("kind: Pod\nspec: {containers: [{name: a, image: a}]}\n",
                          {"debug": [{"name": f"d{i}", "image": "b"} for i in range(60)]}), True),
]


@pytest.mark.parametrize("what, pair, expected", CASES, ids=[c[0] for c in CASES])
def test_what_is_costly_is_known_before_the_work(what: str, pair: tuple[str, Any], expected: bool) -> None:
    started = time.process_time()
    assert costly(pair) is expected
    assert time.process_time() - started < 0.5   # one pass over the text


def test_an_input_over_the_container_limit_is_light_beside_its_kubectl_output() -> None:
    """Each explanation is refused at the limit on its own: the (empty) kubectl output beside it changes nothing."""
    assert not costly((_pods(1000), None), ("", None))


def test_a_comparison_of_two_costly_links_is_costly_and_two_light_ones_are_not() -> None:
    demo = (BY_SLUG["lifecycle-demo"].manifest(), None)
    assert not costly(demo, demo)
    assert costly(_day(n=40), _day(n=40))   # each light alone: 80 containers together


def test_a_second_costly_request_is_refused_while_the_one_slot_is_held() -> None:
    with costly_slot():
        started = time.monotonic()
        with pytest.raises(ServerBusy):
            with costly_slot():
                pass
        assert time.monotonic() - started >= 0.2   # it waited its short while first
    with costly_slot():   # freed when the block ended
        pass


def test_k_slots_let_k_run_at_once(settings: Any) -> None:
    settings.COSTLY_SLOTS = 2
    with costly_slot(), costly_slot():
        with pytest.raises(ServerBusy):
            with costly_slot():
                pass


def test_a_slot_is_freed_when_the_work_fails() -> None:
    with pytest.raises(ZeroDivisionError):
        with costly_slot():
            1 / 0
    with costly_slot():
        pass


def test_a_waiting_request_gets_the_slot_when_it_is_freed_in_time(settings: Any) -> None:
    settings.COSTLY_WAIT_SECONDS = 5
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with costly_slot():
            held.set()
            release.wait(5)

    t = threading.Thread(target=holder)
    t.start()
    held.wait(5)
    threading.Timer(0.3, release.set).start()
    with costly_slot():   # waits for the holder, then runs
        pass
    t.join()


def _hold_in_another_process(folder: str, held: Any) -> None:
    from django.conf import settings as s
    s.COSTLY_DIR, s.COSTLY_SLOTS = folder, 1
    with costly_slot():
        held.set()
        time.sleep(60)   # until killed


def test_the_slots_are_shared_by_every_process_of_the_service_and_freed_when_one_dies(settings: Any) -> None:
    ctx = multiprocessing.get_context("fork")
    held = ctx.Event()
    other = ctx.Process(target=_hold_in_another_process, args=(settings.COSTLY_DIR, held))
    other.start()
    try:
        assert held.wait(30)
        with pytest.raises(ServerBusy):   # another worker holds the one slot
            with costly_slot():
                pass
        other.kill()   # a worker killed while it held the slot: the kernel drops its lock
        other.join(10)
        with costly_slot():
            pass
    finally:
        if other.is_alive():
            other.kill()
        other.join(10)


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
def test_each_service_has_its_own_folder_named_after_its_database(settings: Any) -> None:
    settings.COSTLY_DIR = ""
    first = gate.slot_dir()
    settings.DATABASES = {"default": {**settings.DATABASES["default"], "NAME": "/elsewhere/db.sqlite3"}}
    assert gate.slot_dir() != first


def test_a_costly_api_request_is_refused_503_with_retry_after_while_the_slots_are_taken(client: Client) -> None:
    manifest, scenario = _day(n=200)
    with costly_slot():
        response = client.post("/api/v1/explain", json.dumps({"manifest": manifest, "scenario": scenario}),
                               content_type="application/json")
        light = client.post("/api/v1/explain", json.dumps({"manifest": BY_SLUG["lifecycle-demo"].manifest()}),
                            content_type="application/json")
        health = client.get("/healthz")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json()["error"] == gate.BUSY_MESSAGE and response.json()["busy"] is True
    assert light.status_code == 200 and health.status_code == 200   # light requests never wait on the gate


def test_the_busy_answer_on_the_page_and_its_fragment_is_translated(client: Client) -> None:
    manifest, _scenario = _day(n=200)
    with costly_slot():
        fragment = client.post("/", {"manifest": manifest, "version": "1.34"}, HTTP_HX_REQUEST="true",
                               HTTP_ACCEPT_LANGUAGE="zh-hans")
        page = client.post("/", {"manifest": manifest, "version": "1.34"})
    assert fragment.status_code == 503 and fragment["Retry-After"] == "5"
    assert "服务器正忙" in fragment.content.decode() and "X-Explainer-Message" in fragment
    assert page.status_code == 503 and "The server is busy with other large explanations" in page.content.decode()


def test_apply_fix_on_a_large_text_answers_busy_as_json(client: Client) -> None:
    text = big_fix_manifest()
    with costly_slot():
        response = client.post("/fix/", {"manifest": text, "version": "1.35", "rule": "termination-grace-zero",
                                         "line": "6", "container": ""})
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "busy" in response.json()["error"]


def test_a_costly_request_runs_when_a_slot_is_free_and_gives_the_slot_back(client: Client) -> None:
    manifest, scenario = _day(n=200)
    response = client.post("/api/v1/explain", json.dumps({"manifest": manifest, "scenario": scenario}),
                           content_type="application/json")
    assert response.status_code == 200
    assert len(response.json()["pods"][0]["containers"]) == 200
    with costly_slot():   # free again
        pass


def test_a_busy_answer_is_not_counted_against_the_costly_read_limit(client: Client, settings: Any) -> None:
    settings.COSTLY_READ_RATE_LIMIT = 1
    manifest, scenario = _day(n=200)
    created = client.post("/api/v1/permalinks", json.dumps({"manifest": manifest, "scenario": scenario}),
                          content_type="application/json")
    assert created.status_code == 201, created.content[:300]
    pid = created.json()["id"]
    with costly_slot():
        for _ in range(3):
            assert client.get(f"/api/v1/permalinks/{pid}").status_code == 503
    answer = client.get(f"/api/v1/permalinks/{pid}")   # the one read the client may make, made now
    assert answer.status_code == 200 and len(answer.json()["explanation"]["pods"][0]["containers"]) == 200

"""`podlife explain FILE --observed OBS ...` (and `manage.py explain`): pods[].observed in JSON, the "What the
cluster shows" section in text, --observed repeatable and from standard input, bad files exit 2."""
from __future__ import annotations

import json
from pathlib import Path

from tests.cli import explain_cli, podlife_cli

ROOT = Path(__file__).resolve().parents[2]
OBSERVED = ROOT / "tests" / "fixtures" / "observed"
LIVENESS = str(OBSERVED / "manifests" / "liveness-exec.yaml")
EVENTS = str(OBSERVED / "real" / "probes-events-after.txt")
GET_POD = str(OBSERVED / "real" / "probes-get-pod.txt")
CONTRACT = {"sources", "kubectl", "restartCounts", "terminations", "events", "divergences", "unread"}


def test_json_has_observed_exactly_as_the_contract_lists() -> None:
    proc = podlife_cli(LIVENESS, "--observed", EVENTS, "--observed", GET_POD, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    observed = json.loads(proc.stdout)["pods"][0]["observed"]
    assert set(observed) == CONTRACT
    assert [s["kind"] for s in observed["sources"]] == ["describe", "pod-table"]
    assert observed["kubectl"] == {"ready": "1/1", "status": "Running", "restarts": "1"}
    (d,) = observed["divergences"]
    assert set(d) == {"t", "container", "kind", "predicted", "observed", "explanation", "reproducible"}
    assert (d["kind"], d["container"], d["t"], d["reproducible"]) == ("liveness-kill", "liveness", 47.0, True)
    unhealthy = next(e for e in observed["events"] if e["reason"] == "Unhealthy")
    assert unhealthy == {"t": 37.0, "container": "liveness", "type": "Warning", "reason": "Unhealthy", "count": 3,
                         "firstT": 37.0, "lastT": 47.0}
    # the header lines of the fixtures ("# after: ...") are not kubectl's: they are said to be unread
    assert {u["text"][:9] for u in observed["unread"]} == {"# after: ", "# shows: "}


def test_without_observed_there_is_no_observed_key() -> None:
    proc = podlife_cli(LIVENESS, "--format", "json")
    assert "observed" not in json.loads(proc.stdout)["pods"][0]


def test_text_shows_what_the_cluster_shows_and_the_scenario_that_matches() -> None:
    proc = explain_cli(LIVENESS, "--observed", EVENTS)
    assert proc.returncode == 0, proc.stderr
    section = proc.stdout.split("What the cluster shows:", 1)[1].split("What the containers share:", 1)[0]
    assert "liveness, liveness-kill: liveness was killed by its liveness probe" in " ".join(section.split())
    scenario = json.loads(section.split("(--scenario FILE):", 1)[1].split("Lines that could not be read:")[0])
    assert scenario["containers"] == {"liveness": {"failingProbes": ["liveness"]}}


def test_observed_from_standard_input() -> None:
    text = Path(GET_POD).read_bytes()
    proc = podlife_cli(LIVENESS, "--observed", "-", "--format", "json", stdin=text)
    assert json.loads(proc.stdout)["pods"][0]["observed"]["kubectl"]["restarts"] == "1"


def test_standard_input_is_read_once() -> None:
    proc = podlife_cli("-", "--observed", "-", stdin=b"")
    assert proc.returncode == 2 and "standard input (-) can be read once" in proc.stderr


def test_an_unreadable_observed_file_is_bad_input(tmp_path: Path) -> None:
    binary = tmp_path / "out.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    for path in (str(tmp_path / "missing.txt"), str(binary)):
        proc = podlife_cli(LIVENESS, "--observed", path)
        assert proc.returncode == 2 and proc.stderr.startswith(path), proc.stderr


def test_an_observed_file_over_the_limit_is_bad_input(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_text("x" * 5000)
    proc = podlife_cli(LIVENESS, "--observed", str(big), "--max-bytes", "4000")
    assert proc.returncode == 2
    assert "The observed output is 5,000 bytes; the limit is 4,000 bytes (--max-bytes raises it)." in proc.stderr


def test_a_pasted_pod_with_its_status_is_its_own_observation(tmp_path: Path) -> None:
    pod = OBSERVED / "real" / "debug-running-pod-yaml.txt"
    proc = podlife_cli(str(pod), "--format", "json")
    observed = json.loads(proc.stdout)["pods"][0]["observed"]
    assert observed["sources"] == [{"kind": "pod", "lines": [3, 40]}]
    assert observed["kubectl"] == {"ready": "1/1", "status": "Running", "restarts": "0"}
    assert observed["divergences"] == []

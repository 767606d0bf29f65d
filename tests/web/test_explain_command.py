"""manage.py explain: the CLI contract (exit codes, one-line errors, JSON schemaVersion 1, text)."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from tests.cli import explain_cli, run_program

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
SIDECAR = FIXTURES / "scenarios" / "native_sidecar.yaml"
DELETE_AT_20 = FIXTURES / "scenarios" / "delete_at_20.yaml"

# The event types of the JSON contract (issue 2, "Outputs").
CONTRACT_TYPES = {
    "sandbox_ready", "image_pull_failed", "created", "started", "poststart_done",
    "startup_probe_ok", "startup_probe_failed", "ready", "not_ready", "liveness_failed",
    "exited", "backoff", "delete_requested", "prestop_started", "prestop_done", "terminating",
    "killed", "sandbox_lost",
}


@cache
def _sidecar_json() -> tuple[int, str, str]:
    proc = explain_cli(str(SIDECAR), "--format", "json")
    return proc.returncode, proc.stdout, proc.stderr


def _ok_json() -> dict:
    code, out, err = _sidecar_json()
    assert code == 0, err
    return json.loads(out)


def test_json_output_has_the_contract_keys() -> None:
    data = _ok_json()
    assert data["schemaVersion"] == 1
    assert data["kubernetesVersion"] == "1.37"   # no --k8s-version: the newest
    assert data["errors"] == [] and data["skipped"] == []
    (pod,) = data["pods"]
    assert {"name", "source", "containers", "events", "statusTimeline", "finalPhase", "restartCounts"} <= set(pod)
    assert pod["name"] == "with-sidecar"
    assert pod["source"] == {"document": 0, "kind": "Pod", "name": "with-sidecar", "line": 2}
    assert [(c["name"], c["role"], c["index"]) for c in pod["containers"]] == [
        ("log-shipper", "sidecar", 0), ("migrate", "init", 1), ("app", "app", 0)]
    assert all({"name", "role", "index", "image"} <= set(c) for c in pod["containers"])
    assert pod["finalPhase"] == "Running"
    assert pod["restartCounts"] == {"log-shipper": 0, "migrate": 0, "app": 0}


def test_json_events_follow_the_contract() -> None:
    events = _ok_json()["pods"][0]["events"]
    assert events
    for e in events:
        assert {"t", "container", "type", "restartCount", "exitCode", "reason", "assumed"} <= set(e)
        assert e["type"] in CONTRACT_TYPES
        assert isinstance(e["assumed"], bool)
    times = [e["t"] for e in events]
    assert times == sorted(times)
    assert events[0]["type"] == "sandbox_ready" and events[0]["container"] is None
    order = [(e["container"], e["type"]) for e in events if e["type"] in ("started", "exited")]
    assert order == [("log-shipper", "started"), ("migrate", "started"), ("migrate", "exited"),
                     ("app", "started")]
    migrate_exit = next(e for e in events if e["container"] == "migrate" and e["type"] == "exited")
    assert (migrate_exit["t"], migrate_exit["exitCode"]) == (2.0, 0)


def test_json_status_timeline() -> None:
    timeline = _ok_json()["pods"][0]["statusTimeline"]
    assert all({"t", "status", "phase", "ready"} <= set(p) for p in timeline)
    statuses = [p["status"] for p in timeline]
    assert statuses[0].startswith("Init:") and statuses[-1] == "Running"
    assert timeline[-1]["ready"] is True


def test_text_output_tells_the_story() -> None:
    proc = explain_cli(str(SIDECAR))
    assert proc.returncode == 0, proc.stderr
    assert "What happens, step by step" in proc.stdout
    assert "log-shipper" in proc.stdout and "migrate" in proc.stdout
    assert proc.stderr == ""


def test_stdin_dash_reads_the_manifest() -> None:
    proc = explain_cli("-", "--format", "json", stdin=SIDECAR.read_bytes())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == _ok_json()


def test_bad_yaml_exits_2_with_one_line_naming_the_line() -> None:
    path = FIXTURES / "invalid" / "syntax_error.yaml"
    proc = explain_cli(str(path))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "line 9" in lines[0]
    assert str(path) in lines[0]


def test_bad_yaml_on_stdin_exits_2() -> None:
    proc = explain_cli("-", "--format", "json", stdin=b"kind: Pod\nspec: [\n")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    data = json.loads(proc.stdout)
    assert data["pods"] == [] and data["errors"][0]["line"] == 3


def test_binary_file_exits_2_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    proc = explain_cli(str(path))
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_k8s_127_rejects_a_native_sidecar() -> None:
    proc = explain_cli(str(SIDECAR), "--k8s-version", "1.27", "--format", "json")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    data = json.loads(proc.stdout)
    assert data["kubernetesVersion"] == "1.27"
    assert data["errors"]
    assert {e["path"] for e in data["errors"]} == {"spec.initContainers[0].restartPolicy"}
    assert all(e["line"] == 10 for e in data["errors"])
    assert {"message", "line", "column", "path"} <= set(data["errors"][0])
    assert data["pods"][0]["events"] == []


def test_scenario_delete_at_leads_to_delete_requested() -> None:
    proc = explain_cli(str(SIDECAR), "--scenario", str(DELETE_AT_20), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    events = json.loads(proc.stdout)["pods"][0]["events"]
    deletes = [e for e in events if e["type"] == "delete_requested"]
    assert [(e["t"], e["container"]) for e in deletes] == [(20.0, None)]
    app_exit = [e for e in events if e["container"] == "app" and e["type"] == "exited"]
    assert [(e["t"], e["exitCode"]) for e in app_exit] == [(21.0, 143)]
    assert not [e for e in events if e["type"] == "started" and e["t"] >= 20]


@pytest.mark.parametrize("scenario_text, needle", [
    ("containers:\n  nope:\n    runSeconds: 1\n", "nope"),
    ("deleteAt: soon\n", "deleteAt"),
])
def test_a_bad_scenario_exits_2(tmp_path: Path, scenario_text: str, needle: str) -> None:
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(scenario_text, encoding="utf-8")
    proc = explain_cli(str(SIDECAR), "--scenario", str(scenario))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    proc = explain_cli(str(tmp_path / "absent.yaml"))
    assert proc.returncode == 2
    assert "cannot read" in proc.stderr


@pytest.mark.parametrize("data, needle", [
    # over the CLI's 16 MiB default (issue 13: it reads whole install manifests); the message names --max-bytes
    pytest.param(b"kind: Pod\n# " + b"x" * (17 * 1024 * 1024) + b"\n", "(--max-bytes raises it)", id="17-MiB"),
    pytest.param(b"apiVersion: v1\x00kind: Pod\n", "binary", id="nul-byte"),
])
def test_hostile_stdin_exits_2_with_one_line(data: bytes, needle: str) -> None:
    proc = explain_cli("-", stdin=data)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]


@pytest.mark.parametrize("version,ok", [("1.35", False), ("1.36", False), ("1.37", True)])
def test_k8s_version_picks_that_versions_schema(version: str, ok: bool) -> None:
    """httpGet.protocol (h2c probes) is in the 1.37 schema only."""
    proc = explain_cli(str(FIXTURES / "pods" / "h2c_probe.yaml"), "--k8s-version", version, "--format", "json")
    data = json.loads(proc.stdout)
    assert data["kubernetesVersion"] == version
    assert (proc.returncode == 0) is ok
    if not ok:
        assert [e["message"] for e in data["errors"]] == [
            f'unknown field "protocol" (not in the Kubernetes {version} schema)']


def test_manage_py_explain_runs_as_a_program() -> None:
    """The one run in a process of its own (the other tests run the command in this process)."""
    proc = run_program(["manage.py", "explain", str(SIDECAR), "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == json.loads(explain_cli(str(SIDECAR), "--format", "json").stdout)

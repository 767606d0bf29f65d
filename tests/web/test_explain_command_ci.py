"""manage.py explain for CI: SARIF, JUnit, --fail-on, --list-rules, several files and directories."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import jsonschema
import pytest

from explainer.findings import POD_RULES, RULES
from tests.cli import explain_cli

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / ".cache" / "sarif-schema-2.1.0.json"
WEB_APP = "explainer/examples/web-app-pod.yaml"
LONG_INIT = "explainer/examples/long-running-init.yaml"
REPO = "tests/fixtures/ci/repo"
BROKEN = "tests/fixtures/ci/bad/broken.yaml"
# The manifests a walk of REPO finds: sorted, *.yaml/*.yml/*.json only, hidden directories skipped.
REPO_FILES = [f"{REPO}/apps/web.yaml", f"{REPO}/apps/worker.yml", f"{REPO}/batch/cleanup.json"]
CONTRACT_KEYS = {"schemaVersion", "kubernetesVersion", "pods", "skipped", "errors",
                 "warnings", "nothingToExplain",   # added by issue 13 (schema-only warnings, empty input)
                 "findings", "suppressedFindings"}   # added by issue 22 (findings about the input's Services)


@cache
def _run(*args: str) -> tuple[int, str, str]:
    proc = explain_cli(*args)
    return proc.returncode, proc.stdout, proc.stderr


def _sarif_validator() -> jsonschema.protocols.Validator:
    if not SCHEMA_PATH.exists():
        pytest.fail(f"{SCHEMA_PATH.relative_to(ROOT)} is missing: "
                    "run `make setup` (it fetches the SARIF schema with npm)")
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def test_sarif_of_several_files_and_a_directory_validates() -> None:
    code, out, err = _run(WEB_APP, LONG_INIT, REPO, "--format", "sarif")
    assert code == 0, err
    log = json.loads(out)
    errors = list(_sarif_validator().iter_errors(log))
    assert not errors, [e.message for e in errors[:5]]
    (run,) = log["runs"]
    assert [a["location"]["uri"] for a in run["artifacts"]] == [WEB_APP, LONG_INIT, *REPO_FILES]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
    assert {WEB_APP, LONG_INIT, f"{REPO}/apps/worker.yml"} <= uris
    rules = run["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])
    hit = next(r for r in run["results"] if r["ruleId"] == "init-never-completes")
    assert hit["locations"][0]["physicalLocation"]["region"]["startLine"] == 10
    assert hit["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == LONG_INIT


def test_sarif_from_stdin_and_a_bad_file() -> None:
    proc = explain_cli("-", "--format", "sarif", stdin=(ROOT / BROKEN).read_bytes())
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    log = json.loads(proc.stdout)
    assert not list(_sarif_validator().iter_errors(log))
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "manifest-syntax"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "stdin"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 9


def test_junit_parses_with_one_suite_per_file() -> None:
    code, out, err = _run(WEB_APP, REPO, "--format", "junit")
    assert code == 0, err
    root = ET.fromstring(out.encode("utf-8"))
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [WEB_APP, *REPO_FILES]
    cases = [c for s in suites for c in s.findall("testcase")]
    assert int(root.get("tests")) == len(cases) == sum(int(s.get("tests")) for s in suites)
    failed = [c for c in cases if c.find("failure") is not None]
    assert int(root.get("failures")) == len(failed) > 0
    web = [c for c in suites[0].findall("testcase") if c.get("classname") == "podlifecycle.Pod.web-app-pod"]
    assert [c.get("name") for c in web] == ["manifest"] + [rule.ID for rule in POD_RULES]
    worker = [c for c in suites[2].findall("testcase") if c.get("name") == "job-sidecar-blocks-completion"]
    assert [c.get("classname") for c in worker] == ["podlifecycle.Job.nightly-report"]
    assert worker[0].find("failure").get("type") == "error"


@pytest.mark.parametrize("fail_on, expected", [("warning", 1), ("error", 0), ("info", 1), (None, 0)])
def test_fail_on_web_app_pod(fail_on: str | None, expected: int) -> None:
    args = (WEB_APP, "--format", "json") + (("--fail-on", fail_on) if fail_on else ())
    code, out, err = _run(*args)
    assert code == expected, err
    assert json.loads(out)["pods"][0]["name"] == "web-app-pod"   # the output is still there
    if expected:
        assert "--fail-on" in err


def test_fail_on_counts_a_finding_about_a_service() -> None:
    """The only error of this file is about its Service (service-target-port-missing): --fail-on sees it."""
    path = "tests/fixtures/findings/service-target-port-missing/fires.yaml"
    code, out, err = _run(path, "--format", "json", "--fail-on", "error")
    assert code == 1 and "--fail-on" in err
    data = json.loads(out)
    assert [f["id"] for f in data["findings"]] == ["service-target-port-missing"]
    assert all(f["severity"] != "error" for p in data["pods"] for f in p["findings"])


def test_fail_on_a_clean_file_exits_0() -> None:
    code, _, err = _run(f"{REPO}/apps/web.yaml", "--fail-on", "info")
    assert code == 0, err


def test_fail_on_over_several_files_and_bad_input_wins() -> None:
    code, _, _ = _run(f"{REPO}/apps/web.yaml", f"{REPO}/apps/worker.yml", "--fail-on", "error")
    assert code == 1
    code, _, err = _run(f"{REPO}/apps/worker.yml", BROKEN, "--fail-on", "error")
    assert code == 2 and BROKEN in err


def test_list_rules_lists_every_rule() -> None:
    code, out, err = _run("--list-rules")
    assert code == 0, err
    for rule in RULES:
        assert f"{rule.ID} ({rule.SEVERITY.value}): " in out
    assert "  What:" in out and "  Why:" in out and "  Fix:" in out


def test_list_rules_as_json() -> None:
    code, out, err = _run("--list-rules", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["schemaVersion"] == 1
    assert [r["id"] for r in data["rules"]] == [rule.ID for rule in RULES]
    assert all({"id", "severity", "title", "what", "why", "fix"} <= set(r) for r in data["rules"])


@pytest.mark.parametrize("args", [(), ("--list-rules", WEB_APP)], ids=["no-file", "list-rules-with-file"])
def test_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    code, _, err = _run(*args)
    assert code == 2 and err.strip()


def test_several_files_and_a_directory_in_json() -> None:
    code, out, err = _run(WEB_APP, REPO, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"schemaVersion", "files"} and data["schemaVersion"] == 1
    assert [f["path"] for f in data["files"]] == [WEB_APP, *REPO_FILES]
    for entry in data["files"]:
        assert set(entry) == CONTRACT_KEYS | {"path"}
    by_path = {f["path"]: f for f in data["files"]}
    assert [p["source"]["kind"] for p in by_path[f"{REPO}/batch/cleanup.json"]["pods"]] == ["CronJob"]
    assert [s["kind"] for s in by_path[f"{REPO}/apps/web.yaml"]["skipped"]] == ["Service"]
    # Each entry is the single-file contract object for that file, plus its path.
    single = json.loads(_run(WEB_APP, "--format", "json")[1])
    assert {k: v for k, v in by_path[WEB_APP].items() if k != "path"} == single


def test_a_directory_alone_is_several_inputs() -> None:
    code, out, err = _run(f"{REPO}/batch", "--format", "json")
    assert code == 0, err
    assert [f["path"] for f in json.loads(out)["files"]] == [f"{REPO}/batch/cleanup.json"]


def test_single_file_json_keeps_the_contract_shape() -> None:
    code, out, err = _run(WEB_APP, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == CONTRACT_KEYS and "files" not in data and "path" not in data
    assert data["schemaVersion"] == 1 and [p["name"] for p in data["pods"]] == ["web-app-pod"]


def test_text_prints_a_header_per_file() -> None:
    code, out, err = _run(WEB_APP, REPO)
    assert code == 0, err
    headers = [line for line in out.splitlines() if line.startswith("==> ")]
    assert headers == [f"==> {p} <==" for p in [WEB_APP, *REPO_FILES]]
    assert "What the containers share:" in out and "Pitfalls:" in out


def test_text_of_one_file_has_sharing_and_pitfalls_and_no_header() -> None:
    code, out, err = _run(LONG_INIT)
    assert code == 0, err
    assert not out.startswith("==> ")
    assert "What the containers share:" in out
    pitfalls = out.split("Pitfalls:\n", 1)[1]
    assert "  - error init-never-completes (line 10, container proxy): Init container never completes" in pitfalls
    assert "      Fix:\n        initContainers:" in pitfalls


def test_one_bad_file_among_good_ones(tmp_path: Path) -> None:
    binary = tmp_path / "image.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    missing = tmp_path / "absent.yaml"
    proc = explain_cli(WEB_APP, BROKEN, str(binary), str(missing), f"{REPO}/apps", "--format", "json")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 3, proc.stderr
    assert lines[0].startswith(f"{BROKEN}: line 9")
    assert lines[1].startswith(f"{binary}: ") and "binary" in lines[1]
    assert lines[2].startswith(f"{missing}: cannot read")
    assert "Traceback" not in proc.stderr
    files = {f["path"]: f for f in json.loads(proc.stdout)["files"]}
    assert list(files) == [WEB_APP, BROKEN, str(binary), str(missing), *REPO_FILES[:2]]
    assert files[WEB_APP]["pods"] and files[WEB_APP]["errors"] == []
    assert files[f"{REPO}/apps/worker.yml"]["pods"][0]["findings"]
    assert files[BROKEN]["errors"][0]["line"] == 9
    assert files[str(binary)]["errors"][0]["kind"] == "syntax" and files[str(binary)]["pods"] == []


def test_one_bad_file_among_good_ones_in_text_and_junit() -> None:
    code, out, err = _run(BROKEN, WEB_APP)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"==> {BROKEN} <==" in out and "web-app-pod" in out
    code, out, _ = _run(BROKEN, WEB_APP, "--format", "junit")
    assert code == 2
    root = ET.fromstring(out.encode("utf-8"))
    broken, web = root.findall("testsuite")
    assert broken.get("errors") == "1" and web.get("errors") == "0"
    assert root.get("errors") == "1"


def test_an_empty_directory_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no manifests here\n", encoding="utf-8")
    proc = explain_cli(str(tmp_path), WEB_APP, "--format", "json")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"{tmp_path}: no *.yaml, *.yml, *.json files in this directory"]
    assert [f["path"] for f in json.loads(proc.stdout)["files"]] == [WEB_APP]

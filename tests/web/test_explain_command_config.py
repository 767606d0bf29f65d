"""The command line where CI users work: --summary, --format github, --disable/--enable, the
.podlife.yaml config found upward, colour, and files that hold no Kubernetes object."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.cli import explain_cli

ROOT = Path(__file__).resolve().parents[2]
JOB = ROOT / "tests/fixtures/suppress/job-object-annotation.yaml"
SUMMARY = [
    f"{JOB}:17: warning sidecar-start-order-assumed proxy: Start order assumed between app containers",
    f"{JOB}:14: info missing-resources worker: No resource requests",
    f"{JOB}:17: info missing-resources proxy: No resource requests",
]


def run(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return explain_cli(*args, cwd=cwd, env={"COLUMNS": os.environ.get("COLUMNS", ""), **(env or {})})


def test_summary_is_one_line_per_finding() -> None:
    proc = run(str(JOB), "--summary")
    assert proc.returncode == 0 and proc.stdout.splitlines() == SUMMARY


def test_disable_takes_lists_and_unknown_rules_are_bad_input() -> None:
    proc = run(str(JOB), "--summary", "--disable", "missing-resources,port-conflict")
    assert proc.stdout.splitlines() == SUMMARY[:1]
    bad = run(str(JOB), "--disable", "missing-resource")
    assert bad.returncode == 2 and "no rule named missing-resource" in bad.stderr


def test_config_found_upward_sets_defaults_and_flags_win(tmp_path: Path) -> None:
    (tmp_path / ".podlife.yaml").write_text('kubernetesVersion: "1.33"\nfailOn: info\n'
                                            "disable: [sidecar-start-order-assumed]\n")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    proc = run(str(JOB), "--summary", cwd=deep)
    assert proc.stdout.splitlines() == SUMMARY[1:] and proc.returncode == 1      # failOn: info
    assert run(str(JOB), "--format", "json", cwd=deep).stdout.count('"kubernetesVersion": "1.33"') == 1
    enabled = run(str(JOB), "--summary", "--enable", "sidecar-start-order-assumed", "--fail-on", "error", cwd=deep)
    assert enabled.stdout.splitlines() == SUMMARY and enabled.returncode == 0
    ignored = run(str(JOB), "--summary", "--no-config", cwd=deep)
    assert ignored.stdout.splitlines() == SUMMARY and ignored.returncode == 0


@pytest.mark.parametrize("text,message", [
    ("failOn: sometimes\n", ":1: failOn must be one of error, warning, info"),
    ("disable: [no-such-rule]\n", ":1: no rule named no-such-rule"),
    ("version: 1.33\n", ":1: unknown key 'version'"),
    ('kubernetesVersion: "1.9"\n', ":1: kubernetesVersion '1.9' is not supported"),
])
def test_a_wrong_config_is_bad_input_with_its_line(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / ".podlife.yaml").write_text(text)
    proc = run(str(JOB), cwd=tmp_path)
    assert proc.returncode == 2 and f"{tmp_path / '.podlife.yaml'}{message}" in proc.stderr


def test_github_format_annotates_each_finding() -> None:
    proc = run(str(JOB), "--format", "github")
    lines = proc.stdout.splitlines()
    assert lines[0] == (f"::warning file={JOB},line=17,title=sidecar-start-order-assumed (proxy)::"
                        "Start order assumed between app containers")
    assert [line.split(" ")[0] for line in lines] == ["::warning", "::notice", "::notice"]


def test_files_without_kubernetes_objects_can_be_skipped(tmp_path: Path) -> None:
    (tmp_path / "ci.yaml").write_text("on: [push]\njobs: {}\n")
    assert run(str(tmp_path / "ci.yaml"), str(JOB)).returncode == 2
    proc = run(str(tmp_path / "ci.yaml"), str(JOB), "--skip-non-kubernetes", "--summary")
    assert proc.returncode == 0 and proc.stdout.splitlines() == SUMMARY


def test_text_ends_with_a_summary_and_colours_only_when_asked() -> None:
    plain = run(str(JOB))
    assert plain.stdout.rstrip().splitlines()[-1] == "1 file; 1 Pod; findings: 0 errors, 1 warning, 2 info; 1 suppressed"
    assert "\x1b[" not in plain.stdout          # not a terminal
    assert "\x1b[33;1mwarning\x1b[0m sidecar-start-order-assumed" in run(str(JOB), "--color", "always").stdout
    assert "\x1b[" not in run(str(JOB), "--color", "auto", env={"NO_COLOR": "1"}).stdout

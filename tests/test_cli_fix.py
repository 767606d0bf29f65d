"""`podlife explain --fix` / `--diff` (issue 13's fixes, through issue 15's podlife): files
rewritten in place with comments and formatting kept, other documents byte-identical, JSON
files kept JSON, a diff that applies, the report on standard error, the usual exit codes."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from explainer.explain import explain
from explainer.fixes import document_spans
from tests.cli import podlife_cli

ROOT = Path(__file__).resolve().parents[1]
FIXES = ROOT / "tests" / "fixtures" / "fixes"


def podlife(*args: str, cwd: Path, stdin: bytes | None = None) -> tuple[int, str, str]:
    proc = podlife_cli(*args, cwd=cwd, stdin=stdin, environ={"PATH": "/usr/bin:/bin"})
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def work(tmp_path: Path) -> Path:
    for name in ("multi_document.yaml", "pod.json"):
        shutil.copy(FIXES / name, tmp_path / name)
    return tmp_path


def _comments(text: str) -> list[str]:
    return [m.group(0).strip() for m in re.finditer(r"#[^\n]*", text)]


def test_fix_rewrites_in_place_keeping_comments_formatting_and_other_documents(work: Path) -> None:
    before = (work / "multi_document.yaml").read_text()
    code, out, err = podlife("multi_document.yaml", "--fix", cwd=work)
    after = (work / "multi_document.yaml").read_text()
    assert code == 0, err
    assert after != before
    assert sorted(_comments(after)) == sorted(_comments(before))   # every comment (a moved item takes its own)
    spans, new = document_spans(before), document_spans(after)
    assert [before[a:b] for a, b in spans][0::3] == [after[a:b] for a, b in new][0::3]   # ConfigMap, Service
    assert "metadata: { name: shop-config }   # spacing inside braces kept" in after
    assert "--- # a Job whose init container carries a probe it cannot have\n" in after
    # every line the fixes did not touch is still there, in order (only lines were added or removed)
    kept = [ln for ln in before.splitlines() if ln in after.splitlines()]
    assert len(kept) >= len(before.splitlines()) - 8
    # the report: each fix, what needs a person, the totals; stdout explains the fixed file
    # the proxy's move to a native sidecar fixes two findings at once (its start and its stop order); the
    # report names the one applied first (findings at one line go by rule id); the Service `shop` selects
    # the Deployment, so a preStop drain is added too (issue 17), four lines above it
    assert "multi_document.yaml:41: fixed classic-sidecar-stops-before-app (envoy-proxy)" in err
    assert "fixed probe-on-plain-init (migrate)" in err
    assert "needs a person: info missing-resources (shop): No resource requests" in err
    # migrate, a plain init container, is not asked for requests any more (docs/lifecycle-model.md §25.4)
    assert err.rstrip().endswith("fixed 5 findings in 1 file; 3 need a person")
    assert "\nDeployment shop (Pod template, line 10)\n" in out          # stdout explains the fixed file:
    assert "containers: envoy-proxy (sidecar), shop (app); restartPolicy Always" in out   # the proxy moved
    expl = explain(after)
    assert expl.ok and not [f for r in expl.pods for f in r.findings if f.fixable]
    # run again: nothing left to fix, the file is not touched
    mtime = (work / "multi_document.yaml").stat().st_mtime_ns
    code, _out, err = podlife("multi_document.yaml", "--fix", cwd=work)
    assert code == 0 and "fixed 0 findings in 0 files; 3 need a person" in err
    assert (work / "multi_document.yaml").stat().st_mtime_ns == mtime


def test_fix_keeps_json_files_json(work: Path) -> None:
    code, _out, err = podlife("pod.json", "--fix", "--format", "json", cwd=work)
    assert code == 0, err
    data = json.loads((work / "pod.json").read_text())
    assert "ephemeralContainers" not in data["spec"]
    assert data["spec"]["containers"][0]["startupProbe"]["httpGet"] == {"path": "/healthz", "port": 8080}
    text = (work / "pod.json").read_text()
    assert text.startswith('{\n    "apiVersion": "v1",\n') and text.endswith("}\n")   # its own 4-space indent


def test_diff_prints_a_patch_that_applies_and_writes_nothing(work: Path) -> None:
    before = (work / "multi_document.yaml").read_text()
    code, out, err = podlife("multi_document.yaml", "--diff", cwd=work)
    assert code == 0, err
    assert (work / "multi_document.yaml").read_text() == before
    assert out.startswith("--- a/multi_document.yaml\n+++ b/multi_document.yaml\n")
    assert "would fix 5 findings in 1 file" in err
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    subprocess.run(["git", "apply", "-"], cwd=work, input=out.encode(), check=True)
    _code, _out, _err = podlife("multi_document.yaml", "--fix", cwd=work)
    assert "fixed 0 findings" in _err   # the applied diff is what --fix would have written


def test_exit_codes_follow_what_the_fixes_leave(work: Path) -> None:
    code, _out, _err = podlife("multi_document.yaml", "--fix", "--fail-on", "warning", cwd=work)
    assert code == 0   # every warning was fixable
    code, _out, err = podlife("multi_document.yaml", "--fix", "--fail-on", "info", cwd=work)
    assert code == 1 and "--fail-on info" in err   # missing-resources needs a person


def test_fix_on_standard_input_is_refused_and_diff_works(work: Path) -> None:
    text = (work / "multi_document.yaml").read_bytes()
    code, out, err = podlife("-", "--fix", cwd=work, stdin=text)
    assert (code, out) == (2, "") and "--fix rewrites files; for standard input use --diff" in err
    code, out, err = podlife("-", "--diff", cwd=work, stdin=text)
    assert code == 0 and out.startswith("--- a/-\n+++ b/-\n")


def test_fix_and_diff_exclude_each_other(work: Path) -> None:
    code, _out, err = podlife("pod.json", "--fix", "--diff", cwd=work)
    assert code == 2 and "not allowed with argument" in err


def test_a_directory_is_fixed_file_by_file(work: Path) -> None:
    code, _out, err = podlife(".", "--fix", cwd=work)
    assert code == 0, err
    assert "fixed 8 findings in 2 files" in err
    assert json.loads((work / "pod.json").read_text())["kind"] == "Pod"


def test_unreadable_and_broken_files_are_reported_as_without_fix(work: Path) -> None:
    (work / "broken.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: x\n")
    code, _out, err = podlife("broken.yaml", "missing.yaml", "--fix", cwd=work)
    assert code == 2
    assert "broken.yaml: line" in err and "missing.yaml: cannot read" in err
    assert (work / "broken.yaml").read_text() == "apiVersion: v1\nkind: Pod\nmetadata: {name: x\n"


def test_a_document_with_anchors_is_left_to_a_person(tmp_path: Path) -> None:
    """A change under `&base` would reach every `<<: *base` too: no automatic fix there."""
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n    - &base\n      name: web\n"
            "      image: nginx:1.27\n      ports: [{containerPort: 80}]\n    - <<: *base\n      name: web2\n"
            "      ports: [{containerPort: 81}]\n")
    (tmp_path / "anchors.yaml").write_text(text)
    code, _out, err = podlife("anchors.yaml", "--fix", cwd=tmp_path)
    assert code == 0 and (tmp_path / "anchors.yaml").read_text() == text
    assert "anchors.yaml:9: not fixed (readiness-probe-missing (web)): its fix did not hold" in err
    assert err.rstrip().endswith("fixed 0 findings in 0 files; 4 need a person")

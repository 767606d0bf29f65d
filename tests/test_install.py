"""Where its users work: `pip install` gives `podlife` and `kubectl-podlife`, which run anywhere,
and the pre-commit hook passes and fails as it should (issue 15).

These install the checkout for real: into a fresh virtualenv outside the checkout, and through
`pre-commit run` with this checkout as the hook's repository, which builds the hook's own environment.  Both reuse a pip cache and a
pre-commit home under .cache/, so only the first run on a machine downloads anything.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache"
ERROR_POD = """\
apiVersion: v1
kind: Pod
metadata: {name: stuck}
spec:
  initContainers:
    - name: proxy
      image: example/proxy:1.0
      command: ["proxy", "run"]
  containers:
    - name: app
      image: example/app:1.0
"""
GOOD_POD = """\
apiVersion: v1
kind: Pod
metadata: {name: fine}
spec:
  containers:
    - name: app
      image: nginx:1.27
      resources:
        requests: {cpu: 100m, memory: 64Mi}
        limits: {memory: 128Mi}
"""
pytestmark = pytest.mark.slow


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "VIRTUAL_ENV", "PYTHON"))}
    env["PIP_CACHE_DIR"] = str(CACHE / "pip")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return {**env, **extra}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv outside the checkout with `pip install <checkout>` done: its bin dir."""
    where = tmp_path_factory.mktemp("podlife-venv")
    venv.EnvBuilder(with_pip=True, symlinks=True).create(where)
    proc = subprocess.run([str(where / "bin" / "python"), "-m", "pip", "install", "--quiet", str(ROOT)],
                          capture_output=True, text=True, timeout=900, env=_env(), cwd=where)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return where / "bin"


def test_podlife_runs_in_an_empty_directory_and_writes_nothing(installed: Path, tmp_path: Path) -> None:
    manifest = tmp_path / "in" / "pod.yaml"
    manifest.parent.mkdir()
    manifest.write_text(ERROR_POD)
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = subprocess.run([str(installed / "podlife"), "explain", str(manifest), "--format", "json"],
                          cwd=empty, capture_output=True, text=True, timeout=120,
                          env=_env(HOME=str(empty)))   # nothing may land in HOME either
    assert proc.returncode == 0, proc.stderr
    assert '"init-never-completes"' in proc.stdout and '"schemaVersion": 1' in proc.stdout
    assert list(empty.iterdir()) == []
    assert sorted(p.name for p in manifest.parent.iterdir()) == ["pod.yaml"]


def test_kubectl_runs_it_as_a_plugin(installed: Path, tmp_path: Path) -> None:
    assert (installed / "kubectl-podlife").is_file()
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(ERROR_POD)
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.fail("kubectl is missing: `make setup` installs Debian's kubernetes-client")
    # kubectl finds kubectl-podlife on PATH and hands it the rest of the command line.
    env = _env(PATH=f"{installed}{os.pathsep}{os.environ['PATH']}", HOME=str(tmp_path),
               KUBECONFIG=str(tmp_path / "no-kubeconfig"))
    proc = subprocess.run([kubectl, "podlife", "explain", "-f", str(manifest), "--summary"],
                          capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].startswith(f"{manifest}:8: error init-never-completes proxy: ")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                   env=_env(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
                            GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid"))


def test_pre_commit_hook_fails_on_an_error_and_passes_a_good_manifest(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "stuck.yaml").write_text(ERROR_POD)
    (repo / "fine.yaml").write_text(GOOD_POD)
    (repo / "ci.yml").write_text("on: [push]\njobs: {}\n")       # not Kubernetes: skipped
    # as a user's repository has it: this checkout at its commit (what a clean clone, as CI's, holds; edits not
    # yet committed are not in it); the hook's environment is built once, into the pre-commit home, and the
    # second run uses it (`pre-commit try-repo` would build it for every run: ~15 s each on an idle machine)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT}\n    rev: {head}\n    hooks:\n      - id: podlife\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    env = _env(PRE_COMMIT_HOME=str(CACHE / "pre-commit"))

    def run_hook(*files: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "podlife", "--files", *files],
                              cwd=repo, capture_output=True, text=True, timeout=900, env=env)

    good = run_hook("fine.yaml", "ci.yml")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Passed" in good.stdout
    bad = run_hook("stuck.yaml", "fine.yaml")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "stuck.yaml:8: error init-never-completes proxy:" in bad.stdout
    assert "findings at severity error or worse (--fail-on error)" in bad.stdout

"""The command line reads whole install manifests (16 MiB by default, --max-bytes), names the flag in its
limit message, and says so when an input holds nothing to explain (exit 3 when every input is empty)."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from explainer.cli import run as cli, main as podlife
from tests.conftest import FIXTURES_DIR

VALIDATION = FIXTURES_DIR / "validation"


def install_manifest(size: int = 1_500_000) -> str:
    """A multi-document file of about ``size`` bytes from real documents: kubernetes/website's MySQL
    StatefulSet, Service and PersistentVolumeClaim, repeated as a release bundle repeats its objects."""
    statefulset = (VALIDATION / "mysql_statefulset.yaml").read_text(encoding="utf-8")
    service, claim = (VALIDATION / "extensions_v1beta1_deployment.yaml").read_text(encoding="utf-8").split("---")[:2]
    unit = "\n---\n".join([statefulset, service, claim])
    return "\n---\n".join([unit] * -(-size // len(unit)))


def execute(*argv: str, env_bytes: int = podlife.DEFAULT_MAX_BYTES) -> tuple[int, str, str]:
    args = podlife.parser().parse_args(["explain", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = podlife.execute(vars(args), env_bytes, out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_real_install_manifest_of_1_5_mb_is_explained_by_default(tmp_path: Path) -> None:
    path = tmp_path / "install.yaml"
    path.write_text(install_manifest(), encoding="utf-8")
    assert 1_500_000 <= path.stat().st_size < 1_600_000 and podlife.DEFAULT_MAX_BYTES == 16 * 1024 * 1024
    code, out, err = execute(str(path), "--summary")
    assert code == cli.EXIT_OK and err == ""
    assert "error" not in out.split()


def test_the_limit_message_names_the_flag_and_the_flag_raises_it(tmp_path: Path) -> None:
    path = tmp_path / "install.yaml"
    path.write_text(install_manifest(300_000), encoding="utf-8")
    code, out, err = execute(str(path), "--max-bytes", "100000", "--format", "json")
    error = json.loads(out)["errors"][0]
    assert code == cli.EXIT_BAD_INPUT and error["kind"] == "limit"
    assert error["message"].endswith("the limit is 100,000 bytes (--max-bytes raises it).")
    assert "--max-bytes raises it" in err
    code, out, _err = execute(str(path), "--max-bytes", "400000", "--format", "json")
    assert code == cli.EXIT_OK and not json.loads(out)["errors"]


def test_the_old_variable_still_sets_the_default_and_the_flag_wins(tmp_path: Path) -> None:
    path = tmp_path / "install.yaml"
    path.write_text(install_manifest(20_000), encoding="utf-8")
    assert execute(str(path), env_bytes=10_000)[0] == cli.EXIT_BAD_INPUT
    assert execute(str(path), "--max-bytes", "30000", env_bytes=10_000)[0] == cli.EXIT_OK


@pytest.mark.parametrize("value", ["0", "-5", "1MiB"])
def test_a_bad_max_bytes_is_refused_by_the_parser(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        podlife.parser().parse_args(["explain", "x.yaml", "--max-bytes", value])
    assert exit_.value.code == 2 and "--max-bytes" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n---\n", "# a\n---\n# b\n...\n"])
def test_an_empty_input_says_there_is_nothing_to_explain(tmp_path: Path, text: str) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = execute(str(path))
    assert code == cli.EXIT_NOTHING == 3
    assert "nothing to explain: the input is empty" in out
    assert err == f"{path}: nothing to explain: the file is empty (only comments, blank lines or ---)\n"
    code, out, _err = execute(str(path), "--format", "json")
    assert code == 3 and json.loads(out)["nothingToExplain"] is True and json.loads(out)["pods"] == []


def test_an_empty_file_beside_others_keeps_their_exit_code(tmp_path: Path) -> None:
    (tmp_path / "empty.yaml").write_text("# placeholder\n", encoding="utf-8")
    (tmp_path / "pod.yaml").write_text((VALIDATION / "statefulset_without_service_name.yaml").read_text())
    code, out, err = execute(str(tmp_path), "--k8s-version", "1.33")
    assert code == cli.EXIT_OK and err == "" and "nothing to explain" in out
    # hooks that skip non-Kubernetes files skip an empty one too: nothing printed, nothing failed
    code, out, err = execute(str(tmp_path / "empty.yaml"), "--skip-non-kubernetes")
    assert (code, err) == (cli.EXIT_OK, "")

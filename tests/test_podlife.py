"""`podlife explain`: the same bytes and exit codes as `manage.py explain`, without Django."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli import explain_cli, podlife_cli, run_program

ROOT = Path(__file__).resolve().parents[1]
DEMO = "explainer/examples/lifecycle-demo.yaml"
WEB_APP = "explainer/examples/web-app-pod.yaml"
BROKEN = "tests/fixtures/ci/bad/broken.yaml"
REPO = "tests/fixtures/ci/repo"
SCENARIO = "tests/fixtures/scenarios/delete_at_20.yaml"


def _run(argv: list[str], stdin: bytes | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    proc = run_program(argv, stdin=stdin, env=env)
    return proc.returncode, proc.stdout, proc.stderr


def podlife(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    proc = podlife_cli(*args, stdin=stdin)
    return proc.returncode, proc.stdout, proc.stderr


def manage(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    proc = explain_cli(*args, stdin=stdin, env={"COLUMNS": os.environ.get("COLUMNS", "")})
    return proc.returncode, proc.stdout, proc.stderr


# Every flag, every format, good and bad input, a directory and standard input.
CASES = [
    (DEMO,),
    (DEMO, "--format", "json"),
    (DEMO, "--format", "sarif"),
    (DEMO, "--format", "junit"),
    (DEMO, "--k8s-version", "1.27", "--format", "json"),
    (WEB_APP, "--scenario", SCENARIO),
    (WEB_APP, "--fail-on", "info"),
    (WEB_APP, "--fail-on", "error", "--format", "sarif"),
    (BROKEN,),
    (BROKEN, DEMO, "--format", "json"),
    (REPO, "--format", "junit"),
    ("no-such-file.yaml",),
    ("-",),
    ("--list-rules",),
    ("--list-rules", "--format", "json"),
    (WEB_APP, "--diff"),
    ("-", "--diff", "--format", "json"),
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(c) for c in CASES])
def test_podlife_prints_what_manage_py_explain_prints(args: tuple[str, ...]) -> None:
    stdin = (ROOT / DEMO).read_bytes() if "-" in args else None
    code, out, err = podlife(*args, stdin=stdin)
    assert (code, out, err) == manage(*args, stdin=stdin)
    assert out or err


@pytest.mark.parametrize("args,message", [
    ((), "give a manifest FILE, a directory, or - for standard input"),
    (("--list-rules", DEMO), "--list-rules takes no FILE"),
    (("--list-rules", "--format", "sarif"), "--list-rules prints text or json"),
])
def test_usage_errors_exit_2_with_the_same_message(args: tuple[str, ...], message: str) -> None:
    code, out, err = podlife(*args)
    assert (code, out, err) == (2, "", f"podlife explain: error: {message}\n")
    code, out, err = manage(*args)
    assert code == 2 and out == "" and message in err


def test_bad_flag_values_are_refused_by_the_parser() -> None:
    code, _out, err = podlife(DEMO, "--format", "yaml")
    assert code == 2 and "invalid choice: 'yaml'" in err
    code, _out, err = _run(["-m", "explainer.cli.main"])
    assert code == 2 and "COMMAND" in err


def test_the_manifest_limit_comes_from_the_same_variable() -> None:
    env = {"EXPLAINER_MAX_MANIFEST_BYTES": "100", "PATH": "/usr/bin:/bin"}
    code, out, err = _run(["-m", "explainer.cli.main", "explain", DEMO, "--format", "json"], env=env)
    assert code == 2 and json.loads(out)["errors"][0]["kind"] == "limit"


IMPORTS = """
import sys
from explainer.cli import main as podlife
code = podlife.main(sys.argv[1:])
print(sorted(m for m in sys.modules if m.split(".")[0] in ("django", "jsonschema", "referencing")
             or m.startswith("explainer.render.") or m.startswith("explainer.web")), file=sys.stderr)
"""


@pytest.mark.parametrize("fmt,renderers", [
    ("text", ["explainer.render.i18n", "explainer.render.story", "explainer.render.text"]),
    ("json", ["explainer.render.jsonable"]),
])
def test_a_valid_file_loads_no_django_no_jsonschema_and_only_its_renderer(fmt: str, renderers: list[str]) -> None:
    code, _out, err = _run(["-c", IMPORTS, "explain", DEMO, "--format", fmt])
    assert code == 0
    loaded = eval(err.strip().splitlines()[-1])   # the list printed above
    # explainer.render.style: the width and colour of text, a dataclass the command line needs first.
    assert set(loaded) <= set(renderers) | {"explainer.render", "explainer.render.style"}, loaded
    assert not any(m.startswith(("django", "jsonschema", "explainer.web")) for m in loaded)


def test_pyproject_names_the_console_script() -> None:
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["podlife"] == "explainer.cli.main:main"

"""The command line run in this process, as a user types it: `manage.py explain ...` and
`podlife explain ...` with their standard input, output, error, working directory, environment
and exit code, without starting a Python per call (issue 16: the suite's wall time).

`run_program` starts a real process; the few tests about the program itself (it starts, what it
imports, the environment it reads at start) use it.
"""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

from django.core.management import ManagementUtility

from explainer.cli import main as podlife

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"
COLUMNS = {"COLUMNS": "120"}   # text wraps to COLUMNS when stdout is not a terminal: fix it, so lines are known


def explain_cli(*args: str, stdin: bytes | None = None, cwd: Path = ROOT,
                env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`manage.py explain ARGS` (Django's own command-line entry), ``env`` added to this environment."""
    return _in_process(lambda: ManagementUtility(["manage.py", "explain", *args]).execute(),
                       ["manage.py", "explain", *args], stdin, cwd, {**os.environ, **COLUMNS, **(env or {})})


def podlife_cli(*args: str, stdin: bytes | None = None, cwd: Path = ROOT,
                environ: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`podlife explain ARGS`; ``environ`` replaces the whole environment (default: this one)."""
    return _in_process(lambda: podlife.main(["explain", *args]), ["podlife", "explain", *args], stdin, cwd,
                       dict(os.environ if environ is None else environ))


def run_program(argv: Sequence[str], *, stdin: bytes | None = None, cwd: Path = ROOT,
                env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A real process: ``argv`` after this project's Python (``-m explainer.cli.main ...``, ``manage.py ...``)."""
    python = str(PYTHON) if PYTHON.exists() else sys.executable
    proc = subprocess.run([python, *argv], cwd=cwd, input=stdin, capture_output=True, timeout=120,
                          env=None if env is None else dict(env))
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8"),
                                       proc.stderr.decode("utf-8"))


def _in_process(main: Callable[[], int | None], argv: list[str], stdin: bytes | None, cwd: Path,
                environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    out, err = io.StringIO(), io.StringIO()
    with _environment(environ), _standard_input(stdin or b""), contextlib.chdir(cwd), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main() or 0
        except SystemExit as exc:   # sys.exit(code), argparse's usage errors, Django's CommandError
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _environment(environ: dict[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(environ)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def _standard_input(data: bytes) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = saved

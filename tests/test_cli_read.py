"""The command line reads regular files only, never more than its limit + 1 byte, and `--fix` writes a
file back the way it was: through a symbolic link, keeping hard links, owner, mode and CRLF line ends,
and not at all when the file changed since it was read (issue 27)."""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path
from typing import Any, Callable

import pytest

from explainer.cli import fix as cli_fix
from tests.cli import PYTHON, ROOT, podlife_cli

FIXES = ROOT / "tests" / "fixtures" / "fixes"
ENV = {"PATH": "/usr/bin:/bin"}


def podlife(*args: str, cwd: Path, stdin: bytes | None = None) -> tuple[int, str, str]:
    proc = podlife_cli(*args, cwd=cwd, stdin=stdin, environ=ENV)
    return proc.returncode, proc.stdout, proc.stderr


def within(seconds: float, work: Callable[[], Any]) -> Any:
    """``work()``'s value, or a failure when it has not returned after ``seconds`` (it may block for ever)."""
    box: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: box.setdefault("value", work()), daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        return None
    return box["value"]


def bounded_process(args: list[str], stdin: Any = None) -> subprocess.CompletedProcess[bytes]:
    """`podlife explain ARGS` as a process with 1 GiB of address space (a reader that reads for ever
    fails with MemoryError instead of taking the machine) and 60 s."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    return subprocess.run([str(PYTHON) if PYTHON.exists() else sys.executable, "-m", "explainer.cli.main", "explain",
                           *args], cwd=ROOT, stdin=stdin, capture_output=True, timeout=60, preexec_fn=limit,
                          env=ENV)


# ---- reading ------------------------------------------------------------------------------------------
def test_a_named_pipe_is_refused_at_once_not_waited_for(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    try:
        got = within(10, lambda: podlife(str(fifo), cwd=tmp_path))
        assert got is not None, "podlife waited for a writer on a named pipe"
        code, _out, err = got
        assert code == 2 and err == f"{fifo}: not a regular file (a named pipe); skipped\n"
    finally:   # release a reader that blocked (before the fix), so no thread is left waiting
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK) if _has_reader(fifo) else None
        if fd is not None:
            os.close(fd)


def _has_reader(fifo: Path) -> bool:
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        return True
    except OSError:
        return False


def test_a_named_pipe_in_a_directory_is_skipped_and_said(tmp_path: Path) -> None:
    (tmp_path / "pod.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                                       "  - {name: app, image: nginx:1.27, resources: {requests: {cpu: 10m}}}\n")
    os.mkfifo(tmp_path / "pipe.yaml")
    got = within(10, lambda: podlife(str(tmp_path), cwd=tmp_path))
    assert got is not None, "podlife waited for a writer on a named pipe found in a directory"
    code, out, err = got
    assert err == f"{tmp_path / 'pipe.yaml'}: skipped: not a regular file (a named pipe)\n"
    assert code == 0 and "Pod p" in out   # the other file is explained as usual


def test_a_device_is_refused_without_reading_it() -> None:
    proc = bounded_process(["/dev/zero"])
    assert proc.returncode == 2 and proc.stderr.decode() == "/dev/zero: not a regular file (a character device); skipped\n"


def test_standard_input_is_read_up_to_the_limit_only() -> None:
    with open("/dev/zero", "rb") as zero:
        proc = bounded_process(["-", "--max-bytes", "1000000"], stdin=zero)
    assert proc.returncode == 2, proc.stderr[-500:]
    assert "Standard input holds more than 1,000,000 bytes; the limit is 1,000,000 bytes (--max-bytes raises it)." \
        in proc.stderr.decode()
    assert b"Traceback" not in proc.stderr


def test_a_file_over_the_limit_is_not_read_whole(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(200 * 1024 * 1024)    # sparse: 200 MB that cost no disk
    tracemalloc.start()
    try:
        code, _out, err = podlife(str(big), cwd=tmp_path)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert code == 2
    assert err == f"{big}: The manifest is 209,715,200 bytes; the limit is 16,777,216 bytes (--max-bytes raises it).\n"
    assert peak < 20 * 1024 * 1024, f"{peak:,} bytes allocated to refuse it"


def test_a_scenario_file_that_is_a_pipe_is_refused(tmp_path: Path) -> None:
    shutil.copy(FIXES / "pod.json", tmp_path / "pod.json")
    os.mkfifo(tmp_path / "scenario.yaml")
    got = within(10, lambda: podlife("pod.json", "--scenario", "scenario.yaml", cwd=tmp_path))
    assert got is not None and got[0] == 2 and "scenario.yaml: not a regular file (a named pipe)" in got[2]


# ---- --fix writes the file back as it was ------------------------------------------------------------------
@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copy(FIXES / "multi_document.yaml", tmp_path / "real.yaml")
    return tmp_path


def _fixed(text: str) -> bool:
    return "initContainers" in text and "startupProbe" in text


def test_fix_writes_through_a_symbolic_link(work: Path) -> None:
    (work / "link.yaml").symlink_to("real.yaml")
    code, _out, err = podlife("link.yaml", "--fix", cwd=work)
    assert code == 0, err
    assert (work / "link.yaml").is_symlink() and os.readlink(work / "link.yaml") == "real.yaml"
    assert _fixed((work / "real.yaml").read_text())


def test_fix_keeps_hard_links(work: Path) -> None:
    os.link(work / "real.yaml", work / "other-name.yaml")
    inode = (work / "real.yaml").stat().st_ino
    code, _out, err = podlife("real.yaml", "--fix", cwd=work)
    assert code == 0, err
    assert (work / "real.yaml").stat().st_ino == inode == (work / "other-name.yaml").stat().st_ino
    assert _fixed((work / "other-name.yaml").read_text())


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_fix_keeps_the_owner_and_mode(work: Path) -> None:
    os.chown(work / "real.yaml", 65534, 65534)
    os.chmod(work / "real.yaml", 0o640)
    code, _out, err = podlife("real.yaml", "--fix", cwd=work)
    assert code == 0, err
    info = (work / "real.yaml").stat()
    assert (info.st_uid, info.st_gid, info.st_mode & 0o7777) == (65534, 65534, 0o640)
    assert _fixed((work / "real.yaml").read_text())


def test_fix_keeps_crlf_line_ends(work: Path) -> None:
    text = (work / "real.yaml").read_text()
    (work / "real.yaml").write_bytes(text.replace("\n", "\r\n").encode())
    code, _out, err = podlife("real.yaml", "--fix", cwd=work)
    assert code == 0, err
    data = (work / "real.yaml").read_bytes()
    assert _fixed(data.decode()) and data.count(b"\n") == data.count(b"\r\n") > text.count("\n")
    code, out, _err = podlife("real.yaml", "--diff", cwd=work)
    assert code == 0 and out == ""   # nothing more to fix: the CRLF file reads as the fixed one


def test_fix_writes_nothing_when_the_file_changed_meanwhile(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_fix_all = cli_fix.fix_all

    def fix_while_someone_appends(text: str, *args: Any, **kwargs: Any) -> Any:
        with open(work / "real.yaml", "a") as f:
            f.write("# a line appended while podlife ran\n")
        return real_fix_all(text, *args, **kwargs)

    monkeypatch.setattr(cli_fix, "fix_all", fix_while_someone_appends)
    code, _out, err = podlife("real.yaml", "--fix", cwd=work)
    assert code == 2 and "real.yaml: the file changed since it was read; nothing written (run --fix again)" in err
    text = (work / "real.yaml").read_text()
    assert text.endswith("# a line appended while podlife ran\n") and not _fixed(text)

"""Reading and rewriting the command line's files (issue 27): regular files only, never more than the
limit, and ``--fix`` written back the way the file was.

Reading: a named pipe opened for reading waits for a writer for ever, ``/dev/zero`` never ends, and a
200 MB file read whole costs 200 MB before the size check says no.  So a path is opened without waiting
(``O_NONBLOCK``), anything but a regular file is refused with what it is, and at most the limit + 1
bytes are read: one byte more tells that the file is over it (its size then comes from ``fstat``).
Standard input is read the same way, at most the limit + 1 bytes.

Writing (``--fix``): through a symbolic link to the file it names; a file with other hard links, or
whose owner this process cannot give a new file, is rewritten in place (the same inode, so every link
and the owner stay); any other file is replaced atomically by a temporary file beside it that has its
mode and owner.  CRLF line ends and a UTF-8 byte-order mark are kept.  The file is read again first:
when it changed since it was read (an editor saved, a line was appended), nothing is written.
"""
from __future__ import annotations

import os
import stat
import sys
import tempfile
from dataclasses import dataclass

BOM = b"\xef\xbb\xbf"
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


@dataclass(frozen=True)
class Read:
    """What reading one input gave: ``text``, or ``problem`` (why there is none); ``too_large`` when the
    input is over the limit (``size``: its size in bytes, when a regular file's ``fstat`` said it)."""

    text: str | None
    problem: str | None = None
    too_large: bool = False
    size: int | None = None
    raw: bytes = b""                      # the bytes read (for --fix: the check before writing)
    crlf: bool = False                    # every line ends with CRLF


def not_regular(mode: int) -> str | None:
    """What a file of this mode is, when it is not a regular file (None for a regular one)."""
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def _read_bounded(fileobj: object, max_bytes: int) -> bytes:
    read = getattr(fileobj, "read")
    chunks, left = [], max_bytes + 1
    while left > 0:
        chunk = read(min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_input(path: str, max_bytes: int) -> Read:
    """Read ``path`` (``-``: standard input) as UTF-8 text of at most ``max_bytes`` bytes."""
    if path == "-":
        data = _read_bounded(sys.stdin.buffer, max_bytes)
        if len(data) > max_bytes:
            return Read(None, f"Standard input holds more than {max_bytes:,} bytes; the limit is {max_bytes:,} "
                              "bytes (--max-bytes raises it).", too_large=True)
        return _decoded(data)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return Read(None, f"cannot read: {exc.strerror}")
    try:
        info = os.fstat(fd)
        what = not_regular(info.st_mode)
        if what is not None:
            return Read(None, f"not a regular file ({what}); skipped")
        if info.st_size > max_bytes:
            return Read(None, _over(info.st_size, max_bytes), too_large=True, size=info.st_size)
        with os.fdopen(os.dup(fd), "rb") as f:
            data = _read_bounded(f, max_bytes)
    except OSError as exc:
        return Read(None, f"cannot read: {exc.strerror}")
    finally:
        os.close(fd)
    if len(data) > max_bytes:   # it grew while it was read
        return Read(None, _over(len(data), max_bytes, more=True), too_large=True)
    return _decoded(data)


def _over(size: int, limit: int, more: bool = False) -> str:
    what = f"more than {limit:,}" if more else f"{size:,}"
    return f"The manifest is {what} bytes; the limit is {limit:,} bytes (--max-bytes raises it)."


def _decoded(data: bytes) -> Read:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return Read(None, f"not UTF-8 text (byte {exc.start}); is it a binary file?")
    lf = data.count(b"\n")
    return Read(text, raw=data, crlf=lf > 0 and data.count(b"\r\n") == lf)


def regular_file(path: str) -> str | None:
    """None for a regular file (or a link to one); else what it is (for a directory walk to skip it)."""
    try:
        return not_regular(os.stat(path).st_mode)
    except OSError as exc:
        return f"cannot read: {exc.strerror}"


# --- --fix: writing a file back ----------------------------------------------------------------------

class Changed(Exception):
    """The file is not what was read: nothing was written."""


def write_back(path: str, before: Read, text: str) -> str | None:
    """Replace the content of ``path`` (read as ``before``) with ``text``, keeping its line ends, its
    byte-order mark, its links, mode and owner; None, or why nothing was written."""
    data = text.replace("\r\n", "\n").replace("\n", "\r\n") if before.crlf else text
    payload = (BOM if before.raw.startswith(BOM) else b"") + data.encode("utf-8")
    target = os.path.realpath(path)    # through a symbolic link: the file it names is the one to fix
    try:
        fd = os.open(target, os.O_RDWR | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return f"cannot write the fixed file: {exc.strerror}"
    try:
        info = os.fstat(fd)
        if not_regular(info.st_mode) or _read_all(fd) != before.raw:
            raise Changed()
        if info.st_nlink > 1 or not _replace(target, info, payload, fd, before.raw):
            _rewrite(fd, payload)
    except Changed:
        return "the file changed since it was read; nothing written (run --fix again)"
    except OSError as exc:
        return f"cannot write the fixed file: {exc.strerror}"
    finally:
        os.close(fd)
    return None


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _replace(target: str, info: os.stat_result, payload: bytes, fd: int, raw: bytes) -> bool:
    """The atomic way: a new file beside ``target`` with its mode and owner, renamed over it.  False
    (nothing changed) when the owner cannot be given to a new file: then the caller rewrites in place."""
    tmp_fd, tmp = tempfile.mkstemp(prefix=".podlife-", dir=os.path.dirname(target))
    try:
        try:
            os.fchown(tmp_fd, info.st_uid, info.st_gid)
        except PermissionError:
            if (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
                os.close(tmp_fd)
                os.unlink(tmp)
                return False
        os.fchmod(tmp_fd, stat.S_IMODE(info.st_mode))
        with os.fdopen(tmp_fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        if _read_all(fd) != raw or os.stat(target).st_ino != info.st_ino:   # written or replaced meanwhile
            raise Changed()
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return True


def _rewrite(fd: int, payload: bytes) -> None:
    """In place: the same inode keeps every hard link and the owner (not atomic: the one way to keep them)."""
    os.lseek(fd, 0, os.SEEK_SET)
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view):]
    os.ftruncate(fd, len(payload))
    os.fsync(fd)

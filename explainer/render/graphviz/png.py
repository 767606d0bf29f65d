"""SVG -> PNG with librsvg's `rsvg-convert`, bounded in time and size like `dot`."""
from __future__ import annotations

import shutil
import subprocess

from . import processes

MAX_SVG_BYTES = 8 * 1024 * 1024


class PngError(Exception):
    """The picture could not be converted; the message says why in plain words.  ``transient``: busy or
    timed out, so another moment may convert it (not cached)."""

    def __init__(self, message: str, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


def svg_to_png(svg: str, *, timeout: float = 10.0, zoom: float = 1.5) -> bytes:
    data = svg.encode("utf-8")
    if len(data) > MAX_SVG_BYTES:
        raise PngError(f"The picture is too large to convert to PNG ({len(data):,} bytes).")
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise PngError("The `rsvg-convert` program is not installed; install the Debian package librsvg2-bin.")
    try:
        with processes.slot():   # at most a few drawing processes at once (issue 11)
            done = subprocess.run([exe, "--format=png", f"--zoom={zoom}", "--background-color=white"],
                                  input=data, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise PngError(f"Converting the picture to PNG took longer than {timeout:g} s.", transient=True) from None
    except processes.Busy as exc:
        raise PngError(str(exc), transient=True) from None
    except OSError as exc:
        why = processes.start_failure(exc, "rsvg-convert")
        raise PngError(why.render() if why else f"rsvg-convert could not be started: {exc.strerror}.") from None
    if done.returncode != 0 or not done.stdout.startswith(b"\x89PNG"):
        first = done.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
        raise PngError("rsvg-convert failed" + (f": {first[0]}" if first else "."))
    return done.stdout

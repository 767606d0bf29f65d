"""Text and numbers inside SVG markup: escaped text, quoted attributes, coordinates.

Shared by the Pod timeline (`timeline_svg`), its traffic row (`timeline_traffic_svg`) and the rollout
picture (`rollout_svg`).
"""
from __future__ import annotations

import functools
import re

_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@functools.lru_cache(maxsize=4096, typed=True)
def _t(s: str) -> str:
    """Escape text content (and drop characters XML 1.0 cannot hold).  Cached (bounded): a
    chart's labels (ticks, lanes, legend, strip values) are mostly the ones of the last chart.
    Strings only: a cache would take 0.0 for -0.0.

    What ``xml.sax.saxutils.escape`` does, inline; the substitution only runs when the text has a
    non-printable character (every character XML 1.0 cannot hold is one: controls, surrogates,
    U+FFFE/U+FFFF), which labels and tooltips rarely have but for their line breaks."""
    s = str(s)
    if not s.isprintable():
        s = _INVALID_XML.sub("\ufffd", s)
    return s.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


@functools.lru_cache(maxsize=4096, typed=True)
def _q(s: str) -> str:
    """A double-quoted attribute value (`_t`, and quotes, line breaks and tabs as references)."""
    s = str(s).replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace('"', "&quot;")
    if not s.isprintable():
        s = _INVALID_XML.sub("\ufffd", s).replace("\n", "&#10;").replace("\t", "&#9;")
    return '"' + s + '"'


@functools.lru_cache(maxsize=8192)
def _n(v: float) -> str:
    """A coordinate with one decimal at most ("12", "12.5").  Cached: a chart writes a few hundred
    coordinates, mostly the same rows and columns again."""
    s = f"{v:.1f}"
    if s[-1] == "0":          # "12.0" -> "12" (one decimal is always written)
        s = s[:-2]
        if s == "-0":
            return "0"
    return s

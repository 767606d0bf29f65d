"""How the command line's text looks: the width to wrap to and whether to colour.

A small module of its own, so the command line can choose a style without loading a renderer
it may not need (a JSON run loads only the JSON renderer).
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

# ANSI colours (SGR) of the severities and headings, used only when TextStyle.color is on.
_SGR = {"error": "31;1", "warning": "33;1", "info": "36", "heading": "1", "dim": "2"}
# Skipped objects listed one by one up to this many; more are counted by kind.
SKIPPED_LISTED = 3


@dataclass(frozen=True)
class TextStyle:
    width: int | None = None       # wrap prose to this many columns (None: no wrapping)
    color: bool = False            # ANSI colour for severities and headings

    def paint(self, text: str, what: str) -> str:
        return f"\x1b[{_SGR[what]}m{text}\x1b[0m" if self.color else text

    def wrap(self, text: str, indent: str, hanging: str | None = None) -> list[str]:
        """``text`` after ``indent`` (first line) and ``hanging`` (the rest), wrapped to the width."""
        hanging = indent if hanging is None else hanging
        if not self.width:
            return [indent + text]
        return textwrap.wrap(text, width=max(self.width, len(hanging) + 20), initial_indent=indent,
                             subsequent_indent=hanging, break_on_hyphens=False, break_long_words=False) \
            or [indent.rstrip()]


PLAIN = TextStyle()

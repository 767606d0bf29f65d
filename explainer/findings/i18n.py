"""Mark the findings' text for translation without importing Django.

Rules write English message ids with ``{named}`` fields, each inside ``gettext_noop(...)`` so
that `makemessages` finds it; a Finding keeps the id and its fields as a `Text`, and the web
layer renders it through gettext (the JSON output renders it in English).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


def gettext_noop(message: str) -> str:
    return message


@dataclass(frozen=True, slots=True)
class Text:
    """A message id and its fields; ``render()`` formats it, translated when given a gettext."""

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, gettext: Callable[[str], str] = gettext_noop) -> str:
        params = {k: (v.render(gettext) if isinstance(v, Text) else v) for k, v in self.params.items()}
        return gettext(self.msgid).format(**params)

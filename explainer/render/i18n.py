"""Mark text for translation without importing Django.

The core and renderers produce English message ids with ``{named}`` fields; the web layer
passes each id through gettext before formatting, and `makemessages` finds them by the
``gettext_noop`` keyword it already knows.
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

"""Mark the findings' text for translation without importing Django.

Rules write English message ids with ``{named}`` fields, each inside ``gettext_noop(...)`` so
that `makemessages` finds it; a Finding keeps the id and its fields as a `Text`, and the web
layer renders it through gettext (the JSON output renders it in English).  Both live in the
core (`explainer.lifecycle.i18n`), which marks its own texts the same way.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..lifecycle.i18n import Text, gettext_noop

__all__ = ["Names", "Text", "gettext_noop"]


class Names:
    """A field of a `Text`: ``names[start:]`` joined with ", ", leaving out the one at ``skip``.

    Joined only when the text is rendered, so a rule that names "every other container" (or
    "every later one") for each of n containers does O(n) work, not O(n**2): the list is
    shared, not copied.
    """

    __slots__ = ("names", "skip", "start")

    def __init__(self, names: Sequence[str], skip: int = -1, start: int = 0) -> None:
        self.names, self.skip, self.start = names, skip, start

    def __len__(self) -> int:
        return max(0, len(self.names) - self.start) - (1 if self.start <= self.skip < len(self.names) else 0)

    def __str__(self) -> str:
        return ", ".join(self.names[i] for i in range(self.start, len(self.names)) if i != self.skip)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __eq__(self, other: Any) -> bool:
        return str(self) == str(other) if isinstance(other, (Names, str)) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __repr__(self) -> str:
        return repr(str(self))

    def __reduce__(self) -> tuple[Any, ...]:   # pickled (cached) as the plain text it renders
        return (str, (str(self),))

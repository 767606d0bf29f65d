"""Mark user-visible text for translation without importing Django.

Code writes English message ids with ``{named}`` fields, each inside ``gettext_noop(...)`` (or
``_(...)`` when imported under that name) so that `makemessages` finds it, and keeps the id
and its fields as a `Text`.  ``str()`` and ``render()`` give the English text (the JSON
contract, the CLI); the web layer renders it through gettext.  A field may itself be a
`Text` (or a `Phrase`): it is rendered with the same gettext.  Literal braces in a message
id are doubled, as for ``str.format``.
"""
from __future__ import annotations

from dataclasses import field
from typing import Any, Callable

from explainer.lifecycle.records import record


def gettext_noop(message: str) -> str:
    return message


@record
class Text:
    """A message id and its fields; ``render()`` formats it, translated when given a gettext."""

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, gettext: Callable[[str], str] = gettext_noop) -> str:
        # the simulation renders one per event, hundreds of thousands at worst: keep this quick
        message = self.msgid if gettext is gettext_noop else gettext(self.msgid)
        params = self.params
        if not params:
            return message.format_map(params) if "{" in message or "}" in message else message
        for value in params.values():
            if isinstance(value, _NESTED):
                params = {k: (v.render(gettext) if isinstance(v, _NESTED) else v) for k, v in params.items()}
                break
        return message.format_map(params)

    def __str__(self) -> str:
        return self.render()

    def __contains__(self, part: str) -> bool:
        """``"word" in text`` looks in the English rendering, as it would in the string it replaces."""
        return part in self.render()

    def __hash__(self) -> int:
        try:
            return hash((self.msgid, tuple(sorted(self.params.items()))))
        except TypeError:   # an unhashable field: the English text stands for it
            return hash((self.msgid, self.render()))


class Phrase(str):
    """A `Text` that is also its English string.

    For reasons the core hands to code that treats them as plain strings (why a duration is
    assumed, how a command is guessed to behave): the findings put them into their own
    sentences as fields.  As a field of a `Text`, or through ``render(gettext)``, it is
    translated with the sentence; everywhere else it is the English string it always was.
    """

    text: Text

    def __new__(cls, msgid: str | Text, params: dict[str, Any] | None = None) -> Phrase:
        text = msgid if isinstance(msgid, Text) else Text(msgid, dict(params or {}))
        obj = super().__new__(cls, text.render())
        obj.text = text
        return obj

    def render(self, gettext: Callable[[str], str] = gettext_noop) -> str:
        return self.text.render(gettext)

    def __reduce__(self) -> tuple[Any, ...]:   # pickle and copy rebuild it from its Text
        return (Phrase, (self.text,))


_NESTED = (Text, Phrase)


def render(value: Text | Phrase | str | None, gettext: Callable[[str], str] = gettext_noop) -> str:
    """``value`` through ``gettext`` when it is a Text or a Phrase; a plain string (None: "") as it is."""
    if isinstance(value, (Text, Phrase)):
        return value.render(gettext)
    return value or ""

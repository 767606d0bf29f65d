"""Code spans in the explainer's own sentences: `kubectl debug`, `restartPolicy: Always` (issue 25).

The catalogue, the findings and the notes write commands and fields between backticks, as Markdown does;
pages and the Markdown export show them as code, never as raw backticks.  Only the message's own text (the
translated message id) can open a code span: a field's value, which may come from the manifest, is text
inside it or around it and never markup, whatever backticks it holds.  A code span is a run of backticks
and the next run of the same length (CommonMark's rule, without the rest of Markdown: the catalogue uses
nothing else).

`spans(value)` gives the pieces, `html(value)` the escaped HTML (code in ``<code>``), `markdown(value)` the
Markdown (text escaped, each code span fenced longer than any backtick run it holds).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from html import escape
from string import Formatter
from typing import Any

from ..lifecycle.i18n import Phrase, Text, gettext_noop

Gettext = Callable[[str], str]
Span = tuple[bool, str]            # (code, text)

_RUN = re.compile(r"`+")
_FORMATTER = Formatter()


def split_code(message: str) -> list[Span]:
    """``message`` in text and code spans: a backtick run opens a span that the next run of the same
    length closes; a run with no such partner is text.  A code span's one leading and trailing space are
    stripped when both are there (CommonMark), and its line ends are spaces."""
    out: list[Span] = []
    at = 0
    pos = 0
    while True:
        opening = _RUN.search(message, pos)
        if opening is None:
            break
        closing = _RUN.search(message, opening.end())
        while closing is not None and len(closing.group()) != len(opening.group()):
            closing = _RUN.search(message, closing.end())
        if closing is None:           # no partner: this run is text
            pos = opening.end()
            continue
        if opening.start() > at:
            out.append((False, message[at:opening.start()]))
        body = message[opening.end():closing.start()].replace("\n", " ")
        if len(body) > 2 and body.startswith(" ") and body.endswith(" ") and body.strip():
            body = body[1:-1]
        out.append((True, body))
        at = pos = closing.end()
    if at < len(message):
        out.append((False, message[at:]))
    return out


def _plain(value: Any, gettext: Gettext) -> str:
    return value.render(gettext) if isinstance(value, (Text, Phrase)) else str(value)


def spans(value: Text | Phrase | str | None, gettext: Gettext = gettext_noop) -> list[Span]:
    """The text of ``value`` through ``gettext``, in text and code spans; a field's value is text (a field
    that is itself a Text gets its own code spans when it sits outside one)."""
    if value is None:
        return []
    if isinstance(value, Phrase):
        value = value.text
    if not isinstance(value, Text):
        return _merge(split_code(str(value)))
    message = value.msgid if gettext is gettext_noop else gettext(value.msgid)
    out: list[Span] = []
    for code, part in split_code(message):
        if code:
            out.append((True, _substitute(part, value.params, lambda v: _plain(v, gettext))))
            continue
        for literal, field, spec, conversion in _FORMATTER.parse(part):
            if literal:
                out.append((False, literal))
            if field is None:
                continue
            found, _key = _FORMATTER.get_field(field, (), value.params)
            if isinstance(found, (Text, Phrase)) and not spec and not conversion:
                out += spans(found, gettext)
                continue
            found = _FORMATTER.convert_field(found, conversion) if conversion else found
            out.append((False, format(found, spec or "")))
    return _merge(out)


def _substitute(part: str, params: dict[str, Any], plain: Callable[[Any], str]) -> str:
    return part.format_map({k: plain(v) if isinstance(v, (Text, Phrase)) else v for k, v in params.items()})


def _merge(pieces: list[Span]) -> list[Span]:
    out: list[Span] = []
    for code, text in pieces:
        if not text:
            continue
        if out and out[-1][0] == code and not code:
            out[-1] = (False, out[-1][1] + text)
        else:
            out.append((code, text))
    return out


def html(value: Text | Phrase | str | None, gettext: Gettext = gettext_noop) -> str:
    """Escaped HTML of ``value``: its code spans in ``<code>``."""
    return "".join(f"<code>{escape(text)}</code>" if code else escape(text) for code, text in spans(value, gettext))


def plain(value: Text | Phrase | str | None, gettext: Gettext = gettext_noop) -> str:
    """``value``'s text without the backticks of its code spans (a title, an alt text, a terminal)."""
    return "".join(text for _code, text in spans(value, gettext))

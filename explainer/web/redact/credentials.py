"""Credentials in a pasted manifest: find them, and blank them out before a link is stored.

Share links of paste tools leak secrets when people paste real manifests.  Before storing, we look
for credentials in the parsed document (`web/redact/scan.py`: Secret and ConfigMap data, credential-named
env values and headers, secret settings in mounted files, options of commands; through anchors and
aliases) and for token-shaped strings anywhere (`web/redact/tokens.py`), say where they are, and can
replace each value with ``<redacted>`` while keeping every other line as it was (so line numbers in
the stored copy still match the original).

Redacting is checked (issue 27): the redacted text must read as YAML again, its structure must find no
credential left, and none of the values found (4 characters or more) may still stand anywhere in it
(a comment, a second copy): such a leftover is blanked wherever it stands, and if even that leaves the
text unreadable, `RedactionFailed` says so and nothing is stored.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import field

from explainer.lifecycle.i18n import Text, gettext_noop as _
from .scan import LAST_APPLIED, REDACTED, Found, scan, scan_read, secret_name
from .tokens import token_spans
from explainer.lifecycle.manifest.yamlload import load_documents
from explainer.lifecycle.records import record

__all__ = ["IN_OUTPUT", "LAST_APPLIED", "REDACTED", "Hit", "RedactionFailed", "find_output_secrets", "find_secrets",
           "redact", "redact_output"]
MIN_LEFTOVER = 4   # a value this long or longer must not stand anywhere in the stored text


class RedactionFailed(Exception):
    """The credentials could not be taken out of the text safely: it must not be stored."""


@record
class Hit:
    line: int
    what: str                      # "Secret db-creds: data.password", "env DB_PASSWORD of app", ...
    text: Text | None = field(default=None, compare=False, repr=False)   # ``what``, translatable


def _hit(line: int, what: Text) -> Hit:
    return Hit(line, what.render(), what)


def find_secrets(text: str) -> list[Hit]:
    """Every place ``text`` seems to hold a credential, by line.  Linear in the size of ``text``."""
    newlines = [i for i, ch in enumerate(text) if ch == "\n"] if "\n" in text else []

    def line(at: int) -> int:
        return bisect.bisect_left(newlines, at) + 1

    hits = [_hit(line(f.start), f.what) for f in scan(text) if text[f.start:f.end] not in (REDACTED, f'"{REDACTED}"')]
    for start, end, what in token_spans(text):
        if text[start:end] != REDACTED:
            hits.append(_hit(line(start), Text(what)))
    return sorted(set(hits), key=lambda h: (h.line, h.what))


def redact(text: str) -> str:
    """``text`` with each credential value replaced by <redacted>, line structure kept; RedactionFailed
    when that cannot be done safely (see the module)."""
    found, readable = scan_read(text)
    out = _replace(text, found)
    parts, at = [], 0
    for start, end, _kind in sorted(token_spans(out)):   # overlapping spans are merged
        if end <= at:
            continue
        start = max(start, at)
        parts += [out[at:start], _keep_newlines(out[start:end])]
        at = end
    out = "".join(parts) + out[at:]
    if not found and out == text:
        return text
    return _checked(readable, out, found)


def _replace(text: str, found: list[Found]) -> str:
    """Each found span replaced, the whole scalars as a quoted "<redacted>" followed by the line breaks
    they spanned (a multi-line value leaves blank lines, never a second line of it)."""
    parts, at = [], 0
    # a whole scalar first where spans start together; a span inside one already replaced is dropped
    for f in sorted(found, key=lambda f: (f.start, -f.end)):
        if f.start < at:
            continue
        breaks = "\n" * text.count("\n", f.start, f.end)
        new = (f'"{f.prefix}{REDACTED}"' if f.whole else REDACTED) + breaks
        parts += [text[at:f.start], new]
        at = f.end
    return "".join(parts) + text[at:]


def _keep_newlines(secret: str) -> str:
    return REDACTED + "\n" * secret.count("\n")


def _pieces(value: str) -> set[str]:
    """What of a found value must not stand in the stored text: each of its lines of 4+ characters."""
    return {p.strip() for p in value.split("\n") if len(p.strip()) >= MIN_LEFTOVER and p.strip() != REDACTED}


def _standing(piece: str) -> re.Pattern[str]:
    """Where ``piece`` stands on its own in a text: not inside a longer word ("httpGe" is not in
    "httpGet"), and not inside a <redacted> marker."""
    before = r"(?<![\w<])" if re.match(r"\w", piece) else ""
    after = r"(?![\w>])" if re.search(r"\w$", piece) else ""
    return re.compile(before + re.escape(piece) + after)


def _checked(readable: bool, out: str, found: list[Found]) -> str:
    """``out`` once it is proven to hold none of the values ``found`` in the original (``readable``: the
    original read as YAML; see the module)."""
    pieces = {p: _standing(p) for f in found for p in _pieces(f.value)}
    leftovers = sorted((p for p, pattern in pieces.items() if pattern.search(out)), key=len, reverse=True)
    if leftovers:   # a second copy (a comment, a value written twice): blanked where it stands
        shape = _keys(out)
        for piece in leftovers:
            out = pieces[piece].sub(REDACTED, out)
        if readable and _keys(out) != shape:
            raise RedactionFailed("a credential is also written as a key or a word of the manifest's structure")
    after, still_reads = scan_read(out)
    if readable and not still_reads:
        raise RedactionFailed("the redacted text does not read as YAML")
    left = [f for f in after if REDACTED not in f.value and _pieces(f.value)]
    if left or any(pattern.search(out) for pattern in pieces.values()):
        raise RedactionFailed("a credential is still in the redacted text")
    return out


def _keys(text: str) -> list[str] | None:
    """The mapping keys of ``text``'s documents in order (its shape); None when it does not read."""
    try:
        docs = load_documents(text)
    except Exception:
        return None
    keys: list[str] = []
    stack = [d.data for d in reversed(docs)]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            keys += [str(k) for k in node]
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return keys


# kubectl's output (docs/lifecycle-model.md §34): describe prints each environment value as "NAME: value";
# a credential-named one is a secret (a value describe took from a Secret reads "<set to the key ...>").
_OUTPUT_ENV = re.compile(r"(?P<indent>[ \t]*)(?P<name>[A-Za-z_][\w.-]{0,100}):[ \t]+(?P<s>\S[^\n]{0,2000})$")
IN_OUTPUT = _("{what} (in the observed output)")


def _output_env(text: str) -> list[tuple[int, int, int, str]]:
    """(line, start, end, name) of each credential-named "NAME: value" line of describe's output."""
    out = []
    offset = 0
    for n, line in enumerate(text.split("\n"), 1):
        m = _OUTPUT_ENV.match(line) if ":" in line else None
        if m is not None and secret_name(m.group("name"), env_style=True) and not m.group("s").startswith(
                ("<set to", REDACTED, "<none>")):
            out.append((n, offset + m.start("s"), offset + m.end("s"), m.group("name")))
        offset += len(line) + 1
    return out


def find_output_secrets(text: str) -> list[Hit]:
    """Credentials in pasted kubectl output: environment values describe printed, tokens anywhere."""
    env = _output_env(text)
    hits = [_hit(line, Text(IN_OUTPUT, {"what": Text(_("the environment variable {name}"), {"name": name})}))
            for line, _s, _e, name in env]
    told = {line for line, _s, _e, _name in env}   # describe's output often reads as YAML: one hit per line
    hits += [_hit(h.line, Text(IN_OUTPUT, {"what": h.text or h.what})) for h in find_secrets(text) if h.line not in told]
    return sorted(set(hits), key=lambda h: (h.line, h.what))


def redact_output(text: str) -> str:
    """Pasted kubectl output with each credential replaced by <redacted>, lines kept."""
    spans = [(start, end) for _line, start, end, _name in _output_env(text)]
    parts, at = [], 0
    for start, end in sorted(spans):
        parts += [text[at:start], REDACTED]
        at = end
    return redact("".join(parts) + text[at:])

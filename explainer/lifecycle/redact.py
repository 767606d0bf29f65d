"""Credentials in a pasted manifest: find them, and blank them out before a link is stored.

Share links of paste tools leak secrets when people paste real manifests.  Before storing,
we look for Secret objects, credential-named environment values and token-shaped strings,
say where they are, and can replace each value with ``<redacted>`` while keeping every other
line as it was (so line numbers in the stored copy still match the original).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .i18n import Text, gettext_noop as _
from .yamlload import LList, LMap, load_documents

REDACTED = "<redacted>"
_SENSITIVE_NAME = re.compile(r"(pass(word|wd)?|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|"
                             r"credential|auth|pwd|session[_-]?key|client[_-]?secret)", re.I)
# Each pattern's group "s" is the secret itself (what gets replaced).
_TOKENS = (
    (re.compile(r"(?P<s>-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----)"),
     _("a private key")),
    (re.compile(r"\b(?P<s>AKIA[0-9A-Z]{16})\b"), _("an AWS access key id")),
    (re.compile(r"\b(?P<s>gh[pousr]_[A-Za-z0-9]{30,})\b"), _("a GitHub token")),
    (re.compile(r"\b(?P<s>xox[abprs]-[A-Za-z0-9-]{10,})\b"), _("a Slack token")),
    (re.compile(r"\b(?P<s>eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{5,})\b"), _("a JSON Web Token")),
    (re.compile(r"(?i)\bbearer\s+(?P<s>[A-Za-z0-9._~+/=-]{16,})"), _("a bearer token")),
    (re.compile(r"(?i)[-_](password|passwd|token|secret)[=:](?P<s>[^\s'\"]{4,})"), _("a password in a command")),
    (re.compile(r"://(?P<s>[^/\s:@'\"]+:[^/\s@'\"]{3,})@"), _("credentials in a URL")),
)


@dataclass(frozen=True, slots=True)
class Hit:
    line: int
    what: str                      # "Secret db-creds: data.password", "env DB_PASSWORD of app", ...
    text: Text | None = field(default=None, compare=False, repr=False)   # ``what``, translatable


def _hit(line: int, what: Text) -> Hit:
    return Hit(line, what.render(), what)


def find_secrets(text: str) -> list[Hit]:
    """Every place ``text`` seems to hold a credential, by line."""
    hits = [_hit(line, what) for line, _col, what, _span in _value_hits(text)]
    for pattern, what in _TOKENS:
        for m in pattern.finditer(text):
            if m.group("s") == REDACTED:
                continue
            hits.append(_hit(text.count("\n", 0, m.start("s")) + 1, Text(what)))
    return sorted(set(hits), key=lambda h: (h.line, h.what))


def redact(text: str) -> str:
    """``text`` with each credential value replaced by <redacted>, line structure kept."""
    lines = text.split("\n")
    hits = sorted(_value_hits(text), key=lambda h: (h[0], h[1], h[2].render(), h[3]), reverse=True)
    for line, col, _what, key in hits:
        before = lines[line - 1]
        lines[line - 1] = _blank_value(before, col - 1, key)
        if _BLOCK.search(before[col - 1:]):   # a | or > block: its lines go too (left blank)
            indent = len(before) - len(before.lstrip())
            n = line
            while n < len(lines) and (not lines[n].strip() or len(lines[n]) - len(lines[n].lstrip()) > indent):
                lines[n] = ""
                n += 1
    out = "\n".join(lines)
    for pattern, _what in _TOKENS:
        out = pattern.sub(_replace_group, out)
    return out


def _replace_group(m: re.Match[str]) -> str:
    whole, start = m.group(0), m.start()
    return whole[: m.start("s") - start] + _keep_newlines(m.group("s")) + whole[m.end("s") - start:]


_BLOCK = re.compile(r":\s*[|>][-+0-9]*\s*(#.*)?$")


def _keep_newlines(secret: str) -> str:
    return REDACTED + "\n" * secret.count("\n")


_SCALAR = re.compile(r"""\s*:\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,}\]#\s][^,}\]#]*?)(?=\s*(?:[,}\]#]|$))""")


def _blank_value(line: str, col: int, key: str) -> str:
    """Replace the scalar after ``key:`` at ``col`` on ``line`` (flow or block style)."""
    start = col + len(key) + (2 if line[col:col + 1] in "\"'" else 0)
    m = _SCALAR.match(line, start)
    if not m:
        return line
    return line[:m.start(1)] + f'"{REDACTED}"' + line[m.end(1):]


def _value_hits(text: str) -> list[tuple[int, int, Text, str]]:
    """(line, column of the key, what, key) for Secret data and credential-named env values."""
    try:
        docs = load_documents(text)
    except Exception:  # unreadable input is reported by the explainer itself
        return []
    out: list[tuple[int, int, Text, str]] = []
    for doc in docs:
        _walk(doc.data, out, None)
    return out


def _walk(node: Any, out: list[tuple[int, int, Text, str]], owner: str | None) -> None:
    if isinstance(node, LMap):
        if node.get("kind") == "Secret":
            name = (node.get("metadata") or {}).get("name", "?") if isinstance(node.get("metadata"), dict) else "?"
            for section in ("data", "stringData"):
                values = node.get(section)
                if isinstance(values, LMap):
                    for key in values:
                        if values[key] in (REDACTED, "", None):
                            continue
                        line, col = values.pos[key]
                        out.append((line, col, Text(_("Secret {name}: {field}.{key}"),
                                                    {"name": name, "field": section, "key": key}), str(key)))
        env = node.get("env")
        who = node.get("name") if isinstance(node.get("name"), str) else owner
        if isinstance(env, LList):
            for item in env:
                if isinstance(item, LMap) and isinstance(item.get("name"), str) and \
                        _SENSITIVE_NAME.search(item["name"]) and isinstance(item.get("value"), str) and \
                        item["value"] not in ("", REDACTED):
                    line, col = item.pos["value"]
                    out.append((line, col, Text(_("env {name} of {c}"), {"name": item["name"], "c": who}), "value"))
        for value in node.values():
            _walk(value, out, who)
    elif isinstance(node, LList):
        for value in node:
            _walk(value, out, owner)

"""Credentials in a pasted manifest: find them, and blank them out before a link is stored.

Share links of paste tools leak secrets when people paste real manifests.  Before storing,
we look for Secret objects, credential-named environment values and token-shaped strings,
say where they are, and can replace each value with ``<redacted>`` while keeping every other
line as it was (so line numbers in the stored copy still match the original).
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .i18n import Text, gettext_noop as _
from .yamlload import LList, LMap, load_documents

REDACTED = "<redacted>"
_SENSITIVE_NAME = re.compile(r"(pass(word|wd)?|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|"
                             r"credential|auth|pwd|session[_-]?key|client[_-]?secret)", re.I)
# Each pattern's group "s" is the secret itself (what gets replaced).
#
# Every pattern runs in linear time on any input (issue 11): a match may only start where the
# token it reads cannot have started earlier (a look-behind for the token's own characters),
# runs are read possessively (no backtracking into them), and where neither is possible the
# run is bounded.  A pattern that could start anywhere inside a long run of its own characters
# and read to its end would cost the square of the run's length.
_TOKENS = (
    (re.compile(r"\b(?P<s>AKIA[0-9A-Z]{16})\b"), _("an AWS access key id")),
    (re.compile(r"\b(?P<s>gh[pousr]_[A-Za-z0-9]{30,}+)\b"), _("a GitHub token")),
    (re.compile(r"(?<![\w-])(?P<s>xox[abprs]-[A-Za-z0-9-]{10,}+)"), _("a Slack token")),
    (re.compile(r"(?<![\w-])(?P<s>eyJ[A-Za-z0-9_-]{10,}+\.[A-Za-z0-9_-]{10,}+\.[A-Za-z0-9_-]{5,}+)"),
     _("a JSON Web Token")),
    (re.compile(r"(?<![\w-])(?P<s>(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}+)"), _("an API secret key")),
    (re.compile(r"(?<![\w-])(?P<s>sk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,}+)"), _("an API secret key")),
    (re.compile(r"(?i)\bbearer\s++(?P<s>[A-Za-z0-9._~+/=-]{16,}+)"), _("a bearer token")),
    # --password=x, -token:x, --db-password x: the value is bounded, the option name too
    (re.compile(r"(?i)(?<![\w-])--?[a-z0-9_-]{0,40}?(?:password|passwd|pwd|token|secret)(?:[=:]|[ \t]++)"
                r"(?P<s>[^\s'\",\]}$-][^\s'\",\]}]{2,255})"), _("a password in a command")),
    (re.compile(r"(?i)[-_](?:password|passwd|token|secret)[=:](?P<s>[^\s'\"]{4,255})"), _("a password in a command")),
    (re.compile(r"://(?P<s>[^/\s:@'\"]{1,256}+:[^/\s@'\"]{3,256}+)@"), _("credentials in a URL")),
)
# A pattern runs only on text that holds one of its fixed parts (lower case): most manifests
# then cost a few substring searches instead of a dozen pattern scans.
_NEEDLES = dict(zip((p for p, _w in _TOKENS), (
    ("akia",), ("gh",), ("xox",), ("eyj",), ("k_live_", "k_test_"), ("sk-",), ("bearer",),
    ("password", "passwd", "pwd", "token", "secret"), ("password", "passwd", "token", "secret"), ("://",))))
# mysql -uroot -phunter2 (the password glued to -p), on a line that runs a mysql client: the
# -p options and the client names are found separately and paired (`_mysql_passwords`).
_GLUED_P = re.compile(r"[ \t]-p(?P<s>[^\s'\",\]}-][^\s'\",\]}]{2,255})")
_MYSQL_WORD = re.compile(r"(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b")
# PEM blocks are paired by a scan over their markers (`_pem_blocks`), not by one pattern: a
# lazy "BEGIN ... END" pattern reads to the end of the text from every BEGIN without an END.
_PEM_MARKER = re.compile(r"-----(BEGIN|END) [A-Z0-9 ]{0,40}PRIVATE KEY-----")
PRIVATE_KEY = _("a private key")
PASSWORD_IN_COMMAND = _("a password in a command")
# kubectl apply keeps the whole manifest, secrets included, in this annotation (JSON text).
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
# An argument that names a secret; the next argument is its value (`--db-password hunter2`).
_SECRET_OPTION = re.compile(r"(?i)^--?[a-z0-9_.-]{0,40}(?:password|passwd|pwd|token|secret|api-?key)$")
# mysql-style clients take the password glued to -p: `-phunter2`.
_MYSQL = re.compile(r"(?:^|/)(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)$")


@dataclass(frozen=True, slots=True)
class Hit:
    line: int
    what: str                      # "Secret db-creds: data.password", "env DB_PASSWORD of app", ...
    text: Text | None = field(default=None, compare=False, repr=False)   # ``what``, translatable


def _hit(line: int, what: Text) -> Hit:
    return Hit(line, what.render(), what)


def find_secrets(text: str) -> list[Hit]:
    """Every place ``text`` seems to hold a credential, by line.  Linear in the size of ``text``."""
    hits = [_hit(line, what) for line, _col, what, _key in _value_hits(text)]
    newlines = [i for i, ch in enumerate(text) if ch == "\n"] if "\n" in text else []
    for start, end, what in _token_spans(text):
        if text[start:end] != REDACTED:
            hits.append(_hit(bisect.bisect_left(newlines, start) + 1, Text(what)))
    return sorted(set(hits), key=lambda h: (h.line, h.what))


def _token_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, what) of every token-shaped secret in ``text``."""
    lowered = text.lower()
    spans = [(m.start("s"), m.end("s"), what) for pattern, what in _TOKENS
             if any(needle in lowered for needle in _NEEDLES[pattern]) for m in pattern.finditer(text)]
    if "private key" in lowered:
        spans += [(start, end, PRIVATE_KEY) for start, end in _pem_blocks(text)]
    if "-p" in text:
        spans += [(start, end, PASSWORD_IN_COMMAND) for start, end in _mysql_passwords(text)]
    return spans


def _mysql_passwords(text: str) -> list[tuple[int, int]]:
    """Values glued to -p on a line where a mysql client was named before, within 200 characters."""
    clients = [m.end() for m in _MYSQL_WORD.finditer(text)]
    out = []
    for m in _GLUED_P.finditer(text) if clients else ():
        i = bisect.bisect_right(clients, m.start()) - 1
        if i >= 0 and m.start() - clients[i] <= 200 and "\n" not in text[clients[i]:m.start()]:
            out.append((m.start("s"), m.end("s")))
    return out


def _pem_blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of each private key block: a BEGIN marker and the next END marker, found in
    one pass over the markers.  A BEGIN that is never closed reaches to the end of its line."""
    blocks: list[tuple[int, int]] = []
    open_at: int | None = None
    for m in _PEM_MARKER.finditer(text):
        if m.group(1) == "BEGIN":
            if open_at is None:
                open_at = m.start()
        elif open_at is not None:
            blocks.append((open_at, m.end()))
            open_at = None
    if open_at is not None:
        end = text.find("\n", open_at)
        blocks.append((open_at, len(text) if end < 0 else end))
    return blocks


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
    parts, at = [], 0
    for start, end, _kind in sorted(_token_spans(out)):   # overlapping spans are merged
        if end <= at:
            continue
        start = max(start, at)
        parts += [out[at:start], _keep_newlines(out[start:end])]
        at = end
    return "".join(parts) + out[at:]


_BLOCK = re.compile(r":\s*[|>][-+0-9]*\s*(#.*)?$")


def _keep_newlines(secret: str) -> str:
    return REDACTED + "\n" * secret.count("\n")


_SCALAR = re.compile(r"""\s*:\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,}\]#\s][^,}\]#]*?)(?=\s*(?:[,}\]#]|$))""")


_ITEM = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,}\]#\s][^,}\]#]*?)(?=\s*(?:[,}\]#]|$))""")


def _blank_value(line: str, col: int, key: str | None) -> str:
    """Replace the scalar after ``key:`` at ``col`` on ``line`` (flow or block style)."""
    if key in (None, "-p"):   # a list item: the scalar itself starts at ``col`` (-p keeps its -p)
        m = _ITEM.match(line, col)
        if m and key == "-p":
            return line[:m.start(1)] + f'"-p{REDACTED}"' + line[m.end(1):]
    else:
        m = _SCALAR.match(line, col + len(key) + (2 if line[col:col + 1] in "\"'" else 0))
    if not m:
        return line
    return line[:m.start(1)] + f'"{REDACTED}"' + line[m.end(1):]


def _value_hits(text: str) -> list[tuple[int, int, Text, str | None]]:
    """(line, column of the key, what, key) for Secret data and credential-named env values."""
    try:
        docs = load_documents(text)
    except Exception:  # unreadable input is reported by the explainer itself
        return []
    out: list[tuple[int, int, Text, str | None]] = []
    for doc in docs:
        _walk(doc.data, out, None)
    return out


def _walk(node: Any, out: list[tuple[int, int, Text, str | None]], owner: str | None) -> None:
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
        _arguments(node, out, who)
        annotations = node.get("annotations")
        if isinstance(annotations, LMap) and isinstance(annotations.get(LAST_APPLIED), str) and \
                annotations[LAST_APPLIED] != REDACTED and _holds_secrets(annotations[LAST_APPLIED]):
            line, col = annotations.pos[LAST_APPLIED]
            out.append((line, col, Text(_("the annotation {name} (a copy of the manifest with its credentials)"),
                                        {"name": LAST_APPLIED}), LAST_APPLIED))
        for value in node.values():
            _walk(value, out, who)
    elif isinstance(node, LList):
        for value in node:
            _walk(value, out, owner)


def _arguments(node: LMap, out: list[tuple[int, int, Text, str | None]], who: str | None) -> None:
    """``--db-password hunter2`` as two arguments, and ``mysql -phunter2``, in command/args lists."""
    argv = [(v, node[k].pos[i]) for k in ("command", "args") if isinstance(node.get(k), LList)
            for i, v in enumerate(node[k]) if i < len(node[k].pos)]
    mysql = any(isinstance(v, str) and _MYSQL.search(v) for v, _pos in argv)
    for i, (value, (line, col)) in enumerate(argv):
        if not isinstance(value, str):
            continue
        if _SECRET_OPTION.match(value) and i + 1 < len(argv):
            nxt, (nline, ncol) = argv[i + 1]
            if isinstance(nxt, str) and nxt and nxt != REDACTED and not nxt.startswith(("-", "$")):
                out.append((nline, ncol, Text(_("the value of {option} for {c}"), {"option": value, "c": who}), None))
        elif mysql and value.startswith("-p") and len(value) > 2 and value[2:] != REDACTED and \
                not value.startswith("--"):
            out.append((line, col, Text(_("the value of {option} for {c}"), {"option": "-p", "c": who}), "-p"))


def _holds_secrets(text: str) -> bool:
    """Whether a last-applied-configuration copy holds anything the scan would report."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return bool(find_secrets(text))
    return bool(find_secrets(json.dumps(data, indent=1)))


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
        if m is not None and _SENSITIVE_NAME.search(m.group("name")) and not m.group("s").startswith(
                ("<set to", REDACTED, "<none>")):
            out.append((n, offset + m.start("s"), offset + m.end("s"), m.group("name")))
        offset += len(line) + 1
    return out


def find_output_secrets(text: str) -> list[Hit]:
    """Credentials in pasted kubectl output: environment values describe printed, tokens anywhere."""
    hits = [_hit(line, Text(IN_OUTPUT, {"what": Text(_("the environment variable {name}"), {"name": name})}))
            for line, _s, _e, name in _output_env(text)]
    hits += [_hit(h.line, Text(IN_OUTPUT, {"what": h.text or h.what})) for h in find_secrets(text)]
    return sorted(set(hits), key=lambda h: (h.line, h.what))


def redact_output(text: str) -> str:
    """Pasted kubectl output with each credential replaced by <redacted>, lines kept."""
    spans = [(start, end) for _line, start, end, _name in _output_env(text)]
    parts, at = [], 0
    for start, end in sorted(spans):
        parts += [text[at:start], REDACTED]
        at = end
    return redact("".join(parts) + text[at:])

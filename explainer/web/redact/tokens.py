"""Token-shaped credentials in any text (issue 11): cloud keys, tokens, JWTs, private key blocks, passwords
in commands and URLs.  What the structure of a manifest says about its credentials is `web/redact/scan.py`'s.

Every pattern runs in linear time on any input: a match may only start where the token it reads cannot
have started earlier (a look-behind for the token's own characters), runs are read possessively (no
backtracking into them), and where neither is possible the run is bounded.  A pattern that could start
anywhere inside a long run of its own characters and read to its end would cost the square of the run's
length.
"""
from __future__ import annotations

import bisect
import re

from explainer.lifecycle.i18n import gettext_noop as _

# Each pattern's group "s" is the secret itself (what gets replaced).
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


def token_spans(text: str) -> list[tuple[int, int, str]]:
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



"""Where the credentials of a manifest stand, read from the parsed document (issue 27).

The first scan matched lines of text: a multi-line value kept its second line, a value written once
under an anchor (``&pw hunter2``) and used as ``value: *pw`` stayed at the anchor, and ConfigMap data,
mounted configuration files, probe headers and names such as ``DB_PW`` were never looked at.  This one
composes the document (each node with its span in the text; an alias is the very node it names, so
a value is found where it is written) and reports every scalar that a secret-looking key or name
reaches, as a span of the text to replace:

- every value under a Secret's ``data``/``stringData``;
- a ConfigMap's ``data``/``binaryData`` entry whose key looks secret (``password``, ``DB_PASSWORD``);
- in any text a file or script holds (ConfigMap data, multi-line values), an assignment to a secret
  setting: ``spring.datasource.password = …``, ``DB_PASSWORD=…``, ``"token": "…"``;
- a ``{name, value}`` item (env, probe ``httpHeaders``) whose name looks secret (``DB_PW``,
  ``SIGNING_KEY``, ``Authorization``), or whose value is ``Basic …``/``Bearer …``;
- any other key that looks secret with a text value (not Kubernetes' own reference fields such as
  ``secretName`` or ``secretKeyRef``);
- command arguments after ``--db-password`` and mysql's glued ``-phunter2``;
- kubectl's last-applied-configuration annotation when the copy it holds has credentials.

Linear: the text is read once by the bounded reader (yamlload: depth, nodes, aliases), then composed
by libyaml; every node is visited once, however many aliases name it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import yaml

from explainer.lifecycle.i18n import Text, gettext_noop as _
from .tokens import token_spans
from explainer.lifecycle.manifest.yamlload import Limits
from explainer.lifecycle.records import record

REDACTED = "<redacted>"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"

# A key or name that holds a credential.  Words, so that "authority", "passive" or "keyboard" do not.
_SECRET_WORDS = re.compile(
    r"(?i)(?:pass(?:word|wd|phrase)?s?|secret|token|credentials?|authorization|cookie|apikey|"
    r"api[_.-]key|access[_.-]?key|private[_.-]?key|signing[_.-]?key|secret[_.-]?key|encryption[_.-]?key|"
    r"master[_.-]?key|session[_.-]?key|client[_.-]?secret|auth[_.-]?token|pwd|pw)(?![a-z])")
# ENV_STYLE names: any *_KEY is a key (SIGNING_KEY, APP_KEY), but not a public one or a key's id or file.
_ENV_KEY = re.compile(r"^[A-Z0-9_]*_KEY$")
# Names that point at a credential rather than hold one (Kubernetes' reference fields, paths, files).
_REFERENCE = re.compile(r"(?i)(?:name|names|ref|refs|keyref|path|paths|file|files|dir|mode|url|uri|endpoint|"
                        r"header|secrets|id|enabled|length|seconds|ttl|expiry|expiration|type|public[_.-]?key)$")
# key = value, key: value, KEY=value, export KEY="value", "key": "value" (one per line of a file or script)
_ASSIGNMENT = re.compile(r"""(?m)^[ \t]*(?:export[ \t]+)?["']?(?P<k>[A-Za-z_][A-Za-z0-9_.\-]{0,100})["']?[ \t]*"""
                         r"""[=:][ \t]*(?P<q>["']?)(?P<v>\S[^\n]{0,1000}?)(?P<q2>["']?)[ \t]*,?[ \t]*$""")
# a value that only refers to one (${DB_PASSWORD}, $(cat /run/pw), $TOKEN) or is none, is no credential
_NO_VALUE = re.compile(r"""^(?:\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_]\w*|null|true|false|~|""|'')$""", re.I)
_AUTH_VALUE = re.compile(r"(?i)^(?:basic|bearer|token|digest)\s+\S")
_SECRET_OPTION = re.compile(r"(?i)^--?[a-z0-9_.-]{0,40}(?:password|passwd|pwd|token|secret|api-?key)$")
_MYSQL = re.compile(r"(?:^|/)(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)$")


@record
class Found:
    """A credential: ``text[start:end]`` is replaced by ``prefix`` + <redacted> (``whole``: the whole
    scalar, written as a quoted "<redacted>" that keeps the lines it spanned); ``value`` as parsed."""

    start: int
    end: int
    what: Text
    value: str
    whole: bool = True
    prefix: str = ""


def secret_name(name: Any, env_style: bool = False) -> bool:
    """Whether a key or an env/header name looks like it holds a credential."""
    if not isinstance(name, str) or not name or len(name) > 200 or _REFERENCE.search(name):
        return False
    if env_style and _ENV_KEY.match(name) and "PUBLIC" not in name:
        return True
    # a word of its own: at the start, after a non-letter, or a capital (dbPassword, DBPassword)
    return any(i == 0 or not name[i - 1].isalpha() or name[i].isupper()
               for i in (m.start() for m in _SECRET_WORDS.finditer(name)))


def scan(text: str) -> list[Found]:
    """Every credential of ``text``'s documents that structure reveals; [] for text that does not read."""
    return scan_read(text)[0]


def scan_read(text: str) -> tuple[list[Found], bool]:
    """(what `scan` finds, whether the text read as YAML at all)."""
    try:
        if not _shallow(text):     # libyaml's composer recurses: nothing deeper than the explainer reads
            return [], False
        roots = list(yaml.compose_all(text, Loader=_LOADER))
    except Exception:   # unreadable input is reported by the explainer itself; the token scan still runs
        return [], False
    out: list[Found] = []
    seen: set[int] = set()
    for root in roots:
        if root is not None:
            _document(text, root, out, seen)
    return out, True


def _shallow(text: str) -> bool:
    """Whether ``text`` nests no deeper than the explainer's reader allows and holds a bounded number of
    nodes, read from libyaml's events (one pass, no recursion, aliases not expanded)."""
    depth, events = 0, 0
    limits = Limits()
    for ev in yaml.parse(text, Loader=_LOADER):
        events += 1
        if isinstance(ev, _OPEN):
            depth += 1
            if depth > limits.max_depth:
                return False
        elif isinstance(ev, _CLOSE):
            depth -= 1
        if events > limits.max_nodes:   # values built, as the explainer counts them (about)
            return False
    return True


_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


# --- the walk -----------------------------------------------------------------------------------------

def _pairs(node: yaml.MappingNode, seen: set[int] | None = None) -> Iterator[tuple[yaml.Node, yaml.Node]]:
    """A mapping's (key, value) nodes, those of ``<<`` merges included (each merged mapping once)."""
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "<<" and key.tag.endswith(":merge"):
            for merged in value.value if isinstance(value, yaml.SequenceNode) else [value]:
                if isinstance(merged, yaml.MappingNode):
                    yield from _pairs(merged, seen)
        else:
            yield key, value


def _get(node: yaml.Node, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in _pairs(node):
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    return None


def _text(node: yaml.Node | None) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) and node.tag == _STR else None


def _document(text: str, root: yaml.Node, out: list[Found], seen: set[int]) -> None:
    kind, meta = _text(_get(root, "kind")), _get(root, "metadata")
    name = _text(_get(meta, "name")) if meta is not None else None
    handled: set[int] = set()
    if kind in ("Secret", "ConfigMap"):
        for section in ("data", "stringData", "binaryData"):
            values = _get(root, section)
            if not isinstance(values, yaml.MappingNode):
                continue
            handled.add(id(values))
            for k, v in _pairs(values):
                label = {"name": name or "?", "field": section, "key": getattr(k, "value", "?")}
                if kind == "Secret" or secret_name(getattr(k, "value", None), env_style=True):
                    what = _("Secret {name}: {field}.{key}") if kind == "Secret" else _("ConfigMap {name}: {field}.{key}")
                    _every_scalar(text, v, Text(what, label), out, set())
                elif isinstance(v, yaml.ScalarNode):
                    _assignments(text, v, lambda key: Text(_("{setting} in {file} of ConfigMap {name}"),
                                                           {"setting": key, "file": label["key"], "name": name or "?"}),
                                 out)
    _walk(text, root, out, seen, handled, name)


def _walk(text: str, root: yaml.Node, out: list[Found], seen: set[int], handled: set[int], owner: str | None) -> None:
    stack: list[tuple[yaml.Node, str | None, str | None]] = [(root, owner, None)]
    while stack:
        node, who, parent_key = stack.pop()
        if id(node) in seen or id(node) in handled:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _STR and "\n" in node.value:   # a file or a script: assignments in it
                _assignments(text, node, lambda key: Text(_("{setting} in a value of {c}"), {"setting": key, "c": who}),
                             out)
            continue
        if isinstance(node, yaml.SequenceNode):
            stack.extend((item, who, parent_key) for item in reversed(node.value))
            continue
        if not isinstance(node, yaml.MappingNode):
            continue
        _named_value(text, node, who, parent_key, out)
        if _get(node, "image") is not None:   # a container: what its env, args and probes hold is its
            who = _text(_get(node, "name")) or who
        _arguments(text, node, who, out)
        pairs = list(_pairs(node))
        for k, v in pairs:
            key = k.value if isinstance(k, yaml.ScalarNode) else None
            if key == LAST_APPLIED and parent_key == "annotations" and isinstance(v, yaml.ScalarNode) and \
                    v.value != REDACTED and _holds_secrets(v.value):
                out.append(_whole(text, v, Text(_("the annotation {name} (a copy of the manifest with its "
                                                  "credentials)"), {"name": LAST_APPLIED})))
            elif key not in ("name", "value") and secret_name(key) and _text(v) not in (None, "", REDACTED):
                out.append(_whole(text, v, Text(_("{key} of {c}"), {"key": key, "c": who or "?"})))
        stack.extend((v, who, k.value if isinstance(k, yaml.ScalarNode) else None) for k, v in reversed(pairs))


def _named_value(text: str, node: yaml.MappingNode, who: str | None, parent_key: str | None,
                 out: list[Found]) -> None:
    """An env entry or an HTTP header: ``{name: DB_PW, value: …}``, ``{name: Authorization, value: Basic …}``."""
    name, value = _text(_get(node, "name")), _get(node, "value")
    if name is None or not isinstance(value, yaml.ScalarNode) or value.value in ("", REDACTED):
        return
    header = parent_key == "httpHeaders"
    if secret_name(name, env_style=not header) or (_AUTH_VALUE.match(value.value) and header):
        what = _("the header {name} of {c}") if header else _("env {name} of {c}")
        out.append(_whole(text, value, Text(what, {"name": name, "c": who})))


def _arguments(text: str, node: yaml.MappingNode, who: str | None, out: list[Found]) -> None:
    """``--db-password hunter2`` as two arguments, and ``mysql -phunter2``, in command/args lists."""
    argv = [item for key in ("command", "args") if isinstance(seq := _get(node, key), yaml.SequenceNode)
            for item in seq.value]
    words = [item.value if isinstance(item, yaml.ScalarNode) else None for item in argv]
    mysql = any(isinstance(w, str) and _MYSQL.search(w) for w in words)
    for i, word in enumerate(words):
        if not isinstance(word, str):
            continue
        if _SECRET_OPTION.match(word) and i + 1 < len(words):
            nxt = words[i + 1]
            if isinstance(nxt, str) and nxt and nxt != REDACTED and not nxt.startswith(("-", "$")):
                out.append(_whole(text, argv[i + 1], Text(_("the value of {option} for {c}"), {"option": word, "c": who})))
        elif mysql and word.startswith("-p") and len(word) > 2 and word[2:] != REDACTED and not word.startswith("--"):
            found = _whole(text, argv[i], Text(_("the value of {option} for {c}"), {"option": "-p", "c": who}))
            out.append(Found(found.start, found.end, found.what, word[2:], True, "-p"))


def _every_scalar(text: str, node: yaml.Node, what: Text, out: list[Found], seen: set[int]) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, yaml.ScalarNode):
            if n.value not in ("", REDACTED):
                out.append(_whole(text, n, what))
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
        elif isinstance(n, yaml.MappingNode):
            stack.extend(v for _k, v in _pairs(n))


def _assignments(text: str, node: yaml.ScalarNode, what: Callable[[str], Text], out: list[Found]) -> None:
    """Secret settings assigned in the text a scalar holds (a mounted file, a script): the value alone,
    where it stands in the manifest's text, or the whole scalar when it is not written there as is."""
    cursor = None
    for m in _ASSIGNMENT.finditer(node.value):
        key, value, v_start = m.group("k"), m.group("v").rstrip(), m.start("v")
        if not (m.group("q") and m.group("q") == m.group("q2")):   # not quoted: the rest of the line is the value
            value, v_start = node.value[m.start("q"):m.end()].rstrip(), m.start("q")
        if value == REDACTED or not value or _NO_VALUE.match(value) or not (secret_name(key.rsplit(".", 1)[-1], env_style=True)
                                                  or secret_name(key, env_style=True)):
            continue
        whole = _whole(text, node, what(key))
        cursor = whole.start if cursor is None else cursor
        line = m.group(0).strip()
        at = text.find(line, cursor, whole.end)   # the line as the manifest writes it (a literal block: as is)
        if at < 0:   # written with escapes or folded: the whole scalar goes
            out.append(Found(whole.start, whole.end, what(key), value))
            return
        start = at + (v_start - (m.start() + len(m.group(0)) - len(m.group(0).lstrip())))
        out.append(Found(start, start + len(value), what(key), value, whole=False))
        cursor = at + len(line)


def _whole(text: str, node: yaml.Node, what: Text) -> Found:
    """The scalar ``node``'s own text (its anchor and tag, which the span starts with, are kept)."""
    start, end = node.start_mark.index, node.end_mark.index
    while start < end and text[start] in "&!":   # `&pw` and `!!str` before the value: kept
        while start < end and text[start] not in " \t\r\n":
            start += 1
        while start < end and text[start] in " \t\r\n":
            start += 1
    return Found(start, end, what, node.value if isinstance(node, yaml.ScalarNode) else "")


def _holds_secrets(copy: str) -> bool:
    """Whether a last-applied-configuration copy holds anything the scan would report."""
    try:
        copy = json.dumps(json.loads(copy), indent=1)
    except (ValueError, RecursionError):
        pass
    return bool(token_spans(copy)) or bool(scan(copy))

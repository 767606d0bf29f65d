"""Every text shown to users is in the Simplified Chinese catalogue, translated, fields intact."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
_FIELD = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)[sd]")


def _unquote(chunks: list[str]) -> str:
    return "".join(ast.literal_eval(c) for c in chunks)


def catalogue() -> dict[str, str]:
    entries: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current = None
    for line in PO.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("msgid "):
            if msgid is not None and msgstr is not None:
                entries[_unquote(msgid)] = _unquote(msgstr)
            msgid, msgstr, current = [line[6:]], None, "id"
        elif line.startswith(("msgstr ", "msgstr[0] ")):
            msgstr, current = [line.split(" ", 1)[1]], "str"
        elif line.startswith('"') and current == "id" and msgid is not None:
            msgid.append(line)
        elif line.startswith('"') and current == "str" and msgstr is not None:
            msgstr.append(line)
        elif line.startswith(("msgid_plural", "msgstr[")):
            current = None
    if msgid is not None and msgstr is not None:
        entries[_unquote(msgid)] = _unquote(msgstr)
    return entries


def python_msgids() -> set[str]:
    found = set()
    for path in (ROOT / "explainer").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("_", "gettext_noop", "gettext",
                                                                                  "gettext_lazy"):
                if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                    found.add(node.args[0].value)
    return found


def template_msgids() -> set[str]:
    found = set()
    for path in (ROOT / "templates").rglob("*.html"):
        if JINJA in path.parents:
            continue
        for m in re.finditer(r"""\{%\s*translate\s+(["'])(.*?)\1""", path.read_text(encoding="utf-8")):
            found.add(m.group(2))
    return found | {m for m in jinja_messages() if isinstance(m, str)}


JINJA = ROOT / "templates" / "jinja2"


def jinja_messages() -> list[str | tuple[str, ...]]:
    """The messages of the Jinja2 partials (web/jinja.py), as Jinja2's own extractor reads them: a string, or
    (singular, plural) for a ``{% trans %}`` with ``{% pluralize %}``."""
    from jinja2 import Environment

    env = Environment(extensions=["jinja2.ext.i18n"])
    found: list[str | tuple[str, ...]] = []
    for path in sorted(JINJA.rglob("*.html")):
        for _line, _function, message in env.extract_translations(path.read_text(encoding="utf-8")):
            found.append(tuple(m for m in message if m) if isinstance(message, tuple) else message)
    return found


def test_the_jinja_partials_have_messages_and_their_plurals_are_in_the_catalogue() -> None:
    messages = jinja_messages()
    assert len([m for m in messages if isinstance(m, str)]) > 40   # the extractor reads {% trans %} blocks
    text = PO.read_text(encoding="utf-8")
    for plural in (m for m in messages if isinstance(m, tuple)):
        assert f"msgid {plural[0]!r}".replace("'", '"') in text and \
            f"msgid_plural {plural[1]!r}".replace("'", '"') in text, plural


def test_every_message_is_in_the_catalogue_and_translated() -> None:
    entries = catalogue()
    wanted = (python_msgids() | template_msgids()) - {""}
    missing = sorted(m for m in wanted if m not in entries)
    assert not missing, "add them to locale/zh_Hans/LC_MESSAGES/django.po and translate:\n" + "\n".join(missing[:20])
    untranslated = sorted(m for m in wanted if not entries[m].strip())
    assert not untranslated, "untranslated:\n" + "\n".join(untranslated[:20])


def test_translations_keep_every_field() -> None:
    for msgid, msgstr in catalogue().items():
        if msgid and msgstr:
            assert sorted(_FIELD.findall(msgid)) == sorted(_FIELD.findall(msgstr)), msgid


def test_no_fuzzy_guesses_are_left() -> None:
    """makemessages guesses translations of new messages from similar old ones: review them."""
    assert "#, fuzzy" not in PO.read_text(encoding="utf-8").split("\n\n", 1)[1]

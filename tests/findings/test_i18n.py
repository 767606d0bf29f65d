"""Findings' text is translatable: constant message ids marked with gettext_noop, rendered through gettext."""
from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from explainer.findings import BY_ID, RULES, Finding, Text
from explainer.findings.i18n import Names

from .conftest import findings_for_fixture

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "findings"
EVERY_FIXTURE = sorted(FIXTURES.rglob("*.yaml"))
FIELD = re.compile(r"(\{[^{}]*\})")


def _ids(rule: ModuleType) -> str:
    return rule.ID


@cache
def _marked(rule: ModuleType) -> frozenset[str]:
    """Every string the rule's module passes to gettext_noop (adjacent literals joined, as xgettext does)."""
    tree = ast.parse(inspect.getsource(rule))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Name) and n.func.id == "gettext_noop"]
    return frozenset(c.args[0].value for c in calls if len(c.args) == 1 and isinstance(c.args[0], ast.Constant))


@cache
def _findings(path: Path) -> tuple[Finding, ...]:
    return tuple(findings_for_fixture(path.read_text(encoding="utf-8")))


def _texts(text: Text) -> Iterator[Text]:
    yield text
    for value in text.params.values():
        if isinstance(value, Text):
            yield from _texts(value)


def shout(message: str) -> str:
    """A stand-in gettext that translates into capitals, leaving the {fields} alone."""
    return "".join(part if FIELD.fullmatch(part) else part.upper() for part in FIELD.split(message))


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_gettext_noop_gets_one_literal(rule: ModuleType) -> None:
    """makemessages reads the source: an f-string or a variable inside gettext_noop would never reach it."""
    tree = ast.parse(inspect.getsource(rule))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "gettext_noop":
            assert len(node.args) == 1 and not node.keywords, f"{rule.__name__}:{node.lineno}"
            arg = node.args[0]
            assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                f"{rule.__name__}:{node.lineno}: gettext_noop needs a string literal")


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_rule_text_constants_are_marked(rule: ModuleType) -> None:
    for name in ("TITLE", "WHAT", "WHY", "FIX_TEXT", "FIRES_WHEN", "QUIET_WHEN"):
        assert getattr(rule, name) in _marked(rule), f"{rule.__name__}.{name} must be gettext_noop(\"...\")"


@pytest.mark.parametrize("path", EVERY_FIXTURE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_message_id_is_a_marked_constant(path: Path) -> None:
    """Each Text a finding carries (nested ones too) has a msgid written literally in gettext_noop(...)."""
    for f in _findings(path):
        assert isinstance(f.title, Text) and isinstance(f.explanation, Text), f.id
        marked = _marked(BY_ID[f.id])
        for text in (*_texts(f.title), *_texts(f.explanation)):
            assert text.msgid in marked, f"{f.id}: {text.msgid!r} is not a gettext_noop literal of its module"
            fields = {m[1:-1] for m in FIELD.findall(text.msgid)}
            assert fields == set(text.params), f"{f.id}: {text.msgid!r} has fields {fields}, params {set(text.params)}"
            assert all(isinstance(v, (str, int, float, Text, Names)) for v in text.params.values()), (f.id, text.params)


@pytest.mark.parametrize("path", EVERY_FIXTURE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_title_and_explanation_go_through_gettext(path: Path) -> None:
    for f in _findings(path):
        english, shouted = f.to_dict(), f.render(shout)
        assert f.render() == {"title": english["title"], "explanation": english["explanation"]}
        assert shouted["title"] == english["title"].upper()
        assert shouted["explanation"] != english["explanation"], f.id
        assert shouted["explanation"].upper() == english["explanation"].upper(), f.id


@pytest.mark.parametrize("rule", RULES, ids=_ids)
def test_every_message_of_a_rule_is_seen_on_a_fixture(rule: ModuleType) -> None:
    """Each variant a rule can say is produced by some fixture, so the tests above check all of them."""
    catalogue_text = {getattr(rule, n) for n in ("WHAT", "WHY", "FIX_TEXT", "FIRES_WHEN", "QUIET_WHEN")}
    seen = {t.msgid for path in EVERY_FIXTURE for f in _findings(path) if f.id == rule.ID
            for t in (*_texts(f.title), *_texts(f.explanation))}
    unseen = _marked(rule) - catalogue_text - seen
    assert not unseen, f"{rule.ID}: add a case under tests/fixtures/findings/cases that says {sorted(unseen)}"


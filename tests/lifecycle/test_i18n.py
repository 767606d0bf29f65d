"""The core's user-visible texts are Texts (or Phrases) whose English rendering is the string it reports."""
from __future__ import annotations

import ast
import pickle
import re
from functools import cache
from pathlib import Path

import pytest

from explainer.explain import explain
from explainer.lifecycle.errors import ErrorRecord, ManifestError
from explainer.lifecycle.i18n import Phrase, Text, render
from explainer.web.redact.credentials import find_secrets
from explainer.lifecycle.scenario.document import parse_scenario

ROOT = Path(__file__).resolve().parents[2]
LIFECYCLE = ROOT / "explainer" / "lifecycle"
MANIFESTS = sorted((ROOT / "explainer" / "examples").glob("*.yaml")) + sorted(
    (ROOT / "tests" / "fixtures" / "pods").glob("*.yaml"))
INVALID = sorted((ROOT / "tests" / "fixtures" / "invalid").glob("*.*"))
SCENARIOS = [None, "deleteAt: 20", "sandboxLostAt: 12",
             "debug: [{name: dbg, at: 3, target: app}, {name: late, at: 500}]\ndeleteAt: 40",
             "imageUpdates: [{container: app, image: nginx:2, at: 5}]"]
# events whose message is the manifest's own probe or hook detail ("GET /health on port 8080")
PASS_THROUGH = {"startup_probe_ok", "ready", "poststart_done", "prestop_started", "prestop_done"}
FIELD = re.compile(r"(\{[^{}]*\})")


@cache
def marked() -> frozenset[str]:
    """Every literal the core passes to gettext_noop (imported as ``_`` or by name)."""
    found = set()
    for path in [*LIFECYCLE.rglob("*.py"), *(ROOT / "explainer" / "web" / "redact").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("_", "gettext_noop") \
                    and node.args and isinstance(node.args[0], ast.Constant):
                found.add(node.args[0].value)
    return frozenset(found)


def shout(message: str) -> str:
    return "".join(part if FIELD.fullmatch(part) else part.upper() for part in FIELD.split(message))


def check(text: Text | Phrase, english: str) -> None:
    """``text`` renders ``english``, every msgid in it is marked, and it goes through gettext."""
    assert isinstance(text, (Text, Phrase))
    assert text.render() == str(text) == english
    stack = [text.text if isinstance(text, Phrase) else text]
    while stack:
        t = stack.pop()
        assert t.msgid in marked(), f"{t.msgid!r} is not a gettext_noop literal of explainer/lifecycle"
        stack += [v.text if isinstance(v, Phrase) else v for v in t.params.values() if isinstance(v, (Text, Phrase))]
    assert text.render(shout) != english or not re.search(r"[a-z]", FIELD.sub("", text.render()))


def _explanations():
    for path in MANIFESTS:
        for scenario in SCENARIOS:
            expl = explain(path.read_text(encoding="utf-8"), scenario)
            yield f"{path.name}|{scenario}", expl


def test_events_notes_and_assumptions_render_their_english() -> None:
    seen = 0
    for where, expl in _explanations():
        for r in expl.pods:
            for n in r.notes:
                check(n, str(n))
            if r.simulation is None:
                continue
            for e in r.simulation.events:
                if e.text is None:
                    assert e.type in PASS_THROUGH or not e.message, (where, e)
                else:
                    check(e.text, e.message)
                    seen += 1
            for b in r.simulation.behaviours.values():
                for why in b.assumed.values():
                    assert isinstance(why, Phrase) and isinstance(why, str)
                    check(why, str(why))
    assert seen > 100


@pytest.mark.parametrize("path", INVALID + MANIFESTS, ids=lambda p: p.name)
def test_errors_carry_their_text(path: Path) -> None:
    for version in ("1.27", None):
        expl = explain(path.read_text(encoding="utf-8"), None, version)
        for e in expl.errors:
            if e.kind == "schema":      # the OpenAPI validator's words, passed through
                continue
            assert e.text is not None, e
            check(e.text, e.message)


@pytest.mark.parametrize("scenario", [
    "deleteAt: -1\nfoo: 1\ncontainers: {x: 3, y: {runSeconds: abc, exitCode: 300, imagePull: maybe, bogus: 1}}",
    "[1, 2]", "a: [", "debug: 3\nimageUpdates: 4",
])
def test_scenario_errors_carry_their_text(scenario: str) -> None:
    with pytest.raises(ManifestError) as info:
        parse_scenario(scenario)
    for record in info.value.records:
        check(record.text, record.message)


def test_secret_hits_carry_their_text() -> None:
    text = ("kind: Secret\nmetadata: {name: s}\ndata: {password: abc}\n---\nkind: Pod\nmetadata: {name: p}\n"
            "spec:\n  containers:\n  - name: app\n    image: x\n    env: [{name: DB_PASSWORD, value: hunter2}]\n"
            "    args: [--token=abcdefgh]\n")
    hits = find_secrets(text)
    assert [h.what for h in hits] == ["Secret s: data.password", "env DB_PASSWORD of app", "a password in a command"]
    for h in hits:
        check(h.text, h.what)


def test_error_record_takes_a_text_and_keeps_its_english() -> None:
    text = Text("{a} and {b}", {"a": 1, "b": Text("nested")})
    record = ErrorRecord(text, 3, path="x")
    assert record.message == "1 and nested" and record.text is text and record.translatable is text
    assert record == ErrorRecord("1 and nested", 3, path="x")       # the text is not part of equality
    assert ManifestError(text).message == "1 and nested"
    assert ErrorRecord("plain").translatable == "plain"
    assert pickle.loads(pickle.dumps(record)).text == text


def test_text_and_phrase_behave_like_their_english() -> None:
    t = Text("it {x} forever", {"x": Phrase("loops")})
    assert str(t) == "it loops forever" and "loops" in t and hash(t) == hash(Text("it {x} forever", {"x": "loops"}))
    assert t.render(shout) == "IT LOOPS FOREVER"
    p = Phrase("sleeps {n} s", {"n": 5})
    assert p == "sleeps 5 s" and p.render(shout) == "SLEEPS 5 S" and pickle.loads(pickle.dumps(p)).text == p.text
    assert render(p, shout) == "SLEEPS 5 S" and render("as is", shout) == "as is" and render(None) == ""

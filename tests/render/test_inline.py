"""Code spans in the explainer's own sentences (render/inline.py): what a CommonMark renderer makes of the
catalogue, in both languages; a field's value never opens or closes a code span."""
from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import given, settings, strategies as st
from markdown_it import MarkdownIt

from explainer.findings import catalogue
from explainer.lifecycle.i18n import Phrase, Text
from explainer.render.inline import html, plain, spans, split_code
from tests.profiles import examples

MD = MarkdownIt("commonmark")
TEXTS = ("title", "what", "why", "fix", "fires_when", "quiet_when")


def quotes(s: str) -> str:
    """Quotes as they are: `html` escapes them, markdown-it only some."""
    return s.replace("&quot;", '"').replace("&#x27;", "'")


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_catalogue_renders_as_commonmark_renders_it(language: str) -> None:
    with translation.override(language):
        entries = catalogue(translation.gettext)
    seen = 0
    for entry in entries:
        for key in TEXTS:
            said = entry[key]
            if "\\" in said or "*" in said or "_" in said or "<" in said or "[" in said:
                continue          # Markdown's other markup: the catalogue means none of it
            assert quotes(html(said)) == quotes(MD.renderInline(said)), (entry["id"], key)
            seen += "`" in said
    assert seen > 30                     # dozens of texts with code in them, in each language


def test_a_run_of_backticks_closes_only_with_a_run_as_long() -> None:
    assert split_code("a `b` c") == [(False, "a "), (True, "b"), (False, " c")]
    assert split_code("``a ` b``") == [(True, "a ` b")]
    assert split_code("x ` y") == [(False, "x ` y")]
    assert split_code("`` ` ``") == [(True, "`")]
    assert split_code("`a\nb`") == [(True, "a b")]


def test_a_fields_value_is_never_markup() -> None:
    said = Text("{name} runs `{command}`; see {more}", {
        "name": "`evil`", "command": "echo `date`", "more": Text("`kubectl {verb}`", {"verb": "`x`"})})
    assert spans(said) == [(False, "`evil` runs "), (True, "echo `date`"), (False, "; see "), (True, "kubectl `x`")]
    assert html(said) == "`evil` runs <code>echo `date`</code>; see <code>kubectl `x`</code>"
    assert plain(said) == "`evil` runs echo `date`; see kubectl `x`"


def test_translated_phrases_and_formats() -> None:
    said = Text("`{n:>3}` and {p}", {"n": 7, "p": Phrase("`{w}` here", {"w": "<b>"})})
    assert spans(said, lambda s: s.replace("and", "und")) == [(True, "  7"), (False, " und "), (True, "<b>"),
                                                               (False, " here")]
    assert html(said) == "<code>  7</code> and <code>&lt;b&gt;</code> here"
    assert html(None) == "" and html("plain <i>") == "plain &lt;i&gt;"


FIELD = st.text(alphabet="`ab <&", max_size=8)


@settings(max_examples=examples(200))
@given(FIELD, FIELD)
def test_the_message_alone_decides_the_code_spans(a: str, b: str) -> None:
    said = Text("x `{a}` y {b} z `k`", {"a": a, "b": b})
    assert [code for code, _t in spans(said)] == [False, True, False, True] or not a
    assert plain(said) == f"x {a} y {b} z k"
    assert html(said).count("<code>") == (2 if a else 1)

"""The Markdown export, rendered by a real CommonMark renderer (markdown-it-py, raw HTML on)."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from explainer.explain import explain
from explainer.render.markdown import code, explanation_as_markdown, inline, text
from explainer.render.story import story
from tests.conftest import load_manifest

HOSTILE_NAME = "a` <img src=x onerror=alert(1)> `b"
# Everything the export itself writes; anything else came out of the input.
OUR_TAGS = {"h3", "h4", "p", "a", "img", "code", "pre", "table", "thead", "tbody", "tr", "th", "td",
            "ol", "ul", "li", "strong"}
URL = "https://explainer.example/p/abc123/"
SVG = "https://explainer.example/p/abc123/timeline.svg"


class Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def rendered(markdown: str) -> Elements:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    parser = Elements()
    parser.feed(md.render(markdown))
    return parser


def hostile_manifest(name: str) -> str:
    quoted = name.replace("\\", "\\\\").replace('"', '\\"')
    return (f'apiVersion: v1\nkind: Pod\nmetadata:\n  name: "{quoted}"\nspec:\n  containers:\n'
            f'  - name: "{quoted}"\n    image: "<img src=y onerror=alert(2)>|x"\n'
            '    lifecycle:\n      preStop:\n        exec:\n          command: ["sleep", "90"]\n')


def assert_inert(markdown: str) -> Elements:
    out = rendered(markdown)
    for tag, attrs in out.tags:
        assert tag in OUR_TAGS, (tag, attrs)
        assert not any(k.startswith("on") for k in attrs), attrs
        if tag == "img":
            assert attrs["src"] == SVG
        if tag == "a":
            assert attrs["href"] in (URL, SVG) or attrs["href"].startswith("https://kubernetes.io"), attrs
    return out


@pytest.mark.parametrize("name", [HOSTILE_NAME, "``` <b>x</b>", "x | y", "[a](javascript:alert(1))",
                                  "&lt;img&gt; &amp;", "# h <!-- c -->", "![i](x)", "\\<i>x\\</i>"])
def test_a_hostile_pod_name_renders_to_no_html_element(name: str) -> None:
    expl = explain(hostile_manifest(name), None, "1.34")
    markdown = explanation_as_markdown(expl, URL, timeline_urls=[SVG])
    out = assert_inert(markdown)
    assert name in "".join(out.text)          # shown as text, not lost


def test_error_lines_with_markup_in_them_render_as_text() -> None:
    manifest = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - name: <b>a</b>|[l](u)\n   image: b\n"
    expl = explain(manifest, None, "1.34")
    assert expl.errors
    assert_inert(explanation_as_markdown(expl, URL))


def test_the_export_has_the_whole_story_every_fix_and_the_linked_timeline() -> None:
    expl = explain(load_manifest("seeds/lifecycle-demo"), {"containers": {"app": {"runs": [
        {"runSeconds": 1, "exitCode": 1}] * 6 + [{"runSeconds": "forever"}]}}}, "1.34")
    report = expl.pods[0]
    markdown = explanation_as_markdown(expl, URL, timeline_urls=[SVG])
    out = assert_inert(markdown)
    steps = story(report.pod, report.simulation)
    assert len(steps) > 12
    assert "more steps" not in markdown
    md = MarkdownIt("commonmark").enable("table")
    html = md.render(markdown)
    for step in steps:
        assert md.renderInline(inline(step.text)) in html
    for finding in report.findings:
        if finding.fix:
            assert finding.fix.splitlines()[0].strip() in html
    assert f'<a href="{SVG}"><img src="{SVG}" alt="Timeline" /></a>' in html
    assert ("img", {"src": SVG, "alt": "Timeline"}) in out.tags


@pytest.mark.parametrize("value", ["plain", "a`b", "``x``", "`", " lead", "x ``` y"])
def test_code_spans_hold_any_backticks(value: str) -> None:
    html = MarkdownIt("commonmark").renderInline(code(value))
    assert html.startswith("<code>") and html.endswith("</code>")
    assert html[len("<code>"):-len("</code>")] == value.strip() or value == " lead"


def test_a_workloads_rollout_is_in_the_export_and_inert() -> None:
    from explainer.examples import BY_SLUG
    manifest = BY_SLUG["statefulset-update"].manifest().replace("name: queue\nspec:\n  serviceName",
                                                               f'name: "{HOSTILE_NAME}"\nspec:\n  serviceName', 1)
    expl = explain(manifest)
    assert expl.pods and expl.pods[0].rollout is not None, expl.errors
    markdown = explanation_as_markdown(expl, URL, timeline_urls=[SVG])
    out = assert_inert(markdown)
    words = "".join(out.text)
    assert "Rollout" in words and "Capacity floor 2" in words and "Complete at 54 s" in words
    assert "the rollout is complete" in words


def test_the_explainers_own_backticks_are_code_and_the_inputs_stay_text() -> None:
    """A finding's `command` is code in the export (it was printed as \\`kill -SIGTERM 1\\`), while the
    backticks the manifest wrote (in the story's hook command) stay text."""
    manifest = load_manifest("seeds/web-app-pod").replace("sleep 5; kill", "sleep 5; echo `date`; kill")
    expl = explain(manifest, "deleteAt: 60\n", "1.34")
    markdown = explanation_as_markdown(expl, URL)
    findings = markdown.split("Pitfalls:")[1].split("What happens:")[0]
    assert "runs `kill -SIGTERM 1` to signal its own main process" in findings and "\\`kill" not in findings
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "runs <code>kill -SIGTERM 1</code> to signal" in html
    assert "echo `date`; kill" in html and "<code>date</code>" not in html     # the input's backticks: text
    assert_inert(markdown)
    # the headline: what ended the run, in teaching terms, before STATUS and phase
    assert markdown.index("Deleted at 60 s; ") < markdown.index("Ends as **Error**")


def test_inline_fences_code_that_holds_backticks_and_escapes_text() -> None:
    from explainer.lifecycle.i18n import Text
    said = Text("{c} runs `{command}` now", {"c": "a`b*", "command": "echo `date`"})
    assert inline(said) == "a\\`b\\* runs `` echo `date` `` now"
    html = MarkdownIt("commonmark").renderInline(inline(said))
    assert html == "a`b* runs <code>echo `date`</code> now"

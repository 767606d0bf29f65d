"""Words a class sees first (issue 25, section 5): a deleted example opens with what happened, no raw
backticks or developer notes on a page, the rules page's index and filter (without JavaScript: the server
filters), and each finding's link to its rule."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from explainer.examples import EXAMPLES
from explainer.findings import RULES

pytestmark = pytest.mark.django_db
# Where backticks are the input's or code's own: the editor, code, the events' raw messages
VERBATIM = {"code", "pre", "textarea", "script", "style", "svg"}


class Prose(HTMLParser):
    """The text of a page outside code, pre, the editor and pictures."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VERBATIM:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in VERBATIM and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.text.append(data)


def prose(body: str) -> str:
    parser = Prose()
    parser.feed(body)
    return " ".join(parser.text)


@pytest.mark.parametrize("slug", [e.slug for e in EXAMPLES])
def test_no_example_page_shows_raw_backticks_or_developer_notes(client: Client, slug: str) -> None:
    body = client.get(f"/?example={slug}").content.decode()
    words = prose(body)
    assert "`" not in words, re.findall(r".{60}`.{60}", words)[:3]
    for note in ("pinned down by any test", "doBackOff", "the model puts"):
        assert note not in body


def test_the_restart_all_example_says_what_happens_in_a_learners_words(client: Client) -> None:
    body = client.get("/?example=restart-all-containers").content.decode()
    assert "Restarting every container (RestartAllContainers): the kubelet kills the running containers at once" \
        in body


@pytest.mark.parametrize("slug", ["lifecycle-demo", "deploy-502-race"])
def test_a_deleted_example_opens_with_what_happened_then_status_and_phase(client: Client, slug: str) -> None:
    body = client.get(f"/?example={slug}").content.decode()
    head = body[body.index('<header class="pod-head">'):body.index("</header>", body.index('<header class="pod-head">'))]
    headline = re.search(r'<p class="headline">(.*?)</p>', head)
    assert headline is not None
    assert headline.group(1).startswith("Deleted at 30 s; ") and "exited on SIGTERM (143), so the Pod ends Failed — " \
        "normal for a deletion." in headline.group(1)
    assert head.index('class="headline"') < head.index('<span class="pill status">Error</span>')
    assert "phase Failed" in head                                   # phase and STATUS stay exact


def test_the_headline_is_translated(client: Client) -> None:
    body = client.get("/?example=lifecycle-demo", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    headline = re.search(r'<p class="headline">(.*?)</p>', body)
    assert headline is not None and "30 秒时被删除" in headline.group(1) and "Deleted" not in headline.group(1)


def test_findings_link_to_their_rule(client: Client) -> None:
    body = client.get("/?example=web-app-pod").content.decode()
    assert '<a class="rule-link" href="/rules/#kill-pid1-shared-namespace">About the rule ' \
           '<code>kill-pid1-shared-namespace</code></a>' in body
    assert "runs <code>kill -SIGTERM 1</code> to signal its own main process" in body      # code, not `backticks`


def _rules(client: Client, query: str = "", language: str = "en") -> str:
    return client.get(f"/rules/{query}", HTTP_ACCEPT_LANGUAGE=language).content.decode()


def shown(body: str) -> list[str]:
    return re.findall(r'<article class="rule" id="([a-z0-9-]+)" data-severity="\w+">', body)


def hidden(body: str) -> list[str]:
    return re.findall(r'<article class="rule" id="([a-z0-9-]+)" data-severity="\w+" hidden>', body)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_rules_page_has_an_index_and_renders_its_code_spans(client: Client, language: str) -> None:
    body = _rules(client, language=language)
    index = body[body.index('<nav class="rules-index"'):body.index("</nav>", body.index('<nav class="rules-index"'))]
    assert re.findall(r'<li data-rule="([a-z0-9-]+)"', index) == [r.ID for r in RULES]
    assert all(f'href="#{r.ID}"' in index for r in RULES)
    assert sorted(shown(body)) == sorted(r.ID for r in RULES) and hidden(body) == []
    words = prose(body[body.index("<main"):body.index('<section class="model-features"')])
    assert "`" not in words, re.findall(r".{40}`.{40}", words)[:3]
    assert "<code>restartPolicy: Always</code>" in body


def test_the_rules_filter_works_without_javascript(client: Client) -> None:
    body = _rules(client, "?q=PID+1+shareProcessNamespace+preStop+signals")
    assert shown(body) == ["kill-pid1-shared-namespace"]
    assert len(hidden(body)) == len(RULES) - 1
    assert f"Showing 1 of {len(RULES)} rules." in body and 'value="PID 1 shareProcessNamespace preStop signals"' in body
    assert re.search(r'<li data-rule="kill-pid1-shared-namespace">', body)
    assert re.search(r'<li data-rule="port-conflict" hidden>', body)
    errors = _rules(client, "?severity=error")
    assert shown(errors) and all(r.SEVERITY.value == "error" for r in RULES if r.ID in shown(errors))
    assert set(shown(errors)) == {r.ID for r in RULES if r.SEVERITY.value == "error"}
    assert '<option value="error" selected>' in errors
    odd = _rules(client, "?severity=<b>&q=" + "x" * 500)            # odd input: ignored or cut, never a 500
    assert shown(odd) == [] and "&lt;b&gt;" not in odd and 'value="' + "x" * 100 + '"' in odd


def test_an_assumption_in_the_explainers_words_shows_its_code_as_code(client: Client) -> None:
    manifest = ("apiVersion: v1\nkind: Pod\nmetadata: {name: trap}\nspec:\n  containers:\n    - name: app\n"
                "      image: busybox:1.36\n      command: [\"sh\", \"-c\", \"trap 'exit 0' TERM; sleep 3600 & wait\"]\n")
    body = client.post("/", {"manifest": manifest, "version": "1.37", "scenario": "deleteAt: 10"}).content.decode()
    assert "<code>app.stopSeconds</code>: its script traps SIGTERM and, waiting in <code>wait</code>, exits 0" in body
    assert "`" not in prose(body)


def test_the_embed_of_a_deleted_example_says_what_happened(client: Client) -> None:
    from explainer.examples import BY_SLUG
    from explainer.web.models import Permalink
    example = BY_SLUG["deploy-502-race"]
    link, _ = Permalink.store(example.manifest(), {"deleteAt": 30}, "1.37")
    body = client.get(f"/embed/{link.id}/").content.decode()
    assert '<p class="headline">Deleted at 30 s; web exited on SIGTERM (143), so the Pod ends Failed — normal for a ' \
           'deletion.</p>' in body

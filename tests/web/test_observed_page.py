"""What the cluster shows, on the page (issue 23): the second field beside the manifest, carried by the htmx
explain, the form post, permalinks (share, /p/<id>, its exports, "Edit a copy"); the observed lanes of the
timeline; the panel with kubectl's columns and every divergence in words; "Make the prediction match" (htmx, the
form post, and a link on a permalink's page); the gallery's three cases in both languages."""
from __future__ import annotations

import re

import pytest
import yaml
from django.test import Client
from django.utils import translation

from explainer.examples import BY_SLUG, EXAMPLES
from explainer.web.models import Permalink

pytestmark = pytest.mark.django_db

OOM, LIVENESS, INIT = "observed-oom-crash-loop", "observed-liveness-kill", "observed-init-waits-for-service"
CASES = (OOM, LIVENESS, INIT)


def post(client: Client, manifest: str, observed: str | None = None, htmx: bool = True, **fields: str):
    data = {"manifest": manifest, "version": "1.37", **fields}
    if observed is not None:
        data["observed"] = observed
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post("/", data, **headers)
    assert response.status_code == 200, response.content.decode()[:2000]
    return response.content.decode()


def case(slug: str) -> tuple[str, str]:
    example = BY_SLUG[slug]
    observed = example.observed()
    assert observed is not None
    return example.manifest(), observed


def written_scenario(html: str) -> dict:
    """The scenario in the what-if panel's YAML field."""
    m = re.search(r'<textarea name="scenario"[^>]*>\n(.*?)</textarea>', html, re.S)
    assert m is not None
    return yaml.safe_load(m.group(1).replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&")) or {}


# ---- the field ---------------------------------------------------------------------------------------------
def test_the_index_has_the_second_field_labelled_and_described(client: Client) -> None:
    html = client.get("/").content.decode()
    field = re.search(r"<textarea[^>]*id=\"observed\"[^>]*>", html)
    assert field is not None and 'name="observed"' in field.group(0)
    assert 'aria-labelledby="observed-label"' in field.group(0) and 'aria-describedby="observed-hint"' in field.group(0)
    assert 'id="observed-label">What the cluster shows<' in html and 'id="observed-hint"' in html
    # closed while it is empty, so the Explain button stays under the editor
    assert re.search(r'<details class="observed-input">', html)


@pytest.mark.parametrize("htmx", [True, False])
def test_the_observed_output_reaches_the_result_by_htmx_and_by_the_form_post(client: Client, htmx: bool) -> None:
    manifest, observed = case(LIVENESS)
    html = post(client, manifest, observed, htmx=htmx)
    assert 'id="observed-1"' in html and "killed by its probe" in html
    assert 'class="tl-obs-label"' in html and "↳ observed" in html
    without = post(client, manifest, htmx=htmx)
    assert 'id="observed-1"' not in without and "tl-obs" not in without
    if not htmx:   # the whole page: the field keeps what was pasted, and its disclosure is open
        assert '<details class="observed-input" open>' in html
        assert "Unhealthy  10s (x3 over 20s)" in html


def test_a_pasted_get_pod_yaml_with_its_status_works_alone(client: Client) -> None:
    manifest = (BY_SLUG[LIVENESS].manifest().replace("spec:\n", "spec:\n  restartPolicy: Always\n", 1)
                + 'status:\n  phase: Running\n  startTime: "2024-01-01T10:00:00Z"\n  containerStatuses:\n'
                  '  - name: liveness\n    image: registry.k8s.io/busybox\n    imageID: ""\n    ready: true\n'
                  '    restartCount: 3\n    started: true\n'
                  '    state: {running: {startedAt: "2024-01-01T10:04:00Z"}}\n'
                  '    lastState: {terminated: {exitCode: 137, reason: Error, startedAt: "2024-01-01T10:02:40Z",'
                  ' finishedAt: "2024-01-01T10:03:20Z"}}\n')
    html = post(client, manifest)
    assert 'id="observed-1"' in html
    assert "tl-obs-inferred" in html                     # restarts 3, one end known: the runs between inferred
    assert "Only the last termination of each container is kept" in html


def test_an_observed_output_over_the_limit_is_refused_with_the_setting(client: Client, settings) -> None:
    settings.MAX_MANIFEST_BYTES = 2000
    manifest, _observed = case(OOM)
    html = post(client, manifest, "x" * 3000)
    assert "The observed output is 3,000 bytes; the limit is 2,000 bytes" in html
    assert "EXPLAINER_MAX_MANIFEST_BYTES" in html


def test_hostile_observed_output_is_escaped_and_listed_as_unread(client: Client) -> None:
    manifest, _observed = case(OOM)
    html = post(client, manifest, '<script>alert(1)</script>\nNAME READY STATUS RESTARTS AGE\n'
                                  'memory-demo-2 0/1 "<b>x</b>" 1 24s\n\x7f&amp;')
    assert "<script>alert(1)" not in html and "<b>x</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html       # an unread line, shown as text


# ---- the panel ------------------------------------------------------------------------------------------------
def test_the_panel_shows_kubectl_columns_beside_the_prediction_and_each_divergence(client: Client) -> None:
    manifest, observed = case(LIVENESS)
    html = post(client, manifest, observed)
    panel = html[html.index('id="observed-1"'):]
    panel = panel[:panel.index("</section>")]
    assert "In the cluster, at 60 s" in panel and "Predicted, at 60 s" in panel
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", panel.split("<tbody>")[1])
    assert cells[:4] == ["liveness-exec", "1/1", "Running", "1"]
    assert cells[4:8] == ["liveness-exec", "1/1", "Running", "0"]
    assert 'class="obs-differs"' in panel                      # RESTARTS differ
    assert panel.count('<li class="divergence"') == 1
    assert "RESTARTS 0 at 60 s" in panel and "RESTARTS 1 at 60 s" in panel
    assert "the scenario can reproduce it" in panel
    assert 'name="match" value="0"' in panel and 'form="manifest-form"' in panel
    assert "failingProbes" in panel                            # the scenario it writes, shown
    assert "Events are merged: Unhealthy happened 3 times" in panel   # what the paste cannot show
    # the table twin and the story say what the chart shows
    table = html[html.index('<details class="events">'):]
    assert "Observed: Killing" in table.split("</table>")[0]
    story = html[html.index('data-story="pod-1"'):]
    assert "In the cluster: Killing for liveness." in story.split("</section>")[0]


def test_a_divergence_the_scenario_cannot_reproduce_says_so_and_offers_no_button(client: Client) -> None:
    manifest = BY_SLUG[LIVENESS].manifest()
    observed = ("Events:\n  Type    Reason     Age   From               Message\n"
                "  ----    ------     ----  ----               -------\n"
                "  Normal  Scheduled  60s   default-scheduler  Successfully assigned default/liveness-exec to n1\n"
                "  Normal  Pulling    59s   kubelet            Pulling image \"registry.k8s.io/busybox\"\n"
                "  Normal  Pulled     20s   kubelet            Successfully pulled image \"registry.k8s.io/busybox\"\n"
                "  Normal  Started    20s   kubelet            Started container liveness\n")
    html = post(client, manifest, observed)
    panel = html[html.index('id="observed-1"'):]
    assert "slow image pull" in panel and "the scenario cannot reproduce it" in panel
    assert 'name="match"' not in panel.split("</section>")[0]
    assert "No scenario reproduces these differences" in panel


# ---- Make the prediction match -----------------------------------------------------------------------------------
@pytest.mark.parametrize("htmx", [True, False])
def test_make_the_prediction_match_writes_the_scenario_and_explains_again(client: Client, htmx: bool) -> None:
    manifest, observed = case(OOM)
    before = post(client, manifest, observed, htmx=htmx)
    assert "killed for memory (OOMKilled)" in before
    html = post(client, manifest, observed, htmx=htmx, match="0", **{"c.memory-demo-2-ctr.startup": "3"})
    scenario = written_scenario(html)
    runs = scenario["containers"]["memory-demo-2-ctr"]["runs"]
    assert runs == [{"runSeconds": 1.0, "exitCode": 137, "reason": "OOMKilled"}]
    assert scenario["containers"]["memory-demo-2-ctr"]["startupSeconds"] == 3    # the control's value, written in
    assert scenario["until"] >= 600
    # the controls are emptied (the YAML holds what they said), and the prediction now crash-loops to the cap
    assert 'name="c.memory-demo-2-ctr.startup" value=""' in html
    assert "OOMKilled" in html and "CrashLoopBackOff" in html and "300 s" in html
    panel = html.split('id="observed-1"')[1].split("</section>")[0]
    assert "killed for memory (OOMKilled)" not in panel and "No difference from the prediction." in panel
    # kubectl's columns at 40 s: Running with 2 restarts, the prediction CrashLoopBackOff with 3: one course
    assert 'class="obs-differs"' in panel and "the course does not" in panel


def test_a_match_that_names_no_pod_explains_as_usual(client: Client) -> None:
    manifest, observed = case(OOM)
    for match in ("7", "x", "-1", "99999"):
        html = post(client, manifest, observed, match=match)
        assert written_scenario(html) == {} and "killed for memory (OOMKilled)" in html


# ---- permalinks ---------------------------------------------------------------------------------------------------
def test_share_stores_the_observed_output_and_every_page_of_the_link_carries_it(client: Client) -> None:
    manifest, observed = case(LIVENESS)
    response = client.post("/share/", {"manifest": manifest, "version": "1.37", "observed": observed},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    link = Permalink.objects.get()
    assert "Unhealthy" in link.observed
    page = client.get(f"/p/{link.id}/").content.decode()
    assert 'id="observed-1"' in page and "tl-obs-label" in page
    assert "What the cluster shows</summary>" in page and "Unhealthy  10s (x3 over 20s)" in page
    # no editor on this page: "Make the prediction match" opens one with the link's input and the scenario
    href = f"/?from={link.id}&amp;match=0"
    assert f'href="{href}"' in page
    copy = client.get(href.replace("&amp;", "&")).content.decode()
    assert "failingProbes" in written_scenario_field(copy) and "Unhealthy  10s" in copy
    assert "killed by its probe" not in copy.split('id="observed-1"')[1].split("</section>")[0]
    plain_copy = client.get(f"/?from={link.id}").content.decode()
    assert "killed by its probe" in plain_copy and "Unhealthy  10s" in plain_copy
    assert "Killing" in client.get(f"/p/{link.id}/timeline.svg").content.decode()
    exported = client.get(f"/p/{link.id}.json").json()
    assert exported["pods"][0]["observed"]["divergences"][0]["kind"] == "liveness-kill"
    markdown = client.get(f"/p/{link.id}.md").content.decode()
    assert "**What the cluster shows**" in markdown and "killed by its probe" in markdown
    assert "failingProbes" in markdown


def written_scenario_field(html: str) -> str:
    m = re.search(r'<textarea name="scenario"[^>]*>\n(.*?)</textarea>', html, re.S)
    return m.group(1) if m else ""


def test_a_credential_in_the_observed_output_is_named_without_a_link_into_the_editor(client: Client) -> None:
    manifest, _observed = case(LIVENESS)
    observed = "Environment:\n      DB_PASSWORD:  hunter2-very-secret\n"
    html = client.post("/share/", {"manifest": manifest, "version": "1.37", "observed": observed},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "(in the observed output)" in html
    item = html[html.index("<li>", html.index("secret-warning")):]
    item = item[:item.index("</li>")]
    assert "line-link" not in item and "line 2" in item


# ---- the gallery ----------------------------------------------------------------------------------------------------
def test_the_gallery_has_the_three_cases_with_their_output() -> None:
    seen = [e.slug for e in EXAMPLES if e.seen]
    assert seen == list(CASES)
    for slug in CASES:
        assert BY_SLUG[slug].observed()


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("slug,kind", [(OOM, "oom-killed"), (LIVENESS, "liveness-kill"), (INIT, "still-running")])
def test_each_gallery_case_loads_with_its_output_in_both_languages(client: Client, slug: str, kind: str,
                                                                    language: str) -> None:
    client.cookies["django_language"] = language
    html = client.get(f"/?example={slug}").content.decode()
    assert f'data-kind="{kind}"' in html
    assert '<details class="observed-input" open>' in html
    assert "tl-obs-label" in html and 'name="match" value="0"' in html
    if language == "zh-hans":
        assert "让预测与集群一致</button>" in html and "↳ 观测" in html
        with translation.override("zh-hans"):
            assert translation.gettext(BY_SLUG[slug].title) != BY_SLUG[slug].title


def test_compare_from_the_editor_stores_its_observed_output_with_the_after_side(client: Client) -> None:
    manifest, observed = case(OOM)
    left, _token = Permalink.store(manifest, None, "1.37")
    response = client.post("/compare/", {"left": left.id, "manifest": manifest, "version": "1.37",
                                         "observed": observed})
    assert response.status_code == 303
    right = Permalink.objects.exclude(pk=left.id).get(kind="explain")
    assert right.observed.strip() == observed.strip() and left.observed == ""

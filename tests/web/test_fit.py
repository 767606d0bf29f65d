"""The width a page draws its charts for (web/fit.py, issue 25), through Django's test client: the browser's
measure (tlw) read safely, the charts laid out for it, a phone's drawing in a <noscript> when there is none,
and every cache keyed by it."""
from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from explainer.web.fit import DEFAULT_PANEL_PX, DISPLAY_SCALE, layout_width, panel_px, picture
from tests.conftest import load_manifest

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.parametrize("raw,px", [
    ("800", 800), ("813", 808), ("813.9", 808), ("-5", 240), ("0", 240), ("99999", 3200), ("1e3", 1000),
    ("", None), ("abc", None), ("nan", None), ("inf", None), ("-inf", None), ("8" * 5000, 3200),
    ("<script>", None), ("12px", None),
])
def test_the_browsers_measure_is_read_safely_rounded_and_bounded(raw: str, px: int | None) -> None:
    factory = RequestFactory()
    assert panel_px(factory.get("/", {"tlw": raw})) == px
    assert panel_px(factory.post("/", {"tlw": raw})) == px
    assert panel_px(factory.get("/")) is None


def test_a_chart_is_laid_out_narrower_than_it_is_shown() -> None:
    for px in (240, 304, 800, 1200, 3200):
        width = layout_width(px)
        assert width * DISPLAY_SCALE <= px < (width + 1) * DISPLAY_SCALE


def test_the_markup_carries_the_width_and_the_phones_drawing() -> None:
    html = render_to_string("partials/_picture.html", {"pic": picture("<svg/>", 666.0, 800, "<svg id='n'/>", 250.5)})
    assert 'data-fit="800"' in html and "--tl-w:666" in html and "--tl-w:250.5" in html
    assert re.search(r"<noscript><div class=\"timeline timeline-narrow\"[^>]*><svg id='n'/></div></noscript>", html)
    assert "<noscript>" not in render_to_string("partials/_picture.html", {"pic": picture("<svg/>", 666.0, 800)})


def svg_widths(body: str) -> list[float]:
    return [float(w) for w in re.findall(r'<svg xmlns="http://www.w3.org/2000/svg" width="([0-9.]+)"', body)]


def test_an_explain_with_a_measure_draws_for_it(client: Client) -> None:
    manifest = load_manifest("seeds/lifecycle-demo")
    body = client.post("/", {"manifest": manifest, "version": "1.34", "tlw": "337"}, **HX).content.decode()
    assert 'data-fit="336"' in body and "tl-stacked" in body and "<noscript>" not in body
    assert svg_widths(body) and max(svg_widths(body)) <= 336 / DISPLAY_SCALE
    wide = client.post("/", {"manifest": manifest, "version": "1.34", "tlw": "1206"}, **HX).content.decode()
    assert 'data-fit="1200"' in wide and "tl-stacked" not in wide           # not the narrow answer from the cache
    assert max(svg_widths(wide)) <= 1200 / DISPLAY_SCALE and max(svg_widths(wide)) > 700


def test_a_page_without_a_measure_has_its_default_and_a_phones_drawing(client: Client) -> None:
    body = client.get("/?example=lifecycle-demo").content.decode()
    assert f'data-fit="{DEFAULT_PANEL_PX}"' in body
    noscript = re.search(r"<noscript><div class=\"timeline timeline-narrow\".*?</noscript>", body, re.S)
    assert noscript and "tl-stacked" in noscript.group(0)
    ids = re.findall(r' id="(tl[0-9a-f]+n?-title)"', body)
    assert len(ids) == len(set(ids)) == 2                                     # two drawings, their own ids
    measured = client.get("/?example=lifecycle-demo&tlw=390").content.decode()
    assert 'data-fit="384"' in measured and "<noscript><div" not in measured


def test_an_htmx_explain_without_a_measure_draws_no_phone_picture_but_a_page_does(client: Client) -> None:
    """An htmx request comes from a page whose script runs: a <noscript> drawing would never be shown (and cost
    a second layout of each chart); the same input posted without JavaScript keeps it (not the htmx answer
    from the cache)."""
    manifest = load_manifest("seeds/lifecycle-demo")
    fragment = client.post("/", {"manifest": manifest, "version": "1.34"}, **HX).content.decode()
    assert f'data-fit="{DEFAULT_PANEL_PX}"' in fragment and "<noscript><div" not in fragment
    page = client.post("/", {"manifest": manifest, "version": "1.34"}).content.decode()
    assert f'data-fit="{DEFAULT_PANEL_PX}"' in page and '<noscript><div class="timeline timeline-narrow"' in page


def test_the_rollout_picture_is_laid_out_for_the_measure_too(client: Client) -> None:
    body = client.get("/?example=rollout-surge-vs-unavailable&tlw=300").content.decode()
    rollout = body[body.index('class="panel tl-panel rollout"'):]
    assert 'data-fit="296"' in rollout and "tl-stacked" in rollout


@pytest.mark.django_db
def test_a_permalink_page_is_cached_for_each_measure(client: Client) -> None:
    from explainer.web.models import Permalink
    link, _token = Permalink.store(load_manifest("seeds/lifecycle-demo"), None, "1.34")
    phone = client.get(f"/p/{link.id}/?tlw=320").content.decode()
    laptop = client.get(f"/p/{link.id}/?tlw=1100").content.decode()
    default = client.get(f"/p/{link.id}/").content.decode()
    assert 'data-fit="320"' in phone and 'data-fit="1096"' in laptop and f'data-fit="{DEFAULT_PANEL_PX}"' in default
    embed = client.get(f"/embed/{link.id}/?tlw=700").content.decode()
    assert 'data-fit="696"' in embed and 'id="result"' in embed

"""base.py: a RuleContext's QoS is the Pod's; the quick no-match checks of scripts.py miss nothing."""
from __future__ import annotations

import re
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from explainer.findings import RuleContext
from explainer.findings.helpers import OUTBOUND
from explainer.findings.scripts import _MENTION, _PATH, PROXY_NAME, may_name_proxy
from explainer.lifecycle.qos import compute_qos
from tests.profiles import examples

from .conftest import context_for_fixture

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "findings"


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet="ab/.-_ \"'();|&<>`\n1", max_size=40))
def test_mentioned_path_pattern_is_the_lookbehind_first_one(text: str) -> None:
    assert _MENTION.findall(text) == re.findall(r"(?<![\w/.-])" + _PATH, text)


def test_pod_qos_is_the_pipelines_or_computed() -> None:
    ctx = context_for_fixture((FIXTURES / "missing-resources" / "fires.yaml").read_text(encoding="utf-8"))
    computed = compute_qos(ctx.pod, ctx.version, ctx.gates)
    assert ctx.qos is None and ctx.pod_qos() == computed
    given_qos = RuleContext(ctx.pod, ctx.version, ctx.gates, qos=computed)
    assert given_qos.pod_qos() is computed


def test_what_ignorecase_matches_to_proxy_or_envoy_lower_cases_to_it() -> None:
    """scripts.may_name_proxy looks for "proxy"/"envoy" in the lower-cased word before the IGNORECASE
    patterns run: every character those patterns match to one of the letters must lower-case to it."""
    cased = [chr(cp) for cp in range(sys.maxunicode + 1)
             if chr(cp).lower() != chr(cp) or chr(cp).upper() != chr(cp) or chr(cp).casefold() != chr(cp)]
    for letter in set("proxyenvoy"):
        pattern = re.compile(letter, re.I)
        assert all(letter in ch.lower() for ch in cased if pattern.fullmatch(ch)), letter


@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(st.text(max_size=20), st.sampled_from(["istio-proxy", "proxyv2", "linkerd-proxy", "envoy",
                                                         "cloud_sql_proxy", "gce-proxy", "PROXY", "my-Proxy:1"])))
def test_may_name_proxy_is_true_wherever_a_proxy_pattern_matches(word: str) -> None:
    if PROXY_NAME.search(word) or any(p.search(word) for _k, p in OUTBOUND):
        assert may_name_proxy(word)

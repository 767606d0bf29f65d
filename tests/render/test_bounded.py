"""Answers of bounded size: cut where they must be, and saying where (issue 11)."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from explainer.explain import explain
from explainer.render.bounded import _CHUNK, CUTTABLE, _pods, _total_size, answer_size, bound_answer
from explainer.render.jsonable import explanation_to_dict
from tests.profiles import examples


def _long() -> dict:
    cs = "".join(f"  - {{name: c{i}, image: busybox}}\n" for i in range(8))
    manifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: crash}\nspec:\n  containers:\n" + cs
    scenario = {"until": 86400, "containers": {f"c{i}": {"runSeconds": 1, "exitCode": 1} for i in range(8)}}
    return explanation_to_dict(explain(manifest, scenario, "1.34"))


def test_a_small_answer_is_left_alone() -> None:
    data = explanation_to_dict(explain("kind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: a, image: b}]}\n"))
    assert bound_answer(json.loads(json.dumps(data)), 10_000) == data


def test_a_long_answer_is_cut_under_the_limit_and_says_where() -> None:
    data = _long()
    counts, phase, n = dict(data["pods"][0]["restartCounts"]), data["pods"][0]["finalPhase"], \
        len(data["pods"][0]["statusTimeline"])
    assert answer_size(data) > 300_000
    cut = bound_answer(data, 300_000)
    assert answer_size(cut) <= 300_000
    record = cut["answerTruncated"]
    assert record["limit"] == 300_000 and record["cuts"]
    first = record["cuts"][0]
    assert first["path"] == "pods[0].statusTimeline" and first["of"] == n and 0 < first["kept"] < n
    assert cut["pods"][0]["statusTimeline"][-1]["t"] == first["lastKeptT"]
    assert cut["pods"][0]["restartCounts"] == counts and cut["pods"][0]["finalPhase"] == phase


def test_the_limit_holds_for_an_indented_answer_too() -> None:
    cut = bound_answer(_long(), 250_000, indent=2)
    assert answer_size(cut, 2) <= 250_000 and cut["answerTruncated"]["cuts"]


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["t", "message", "type"]),
                                st.one_of(st.floats(allow_nan=False), st.text(), st.none(), st.integers())),
                max_size=5000),
       st.integers(0, 3))
def test_a_long_list_measured_in_chunks_is_measured_exactly(items: list, trim: int) -> None:
    """The size of an answer with long lists, measured a chunk at a time (so no single json.dumps
    holds the interpreter lock for long), is the size of the whole answer written at once."""
    data = {"pods": [{"name": "p", "events": items * 3, "statusTimeline": items[trim:], "restartCounts": {"a": 1}}]}
    lists = [[0, path, pod, key] for path, pod in _pods(data) for key in CUTTABLE if pod.get(key)]
    assert _total_size(data, lists, None) == answer_size(data)
    assert data["pods"][0]["events"] == items * 3   # the lists are put back


def test_a_day_of_crash_loops_is_measured_exactly_before_it_is_cut() -> None:
    data = _long()
    lists = [[0, path, pod, key] for path, pod in _pods(data) for key in CUTTABLE if pod.get(key)]
    assert max(len(pod[key]) for _e, _p, pod, key in lists) > _CHUNK
    assert _total_size(data, lists, None) == answer_size(data)


# ---- every list, not only events and the status timeline (issue 27) -------------------------------------
def test_findings_of_one_rule_fold_past_fifty() -> None:
    from explainer.render.bounded import fold_findings
    pod = {"findings": [{"id": "volume-not-mounted", "n": i} for i in range(120)] + [{"id": "other"}]}
    fold_findings(pod)
    assert len(pod["findings"]) == 51 and pod["findings"][-1] == {"id": "other"}
    assert pod["findingsFolded"] == [{"id": "volume-not-mounted", "kept": 50, "of": 120}]


def test_an_answer_whose_other_lists_are_large_is_cut_to_its_limit_and_says_where() -> None:
    from explainer.render.bounded import answer_size, bound_answer
    data = {"comparison": {"pods": [{"sharing": [{"text": "x" * 200, "i": i} for i in range(5_000)],
                                     "starts": [{"container": f"c{i}"} for i in range(300)]}]},
            "pods": [{"events": [{"t": i} for i in range(10)], "restartCounts": {"a": 3}}]}
    out = bound_answer(data, 100_000)
    assert answer_size(out) <= 100_000
    paths = {c["path"] for c in out["answerTruncated"]["cuts"]}
    assert "comparison.pods[0].sharing" in paths and out["pods"][0]["restartCounts"] == {"a": 3}

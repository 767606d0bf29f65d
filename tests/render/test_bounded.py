"""Answers of bounded size: cut where they must be, and saying where (issue 11)."""
from __future__ import annotations

import json

from explainer.explain import explain
from explainer.render.bounded import answer_size, bound_answer
from explainer.render.jsonable import explanation_to_dict


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

"""The pipeline's memory of the manifests it read (explain.py `_parsed`): a what-if change explains the same text
under another scenario without reading it again, and answers exactly as a first reading would."""
from __future__ import annotations

import json

import pytest

from explainer import explain as pipeline
from explainer.examples import EXAMPLES
from explainer.render.jsonable import explanation_to_dict

SCENARIOS = [None, {"deleteAt": 12}, {"containers": {"app": {"crashes": 2}}}, {"until": 40, "deleteAt": 5}]


def _answer(manifest: str, scenario: object) -> str:
    return json.dumps(explanation_to_dict(pipeline.explain(manifest, scenario, "1.34")), sort_keys=True)


@pytest.mark.parametrize("example", EXAMPLES[:6], ids=lambda e: e.slug)
def test_a_manifest_read_again_answers_as_the_first_reading(example, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = example.manifest()
    remembered = [_answer(manifest, s) for s in SCENARIOS + SCENARIOS]   # the second round reads no text
    monkeypatch.setattr(pipeline, "PARSED_MAX_CHARS", 0)                 # every reading a first one
    fresh = [_answer(manifest, s) for s in SCENARIOS + SCENARIOS]
    assert remembered == fresh


def test_the_memory_is_bounded_and_read_again_only_for_the_same_text(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    real = pipeline.parse_manifest
    monkeypatch.setattr(pipeline, "parse_manifest", lambda text, limits: reads.append(text) or real(text, limits))
    monkeypatch.setattr(pipeline, "_parsed_memo", type(pipeline._parsed_memo)())
    texts = [f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\nspec:\n  containers: [{{name: a, image: x}}]\n"
             for i in range(pipeline.PARSED_KEPT + 3)]
    for text in texts + texts[-pipeline.PARSED_KEPT:]:
        pipeline.explain(text, None, "1.34")
    assert reads == texts                                   # the last PARSED_KEPT were remembered
    assert len(pipeline._parsed_memo) == pipeline.PARSED_KEPT
    pipeline.explain(texts[0], None, "1.34")                # forgotten: read again
    assert reads[-1] == texts[0]
    big = texts[0] + "#" * pipeline.PARSED_MAX_CHARS
    pipeline.explain(big, None, "1.34")
    pipeline.explain(big, None, "1.34")
    assert reads[-2:] == [big, big]                         # past the size bound: never kept

"""Linear patching (issue 27): only what a patch reaches goes through ruamel.yaml and the line merge; every
other block stands aside as a one-line placeholder and comes back as it was written (re-indented with a
moved container).  `POST /fix/` and `podlife --fix` share it.  How fast is `make bench`'s; here: how much
of a large document the slow parts are given, and that the result is the same text."""
from __future__ import annotations

import difflib

import pytest
import yaml
from ruamel.yaml import YAML

from explainer import patching
from explainer.explain import explain
from explainer.findings.patch import MoveItem, SetKey
from explainer.fixes import Target, fix_one
from explainer.patching_prune import PruneError, prune, restore
from explainer.lifecycle.manifest.yamlload import Limits

LIMITS = Limits(max_bytes=1 << 30)


def big_pod(n: int = 4000) -> str:
    """A Pod of ~320 KB (n = 4000): an app with a long env, then the finding: a grace period of 0."""
    env = "".join(f"        - name: VAR_{i}\n          value: \"value number {i} of the environment\"\n"
                  for i in range(n))
    return ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\nspec:\n  terminationGracePeriodSeconds: 0\n"
            "  containers:\n    - name: app\n      image: example/app:1\n      env:\n" + env +
            "      livenessProbe:\n        exec:\n          command: [sh, -c, \"test -f /tmp/ok\"]\n"
            "    - name: proxy\n      image: envoyproxy/envoy:v1.30\n      env:\n" + env.replace("VAR_", "P_") +
            "      script: |\n" + "".join(f"        line {i}\n" for i in range(50)))


@pytest.fixture
def spies(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """The largest text ruamel is asked to read, and the most lines difflib is asked to compare."""
    seen = {"ruamel": 0, "difflib": 0}
    real_load, real_matcher = YAML.load, difflib.SequenceMatcher

    def load(self, stream):
        seen["ruamel"] = max(seen["ruamel"], len(stream))
        return real_load(self, stream)

    def matcher(isjunk=None, a="", b="", autojunk=True):
        seen["difflib"] = max(seen["difflib"], len(a), len(b))
        return real_matcher(isjunk, a, b, autojunk)

    monkeypatch.setattr(YAML, "load", load)
    monkeypatch.setattr(patching.difflib, "SequenceMatcher", matcher)
    return seen


def test_a_fix_in_a_large_pod_reads_and_merges_only_what_it_touches(spies: dict[str, int]) -> None:
    text = big_pod()
    assert len(text) > 300_000
    (f,) = [f for r in explain(text).pods for f in r.findings if f.fixable and f.id == "termination-grace-zero"]
    fixed, _finding = fix_one(text, Target.of(f))
    assert fixed is not None and "terminationGracePeriodSeconds" not in fixed
    assert spies["ruamel"] < 2_000, f"ruamel read {spies['ruamel']:,} characters of a {len(text):,}-character text"
    assert spies["difflib"] < 200, f"difflib compared {spies['difflib']:,} lines"
    assert fixed == text.replace("  terminationGracePeriodSeconds: 0\n", "")   # every other line as written


def test_a_moved_container_takes_its_lines_along_re_indented() -> None:
    text = big_pod(50).replace("  containers:\n", "  initContainers:\n  - name: init\n    image: busybox\n"
                               "  containers:\n", 1)
    move = (MoveItem(("spec", "containers", 1), ("spec", "initContainers"), "containers",
                     (("restartPolicy", "Always"),)),)
    pruned, kept = prune(text, move, LIMITS)
    assert "P_3" not in pruned and "line 7" not in pruned and len(pruned) < len(text) // 5
    out = patching.apply_patch(text, 0, move)
    data = yaml.safe_load(out)
    proxy = data["spec"]["initContainers"][1]
    assert proxy["name"] == "proxy" and proxy["restartPolicy"] == "Always"
    assert proxy["env"][49] == {"name": "P_49", "value": "value number 49 of the environment"}
    assert proxy["script"].splitlines()[49] == "line 49"
    assert [c["name"] for c in data["spec"]["containers"]] == ["app"]


def test_what_the_edits_reach_is_kept_whole() -> None:
    text = big_pod(20)
    edit = (SetKey(("spec", "containers", 0, "livenessProbe", "timeoutSeconds"), 5),)
    pruned, kept = prune(text, edit, LIMITS)
    assert "livenessProbe:\n        exec:" in pruned and "VAR_3" not in pruned and kept
    assert restore(pruned, kept) == text


def test_a_placeholder_that_was_copied_is_refused() -> None:
    text = big_pod(20)
    pruned, kept = prune(text, (SetKey(("spec", "x"), 1),), LIMITS)
    token = next(line for line in pruned.split("\n") if "__podlife_kept_" in line)
    with pytest.raises(PruneError):
        restore(pruned + "\n" + token, kept)

"""Every answer before and after a change that must not change any (issue 24's relayout), compared byte for byte.

    .venv/bin/python tools/same_answers.py dump DIR     # at the root of a tree: its answers into DIR
    .venv/bin/python tools/same_answers.py diff A B     # the two dumps: nothing printed, exit 0, when equal

Inputs: every gallery example (with its scenario) and every ``tests/fixtures/**/*.yaml`` (as a manifest,
no scenario), each at three Kubernetes versions (the oldest, the middle and the newest supported).
For each: the JSON contract (``explanation_to_dict``), the text of ``podlife explain``, and per Pod the
timeline SVG, the sharing diagram's DOT and, for a workload, the rollout SVG.  One file per input and
version.  The tree whose answers are dumped is the one this file sits in (its root goes first on
``sys.path``, ahead of any installed copy), so the same file serves the layout before and after the moves.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _first(*candidates: str) -> Callable[..., Any]:
    """``module:function`` from the first candidate that exists: the old layout or the new one."""
    for candidate in candidates:
        module, _, name = candidate.partition(":")
        try:
            return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]
        except ModuleNotFoundError:
            continue
    raise SystemExit(f"same_answers: none of {candidates} can be imported")


def inputs() -> list[tuple[str, str, str | None]]:
    """(name, manifest, scenario) for every gallery example and every fixture."""
    from explainer.examples import EXAMPLES
    out: list[tuple[str, str, str | None]] = [
        (f"examples/{e.slug}", e.manifest(), e.scenario or None) for e in EXAMPLES]
    fixtures = ROOT / "tests" / "fixtures"
    for path in sorted(fixtures.rglob("*.yaml")):
        out.append((f"fixtures/{path.relative_to(fixtures).with_suffix('')}",
                    path.read_text(encoding="utf-8", errors="replace"), None))
    return out


def versions() -> tuple[str, ...]:
    from explainer.lifecycle.defaults import SUPPORTED_VERSIONS
    return (SUPPORTED_VERSIONS[0], SUPPORTED_VERSIONS[len(SUPPORTED_VERSIONS) // 2], SUPPORTED_VERSIONS[-1])


def answers(manifest: str, scenario: str | None, version: str) -> str:
    import explainer
    if not Path(explainer.__file__).resolve().is_relative_to(ROOT):
        raise SystemExit(f"same_answers: imported {explainer.__file__}, not the tree at {ROOT}")
    from explainer.explain import explain
    from explainer.render.jsonable import explanation_to_dict
    from explainer.render.text import explanation_as_text
    timeline_svg = _first("explainer.render.timeline:render_timeline_svg")
    sharing_dot = _first("explainer.render.graphviz.diagram:sharing_diagram", "explainer.render.diagram:sharing_diagram")
    rollout_svg = _first("explainer.render.rollout.svg:render_rollout_svg",
                         "explainer.render.rollout_svg:render_rollout_svg")
    expl = explain(manifest, scenario, version)
    parts = ["== json", json.dumps(explanation_to_dict(expl), indent=1, sort_keys=True, ensure_ascii=False),
             "== text", explanation_as_text(expl)]
    for i, report in enumerate(expl.pods):
        parts += [f"== pod {i} timeline.svg", timeline_svg(report)]
        if report.pod is not None and report.sharing is not None:
            parts += [f"== pod {i} sharing.dot", sharing_dot(report)]
        if getattr(report, "rollout", None) is not None:
            parts += [f"== pod {i} rollout.svg", rollout_svg(report.rollout, report.pod.name)]
    return "\n".join(parts) + "\n"


def dump(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    started, count = time.monotonic(), 0
    for name, manifest, scenario in inputs():
        for version in versions():
            try:
                text = answers(manifest, scenario, version)
            except Exception as exc:     # an answer that raises is an answer too: the same one, or not
                text = f"== raised\n{type(exc).__name__}: {exc}\n"
            target = out / f"{name}@{version}.txt"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            count += 1
    digest = hashlib.sha256()
    for path in sorted(out.rglob("*.txt")):
        digest.update(path.relative_to(out).as_posix().encode() + b"\0" + path.read_bytes())
    print(f"same_answers: {count} answers of {ROOT} in {out} ({time.monotonic() - started:.0f} s), "
          f"sha256 {digest.hexdigest()[:16]}")
    return 0


def diff(a: Path, b: Path) -> int:
    left = {p.relative_to(a).as_posix(): p for p in a.rglob("*.txt")}
    right = {p.relative_to(b).as_posix(): p for p in b.rglob("*.txt")}
    bad = [f"only in {a}: {n}" for n in sorted(set(left) - set(right))]
    bad += [f"only in {b}: {n}" for n in sorted(set(right) - set(left))]
    bad += [f"differs: {n}" for n in sorted(set(left) & set(right)) if left[n].read_bytes() != right[n].read_bytes()]
    if not left:
        bad.append(f"{a} holds no answers")
    for line in bad:
        print(line)
    if not bad:
        print(f"same_answers: {len(left)} answers, byte-identical")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("dump").add_argument("dir", type=Path)
    d = sub.add_parser("diff")
    d.add_argument("a", type=Path)
    d.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    return dump(args.dir) if args.command == "dump" else diff(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())

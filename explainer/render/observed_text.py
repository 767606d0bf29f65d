"""The command line's account of what the cluster shows (docs/lifecycle-model.md §34-§36): kubectl's
columns, the terminations and differences from the prediction, each explained, and the scenario that
makes the prediction match (JSON, which `--scenario` reads as YAML)."""
from __future__ import annotations

import json

from ..lifecycle.observed import ObservedReport
from .style import TextStyle


def _t(t: float | None) -> str:
    return "?" if t is None else f"{t:g}s"


def observed_as_text(o: ObservedReport, style: TextStyle) -> list[str]:
    where = ", ".join(f"{s.kind} (lines {s.lines[0]}-{s.lines[1]})" for s in o.sources) or "nothing about this Pod"
    lines = ["", "What the cluster shows:"]
    lines.extend(style.wrap(f"read from {where}", "  ", "    "))
    if o.columns is not None:
        lines.append(f"  READY {o.columns.ready}  STATUS {o.columns.status}  RESTARTS {o.columns.restarts}")
    if o.restart_counts:
        lines.extend(style.wrap("restarts: " + ", ".join(f"{k} {v}" for k, v in o.restart_counts.items()),
                                "  ", "    "))
    for e in (o.view.ended if o.view else []):
        how = e.reason or (f"signal {e.signal}" if e.signal else "")
        lines.extend(style.wrap(f"{e.container or '?'} ended {how} (exit code {e.exit_code if e.exit_code is not None else '?'}),"
                                f" ran {_t(e.start)} to {_t(e.end)}", "  - ", "    "))
    if o.divergences:
        lines.append("  Differences from the prediction:")
        for d in o.divergences:
            who = f"{d.container}, " if d.container else ""
            head = f"[{_t(d.t):>7}] {who}{d.kind}: "
            lines.extend(style.wrap(head + str(d.explanation), "  - ", "      "))
    else:
        lines.append("  No difference from the prediction.")
    if any(d.reproducible for d in o.divergences):
        lines.append("  To make the prediction match, explain again with this scenario (--scenario FILE):")
        lines.extend("    " + line for line in json.dumps(o.scenario, indent=2, ensure_ascii=False).splitlines())
    if o.unread:
        lines.append("  Lines that could not be read:")
        for u in o.unread[:20]:
            lines.extend(style.wrap(f"line {u.line}: {u.text}", "    ", "      "))
        more = len(o.unread) - 20 + o.unread_more
        if more > 0:
            lines.append(f"    ... and {more} more")
    return lines

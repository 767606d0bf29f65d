"""Lifecycle pitfalls: run every registered rule over one Pod, and describe the rules."""
from __future__ import annotations

from string import Template
from typing import Any

from .base import Finding, RuleContext, Severity, references
from .registry import BY_ID, RULES

__all__ = ["BY_ID", "RULES", "Finding", "RuleContext", "Severity", "catalogue", "run_rules"]

# Placeholder values for a rule's FIX when it is shown in the catalogue, outside any Pod.
EXAMPLE_VALUES = {"name": "my-container", "image": "example/image:1.0", "port": "8080", "grace": "60",
                  "path": "/shared", "volume": "shared", "other": "app",
                  "version": "1.27", "file": "/shared/token", "target": "app", "program": "app"}


def run_rules(ctx: RuleContext) -> list[Finding]:
    """Every finding of every rule for one Pod: errors first, then by line."""
    found = [f for rule in RULES for f in rule.check(ctx)]
    return sorted(found, key=Finding.sort_key)


def catalogue() -> list[dict[str, Any]]:
    """The rule catalogue (``explain --list-rules``, the rules page), from the rule modules."""
    return [_entry(rule) for rule in RULES]


def _entry(rule: Any) -> dict[str, Any]:
    paragraphs = [p.strip() for p in (rule.__doc__ or "").strip().split("\n\n") if p.strip()]
    what = " ".join(paragraphs[0].split()) if paragraphs else ""
    why, fix, when = [], "", {"Fires when:": "", "Quiet when:": ""}
    for p in paragraphs[1:]:
        flat = " ".join(p.split())
        if flat.startswith("Fix:"):
            fix = flat.removeprefix("Fix:").strip()
            fix = fix[:1].upper() + fix[1:]
        elif flat.startswith(tuple(when)):
            key = ""
            for line in p.splitlines():
                line = line.strip()
                key = next((k for k in when if line.startswith(k)), key)
                when[key] = (when[key] + " " + line.removeprefix(key).strip()).strip()
        else:
            why.append(flat)
    example = Template(rule.FIX).safe_substitute({**EXAMPLE_VALUES, **getattr(rule, "EXAMPLE", {})})
    return {"id": rule.ID, "severity": rule.SEVERITY.value, "title": rule.TITLE, "what": what,
            "why": "\n\n".join(why), "fix": fix, "example": example.strip("\n") + "\n",
            "fires_when": when["Fires when:"], "quiet_when": when["Quiet when:"], "references": list(references(rule))}

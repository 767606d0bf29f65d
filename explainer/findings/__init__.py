"""Lifecycle pitfalls: run every registered rule over one Pod, and describe the rules."""
from __future__ import annotations

from string import Template
from typing import Any, Callable

from .base import Draft, Finding, RuleContext, Severity
from .i18n import Text, gettext_noop
from .inputs import InputContext, InputFinding, is_input_rule
from .registry import BY_ID, RULES, complete, references

__all__ = ["BY_ID", "RULES", "Draft", "Finding", "InputContext", "InputFinding", "RuleContext", "Severity", "Text",
           "POD_RULES", "INPUT_RULES", "catalogue", "gettext_noop", "run_input_rules", "run_rules"]

# Placeholder values for a rule's FIX when it is shown in the catalogue, outside any Pod.
EXAMPLE_VALUES = {"name": "my-container", "image": "example/image:1.0", "port": "8080", "grace": "60",
                  "path": "/shared", "volume": "shared", "other": "app",
                  "version": "1.27", "file": "/shared/token", "target": "app", "program": "app"}


def run_rules(ctx: RuleContext, disabled: frozenset[str] = frozenset()) -> list[Finding]:
    """Every finding of every rule for one Pod, but the ``disabled`` rules: errors first, then by line.

    The rules share what they read of each container through ``ctx`` (`RuleContext.facts`, facts.py)."""
    found = [complete(draft) for rule in POD_RULES if rule.ID not in disabled for draft in rule.check(ctx)]
    return sorted(found, key=Finding.sort_key)


def run_input_rules(ctx: InputContext, disabled: frozenset[str] = frozenset()) -> list[InputFinding]:
    """Every finding of the rules about the input's other objects (inputs.py), once per input."""
    found = [InputFinding(complete(d.draft), d.kind, d.name, d.document)
             for rule in INPUT_RULES if rule.ID not in disabled for d in rule.check(ctx)]
    return sorted(found, key=InputFinding.sort_key)


POD_RULES = tuple(rule for rule in RULES if not is_input_rule(rule))
INPUT_RULES = tuple(rule for rule in RULES if is_input_rule(rule))


def catalogue(gettext: Callable[[str], str] = gettext_noop) -> list[dict[str, Any]]:
    """The rule catalogue (``explain --list-rules``, the rules page), from the rule modules.

    Its prose comes from each rule's WHAT, WHY, FIX_TEXT, FIRES_WHEN and QUIET_WHEN (the
    paragraphs of its docstring, marked for translation), through ``gettext``.
    """
    return [_entry(rule, gettext) for rule in RULES]


def _entry(rule: Any, gettext: Callable[[str], str]) -> dict[str, Any]:
    example = Template(rule.FIX).safe_substitute({**EXAMPLE_VALUES, **getattr(rule, "EXAMPLE", {})})
    return {"id": rule.ID, "severity": rule.SEVERITY.value, "title": gettext(rule.TITLE),
            "what": gettext(rule.WHAT), "why": gettext(rule.WHY), "fix": gettext(rule.FIX_TEXT),
            "example": example.strip("\n") + "\n", "fires_when": gettext(rule.FIRES_WHEN),
            "quiet_when": gettext(rule.QUIET_WHEN), "references": list(references(rule)),
            "scope": "input" if is_input_rule(rule) else "pod"}

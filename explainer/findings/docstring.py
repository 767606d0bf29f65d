"""A rule module's docstring from its catalogue text, and back.

The catalogue text of a rule (WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN: the words of
`explain --list-rules`, the rules page and SARIF, marked for translation) is also what its module
docstring says.  `rule_docstring` writes that docstring from the text, so a rule can say
``__doc__ = rule_docstring(WHAT, WHY, FIX_TEXT, FIRES_WHEN, QUIET_WHEN)`` instead of repeating it;
`docstring_text` reads a docstring back into the five parts (`tests/findings/test_registry.py`
checks that both agree for every rule).
"""
from __future__ import annotations

import textwrap
from types import ModuleType

WIDTH = 96
PARTS = {"what": "WHAT", "why": "WHY", "fix": "FIX_TEXT", "fires_when": "FIRES_WHEN", "quiet_when": "QUIET_WHEN"}


def _wrap(text: str, first: str = "") -> str:
    return textwrap.fill(text, WIDTH, initial_indent=first, subsequent_indent="", break_long_words=False,
                         break_on_hyphens=False)


def rule_docstring(what: str, why: str, fix: str, fires_when: str, quiet_when: str) -> str:
    """The docstring: what (one paragraph), why (one or more), ``Fix:``, ``Fires when:`` and
    ``Quiet when:``, wrapped at 96 columns."""
    paragraphs = [_wrap(what)] + [_wrap(p) for p in why.split("\n\n") if p.strip()]
    paragraphs.append(_wrap(fix, "Fix: "))
    paragraphs.append(_wrap(fires_when, "Fires when: ") + "\n" + _wrap(quiet_when, "Quiet when: "))
    return "\n\n".join(paragraphs) + "\n"


def docstring_of(rule: ModuleType) -> str:
    """The docstring `rule_docstring` writes from ``rule``'s catalogue text."""
    return rule_docstring(*(getattr(rule, name) for name in PARTS.values()))


def docstring_text(doc: str) -> dict[str, str]:
    """What, why, fix, fires-when and quiet-when as a docstring words them, each on one line
    (paragraphs of why apart by a blank line); the first letter of the fix made a capital."""
    paragraphs = [p.strip() for p in doc.strip().split("\n\n") if p.strip()]
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
    return {"what": what, "why": "\n\n".join(why), "fix": fix,
            "fires_when": when["Fires when:"], "quiet_when": when["Quiet when:"]}

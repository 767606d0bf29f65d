"""A Markdown summary of an explanation, to paste into a review thread.

Every value that comes from the input (Pod and container names, messages, fixes) is escaped
for where it goes: backslash escapes in text, headings and table cells, code spans and fences
longer than any backtick run inside, and link targets percent-encoded.  A CommonMark renderer
turns the export into no HTML element that the input wrote.  The explainer's own sentences keep
their `code` spans as code (`inline`): only a message's own backticks open one.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Sequence
from urllib.parse import quote

from ..explain import Explanation, PodReport
from ..lifecycle.i18n import Phrase
from .headline import headline
from .i18n import Text, gettext_noop as _
from .inline import spans
from .observed_pieces import KIND_LABELS
from .rollout.story import story as rollout_story, summary as rollout_summary
from .story import story

Gettext = Callable[[str], str]

# Texts used inside f-strings, named here so that `makemessages` can find them.
TITLE = _("Pod lifecycle: {names}")
SEVERITY = _("Severity")
FINDING = _("Finding")
CONTAINER = _("Container")
LINE = _("Line")
TIMELINE = _("Timeline")
WRITE_INSTEAD = _("Write instead:")
PITFALLS = _("Pitfalls:")
MORE_FINDINGS = _("… and {n} more findings of {rule}, not listed.")
MORE_STEPS = _("… and {n} more steps, not listed (the JSON export has the events).")
CUT = _("… the rest is left out: this summary is limited to {limit} bytes.")
# What one export lists (issue 27): as the page does (web/present.py), so its size is bounded.
MAX_FINDINGS_PER_RULE = 50
MAX_STEPS = 2000

# The characters that can start markup inside a line (emphasis, code, links, images, raw HTML,
# entities, table cells, strike-through, heading closers); CommonMark lets a backslash escape
# any of them.  Every value is put after a prefix, so line-start markers ("1.", "-") stay text.
_MARKUP = re.compile(r"([\\`*_\[\]<>&!|~#])")


def _t(msgid: str, gettext: Gettext, **params: object) -> str:
    return Text(msgid, dict(params)).render(gettext)


def text(value: object) -> str:
    """Inline text: every punctuation character escaped, on one line (safe in headings and cells)."""
    one_line = " ".join(str(value).split())
    return _MARKUP.sub(r"\\\1", one_line)


def code(value: object) -> str:
    """A code span that holds ``value`` literally, whatever backticks it contains.

    Not for table cells: GFM splits cells at ``|`` even inside code spans.
    """
    one_line = " ".join(str(value).split()) or " "
    run = max((len(m) for m in re.findall(r"`+", one_line)), default=0)
    fence = "`" * (run + 1)
    pad = " " if one_line.startswith("`") or one_line.endswith("`") or one_line.startswith(" ") else ""
    return f"{fence}{pad}{one_line}{pad}{fence}"


def fenced(body: str, info: str = "") -> list[str]:
    """A fenced code block longer than any backtick run in ``body``."""
    run = max((len(m) for m in re.findall(r"`{3,}", body)), default=0)
    fence = "`" * max(3, run + 1)
    return [fence + info, *body.rstrip("\n").split("\n"), fence]


def inline(value: Text | Phrase | str | None, gettext: Gettext = lambda s: s) -> str:
    """A sentence of the explainer's own, its `code` spans as code spans and the rest as escaped text: only
    the message's own backticks make code (render/inline.py), never a value from the input."""
    return "".join(code(part) if is_code else _MARKUP.sub(r"\\\1", re.sub(r"\s+", " ", part))
                   for is_code, part in spans(value, gettext))


def link(label: str, url: str) -> str:
    """A link whose target cannot end early or carry markup: reserved characters percent-encoded."""
    return f"[{text(label)}]({quote(url, safe=':/?=&#%~+,;@!$*')})"


def explanation_as_markdown(expl: Explanation, url: str, *, gettext: Gettext = lambda s: s,
                            scenario_yaml: str = "", timeline_urls: Sequence[str] = (),
                            max_bytes: int | None = None) -> str:
    """The whole story, the findings with their fixes and a linked timeline image per Pod: at most
    MAX_FINDINGS_PER_RULE findings of one rule and MAX_STEPS steps per Pod, and at most ``max_bytes``
    in all (cut at a line, with a line saying so)."""
    text_ = _markdown(expl, url, gettext, scenario_yaml, timeline_urls)
    if max_bytes is None or len(text_.encode("utf-8")) <= max_bytes:
        return text_
    note = "\n" + text(_t(CUT, gettext, limit=f"{max_bytes:,}")) + "\n"
    cut = text_.encode("utf-8")[:max_bytes - len(note.encode("utf-8")) - 4].decode("utf-8", "ignore")
    return cut[:cut.rfind("\n") + 1] + note


def _markdown(expl: Explanation, url: str, gettext: Gettext, scenario_yaml: str,
              timeline_urls: Sequence[str]) -> str:
    names = ", ".join(r.pod.name for r in expl.pods) or "—"
    out = [f"### {text(_t(TITLE, gettext, names=names))}",
           "", f"{link(url, url)} · Kubernetes {text(expl.version)}", ""]
    if scenario_yaml:
        out += [text(_t(_("Scenario:"), gettext)), "", *fenced(scenario_yaml, "yaml"), ""]
    for e in expl.errors:
        where = f"line {e.line}: " if e.line else ""
        out.append(f"- ⛔ {where}{text(e.message)}")
    for i, r in enumerate(expl.pods):
        picture = timeline_urls[i] if i < len(timeline_urls) else ""
        out += _pod(r, gettext, picture)
    return "\n".join(out).rstrip() + "\n"


def _pod(r: PodReport, gettext: Gettext, picture: str) -> list[str]:
    out = ["", f"#### {text(r.pod.source.kind)} {code(r.pod.name)}", ""]
    sim = r.simulation
    said = headline(r)
    if said is not None:       # what ended the run, in teaching terms, before its STATUS and phase
        out += [inline(said, gettext), ""]
    if sim is not None:
        last = sim.timeline[-1]
        out += [_t(_("Ends as **{status}** (phase {phase}, READY {ready}) at {t} s."), gettext,
                   status=text(last.status), phase=text(last.phase), ready=text(last.ready_count),
                   t=f"{sim.end_time:g}"), ""]
        if picture:
            label = text(_t(TIMELINE, gettext))
            target = quote(picture, safe=":/?=&#%~+,;@!$*")
            out += [f"[![{label}]({target})]({target})", ""]
    out += _findings(r, gettext)
    if sim is not None:
        out.append(text(_t(_("What happens:"), gettext)))
        steps = story(r.pod, sim, r.traffic)
        for n, step in enumerate(steps[:MAX_STEPS], 1):
            out.append(f"{n}. {code(f'{step.t:g} s')} {inline(step.text, gettext)}")
        if len(steps) > MAX_STEPS:
            out.append(text(_t(MORE_STEPS, gettext, n=f"{len(steps) - MAX_STEPS:,}")))
    if r.rollout is not None:
        out += _rollout(r, gettext)
    if r.observed is not None:
        out += _observed(r, gettext)
    return out


def _observed(r: PodReport, gettext: Gettext) -> list[str]:
    """What the cluster shows (issue 23): kubectl's columns, each difference from the prediction explained,
    and the scenario that makes the prediction match (JSON, which `--scenario` reads as YAML)."""
    o = r.observed
    assert o is not None
    out = ["", f"**{text(_t(_('What the cluster shows'), gettext))}**", ""]
    if o.columns is not None:
        out += [f"READY {code(o.columns.ready)} · STATUS {code(o.columns.status)} · RESTARTS {code(o.columns.restarts)}",
                ""]
    if not o.divergences:
        return out + [text(_t(_("No difference from the prediction."), gettext))]
    for n, d in enumerate(o.divergences, 1):
        when = f"{code(f'{d.t:g} s')} " if d.t is not None else ""
        who = f"{code(d.container)} " if d.container else ""
        can = _("the scenario can reproduce it") if d.reproducible else _("the scenario cannot reproduce it")
        out.append(f"{n}. {when}{who}**{text(_t(KIND_LABELS.get(d.kind, d.kind), gettext))}** "
                   f"({text(_t(can, gettext))}): {text(d.explanation.render(gettext))}")
    if any(d.reproducible for d in o.divergences):
        out += ["", text(_t(_("The scenario that makes the prediction match:"), gettext)), "",
                *fenced(json.dumps(o.scenario, indent=2, ensure_ascii=False), "json")]
    return out


def _rollout(r: PodReport, gettext: Gettext) -> list[str]:
    """The workload's rollout (issue 22): its numbers, then the controller's steps."""
    ro = r.rollout
    assert ro is not None
    out = ["", f"**{text(_t(_('Rollout'), gettext))}** · "
           + " · ".join(f"{text(k)} {text(v)}" for k, v in rollout_summary(ro, gettext)), ""]
    for n, (t, said, _pod) in enumerate(rollout_story(ro), 1):
        out.append(f"{n}. {code(f'{t:g} s')} {text(said.render(gettext))}")
    return out


def per_rule(findings: Sequence[Any]) -> tuple[list[Any], dict[str, int]]:
    """The first MAX_FINDINGS_PER_RULE findings of each rule, and how many each rule had past them."""
    seen: dict[str, int] = {}
    kept = []
    for f in findings:
        seen[f.id] = seen.get(f.id, 0) + 1
        if seen[f.id] <= MAX_FINDINGS_PER_RULE:
            kept.append(f)
    return kept, {rule: n - MAX_FINDINGS_PER_RULE for rule, n in seen.items() if n > MAX_FINDINGS_PER_RULE}


def _findings(r: PodReport, gettext: Gettext) -> list[str]:
    if not r.findings:
        return [text(_t(_("No pitfalls found."), gettext)), ""]
    findings, more = per_rule(r.findings)
    out = [f"| {text(_t(SEVERITY, gettext))} | {text(_t(FINDING, gettext))} | {text(_t(CONTAINER, gettext))} "
           f"| {text(_t(LINE, gettext))} |", "|---|---|---|---|"]
    for f in findings:
        d = f.to_dict()
        title = f.render(gettext)["title"]
        out.append(f"| {text(d['severity'])} | {text(title)} ({text(d['id'])}) | {text(d['container'] or '—')} "
                   f"| {d['line'] or '—'} |")
    if more:
        out += [""] + [text(_t(MORE_FINDINGS, gettext, n=f"{n:,}", rule=rule)) for rule, n in more.items()]
    out += ["", text(_t(PITFALLS, gettext)), ""]
    for n, f in enumerate(findings, 1):
        rendered = f.render(gettext)
        where = f" ({text(f.container)})" if f.container else ""
        out += [f"{n}. **{text(rendered['title'])}**{where}: {inline(f.explanation, gettext)}"]
        if f.fix:
            out += ["", "   " + text(_t(WRITE_INSTEAD, gettext)), ""]
            out += ["   " + line if line else "" for line in fenced(f.fix, "yaml")]
        out.append("")
    return out

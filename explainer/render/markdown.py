"""A Markdown summary of an explanation, to paste into a review thread."""
from __future__ import annotations

import html
from typing import Callable

from ..explain import Explanation
from .i18n import Text, gettext_noop as _
from .story import story

Gettext = Callable[[str], str]

# Texts used inside f-strings, named here so that `makemessages` can find them.
TITLE = _("Pod lifecycle: {names}")
SEVERITY = _("Severity")
FINDING = _("Finding")
CONTAINER = _("Container")
LINE = _("Line")
MORE = _("{n} more steps at the link")


def _t(msgid: str, gettext: Gettext, **params: object) -> str:
    return Text(msgid, dict(params)).render(gettext)


def _cell(text: object) -> str:
    """Text for a table cell or a line: no raw HTML, no table breaks."""
    return html.escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")


def explanation_as_markdown(expl: Explanation, url: str, *, gettext: Gettext = lambda s: s,
                            scenario_yaml: str = "", max_steps: int = 12) -> str:
    out = [f"### {_t(TITLE, gettext, names=', '.join(r.pod.name for r in expl.pods) or '—')}",
           "", f"[{url}]({url}) · Kubernetes {expl.version}", ""]
    if scenario_yaml:
        out += [_t(_("Scenario:"), gettext), "", "```yaml", scenario_yaml.rstrip(), "```", ""]
    for e in expl.errors:
        where = f"line {e.line}: " if e.line else ""
        out.append(f"- ⛔ {where}{_cell(e.message)}")
    for r in expl.pods:
        out += ["", f"#### {r.pod.source.kind} `{r.pod.name}`", ""]
        sim = r.simulation
        if sim is not None:
            last = sim.timeline[-1]
            out.append(_t(_("Ends as **{status}** (phase {phase}, READY {ready}) at {t} s."), gettext,
                          status=last.status, phase=last.phase, ready=last.ready_count, t=f"{sim.end_time:g}"))
            out.append("")
        if r.findings:
            out += [f"| {_t(SEVERITY, gettext)} | {_t(FINDING, gettext)} | {_t(CONTAINER, gettext)} "
                    f"| {_t(LINE, gettext)} |", "|---|---|---|---|"]
            for f in r.findings:
                d = f.to_dict()
                title = f.render(gettext)["title"] if hasattr(f, "render") else d["title"]
                out.append(f"| {d['severity']} | {_cell(title)} (`{d['id']}`) | {_cell(d['container'] or '—')} "
                           f"| {d['line'] or '—'} |")
            out.append("")
        else:
            out += [_t(_("No pitfalls found."), gettext), ""]
        if sim is not None:
            steps = story(r.pod, sim)
            out.append(_t(_("What happens:"), gettext))
            for n, step in enumerate(steps[:max_steps], 1):
                out.append(f"{n}. `{step.t:g} s` {_cell(step.text.render(gettext))}")
            if len(steps) > max_steps:
                out.append(f"{max_steps + 1}. … ({_t(MORE, gettext, n=len(steps) - max_steps)})")
    return "\n".join(out).rstrip() + "\n"

"""One line per finding for CI logs and editors: ``--summary`` and ``--format github``.

``--summary`` prints ``path:line: severity rule-id container: title``, the shape compilers use
and that editors and CI log viewers turn into links.  ``--format github`` prints GitHub Actions
workflow commands (``::error file=…,line=…,title=…::message``), which annotate the pull request.
Input errors come out in the same shapes, under the input rule ids of the SARIF output.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..explain import Explanation
from .sarif import INPUT_RULE_OF_KIND

# GitHub Actions workflow command per severity.
GITHUB_COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def annotations(files: list[tuple[str, Explanation]]) -> Iterator[tuple[str, int, str, str, str, str]]:
    """(path, line, severity, rule id, who, text) for every error and finding, in file order."""
    for path, expl in files:
        for e in expl.errors:
            rule = INPUT_RULE_OF_KIND.get(e.kind, "manifest-syntax")
            who = e.pod or ""
            yield path, e.line or 1, "error", rule, who, e.message
        for w in expl.warnings:
            yield path, w.line or 1, "warning", INPUT_RULE_OF_KIND[w.kind], w.pod or "", w.message
        for report in expl.pods:
            for f in report.findings:
                who = f.container or f"{report.pod.source.kind}/{report.pod.name}"
                yield path, f.line or report.pod.source.line or 1, f.severity.value, f.id, who, f.title.render()
        for inp in expl.findings:   # about a Service of the input (findings/inputs.py)
            yield path, inp.line or 1, inp.severity.value, inp.id, f"{inp.kind}/{inp.name}", inp.title.render()


def summary_lines(files: list[tuple[str, Explanation]]) -> str:
    """``path:line: severity rule-id container: title``, one line a finding."""
    out = [f"{path}:{line}: {severity} {rule}{' ' + who if who else ''}: {text}"
           for path, line, severity, rule, who, text in annotations(files)]
    return "".join(line + "\n" for line in out)


def github_lines(files: list[tuple[str, Explanation]]) -> str:
    """GitHub Actions workflow commands, one a finding or error."""
    out = []
    for path, line, severity, rule, who, text in annotations(files):
        title = f"{rule} ({who})" if who else rule
        props = f"file={_prop(path)},line={line},title={_prop(title)}"
        out.append(f"::{GITHUB_COMMANDS[severity]} {props}::{_data(text)}")
    return "".join(line + "\n" for line in out)


def _data(value: str) -> str:
    """Escape a workflow command's message (actions/toolkit ``escapeData``)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(value: str) -> str:
    """Escape a workflow command's property value (actions/toolkit ``escapeProperty``)."""
    return _data(value).replace(":", "%3A").replace(",", "%2C")

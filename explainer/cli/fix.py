"""``podlife explain --fix`` / ``--diff``: apply the fixes that need no human choice to each file,
then explain what they leave (cli/run.py renders it) and list what was fixed and what needs a person.

--fix writes a file only when something changed, and only when it is still what was read
(cli.read.write_back: through a symbolic link, atomically or in place as its hard links and owner
need, keeping its mode, owner, CRLF line ends and a UTF-8 byte-order mark).  --diff writes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from explainer.cli.files import Extras, FileResult, explain_file, holds_kubernetes_objects, unread
from explainer.cli.read import read_input, write_back
from explainer.findings import Finding
from explainer.fixes import fix_all, unified_diff
from explainer.lifecycle.manifest.yamlload import Limits


@dataclass
class FileFix:
    path: str
    result: FileResult                                     # the explanation of the text after the fixes
    fixed: list[Finding] = field(default_factory=list)     # as they were found, before each fix
    failed: list[Finding] = field(default_factory=list)    # fixable, but the fix did not hold here
    remaining: list[Finding] = field(default_factory=list)
    diff: str = ""
    write_error: str | None = None


def fix_file(path: str, scenario: str | None, version: str | None, max_bytes: int, extras: Extras) -> FileFix:
    read = read_input(path, max_bytes)
    if read.text is None:   # why, as without --fix
        return FileFix(path, unread(path, read, version))
    # CRLF files are fixed as LF text and written back with CRLF (cli.read.write_back)
    text = read.text.replace("\r\n", "\n") if read.crlf else read.text
    limits = Limits(max_bytes=max_bytes, bytes_setting="--max-bytes")
    if extras.skip_foreign:
        if not holds_kubernetes_objects(text, limits):
            return FileFix(path, explain_file(path, scenario, version, max_bytes, extras, text=text))
    outcome = fix_all(text, scenario, version, limits=limits, disabled=extras.disabled)
    fix = FileFix(path, explain_file(path, scenario, version, max_bytes, extras, text=outcome.text),
                  outcome.fixed, outcome.failed, outcome.remaining)
    if outcome.changed:
        fix.diff = unified_diff(path, read.text, outcome.text.replace("\n", "\r\n") if read.crlf else outcome.text)
        if extras.fix == "fix":
            fix.write_error = write_back(path, read, outcome.text)
            if fix.write_error:
                fix.result.problem = f"{path}: {fix.write_error}"
    return fix


def report(fixes: list[FileFix], mode: str | None) -> list[str]:
    """Standard-error lines: each fix made (or, with --diff, that would be made), each finding
    that still needs a person, then one line of totals."""
    verb = "fixed" if mode == "fix" else "would fix"
    lines: list[str] = []
    for fx in fixes:
        for f in fx.fixed:
            lines.append(f"{_where(fx.path, f)}: {verb} {f.id}{_container(f)}")
        for f in fx.failed:
            lines.append(f"{_where(fx.path, f)}: not fixed ({f.id}{_container(f)}): its fix did not hold in "
                         "this file; it needs a person")
        failed = {(f.id, f.container) for f in fx.failed}
        for f in fx.remaining:
            if (f.id, f.container) not in failed:
                lines.append(f"{_where(fx.path, f)}: needs a person: {f.severity.value} {f.id}{_container(f)}: "
                             f"{f.title.render()}")
    fixed = sum(len(fx.fixed) for fx in fixes)
    remaining = sum(len(fx.remaining) for fx in fixes)
    files = sum(1 for fx in fixes if fx.fixed)
    lines.append(f"{verb} {fixed} finding{_s(fixed)} in {files} file{_s(files)}; "
                 f"{remaining} need{'s' if remaining == 1 else ''} a person")
    return lines


def _where(path: str, f: Finding) -> str:
    return f"{path}:{f.line}" if f.line else path


def _container(f: Finding) -> str:
    return f" ({f.container})" if f.container else ""


def _s(n: int) -> str:
    return "" if n == 1 else "s"

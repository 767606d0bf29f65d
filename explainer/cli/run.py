"""The pieces of ``podlife explain`` (and ``manage.py explain``): gather inputs, explain each file,
render, decide the exit code.  No Django: the command line starts straight in the core.

Exit codes: 0 success; 1 a finding at or above ``--fail-on``; 2 bad input in any file (wins); 3 nothing
to explain: every input was empty (no object, only comments or ``---``), as ``kubectl apply`` refuses
"no objects passed to apply".
One FILE keeps the single-object JSON contract; several inputs (or a directory) give
``{"schemaVersion": 1, "files": [{"path": ..., <the per-file object>}]}``.
"""
from __future__ import annotations

import dataclasses
import json
import os
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from explainer.cli.files import Extras, FileResult, explain_file
from explainer.cli.read import read_input, regular_file
from explainer.findings import Severity, catalogue
from explainer.render.style import PLAIN, TextStyle

# Each output format imports its renderer only when it is asked for (`render`): a text run
# never loads the SARIF or JUnit code.

EXIT_OK, EXIT_FAIL_ON, EXIT_BAD_INPUT, EXIT_NOTHING = 0, 1, 2, 3
FORMATS = ("text", "json", "sarif", "junit", "github")
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
SCENARIO_MAX_BYTES = 256 * 1024   # scenario.document.parse_scenario's limit: a scenario file is read up to it


@dataclass
class Outcome:
    stdout: str | None             # None: nothing to print (one unreadable file in text or json)
    stderr: list[str]              # one line per bad input, then the --fail-on verdict
    code: int


def run(args: list[str], scenario_path: str | None, version: str | None, fmt: str,
        fail_on: str | None, max_bytes: int, extras: Extras = Extras()) -> Outcome:
    """Everything ``explain FILE...`` does, short of printing."""
    scenario = None
    if scenario_path:
        read = read_input(scenario_path, SCENARIO_MAX_BYTES)
        if read.text is None:
            size = f"{read.size:,}" if read.size is not None else f"more than {SCENARIO_MAX_BYTES:,}"
            why = (f"The scenario is {size} bytes; the limit is {SCENARIO_MAX_BYTES:,} bytes." if read.too_large
                   else read.problem)
            return Outcome(None, [f"{scenario_path}: {why}"], EXIT_BAD_INPUT)
        scenario = read.text
    if extras.observed:
        texts = []
        for path in extras.observed:
            read = read_input(path, max_bytes)   # regular files only, at most the limit + 1 byte (cli/read.py)
            if read.text is None:
                size = f"{read.size:,}" if read.size is not None else f"more than {max_bytes:,}"
                why = (f"The observed output is {size} bytes; the limit is {max_bytes:,} bytes (--max-bytes raises "
                       "it)." if read.too_large else read.problem)
                return Outcome(None, [f"{path}: {why}"], EXIT_BAD_INPUT)
            texts.append(read.text)
        extras = dataclasses.replace(extras, observed_texts=tuple(texts))
    paths, problems, skipped = expand(args)
    single = len(args) == 1 and paths == args
    fixed: list[Any] = []
    if extras.fix:   # --fix / --diff: explain what the fixes leave (cli/fix.py)
        from explainer.cli.fix import fix_file
        fixed = [fix_file(p, scenario, version, max_bytes, extras) for p in paths]
        results = [f.result for f in fixed]
    else:
        results = [explain_file(p, scenario, version, max_bytes, extras) for p in paths]
    results = [r for r in results if not r.foreign]
    out = None
    if extras.fix == "diff":
        out = "".join(f.diff for f in fixed)
    elif not results:
        out = "" if extras.summary or fmt == "github" else None
    elif extras.summary:
        from explainer.render.annotations import summary_lines
        out = summary_lines([(r.path, r.expl) for r in results])
    elif not (single and results[0].unreadable and fmt in ("text", "json")):
        all_read = not problems and not any(r.unreadable for r in results)
        out = render(results, fmt, single, all_read=all_read, style=extras.style)
    stderr = problems + skipped + [r.problem for r in results if r.problem]
    if extras.fix:
        from explainer.cli.fix import report
        stderr += report(fixed, extras.fix)
    code = exit_code(results, fail_on, len(problems))
    if code == EXIT_NOTHING:
        stderr += [f"{r.path}: nothing to explain: the file is empty (only comments, blank lines or ---)"
                   for r in results]
    if code == EXIT_FAIL_ON:
        stderr.append(f"findings at severity {fail_on} or worse (--fail-on {fail_on})")
    return Outcome(out, stderr, code)


def expand(args: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
    """Files to explain (directories walked for manifests, sorted, hidden entries skipped), one line
    for each argument that names nothing to explain, and one for each file of a directory that is
    not a regular file (a named pipe, a device: never opened, never counted as bad input)."""
    files: list[str] = []
    problems: list[str] = []
    skipped: list[str] = []
    for arg in args:
        if arg != "-" and os.path.isdir(arg):
            found, odd = walk(arg)
            if not found and not odd:
                problems.append(f"{arg}: no {', '.join('*' + s for s in MANIFEST_SUFFIXES)} files in this directory")
            files += found
            skipped += odd
        else:
            files.append(arg)
    seen: set[str] = set()
    unique = [f for f in files if not (os.path.normpath(f) in seen or seen.add(os.path.normpath(f)))]
    return unique, problems, skipped


def walk(directory: str) -> tuple[list[str], list[str]]:
    """The manifests under ``directory`` (regular files), and a line for each other file named like one."""
    found: list[tuple[tuple[str, ...], str]] = []
    skipped = []
    for top, dirs, names in os.walk(directory):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for name in names:
            if not name.startswith(".") and name.lower().endswith(MANIFEST_SUFFIXES):
                path = os.path.join(top, name)
                what = regular_file(path)
                if what is not None:
                    why = what if what.startswith("cannot") else f"not a regular file ({what})"
                    skipped.append(f"{path}: skipped: {why}")
                    continue
                found.append((tuple(os.path.relpath(path, directory).split(os.sep)), path))
    return [path for _, path in sorted(found)], sorted(skipped)


def fails_on(results: list[FileResult], level: str | None) -> bool:
    if not level:
        return False
    threshold = Severity(level)
    return any(f.severity.at_least(threshold) for r in results for p in r.expl.pods for f in p.findings) or \
        any(f.severity.at_least(threshold) for r in results for f in r.expl.findings)


def exit_code(results: list[FileResult], fail_on: str | None, extra_problems: int = 0) -> int:
    if extra_problems or any(r.problem for r in results):
        return EXIT_BAD_INPUT
    if results and all(r.expl.empty for r in results):
        return EXIT_NOTHING
    return EXIT_FAIL_ON if fails_on(results, fail_on) else EXIT_OK


def render(results: list[FileResult], fmt: str, single: bool, *, all_read: bool = True,
           style: TextStyle = PLAIN) -> str:
    """The whole stdout for ``fmt``; ``single`` keeps the one-file shapes of json and text."""
    pairs = [(r.path, r.expl) for r in results]
    if fmt == "github":
        from explainer.render.annotations import github_lines
        return github_lines(pairs)
    if fmt == "sarif":
        from explainer.render.sarif import to_sarif
        return json.dumps(to_sarif(pairs, execution_successful=all_read), indent=2, ensure_ascii=False) + "\n"
    if fmt == "junit":
        from explainer.render.junit import to_junit
        return to_junit(pairs)
    if fmt == "json":
        from explainer.render.jsonable import SCHEMA_VERSION, explanation_to_dict
        if single:
            return json.dumps(explanation_to_dict(results[0].expl), indent=2, ensure_ascii=False) + "\n"
        files = [{"path": r.path, **explanation_to_dict(r.expl)} for r in results]
        return json.dumps({"schemaVersion": SCHEMA_VERSION, "files": files}, indent=2, ensure_ascii=False) + "\n"
    from explainer.render.text import explanation_as_text, summary_line
    closing = "\n" + style.paint(summary_line([r.expl for r in results], files=len(results)), "heading") + "\n"
    if single:
        return explanation_as_text(results[0].expl, style) + closing
    parts = []
    for r in results:
        body = f"error: {r.expl.errors[0].message}\n" if r.unreadable else explanation_as_text(r.expl, style)
        parts.append(f"==> {r.path} <==\n{body}")
    return "\n".join(parts) + closing


def rules_as_json() -> str:
    from explainer.render.jsonable import SCHEMA_VERSION
    return json.dumps({"schemaVersion": SCHEMA_VERSION, "rules": [_plain_entry(e) for e in catalogue()]},
                      indent=2, ensure_ascii=False) + "\n"


def rules_as_text() -> str:
    out: list[str] = []
    wrap = textwrap.TextWrapper(width=100, initial_indent="    ", subsequent_indent="    ")
    for e in (_plain_entry(x) for x in catalogue()):
        out += [f"{e['id']} ({e['severity']}): {e['title']}"]
        for label in ("what", "why", "fix"):
            if e.get(label):
                out.append(f"  {label.capitalize()}:")
                out += [line for p in str(e[label]).split("\n\n") for line in wrap.wrap(p)]
        if e.get("example"):
            out.append("  Example:")
            out += [f"    {line}".rstrip() for line in str(e["example"]).rstrip("\n").splitlines()]
        if e.get("references"):
            out.append("  References:")
            out += [f"    {r}" for r in e["references"]]
        out.append("")
    return "\n".join(out)


def _plain_entry(entry: dict[str, Any]) -> dict[str, Any]:
    def plain(v: Any) -> Any:
        if hasattr(v, "render"):
            return v.render()
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        return getattr(v, "value", v) if not isinstance(v, (str, int, float, bool, type(None))) else v
    return plain(entry)

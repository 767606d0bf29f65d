"""One input file of ``podlife explain``: read it, explain it, say what went wrong in one line.
Shared by `cli/run.py` (explain) and `cli/fix.py` (fix, then explain what is left)."""
from __future__ import annotations

from dataclasses import dataclass

from explainer.cli.read import Read, read_input
from explainer.explain import Explanation, explain
from explainer.lifecycle import defaults as d
from explainer.lifecycle.errors import ErrorRecord, ManifestError
from explainer.lifecycle.scenario.document import Scenario
from explainer.lifecycle.manifest.yamlload import Limits, load_documents
from explainer.render.style import PLAIN, TextStyle

MAX_BYTES_FLAG = "--max-bytes"   # what raises the CLI's size limit, named in its message


@dataclass
class FileResult:
    path: str                      # as given on the command line, or found under a directory
    expl: Explanation
    problem: str | None = None     # the one stderr line when the file is bad input
    unreadable: bool = False       # missing, unreadable or binary: never parsed
    foreign: bool = False          # no document is a Kubernetes object (with --skip-non-kubernetes)


@dataclass(frozen=True)
class Extras:
    """What the command line adds to the explanation itself."""

    disabled: frozenset[str] = frozenset()   # rules not run (--disable, the config file)
    summary: bool = False                    # one line per finding (--summary)
    style: TextStyle = PLAIN                 # text width and colour
    skip_foreign: bool = False               # files with no Kubernetes object are skipped, not errors
    fix: str | None = None                   # "fix": rewrite the files (--fix); "diff": print a diff (--diff)
    observed: tuple[str, ...] = ()           # --observed files (kubectl's output), as given
    observed_texts: tuple[str, ...] = ()     # their text, read once by cli.run


def read_text(path: str, max_bytes: int) -> tuple[str | None, str | None]:
    """(text, None), or (None, the reason it cannot be read) for a missing, unreadable, binary or
    too large file, or anything but a regular file (cli/read.py)."""
    read = read_input(path, max_bytes)
    return read.text, read.problem


def explain_file(path: str, scenario: str | None, version: str | None, max_bytes: int,
                 extras: Extras = Extras(), text: str | None = None) -> FileResult:
    """Explain one file (its ``text`` when the caller has read it already)."""
    if text is None:
        read = read_input(path, max_bytes)
        if read.text is None:
            return unread(path, read, version)
        text = read.text
    limits = Limits(max_bytes=max_bytes, bytes_setting=MAX_BYTES_FLAG)
    if extras.skip_foreign and not holds_kubernetes_objects(text, limits):
        return FileResult(path, Explanation(version or d.DEFAULT_VERSION, Scenario()), foreign=True)
    expl = explain(text, scenario, version, limits=limits, disabled=extras.disabled,
                   observed=extras.observed_texts or None)
    problem = None
    if expl.errors:
        first = expl.errors[0]
        more = f" (and {len(expl.errors) - 1} more)" if len(expl.errors) > 1 else ""
        problem = f"{path}: {first.one_line()}{more}"
    return FileResult(path, expl, problem)


def unread(path: str, read: Read, version: str | None) -> FileResult:
    """The result for a file that was not read: why, as its one error (of kind ``limit`` when it is too large)."""
    why = read.problem or ""
    expl = Explanation(version or d.DEFAULT_VERSION, Scenario(),
                       errors=[ErrorRecord(why, kind="limit" if read.too_large else "syntax")])
    return FileResult(path, expl, f"{path}: {why}", unreadable=not read.too_large)   # too large: a limit error, shown


def holds_kubernetes_objects(text: str, limits: Limits) -> bool:
    """Whether some document of ``text`` names an apiVersion and a kind (YAML that does not parse
    counts as one: its errors are worth showing).  For hooks that see every YAML file of a repo."""
    try:
        docs = load_documents(text, limits)
    except ManifestError:
        return True
    return any(isinstance(doc.data, dict) and "apiVersion" in doc.data and "kind" in doc.data for doc in docs)

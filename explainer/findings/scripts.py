"""Reading containers' shell the way a reviewer does: where text runs, what it names, what it touches.

Rules share these so that they agree on what a container "says" (its command, args, hook
commands and env values) and on the names that stand for it (its name, image, program).
"""
from __future__ import annotations

import posixpath
import re

from explainer.lifecycle.model import Container

SHELL = re.compile(r"^(/usr)?(/bin/)?(ba|a|da|z)?sh$")
# localhost:8080, 127.0.0.1:15001, `nc -z localhost 5432`, http://[::1]:9000
LOCALHOST_PORT = re.compile(r"(?:localhost|127\.0\.0\.1|\[::1\])(?::|\s+(?:-p\s+)?)(\d{1,5})\b")
_LOOP_HEAD = re.compile(r"\b(?:until|while\s+!)\s*(.*)", re.S)
_DO = re.compile(r"\s*do\b")
_PATH = r"(/[^\s;&|<>'\"()`]+)"
_WRITES = re.compile(r"(?:\d?>>?\s*|\btee\s+(?:-a\s+)?|\btouch\s+|\b(?:cp|mv)\s+(?:-\S+\s+)*\S+\s+)" + _PATH)
_DOWNLOAD = re.compile(r"\b(?:curl|wget)\b")
_OUTPUT = re.compile(r"\s-[oO]\s*" + _PATH)
# an absolute path not inside a word or another path: the `/` first, then the character before it
# checked (the same as a lookbehind before the `/`, but the scan jumps from `/` to `/`)
_MENTION = re.compile(r"(/(?<![\w/.-]/)" + _PATH[2:])
_EXEC = re.compile(r"\bexec\s+(\S+)")
_LINES = re.compile(r"[;\n]")
_SIMPLE = re.compile(r"[;&|\n]")
PROXY_NAME = re.compile(r"(envoy|istio-proxy|linkerd[\w-]*proxy|cloud-sql-proxy|"
                        r"(^|[-_/])proxy([-_:]|$))", re.I)


def sources(c: Container) -> list[tuple[str, str]]:
    """(field path under the container, text) for everything of ``c`` that runs or configures."""
    out = []
    if c.command:
        out.append(("command", " ".join(c.command)))
    if c.args:
        out.append(("args", " ".join(c.args)))
    for hook in (c.post_start, c.pre_stop):
        if hook is not None and hook.command:
            out.append((f"lifecycle.{hook.kind}.exec.command", " ".join(hook.command)))
    for i, env in enumerate(c.env):
        if env.value:
            out.append((f"env[{i}].value", env.value))
    return out


def main_field(c: Container) -> str:
    """The field that says what ``c`` runs: command, else args, else the image."""
    return "command" if c.command else "args" if c.args else "image"


def image_name(image: str) -> str:
    """registry.example.com/team/nginx:1.27@sha256:... -> nginx"""
    base = image.split("@", 1)[0].rsplit("/", 1)[-1]
    return base.split(":", 1)[0].lower()


def program(c: Container) -> str | None:
    """The program ``c`` runs as its main process, when the command says so."""
    argv = c.command + c.args
    if not argv:
        return None
    if SHELL.match(argv[0]):
        script = c.script
        execs = _EXEC.findall(script) if "exec" in script else None
        return posixpath.basename(execs[-1]) if execs else None
    return posixpath.basename(argv[0])


def names_of(c: Container, prog: str | None = None) -> set[str]:
    """Every word that stands for ``c``: its name, its image's name and its program (``prog``, when known)."""
    return {n for n in (c.name, image_name(c.image), prog if prog is not None else program(c)) if n}


def wait_loops(text: str) -> list[str]:
    """Conditions of `until COND; do` and `while ! COND; do` loops in a shell text.

    Split on `;` and newlines instead of one regex: a regex that scans ahead for `; do`
    from every `until` is quadratic on a long text without one.
    """
    if "until" not in text and "while" not in text:   # no loop head (_LOOP_HEAD) anywhere
        return []
    parts = _LINES.split(text)
    out = []
    for part, after in zip(parts, parts[1:]):
        m = _LOOP_HEAD.search(part)
        if m and _DO.match(after):
            out.append(" ".join(m.group(1).split()))
    return out


def segments(text: str) -> list[str]:
    """Simple commands of a shell text, split on ; & | and newlines (pipes kept apart too)."""
    return [s for s in _SIMPLE.split(text) if s.strip()]


def written_paths(text: str) -> list[str]:
    """Absolute paths a shell text writes: > and >>, tee, touch, cp/mv targets, curl -o, wget -O."""
    # what every alternative of _WRITES starts with, and the programs _DOWNLOAD names: a quick no
    # for the many texts that write nothing
    may_write = ">" in text or "tee" in text or "touch" in text or "cp" in text or "mv" in text
    found = _WRITES.findall(text) if may_write else []
    if "curl" not in text and "wget" not in text:
        return found
    for command in segments(text):  # one simple command at a time, so the scan stays linear
        if _DOWNLOAD.search(command):
            found += _OUTPUT.findall(command)
    return found


def mentioned_paths(c: Container) -> dict[str, str]:
    """Every absolute path in ``c``'s command, args, hooks and env -> the first field naming it."""
    found: dict[str, str] = {}
    for field, text in sources(c):
        for path in _MENTION.findall(text):
            found.setdefault(path, field)
    return found


def localhost_ports(text: str) -> set[int]:
    if "localhost" not in text and "127.0.0.1" not in text and "[::1]" not in text:   # LOCALHOST_PORT's hosts
        return set()
    return {int(p) for p in LOCALHOST_PORT.findall(text)}


def localhost_use(c: Container) -> tuple[set[int], set[int]]:
    """(ports ``c`` reaches on localhost, ports it explicitly waits for in an until/while loop)."""
    used: set[int] = set()
    waited: set[int] = set()
    for _field, text in sources(c):
        used |= localhost_ports(text)
        waited |= localhost_ports(" ".join(wait_loops(text)))
    return used, waited


def looks_like_proxy(c: Container) -> bool:
    return any(may_name_proxy(w) and PROXY_NAME.search(w) for w in (c.name, image_name(c.image)))


def may_name_proxy(word: str) -> bool:
    """Whether ``word`` can match PROXY_NAME (or helpers.OUTBOUND) at all: each of them names
    "proxy" or "envoy", and what IGNORECASE matches to those letters lower-cases to them."""
    lower = word.lower()
    return "proxy" in lower or "envoy" in lower

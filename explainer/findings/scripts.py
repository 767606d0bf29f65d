"""Reading containers' shell the way a reviewer does: where text runs, what it names, what it touches.

Rules share these so that they agree on what a container "says" (its command, args, hook
commands and env values) and on the names that stand for it (its name, image, program).
"""
from __future__ import annotations

import posixpath
import re

from explainer.lifecycle.model import Container, Pod

SHELL = re.compile(r"^(/usr)?(/bin/)?(ba|a|da|z)?sh$")
# localhost:8080, 127.0.0.1:15001, `nc -z localhost 5432`, http://[::1]:9000
LOCALHOST_PORT = re.compile(r"(?:localhost|127\.0\.0\.1|\[::1\])(?::|\s+(?:-p\s+)?)(\d{1,5})\b")
WAIT_LOOP = re.compile(r"\b(until\b|while\s+!)[^;]*?;\s*do\b", re.S)
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
        execs = re.findall(r"\bexec\s+(\S+)", c.script)
        return posixpath.basename(execs[-1]) if execs else None
    return posixpath.basename(argv[0])


def names_of(c: Container) -> set[str]:
    """Every word that stands for ``c``: its name, its image's name and its program."""
    return {n for n in (c.name, image_name(c.image), program(c)) if n}


def localhost_ports(text: str) -> set[int]:
    return {int(p) for p in LOCALHOST_PORT.findall(text)}


def looks_like_proxy(c: Container) -> bool:
    return bool(PROXY_NAME.search(c.name) or PROXY_NAME.search(image_name(c.image)))


def running_together(pod: Pod) -> list[Container]:
    """Containers that keep running side by side: native sidecars and app containers."""
    return list(pod.sidecars) + list(pod.containers)


def fmt(seconds: float | None) -> str:
    return "forever" if seconds is None else f"{seconds:g} s"

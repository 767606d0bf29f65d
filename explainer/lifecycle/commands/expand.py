"""Variables in commands: Kubernetes' ``$(VAR)`` and a shell's ``$VAR`` / ``${VAR}``, resolved from ``env``.

Two expansions happen before a container's process reads its arguments (docs/lifecycle-model.md §9.1):

- the kubelet expands ``$(VAR)`` in ``command`` and ``args`` (never in hooks or probes) from the
  container's environment: pkg/kubelet/container/helpers.go `ExpandContainerCommandAndArgs` with
  third_party/forked/golang/expansion `Expand` + `MappingFuncFor`: ``$$`` is an escaped ``$``, and a
  variable that is not defined stays as written, ``$(VAR)``;
- a shell (``sh -c``, in the command or in an exec hook, which runs with the container's environment)
  expands ``$VAR``, ``${VAR}`` and ``${VAR:-default}``; an unset variable is empty.

The environment itself is built in order (pkg/kubelet/kubelet_pods.go `makeEnvironmentVariables`): each
``value`` may use ``$(VAR)`` of the variables before it.  A ``valueFrom`` value, and any name an ``envFrom``
source might define, is unknown here: it stays as written and is reported, so durations built on it are
marked assumed.
"""
from __future__ import annotations

import re

from ..model import Container
from explainer.lifecycle.records import record

UNKNOWN = None                  # a variable whose value the manifest does not hold
_SHELL = re.compile(r"^(/usr)?(/bin/)?(ba|a|da|z)?sh$")
_SCAN_LIMIT = 16_384
# A shell reference or a plain assignment at the start of a command: NAME=value (value without spaces).
_SHELL_TOKEN = re.compile(
    r"\$\{(?P<braced>[A-Za-z_]\w*)(?:(?P<op>:?[-=])(?P<default>[^}]*))?\}"
    r"|\$(?P<plain>[A-Za-z_]\w*)"
    r"|(?:^|(?<=[\s;&|(]))(?:export\s+)?(?P<assign>[A-Za-z_]\w*)=(?P<value>[^\s;&|)]*)")


@record
class Expanded:
    command: tuple[str, ...]
    args: tuple[str, ...]
    used: tuple[str, ...]          # variables whose known values went into the text
    unknown: tuple[str, ...]       # variables whose values the manifest does not hold


def environment(c: Container) -> tuple[dict[str, str | None], bool]:
    """The container's env as the kubelet builds it (None: unknown); and whether envFrom may add more."""
    env: dict[str, str | None] = {}
    for var in c.env:
        if var.value is None:
            env[var.name] = UNKNOWN          # valueFrom (or nothing at all: an empty value)
            continue
        text, _used, unknown = expand_kubernetes(var.value, env)
        env[var.name] = UNKNOWN if unknown else text
    open_ended = any(r.via == "envFrom" for r in c.env_refs)
    return env, open_ended


def expand_kubernetes(text: str, env: dict[str, str | None]) -> tuple[str, list[str], list[str]]:
    """third_party/forked/golang/expansion `Expand` with `MappingFuncFor`: (text, used, unknown)."""
    i = text.find("$")
    if i == -1:                              # nothing to expand: most commands
        return text, [], []
    out: list[str] = [text[:i]]
    used: list[str] = []
    unknown: list[str] = []
    n = len(text)
    while i < n:
        ch = text[i]
        if ch != "$" or i + 1 >= n:
            nxt_dollar = text.find("$", i + 1)
            end = n if nxt_dollar == -1 else nxt_dollar
            out.append(text[i:end])           # the plain run up to the next "$"
            i = end
            continue
        nxt = text[i + 1]
        if nxt == "$":                       # "$$" -> "$" (and "$$(VAR)" -> the literal "$(VAR)")
            out.append("$")
            i += 2
            continue
        if nxt == "(":
            close = text.find(")", i + 2)
            if close == -1:                  # an incomplete reference: kept as written
                out.append("$(")
                i += 2
                continue
            name = text[i + 2:close]
            if name in env and env[name] is not UNKNOWN:
                out.append(env[name] or "")
                used.append(name)
            else:                            # undefined or unknown: `syntaxWrap`, kept as written
                out.append(f"$({name})")
                if name in env:
                    unknown.append(name)
            i = close + 1
            continue
        out.append("$" + nxt)
        i += 2
    return "".join(out), used, unknown


def expand_shell(script: str, env: dict[str, str | None], open_ended: bool) -> tuple[str, list[str], list[str]]:
    """What a POSIX shell makes of ``$VAR``, ``${VAR}``, ``${VAR:-default}`` (and ``NAME=value`` before)."""
    script = script[:_SCAN_LIMIT]
    if "$" not in script:   # no reference: nothing changes (an assignment is kept as written, and only feeds references)
        return script, [], []
    env = dict(env)
    used: list[str] = []
    unknown: list[str] = []
    local: set[str] = set()            # set by the script itself: not from the container's env

    def value(name: str) -> str | None | bool:
        if name in env:
            return env[name]
        return UNKNOWN if open_ended else False       # False: not set at all

    def sub(m: re.Match[str]) -> str:
        if m.group("assign"):
            raw = m.group("value")
            expanded = _SHELL_TOKEN.sub(sub, raw) if "$" in raw else raw
            env[m.group("assign")] = UNKNOWN if "$" in expanded else expanded.strip("\"'")
            local.add(m.group("assign"))
            return m.group(0)
        name = m.group("braced") or m.group("plain")
        got = value(name)
        op = m.group("op")
        if got is UNKNOWN:
            unknown.append(name)
            return m.group(0)
        if got is False or (got == "" and op and op.startswith(":")):
            if op:
                return m.group("default")
            return ""
        if name not in local:
            used.append(name)
        return str(got)

    return _SHELL_TOKEN.sub(sub, script), used, unknown


def expand_container(c: Container) -> Expanded:
    """``command`` and ``args`` as the process sees them: the kubelet's ``$(VAR)``, then a shell's."""
    if "$" not in "".join(c.command) and "$" not in "".join(c.args):   # "$" is one character: no part has it
        return Expanded(c.command, c.args, (), ())   # no reference to expand (an assignment changes no text)
    env, open_ended = environment(c)
    used: list[str] = []
    unknown: list[str] = []

    def k8s(part: str) -> str:
        text, u, x = expand_kubernetes(part, env)
        used.extend(u)
        unknown.extend(x)
        return text

    command = tuple(k8s(p) for p in c.command)
    args = tuple(k8s(p) for p in c.args)
    argv = command + args
    if argv and _SHELL.match(argv[0]):
        shelled = _through_shell(argv, env, open_ended, used, unknown)
        command, args = shelled[:len(command)], shelled[len(command):]
    return Expanded(command, args, tuple(dict.fromkeys(used)), tuple(dict.fromkeys(unknown)))


def expand_hook(command: tuple[str, ...], c: Container) -> Expanded:
    """An exec hook's command: no ``$(VAR)`` expansion by the kubelet (pkg/kubelet/lifecycle/handlers.go
    `Run` passes ``Exec.Command`` as written), but a shell in it sees the container's environment."""
    if not command or not _SHELL.match(command[0]):
        return Expanded(command, (), (), ())
    env, open_ended = environment(c)
    used: list[str] = []
    unknown: list[str] = []
    out = _through_shell(command, env, open_ended, used, unknown)
    return Expanded(out, (), tuple(dict.fromkeys(used)), tuple(dict.fromkeys(unknown)))


def _through_shell(argv: tuple[str, ...], env: dict[str, str | None], open_ended: bool,
                   used: list[str], unknown: list[str]) -> tuple[str, ...]:
    """``argv`` (a shell and its arguments) with each argument after the shell expanded as it would;
    the names read go to ``used`` and ``unknown``."""
    out = [argv[0]]
    for part in argv[1:]:
        text, u, x = expand_shell(part, env, open_ended)
        out.append(text)
        used.extend(u)
        unknown.extend(x)
    return tuple(out)

"""Files a probe or hook tests, and who creates them (docs/lifecycle-model.md §29.1).

An exec probe such as ``[[ -f /healthy ]]`` or ``cat /tmp/healthy`` passes only once something has created
the file: the container's own command (``touch``, a redirect, ``tee``), one of its hooks, or a volume mounted
over the path (another container, the volume's source).  When the manifest shows the container's whole
command and nothing in it, in its hooks, its env or its mounts can write the path, the file is taken to be
missing, and the probe fails from its first check.  That is an assumption (the image could ship the file): it
is reported as one, and a scenario that says how the probes behave (``startupSeconds``, ``failingProbes``)
replaces it.
"""
from __future__ import annotations

import posixpath
import re

from ..model import Container
from .mounted_scripts import hook_text

# `[ -f /x ]`, `[[ -e /x ]]`, `test -s /x` (not negated); `cat /x`, `ls /x`, `stat /x`, `head /x`, `tail -n1 /x`
_TEST = re.compile(r"^(?:\[\[?|test)\s+-([efsrd])\s+(['\"]?)(/[\w./@+-]+)\2\s*(?:\]\]?)?$")
_READ = re.compile(r"^(cat|ls|stat|head|tail)\s+(?:-\S+\s+)*(['\"]?)(/[\w./@+-]+)\2$")
_SHELLS = ("sh", "bash", "ash", "dash", "zsh")
# Where an image keeps its own files: a path there may well exist without anything in the Pod writing it.
_IMAGE_DIRS = ("/etc/", "/usr/", "/bin/", "/sbin/", "/lib", "/proc/", "/sys/", "/dev/", "/opt/", "/var/lib/",
               "/home/", "/root/", "/srv/", "/app/", "/workspace/")
_SCAN_LIMIT = 16_384


def tested_file(command: tuple[str, ...]) -> tuple[str, str] | None:
    """(path, how) when an exec command does nothing but test or read one absolute file."""
    argv = list(command)
    if len(argv) >= 3 and posixpath.basename(argv[0]) in _SHELLS and argv[1] in ("-c", "-ec", "-ce"):
        text = argv[2]
    else:
        text = " ".join(argv)
    text = text.strip().rstrip(";").strip()
    if not text or len(text) > 512 or any(sep in text for sep in (";", "&&", "||", "|", "\n", "$", "`", "*")):
        return None
    m = _TEST.match(text)
    if m is not None:
        return m.group(3), text
    m = _READ.match(text)
    if m is not None:
        return m.group(3), text
    return None


def may_create(c: Container, path: str, known_work: bool, tester: tuple[str, ...] = ()) -> bool:
    """Whether anything the manifest shows, or cannot show, may create ``path`` in ``c``.

    ``known_work``: every program ``c``'s command runs is known not to write files of its own choosing
    (commands/guess.py `runs_only_known`).  Anything else may create it: the image's own program, a volume
    mounted over it, a command, hook or env value that names it (``tester``, the command that tests it, does
    not count)."""
    if not known_work or (not c.command and not c.args):
        return True
    if path.startswith(_IMAGE_DIRS) or path in ("/", ""):
        return True
    for m in c.mounts:
        root = m.mount_path.rstrip("/") + "/"
        if path == m.mount_path.rstrip("/") or path.startswith(root):
            return True
    name = posixpath.basename(path)
    texts = [c.script[:_SCAN_LIMIT]] + [e.value or "" for e in c.env]
    for hook in (c.post_start, c.pre_stop):
        if hook is not None and hook.handler == "exec" and hook.command != tester:
            texts.append(hook_text(c, hook.command)[:_SCAN_LIMIT])
    return any(path in t or (name and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", t)) for t in texts)


def missing_file(c: Container, command: tuple[str, ...], known_work: bool) -> str | None:
    """The absolute file an exec ``command`` (a probe's or a hook's) does nothing but test or read, when
    nothing may create it in ``c``; else None."""
    found = tested_file(command)
    if found is None or may_create(c, found[0], known_work, command):
        return None
    return found[0]

"""Machine-applicable fixes: a finding's patch is a short list of edits to its document.

Paths are the document's own (``spec.template.spec.containers[1]``, as tuples of keys and
indices), so an edit needs nothing but the document it names. Edits apply in order; each
later path refers to the document as the earlier edits left it. explainer/fixes.py applies
them to the text (comments and formatting kept); the rules only decide what to change.

A rule attaches a patch only when the fix needs no human choice: no port, size, image,
name or script a person must pick; nothing the chosen Kubernetes version drops or rejects.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

from explainer.lifecycle.model import Container, Pod

from .helpers import dials
from explainer.lifecycle.records import record

if TYPE_CHECKING:
    from .base import RuleContext

Path = tuple[Any, ...]


@record
class SetKey:
    """Set ``path``'s last key in its mapping (missing parent mappings are created). A new key
    goes right after the sibling ``after`` when that exists, else at the end."""

    path: Path
    value: Any
    after: str | None = None


@record
class Remove:
    """Remove the key or list item at ``path``; an emptied list or mapping is removed with it."""

    path: Path


@record
class MoveItem:
    """Move the list item at ``path`` to the end of the list at ``to`` (created right before
    the sibling ``before`` when absent), then set ``set`` keys on it (after ``set_after``)."""

    path: Path
    to: Path
    before: str | None = None
    set: tuple[tuple[str, Any], ...] = ()
    set_after: str | None = "image"


@record
class CopyOf:
    """A value in a SetKey: a copy of what the document holds at ``path``, written as it is
    there (flow or block style); ``value`` is the same as plain data."""

    path: Path
    value: Any


Edit = Union[SetKey, Remove, MoveItem]
Patch = tuple[Edit, ...]

STARTUP_PERIOD, STARTUP_FAILURES = 1, 30   # the FIX snippets' startupProbe: up to 30 s to listen


def edit_to_dict(edit: Edit) -> dict[str, Any]:
    """One edit as JSON data (for the API's fix endpoint and tests)."""
    if isinstance(edit, SetKey):
        return {"op": "set", "path": list(edit.path), "value": plain(edit.value)}
    if isinstance(edit, Remove):
        return {"op": "remove", "path": list(edit.path)}
    return {"op": "move", "path": list(edit.path), "to": list(edit.to), "set": dict(edit.set)}


def path_of(text: str) -> Path:
    from explainer.lifecycle.manifest.yamlload import parse_path
    return tuple(parse_path(text))


def tcp_startup_probe(port: int) -> dict[str, Any]:
    return {"tcpSocket": {"port": port}, "periodSeconds": STARTUP_PERIOD, "failureThreshold": STARTUP_FAILURES}


def sidecar_probe_port(ctx: RuleContext, c: Container, after_index: int | None = None) -> int | None | bool:
    """The port a startupProbe of ``c`` as a native sidecar checks: a port it listens on that a
    later container reaches on localhost, else the first port its manifest names (declared, in
    its args or env, or its own probes': helpers.listen_ports).  None when it needs no probe (no
    port, nobody reaches it, no outbound proxy); False when it needs one but no port can be
    known from the manifest (then a person must name it: never an invented port)."""
    pod, facts = ctx.pod, ctx.facts(c)
    ports = facts.listen_ports
    later = [x for x in pod.containers if x is not c]
    if after_index is not None:
        later = [x for x in pod.init_containers if x.index > after_index] + later
    reached = sorted({d.port for x in later for d in dials(x, ports, ctx.facts(x).reachable)})
    if reached:
        return reached[0]
    if ports:
        return ports[0]
    if c.ports or facts.outbound_kind or facts.looks_like_proxy or any(ctx.facts(x).localhost_use[0] for x in later):
        return False
    return None


def to_native_sidecar(ctx: RuleContext, c: Container) -> Patch | None:
    """Move app container ``c`` to the end of initContainers as a native sidecar (restartPolicy:
    Always, plus a startupProbe on its own port where later containers need it to listen).
    None where the version has no native sidecars, the probe's port is unknown, or the manifest
    says it wants no native sidecar (an injector's opt-out annotation: a person's decision)."""
    pod = ctx.pod
    if not ctx.sidecars_enabled or c.role != "app" or native_sidecars_declined(pod):
        return None
    port = sidecar_probe_port(ctx, c)
    if port is False:
        return None
    extra: tuple[tuple[str, Any], ...] = (("restartPolicy", "Always"),)
    if port is not None and c.startup_probe is None:
        extra += (("startupProbe", tcp_startup_probe(port)),)
    spec = tuple(pod.spec_path)
    return (MoveItem(path_of(c.path), spec + ("initContainers",), before="containers", set=extra),)


def native_sidecars_declined(pod: Pod) -> bool:
    """An annotation on the object or its Pod template that turns native sidecars off, as
    Istio's ``sidecar.istio.io/nativeSidecar: "false"`` does."""
    return any(k.rsplit("/", 1)[-1].lower() == "nativesidecar" and v.lower() == "false"
               for k, v in pod.owner_annotations + pod.annotations)


def plain_init_to_sidecar(ctx: RuleContext, c: Container) -> Patch | None:
    """Set restartPolicy: Always on plain init container ``c`` (plus a startupProbe where later
    containers need it to listen). None where the version has no native sidecars."""
    if not ctx.sidecars_enabled or c.role != "init":
        return None
    port = sidecar_probe_port(ctx, c, after_index=c.index)
    if port is False:
        return None
    at = path_of(c.path)
    edits: list[Edit] = [SetKey(at + ("restartPolicy",), "Always", after="image")]
    if port is not None and c.startup_probe is None:
        edits.append(SetKey(at + ("startupProbe",), tcp_startup_probe(port), after="restartPolicy"))
    return tuple(edits)


def plain(value: Any) -> Any:
    """A manifest value as plain dicts and lists (without the loader's positions)."""
    if isinstance(value, CopyOf):
        return plain(value.value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


# What a fix says where the version runs no native sidecars (1.27; 1.28 with the gate off): never
# `restartPolicy: Always` (the API server rejects it before 1.28 and drops it on 1.28), and in a Job
# never a helper moved to `containers` (the Job would then never complete: job-sidecar-blocks-completion).
NO_SIDECARS_APP = """
# Kubernetes $version runs no native sidecars (1.29+; 1.28 with the gate).
# Until then run $name as a classic sidecar, and make the app wait for it:
containers:
  - name: $name  # moved here from initContainers, without restartPolicy
    image: $image
  - name: <APP>  # until nc -z localhost <PORT>; do sleep 1; done; exec ...
"""
NO_SIDECARS_BATCH = """
# Kubernetes $version runs no native sidecars (1.29+; 1.28 with the gate).
# In a $kind, $name cannot run beside the workers: in containers it
# would keep the Job from ever completing. Run the $kind where native
# sidecars are on (a newer version, or the gate).
initContainers:
  - name: $name
"""


def no_sidecars_fix(pod: Pod, c: Container, version: str) -> str:
    """The fix text for helper ``c`` written as a native sidecar, where ``version`` has none."""
    from .base import fill
    if pod.batch:
        return fill(NO_SIDECARS_BATCH, name=c.name, version=version, kind=pod.source.kind)
    return fill(NO_SIDECARS_APP, name=c.name, image=c.image or "<IMAGE>", version=version)

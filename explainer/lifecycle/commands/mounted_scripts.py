"""Scripts a container runs from a ConfigMap of the same input: read like a script written inline.

``command: [/scripts/run.sh]`` with a ConfigMap volume at ``/scripts`` (or its key mounted by ``subPath``)
runs the ConfigMap's text: its ``trap``, ``exec`` and sleeps decide how the container runs and stops.  A
ConfigMap volume puts each key at ``mountPath/key`` (or at the ``items[].path`` given for it); a ``subPath``
mount puts that one file at ``mountPath`` (pkg/volume/configmap `MakePayload`; docs/lifecycle-model.md §9.3).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from ..model import TEMPLATE_PATHS, Container, Pod

_SHEBANG_SHELL = re.compile(r"^#!\s*(?:/usr)?/bin/(?:env\s+)?(?:ba|a|da|z)?sh\b")
_MAX_FILE = 65_536


def config_map_data(obj: dict) -> tuple[str | None, str, dict[str, str]] | None:
    """(namespace, name, data) of a ConfigMap object, text values only."""
    meta: dict = obj["metadata"] if isinstance(obj.get("metadata"), dict) else {}
    name = meta.get("name")
    data = obj.get("data")
    if not isinstance(name, str) or not isinstance(data, dict):
        return None
    ns = meta.get("namespace") if isinstance(meta.get("namespace"), str) else None
    return ns, name, {str(k): v[:_MAX_FILE] for k, v in data.items() if isinstance(v, str)}


def with_mounted_scripts(pod: Pod, config_maps: list[tuple[str | None, str, dict[str, str]]]) -> Pod:
    """``pod`` with each container's ``files``: the ConfigMap files its command, args or hooks name."""
    if not config_maps:
        return pod
    namespace = _namespace(pod)
    by_name = {name: data for ns, name, data in config_maps if ns is None or namespace is None or ns == namespace}
    if not by_name:
        return pod
    items = _volume_items(pod)

    def attach(c: Container) -> Container:
        files = _files(c, pod, by_name, items)
        text = " ".join(c.command + c.args + _hook_words(c))
        used = tuple((path, body) for path, body in files.items() if _names(text, path))
        # every mounted file is configuration it may read (an address it dials, docs/lifecycle-model.md §9.3)
        return dataclasses.replace(c, files=used, config=tuple(sorted(files.items()))) if files else c

    return dataclasses.replace(pod, init_containers=tuple(attach(c) for c in pod.init_containers),
                               containers=tuple(attach(c) for c in pod.containers))


def runs_shell_script(c: Container, prog: str) -> bool:
    """Whether ``prog`` is a mounted file whose first line starts a shell (``#!/bin/sh``, ``#!/usr/bin/env bash``)."""
    return any(path == prog and _SHEBANG_SHELL.match(body) for path, body in c.files)


def hook_text(c: Container, command: tuple[str, ...]) -> str:
    """An exec hook's command as one text, then the ConfigMap scripts it runs."""
    text = " ".join(command)
    return text + "".join(f"\n{body}" for path, body in c.files if _names(text, path))


def _files(c: Container, pod: Pod, by_name: dict[str, dict[str, str]],
           items: dict[str, list[tuple[str, str]] | None]) -> dict[str, str]:
    volumes = {v.name: v for v in pod.volumes}
    out: dict[str, str] = {}
    for m in c.mounts:
        v = volumes.get(m.volume)
        if v is None or v.type != "configMap" or not v.sources:
            continue
        data = by_name.get(v.sources[0][1])
        if data is None:
            continue
        listed = items.get(v.name)
        paths = {path: key for key, path in listed} if listed else {key: key for key in data}
        if m.sub_path:
            key = paths.get(m.sub_path)
            if key in data:
                out[m.mount_path] = data[key]
            continue
        base = m.mount_path.rstrip("/")
        for path, key in paths.items():
            if key in data:
                out[f"{base}/{path}"] = data[key]
    return out


def _names(text: str, path: str) -> bool:
    """``path`` appears in the command as a word of its own (``sh /scripts/run.sh``, ``/scripts/run.sh;``)."""
    return re.search(rf"(?:^|[\s'\"=;&|(]){re.escape(path)}(?=$|[\s'\";&|)])", text) is not None


def _hook_words(c: Container) -> tuple[str, ...]:
    return tuple(w for h in (c.post_start, c.pre_stop) if h is not None for w in h.command)


def _namespace(pod: Pod) -> str | None:
    tail = _template_tail(pod)
    root = _at(pod.raw, pod.spec_path[:len(pod.spec_path) - len(tail)])
    meta = root.get("metadata") if isinstance(root, dict) else None
    ns = meta.get("namespace") if isinstance(meta, dict) else None
    return ns if isinstance(ns, str) else None


def _template_tail(pod: Pod) -> tuple[str, ...]:
    return TEMPLATE_PATHS.get(pod.source.kind, ())


def _volume_items(pod: Pod) -> dict[str, list[tuple[str, str]] | None]:
    """Each configMap volume's ``items`` as (key, path), None when it lists none."""
    spec = _at(pod.raw, pod.spec_path)
    out: dict[str, list[tuple[str, str]] | None] = {}
    for v in (spec.get("volumes") if isinstance(spec, dict) else None) or []:
        if not isinstance(v, dict) or not isinstance(v.get("configMap"), dict):
            continue
        raw = v["configMap"].get("items")
        out[str(v.get("name"))] = [(str(i["key"]), str(i["path"])) for i in raw
                                   if isinstance(i, dict) and "key" in i and "path" in i] \
            if isinstance(raw, list) else None
    return out


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for seg in path:
        try:
            data = data[seg]
        except (KeyError, IndexError, TypeError):
            return None
    return data

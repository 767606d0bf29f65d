"""The command line's defaults from a ``.podlife.yaml``, found upward from the working directory.

    # .podlife.yaml: defaults for `podlife explain` in this repository
    kubernetesVersion: "1.33"          # as --k8s-version
    failOn: warning                    # as --fail-on
    disable: [missing-resources]       # rules not run, as --disable
    enable: []                         # rules run although a parent's disable names them

The file nearest the working directory wins; command-line flags win over it (``--enable`` turns a
rule disabled in the file back on).  As kube-linter's ``.kube-linter.yaml``: the same checks for
everyone who runs the tool in the repository, and in CI.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .read import read_input
from ..findings import BY_ID
from ..lifecycle import defaults as d
from ..lifecycle.errors import ManifestError
from ..lifecycle.manifest.yamlload import Limits, load_documents

CONFIG_NAME = ".podlife.yaml"
CONFIG_MAX_BYTES = 1 << 20
SEVERITIES = ("error", "warning", "info")
KEYS = ("kubernetesVersion", "failOn", "disable", "enable")


class ConfigError(ValueError):
    """The config file or a rule list is wrong; the message names the file, line and what to write."""


@dataclass(frozen=True)
class Config:
    path: Path | None = None
    version: str | None = None
    fail_on: str | None = None
    disable: frozenset[str] = field(default_factory=frozenset)
    enable: frozenset[str] = field(default_factory=frozenset)


def find_config(start: Path | None = None) -> Path | None:
    """The nearest ``.podlife.yaml`` in ``start`` (the working directory) or a parent."""
    here = (start or Path(os.getcwd())).resolve()
    for folder in (here, *here.parents):
        candidate = folder / CONFIG_NAME
        if candidate.is_file():
            return candidate
    return None


def load_config(path: Path) -> Config:
    """Read and check one config file; every mistake is a ConfigError with its line."""
    read = read_input(str(path), CONFIG_MAX_BYTES)   # a regular file, at most the limit + 1 bytes read
    if read.text is None:
        why = f"it is over {CONFIG_MAX_BYTES:,} bytes" if read.too_large else read.problem
        raise ConfigError(f"{path}: cannot read the config file: {why}")
    text = read.text
    try:
        docs = load_documents(text, Limits(max_bytes=CONFIG_MAX_BYTES))
    except ManifestError as exc:
        raise ConfigError(f"{path}: {exc.records[0].one_line()}") from None
    data = docs[0].data if docs else None
    if data is None:
        return Config(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the config file must be a mapping of {', '.join(KEYS)}")

    def where(key: str) -> str:
        line = data.pos.get(key, (None,))[0] if hasattr(data, "pos") else None
        return f"{path}:{line}" if line else str(path)

    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise ConfigError(f"{where(unknown[0])}: unknown key {unknown[0]!r}; the keys are {', '.join(KEYS)}")
    version = data.get("kubernetesVersion")
    if version is not None:
        version = str(version)
        if version not in d.SUPPORTED_VERSIONS:
            raise ConfigError(f"{where('kubernetesVersion')}: kubernetesVersion {version!r} is not supported; "
                              f"choose one of {', '.join(d.SUPPORTED_VERSIONS)}")
    fail_on = data.get("failOn")
    if fail_on is not None and fail_on not in SEVERITIES:
        raise ConfigError(f"{where('failOn')}: failOn must be one of {', '.join(SEVERITIES)}")
    lists = {}
    for key in ("disable", "enable"):
        value = data.get(key) or []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where(key)}: {key} must be a list of rule ids")
        try:
            lists[key] = rule_ids(value)
        except ConfigError as exc:
            raise ConfigError(f"{where(key)}: {exc}") from None
    return Config(path, version, fail_on, lists["disable"], lists["enable"])


def rule_ids(values: list[str]) -> frozenset[str]:
    """Rule ids from a list whose items may be comma-separated (``--disable a,b --disable c``)."""
    ids = frozenset(part.strip() for value in values for part in value.split(",") if part.strip())
    unknown = sorted(ids - set(BY_ID))
    if unknown:
        raise ConfigError(f"no rule named {', '.join(unknown)}; `podlife explain --list-rules` lists them")
    return ids


def disabled_rules(config: Config, disable: list[str], enable: list[str]) -> frozenset[str]:
    """The rules not to run: the config file's, then the command line's (``--enable`` wins)."""
    off = (config.disable - config.enable) | rule_ids(disable)
    return off - rule_ids(enable)

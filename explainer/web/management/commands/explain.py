"""manage.py explain FILE|- [--scenario FILE] [--k8s-version X.Y] [--format json|text]."""
from __future__ import annotations

import json
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from explainer.explain import explain
from explainer.lifecycle import defaults as d
from explainer.lifecycle.yamlload import Limits
from explainer.render.jsonable import explanation_to_dict
from explainer.render.text import explanation_as_text

EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    help = "Explain how the kubelet starts, runs and stops the Pods of a manifest."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="manifest file (YAML or JSON), or - for standard input")
        parser.add_argument("--scenario", help="scenario file: how containers behave, deletion, debug")
        parser.add_argument("--k8s-version", dest="version", choices=d.SUPPORTED_VERSIONS,
                            help=f"target Kubernetes version (default {d.DEFAULT_VERSION})")
        parser.add_argument("--format", choices=("text", "json"), default="text")

    def handle(self, *args: Any, **opts: Any) -> None:
        manifest = _read(opts["file"])
        scenario = _read(opts["scenario"]) if opts["scenario"] else None
        if manifest is None or (opts["scenario"] and scenario is None):
            sys.exit(EXIT_BAD_INPUT)
        limits = Limits(max_bytes=settings.MAX_MANIFEST_BYTES)
        expl = explain(manifest, scenario, opts["version"], limits=limits)
        if opts["format"] == "json":
            self.stdout.write(json.dumps(explanation_to_dict(expl), indent=2, ensure_ascii=False))
        else:
            self.stdout.write(explanation_as_text(expl), ending="")
        if expl.errors:
            first = expl.errors[0]
            more = f" (and {len(expl.errors) - 1} more)" if len(expl.errors) > 1 else ""
            self.stderr.write(f"{opts['file']}: {first.one_line()}{more}")
            sys.exit(EXIT_BAD_INPUT)


def _read(path: str) -> str | None:
    try:
        data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    except OSError as exc:
        sys.stderr.write(f"{path}: cannot read: {exc.strerror}\n")
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        sys.stderr.write(f"{path}: not UTF-8 text (byte {exc.start}); is it a binary file?\n")
        return None

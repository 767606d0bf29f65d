"""manage.py explain FILE|DIR|- ... [--scenario FILE] [--k8s-version X.Y] [--format json|text|sarif|junit]
[--fail-on error|warning|info] [--list-rules]."""
from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from explainer.lifecycle import defaults as d
from explainer.web import cli

EXIT_BAD_INPUT = cli.EXIT_BAD_INPUT


class Command(BaseCommand):
    help = ("Explain how the kubelet starts, runs and stops the Pods of manifests. Exit 0 on success, "
            "1 when --fail-on finds a finding that bad, 2 on bad input.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="*", metavar="FILE",
                            help="manifest files (YAML or JSON), directories (walked for *.yaml, *.yml, "
                                 "*.json), or - for standard input")
        parser.add_argument("--scenario", help="scenario file: how containers behave, deletion, debug")
        parser.add_argument("--k8s-version", dest="version", choices=d.SUPPORTED_VERSIONS,
                            help=f"target Kubernetes version (default {d.DEFAULT_VERSION})")
        parser.add_argument("--format", choices=cli.FORMATS, default="text")
        parser.add_argument("--fail-on", dest="fail_on", choices=("error", "warning", "info"),
                            help="exit 1 when a finding of this severity or worse exists")
        parser.add_argument("--list-rules", dest="list_rules", action="store_true",
                            help="print the catalogue of rules (text, or JSON with --format json)")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["list_rules"]:
            self._list_rules(opts)
            return
        if not opts["files"]:
            raise CommandError("give a manifest FILE, a directory, or - for standard input", returncode=EXIT_BAD_INPUT)
        outcome = cli.run(opts["files"], opts["scenario"], opts["version"], opts["format"], opts["fail_on"],
                          settings.MAX_MANIFEST_BYTES)
        if outcome.stdout is not None:
            self.stdout.write(outcome.stdout, ending="")
        for line in outcome.stderr:
            self.stderr.write(line)
        if outcome.code:
            sys.exit(outcome.code)

    def _list_rules(self, opts: dict[str, Any]) -> None:
        if opts["files"]:
            raise CommandError("--list-rules takes no FILE", returncode=EXIT_BAD_INPUT)
        if opts["format"] not in ("text", "json"):
            raise CommandError("--list-rules prints text or json", returncode=EXIT_BAD_INPUT)
        self.stdout.write(cli.rules_as_json() if opts["format"] == "json" else cli.rules_as_text(), ending="")

"""manage.py explain FILE|DIR|- ... [--scenario FILE] [--k8s-version X.Y]
[--format text|json|sarif|junit|github] [--fail-on error|warning|info] [--summary]
[--disable RULE[,RULE]] [--enable RULE[,RULE]] [--config FILE | --no-config] [--color auto|always|never]
[--skip-non-kubernetes] [--list-rules]."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from explainer import cli_config
from explainer.lifecycle import defaults as d
from explainer.render.text import TextStyle
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
        parser.add_argument("--summary", action="store_true",
                            help="one line per finding: path:line: severity rule-id container: title")
        parser.add_argument("--disable", action="append", default=[], metavar="RULE[,RULE]",
                            help="do not run these rules (repeatable)")
        parser.add_argument("--enable", action="append", default=[], metavar="RULE[,RULE]",
                            help="run these rules although the config file disables them (repeatable)")
        parser.add_argument("--config", help=f"config file (default: the nearest {cli_config.CONFIG_NAME} "
                                             "in the working directory or a parent)")
        parser.add_argument("--no-config", dest="no_config", action="store_true",
                            help=f"ignore {cli_config.CONFIG_NAME} files")
        parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                            help="colour the text output (auto: when stdout is a terminal and NO_COLOR is unset)")
        parser.add_argument("--skip-non-kubernetes", dest="skip_foreign", action="store_true",
                            help="skip files with no Kubernetes object (apiVersion and kind) instead of "
                                 "reporting them; for hooks that see every YAML file")
        parser.add_argument("--list-rules", dest="list_rules", action="store_true",
                            help="print the catalogue of rules (text, or JSON with --format json)")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["list_rules"]:
            self._list_rules(opts)
            return
        if not opts["files"]:
            raise CommandError("give a manifest FILE, a directory, or - for standard input", returncode=EXIT_BAD_INPUT)
        try:
            config = self._config(opts)
            disabled = cli_config.disabled_rules(config, opts["disable"], opts["enable"])
        except cli_config.ConfigError as exc:
            raise CommandError(str(exc), returncode=EXIT_BAD_INPUT) from None
        extras = cli.Extras(disabled=disabled, summary=opts["summary"], style=self._style(opts),
                            skip_foreign=opts["skip_foreign"])
        outcome = cli.run(opts["files"], opts["scenario"], opts["version"] or config.version, opts["format"],
                          opts["fail_on"] or config.fail_on, settings.MAX_MANIFEST_BYTES, extras)
        if outcome.stdout is not None:
            self.stdout.write(outcome.stdout, ending="")
        for line in outcome.stderr:
            self.stderr.write(line)
        if outcome.code:
            sys.exit(outcome.code)

    @staticmethod
    def _config(opts: dict[str, Any]) -> cli_config.Config:
        if opts["no_config"]:
            return cli_config.Config()
        path = Path(opts["config"]) if opts["config"] else cli_config.find_config()
        return cli_config.load_config(path) if path else cli_config.Config()

    @staticmethod
    def _style(opts: dict[str, Any]) -> TextStyle:
        tty = sys.stdout.isatty()
        color = opts["color"] == "always" or (opts["color"] == "auto" and tty and not os.environ.get("NO_COLOR"))
        width = shutil.get_terminal_size((100, 24)).columns if tty else int(os.environ.get("COLUMNS") or 100)
        return TextStyle(width=max(width, 60), color=color)

    def _list_rules(self, opts: dict[str, Any]) -> None:
        if opts["files"]:
            raise CommandError("--list-rules takes no FILE", returncode=EXIT_BAD_INPUT)
        if opts["format"] not in ("text", "json"):
            raise CommandError("--list-rules prints text or json", returncode=EXIT_BAD_INPUT)
        self.stdout.write(cli.rules_as_json() if opts["format"] == "json" else cli.rules_as_text(), ending="")

"""manage.py explain FILE|DIR|- ... [--scenario FILE] [--k8s-version X.Y] [--format ...] [--fail-on ...]
[--list-rules] and every other flag of `podlife explain`, of which it is a thin wrapper."""
from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from explainer.cli import run as cli, main as podlife

EXIT_BAD_INPUT = cli.EXIT_BAD_INPUT


class Command(BaseCommand):
    help = podlife.EXPLAIN_HELP
    requires_system_checks: list[str] = []   # explaining a file needs no URLconf, models or database
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        podlife.add_explain_arguments(parser)

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            # the CLI's limit (16 MiB, or EXPLAINER_MAX_MANIFEST_BYTES when set), as podlife: it reads local files
            code = podlife.execute(opts, podlife.max_manifest_bytes(), _Verbatim(self.stdout),
                                   _Verbatim(self.stderr))
        except podlife.UsageError as exc:
            raise CommandError(str(exc), returncode=EXIT_BAD_INPUT) from None
        if code:
            sys.exit(code)


class _Verbatim:
    """Django's output wrapper writing text as given (podlife ends its own lines)."""

    def __init__(self, wrapper: Any) -> None:
        self.wrapper = wrapper

    def write(self, text: str) -> None:
        self.wrapper.write(text, ending="")

    def isatty(self) -> bool:
        return self.wrapper.isatty()

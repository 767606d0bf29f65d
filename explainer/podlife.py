"""`podlife`: the command line, straight into the core (no Django, no database, no URLconf).

    podlife explain FILE|DIR|- [FILE|DIR ...] [--scenario FILE] [--k8s-version X.Y]
                    [--format text|json|sarif|junit] [--fail-on error|warning|info]
    podlife explain --list-rules [--format json]

``manage.py explain`` is a thin wrapper over the same arguments and `execute` (cli.py does
the work); both print the same bytes and exit with the same codes: 0 explained, 1 a finding
at ``--fail-on`` or worse, 2 bad input.  Further subcommands can sit beside ``explain``.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from explainer import cli
from explainer.lifecycle import defaults as d

PROG = "podlife"
EXPLAIN_HELP = ("Explain how the kubelet starts, runs and stops the Pods of manifests. Exit 0 on success, "
                "1 when --fail-on finds a finding that bad, 2 on bad input.")
DEFAULT_MAX_BYTES = 1048576   # EXPLAINER_MAX_MANIFEST_BYTES, as in settings.py


class UsageError(Exception):
    """A command line that names nothing to do; exit 2 with this message."""


def add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``explain``, for podlife's parser and for Django's (the management command)."""
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


def execute(opts: dict, max_bytes: int, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``explain`` with parsed options; print; return the exit code.  UsageError for no work."""
    if opts["list_rules"]:
        if opts["files"]:
            raise UsageError("--list-rules takes no FILE")
        if opts["format"] not in ("text", "json"):
            raise UsageError("--list-rules prints text or json")
        stdout.write(cli.rules_as_json() if opts["format"] == "json" else cli.rules_as_text())
        return cli.EXIT_OK
    if not opts["files"]:
        raise UsageError("give a manifest FILE, a directory, or - for standard input")
    outcome = cli.run(opts["files"], opts["scenario"], opts["version"], opts["format"], opts["fail_on"],
                      max_bytes)
    if outcome.stdout is not None:
        stdout.write(outcome.stdout)
    for line in outcome.stderr:
        stderr.write(line + "\n")
    return outcome.code


def max_manifest_bytes() -> int:
    value = os.environ.get("EXPLAINER_MAX_MANIFEST_BYTES")
    if value is None:
        return DEFAULT_MAX_BYTES
    try:
        return int(value)
    except ValueError:
        raise UsageError(f"EXPLAINER_MAX_MANIFEST_BYTES must be an integer, got {value!r}") from None


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog=PROG, description="Pod Lifecycle Explainer on the command line.")
    commands = top.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_explain_arguments(commands.add_parser("explain", help=EXPLAIN_HELP, description=EXPLAIN_HELP))
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return execute(vars(args), max_manifest_bytes(), sys.stdout, sys.stderr)
    except UsageError as exc:
        sys.stderr.write(f"{PROG} {args.command}: error: {exc}\n")
        return cli.EXIT_BAD_INPUT
    except BrokenPipeError:   # `podlife explain ... | head`: the reader left; end as `cat` would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no second error at exit
        return 128 + 13   # what a shell reports for SIGPIPE


if __name__ == "__main__":
    sys.exit(main())

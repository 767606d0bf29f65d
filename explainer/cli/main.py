"""`podlife`: the command line, straight into the core (no Django, no database, no URLconf).

    podlife explain FILE|DIR|- [FILE|DIR ...] [-f FILE ...] [--scenario FILE] [--observed OBS ...]
                    [--k8s-version X.Y] [--format text|json|sarif|junit|github] [--fail-on error|warning|info] [--summary]
                    [--disable RULE[,RULE]] [--enable RULE[,RULE]] [--config FILE | --no-config]
                    [--color auto|always|never] [--skip-non-kubernetes] [--fix | --diff] [--max-bytes N]
    podlife explain --list-rules [--format json]
    kubectl podlife explain -f x.yaml      (the same program, installed as kubectl-podlife)

``manage.py explain`` is a thin wrapper over the same arguments and `execute` (cli/run.py does
the work); both print the same bytes and exit with the same codes: 0 explained, 1 a finding
at ``--fail-on`` or worse, 2 bad input, 3 nothing to explain (every input empty).  Further subcommands can sit beside ``explain``.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from explainer.cli import run as cli, config as cli_config
from explainer.lifecycle import defaults as d
from explainer.lifecycle.numbers import whole_number
from explainer.render.style import TextStyle

PROG = "podlife"
EXPLAIN_HELP = ("Explain how the kubelet starts, runs and stops the Pods of manifests. Exit 0 on success, "
                "1 when --fail-on finds a finding that bad, 2 on bad input, 3 when every input is empty "
                "(nothing to explain).")
# The CLI reads local files: whole install manifests (an operator's release bundle is 1-2 MB) fit in 16 MiB.
# --max-bytes sets it; EXPLAINER_MAX_MANIFEST_BYTES (the web's setting, which the CLI always read) still does.
DEFAULT_MAX_BYTES = 16 * 1024 * 1024


class UsageError(Exception):
    """A command line that names nothing to do; exit 2 with this message."""


def add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``explain``, for podlife's parser and for Django's (the management command)."""
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="manifest files (YAML or JSON), directories (walked for *.yaml, *.yml, "
                             "*.json), or - for standard input")
    parser.add_argument("-f", "--filename", dest="filenames", action="append", default=[], metavar="FILE",
                        help="a manifest file or directory, as kubectl takes it (repeatable; adds to FILE)")
    parser.add_argument("--scenario", help="scenario file: how containers behave, deletion, debug")
    parser.add_argument("--observed", action="append", default=[], metavar="OBS",
                        help="what the cluster shows, compared with the prediction: a file of kubectl's output "
                             "(get pod -o yaml|json, get events, describe pod, get pod), or - for standard "
                             "input (repeatable: read as one text, in order)")
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
    parser.add_argument("--config", help=f"config file (default: the nearest {cli_config.CONFIG_NAME} in the "
                                         "working directory or a parent)")
    parser.add_argument("--no-config", dest="no_config", action="store_true",
                        help=f"ignore {cli_config.CONFIG_NAME} files")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour the text output (auto: when stdout is a terminal and NO_COLOR is unset)")
    parser.add_argument("--skip-non-kubernetes", dest="skip_foreign", action="store_true",
                        help="skip files with no Kubernetes object (apiVersion and kind) instead of reporting "
                             "them; for hooks that see every YAML file")
    fixing = parser.add_mutually_exclusive_group()
    fixing.add_argument("--fix", dest="fix", action="store_const", const="fix",
                        help="apply every fix that needs no human choice, rewriting the files in place "
                             "(comments and formatting kept), then explain the result and list what still "
                             "needs a person (on standard error)")
    fixing.add_argument("--diff", dest="fix", action="store_const", const="diff",
                        help="like --fix, but print the changes as a unified diff instead of writing them")
    parser.add_argument("--max-bytes", dest="max_bytes", type=_byte_count, metavar="N",
                        help=f"largest input file in bytes (default {DEFAULT_MAX_BYTES:,}, 16 MiB, or "
                             "EXPLAINER_MAX_MANIFEST_BYTES when set)")
    parser.add_argument("--list-rules", dest="list_rules", action="store_true",
                        help="print the catalogue of rules (text, or JSON with --format json)")


def _byte_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of bytes, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1 byte, not {value}")
    return value


def execute(opts: dict, max_bytes: int, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``explain`` with parsed options; print; return the exit code.  UsageError for no work.
    ``max_bytes`` is the default size limit; ``--max-bytes`` overrides it."""
    max_bytes = opts.get("max_bytes") or max_bytes
    if opts["list_rules"]:
        if opts["files"]:
            raise UsageError("--list-rules takes no FILE")
        if opts.get("fix"):
            raise UsageError(f"--list-rules fixes nothing; drop --{opts['fix']}")
        if opts["format"] not in ("text", "json"):
            raise UsageError("--list-rules prints text or json")
        stdout.write(cli.rules_as_json() if opts["format"] == "json" else cli.rules_as_text())
        return cli.EXIT_OK
    files = opts["files"] + opts["filenames"]
    if not files:
        raise UsageError("give a manifest FILE, a directory, or - for standard input")
    if opts.get("fix") == "fix" and "-" in files:
        raise UsageError("--fix rewrites files; for standard input use --diff")
    try:
        config = _config(opts)
        disabled = cli_config.disabled_rules(config, opts["disable"], opts["enable"])
    except cli_config.ConfigError as exc:
        raise UsageError(str(exc)) from None
    observed = tuple(opts.get("observed") or ())
    if observed.count("-") + files.count("-") > 1:
        raise UsageError("standard input (-) can be read once: give it to FILE or to one --observed")
    extras = cli.Extras(disabled=disabled, summary=opts["summary"], style=_style(opts, stdout),
                        skip_foreign=opts["skip_foreign"], fix=opts.get("fix"), observed=observed)
    outcome = cli.run(files, opts["scenario"], opts["version"] or config.version, opts["format"],
                      opts["fail_on"] or config.fail_on, max_bytes, extras)
    if outcome.stdout is not None:
        stdout.write(outcome.stdout)
    for line in outcome.stderr:
        stderr.write(line + "\n")
    return outcome.code


def _config(opts: dict) -> cli_config.Config:
    """The config file: --config, else the nearest .podlife.yaml upward; none with --no-config."""
    if opts["no_config"]:
        return cli_config.Config()
    path = Path(opts["config"]) if opts["config"] else cli_config.find_config()
    return cli_config.load_config(path) if path else cli_config.Config()


def _style(opts: dict, stdout: TextIO) -> TextStyle:
    """Wrap to the terminal (COLUMNS, or 100, when not a terminal); colour only on a terminal
    without NO_COLOR (https://no-color.org), or when --color always asks for it."""
    tty = getattr(stdout, "isatty", lambda: False)()
    color = opts["color"] == "always" or (opts["color"] == "auto" and tty and not os.environ.get("NO_COLOR"))
    if tty:
        width = shutil.get_terminal_size((100, 24)).columns
    else:
        columns = os.environ.get("COLUMNS", "")
        width = whole_number(columns, 6) or 100
    return TextStyle(width=max(width, 60), color=color)


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

"""What the rules read of one container, worked out once per rule context.

Many rules ask the same questions of a container (what it runs, which ports it listens on and
reaches on localhost, whether it is an outbound proxy, how long one run lasts).  `RuleContext.facts`
gives each container one `Facts`, whose answers are `functools.cached_property`s: each is worked
out the first time a rule asks, and kept for as long as the context lives (one Pod's rules in
`run_rules`).  A rule timed or tested with a context of its own pays for what it reads, and
nothing is kept from one Pod, or one explain() call, to the next.

The answers are pure functions of the container and its Pod (helpers.py, scripts.py and the
core's readings), which do not change while the rules run; they are shared, so callers must not
modify what they get back.
"""
from __future__ import annotations

from functools import cached_property

from explainer.lifecycle.commands import RunGuess, guess_run
from explainer.lifecycle.evidence import Bind, loopback_bind
from explainer.lifecycle.model import Container, Pod
from explainer.lifecycle.probe_reach import ProbeFault, probe_faults

from . import helpers, scripts


class Facts:
    """One container's readings (``c`` of ``pod``), each computed once."""

    def __init__(self, c: Container, pod: Pod) -> None:
        self.c, self.pod = c, pod

    @cached_property
    def program(self) -> str | None:
        """The program it runs as its main process, when its command says so (scripts.py `program`)."""
        return scripts.program(self.c)

    @cached_property
    def names(self) -> set[str]:
        """Every word that stands for it: its name, its image's name and its program."""
        return scripts.names_of(self.c, self.program)

    @cached_property
    def words(self) -> list[str]:
        return helpers.words(self.c, self.program)

    @cached_property
    def outbound_kind(self) -> str | None:
        """Which outbound helper it is (a key of helpers.OUTBOUND), or None."""
        return helpers.outbound_kind(self.c, self.words)

    @cached_property
    def calls_on_change(self) -> bool:
        """A configuration reloader: it dials what it dials when a file changes."""
        return helpers.calls_on_change(self.c, self.words)

    @cached_property
    def inbound_or_exporter(self) -> bool:
        """A reverse proxy in front of the app, or an exporter scraping it."""
        return self.outbound_kind is None and helpers.inbound_or_exporter_words(self.words)

    @cached_property
    def listen_ports(self) -> list[int]:
        """Ports it listens on, best first (helpers.py `listen_ports`)."""
        return helpers.listen_ports(self.c)

    @cached_property
    def reachable(self) -> dict[int, str]:
        """Every port it reaches on localhost -> the field that says so."""
        return helpers.reachable(self.c)

    @cached_property
    def waited_ports(self) -> set[int]:
        """Ports it waits for in an until/while loop before it goes on."""
        return helpers.waited_ports(self.c)

    @cached_property
    def mentioned_paths(self) -> dict[str, str]:
        """Every absolute path its command, args, hooks and env name -> the first field naming it."""
        return scripts.mentioned_paths(self.c)

    @cached_property
    def localhost_use(self) -> tuple[set[int], set[int]]:
        """(ports it reaches on localhost, ports it explicitly waits for)."""
        return scripts.localhost_use(self.c)

    @cached_property
    def looks_like_proxy(self) -> bool:
        return scripts.looks_like_proxy(self.c)

    @cached_property
    def run_guess(self) -> RunGuess:
        """What one run of its command does (commands.py `guess_run`, a finite default)."""
        return guess_run(self.c, True)

    @cached_property
    def loopback_bind(self) -> Bind | None:
        """Its server bound to loopback only, as its command or env says (evidence.py)."""
        return loopback_bind(self.c)

    @cached_property
    def probe_faults(self) -> dict[str, ProbeFault]:
        """Its probes that cannot pass, and why (probe_reach.py)."""
        return probe_faults(self.c, self.pod)

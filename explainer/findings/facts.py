"""What the rules read of one container, worked out once per rule context.

Many rules ask the same questions of a container (what it runs, which ports it listens on and
reaches on localhost, whether it is an outbound proxy, how long one run lasts).  `RuleContext.facts`
gives each container one `Facts`, whose answers are cached properties (`answer`): each is worked
out the first time a rule asks, and kept for as long as the context lives (one Pod's rules in
`run_rules`).  A rule timed or tested with a context of its own pays for what it reads, and
nothing is kept from one Pod, or one explain() call, to the next.

The answers are pure functions of the container and its Pod (helpers.py, scripts.py and the
core's readings), which do not change while the rules run; they are shared, so callers must not
modify what they get back.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

from explainer.lifecycle.commands.guess import RunGuess, guess_run
from explainer.lifecycle.commands.evidence import Bind, loopback_bind
from explainer.lifecycle.model import Container, Pod
from explainer.lifecycle.commands.probe_faults import ProbeFault, probe_faults

from . import helpers, scripts

T = TypeVar("T")
_UNREAD: Any = object()     # an answer's slot before it is first read


class answer(Generic[T]):   # noqa: N801  (used as a decorator, as functools.cached_property is)
    """A cached property of a slotted class: the first read computes the value and keeps it in the slot
    ``_<name>`` (which the class declares), every later read finds it there.  `functools.cached_property`
    needs an instance ``__dict__`` (an allocation per object, and more for the collector to walk) and takes a
    lock on every first read in Python 3.11.  A rule context is read by one thread."""

    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn, self.__doc__ = fn, fn.__doc__
        self.slot: Any = None

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = owner.__dict__[f"_{name}"]      # the member descriptor of the slot that keeps the value

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> answer[T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> T | answer[T]:
        if obj is None:
            return self
        value = self.slot.__get__(obj)
        if value is _UNREAD:
            value = self.fn(obj)
            self.slot.__set__(obj, value)
        return value  # type: ignore[no-any-return]


class Facts:
    """One container's readings (``c`` of ``pod``), each computed once."""

    __slots__ = ("c", "pod", "_program", "_names", "_words", "_outbound_kind", "_calls_on_change",
                 "_inbound_or_exporter", "_listen_ports", "_reachable", "_waited_ports", "_mentioned_paths",
                 "_localhost_use", "_looks_like_proxy", "_run_guess", "_loopback_bind", "_probe_faults")

    def __init__(self, c: Container, pod: Pod) -> None:
        self.c, self.pod = c, pod
        self._program = self._names = self._words = self._outbound_kind = self._calls_on_change = \
            self._inbound_or_exporter = self._listen_ports = self._reachable = self._waited_ports = \
            self._mentioned_paths = self._localhost_use = self._looks_like_proxy = self._run_guess = \
            self._loopback_bind = self._probe_faults = _UNREAD

    @answer
    def program(self) -> str | None:
        """The program it runs as its main process, when its command says so (scripts.py `program`)."""
        return scripts.program(self.c)

    @answer
    def names(self) -> set[str]:
        """Every word that stands for it: its name, its image's name and its program."""
        return scripts.names_of(self.c, self.program)

    @answer
    def words(self) -> list[str]:
        return helpers.words(self.c, self.program)

    @answer
    def outbound_kind(self) -> str | None:
        """Which outbound helper it is (a key of helpers.OUTBOUND), or None."""
        return helpers.outbound_kind(self.c, self.words)

    @answer
    def calls_on_change(self) -> bool:
        """A configuration reloader: it dials what it dials when a file changes."""
        return helpers.calls_on_change(self.c, self.words)

    @answer
    def inbound_or_exporter(self) -> bool:
        """A reverse proxy in front of the app, or an exporter scraping it."""
        return self.outbound_kind is None and helpers.inbound_or_exporter_words(self.words)

    @answer
    def listen_ports(self) -> list[int]:
        """Ports it listens on, best first (helpers.py `listen_ports`)."""
        return helpers.listen_ports(self.c)

    @answer
    def reachable(self) -> dict[int, str]:
        """Every port it reaches on localhost -> the field that says so."""
        return helpers.reachable(self.c)

    @answer
    def waited_ports(self) -> set[int]:
        """Ports it waits for in an until/while loop before it goes on."""
        return helpers.waited_ports(self.c)

    @answer
    def mentioned_paths(self) -> dict[str, str]:
        """Every absolute path its command, args, hooks and env name -> the first field naming it."""
        return scripts.mentioned_paths(self.c)

    @answer
    def localhost_use(self) -> tuple[set[int], set[int]]:
        """(ports it reaches on localhost, ports it explicitly waits for)."""
        return scripts.localhost_use(self.c)

    @answer
    def looks_like_proxy(self) -> bool:
        return scripts.looks_like_proxy(self.c)

    @answer
    def run_guess(self) -> RunGuess:
        """What one run of its command does (commands/guess.py `guess_run`, a finite default)."""
        return guess_run(self.c, True)

    @answer
    def loopback_bind(self) -> Bind | None:
        """Its server bound to loopback only, as its command or env says (evidence.py)."""
        return loopback_bind(self.c)

    @answer
    def probe_faults(self) -> dict[str, ProbeFault]:
        """Its probes that cannot pass, and why (commands/probe_faults.py)."""
        return probe_faults(self.c, self.pod)

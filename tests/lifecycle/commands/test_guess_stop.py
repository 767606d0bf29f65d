"""How the main process answers SIGTERM, read from its command (commands/guess.py `guess_stop`): a table.

`bash -c` with one simple command execs that program (bash's ONESHOT), so the program is PID 1; a
list, a pipe or a loop keeps bash as PID 1, which ignores SIGTERM unless it traps it."""
from __future__ import annotations

import pytest

from explainer.lifecycle.model import Container

CASES = [
    # (command, args, ignores SIGTERM?)
    (("/bin/bash",), ("-c", "/entrypoint.sh --server-id=$((20 + $(echo $HOSTNAME | grep -o '[^-]*$') + 1)) "
                             "--report-host=${HOSTNAME}.mysql"), False),   # GKE's stateful-mysql sample
    (("bash", "-c"), ("FOO=1 node server.js --port ${PORT:-8080}",), False),
    (("bash", "-ec", "sleep 3600"), (), True),             # the one program is sleep: no handler as PID 1
    (("bash", "-c", "echo start; node server.js"), (), True),   # a list: bash stays PID 1
    (("bash", "-c", "node a.js | tee log"), (), True),     # a pipe
    (("bash", "-c", "trap 'exit 0' TERM; sleep 10 & wait"), (), False),   # traps TERM
    (("sh", "-c", "node server.js"), (), True),            # not bash: not assumed (dash versions differ)
    (("bash", "-c", "exec node server.js"), (), False),
]


@pytest.mark.parametrize("command,args,ignores", CASES)
def test_what_is_pid1_and_whether_it_ignores_sigterm(command, args, ignores) -> None:
    from explainer.lifecycle.commands.guess import guess_stop
    c = Container(name="app", role="app", index=0, image="example/app:1.0", path="spec.containers[0]", line=None,
                  command=tuple(command), args=tuple(args))
    seconds, _why = guess_stop(c)
    assert (seconds is None) == ignores

"""`make bench`, issue 23: reading kubectl's output costs no more than explaining the Pod it is about.

A 5,000-line paste (describe of a crash-looping Pod, then its events as `kubectl get events` prints them)
is read (`read_observed`) against one `explain()` of the same Pod; the goal is 2x.  For information: the
same against explain() over the two hours the paste shows (the scenario it writes), and the whole
comparison (explain with the paste) against explain alone."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from explainer.explain import explain
from explainer.lifecycle.observed import read_observed
from explainer.lifecycle.observed.times import human_duration

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "tests" / "fixtures" / "observed" / "manifests" / "liveness-exec.yaml"
DESCRIBE = """Name:         liveness-exec
Namespace:    default
Priority:     0
Node:         node01/10.0.0.7
Start Time:   Wed, 01 May 2024 10:00:00 +0000
Labels:       test=liveness
Annotations:  <none>
Status:       Running
IP:           10.244.1.9
Containers:
  liveness:
    Container ID:  containerd://4d774ed85d5d
    Image:         registry.k8s.io/busybox
    Args:
      /bin/sh
      -c
      touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600
    State:          Running
      Started:      Wed, 01 May 2024 11:59:10 +0000
    Last State:     Terminated
      Reason:       Error
      Exit Code:    137
      Started:      Wed, 01 May 2024 11:53:40 +0000
      Finished:     Wed, 01 May 2024 11:54:25 +0000
    Ready:          True
    Restart Count:  61
    Liveness:       exec [cat /tmp/healthy] delay=5s timeout=1s period=5s #success=1 #failure=3
    Environment:    <none>
    Mounts:
      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-x (ro)
Conditions:
  Type              Status
  Initialized       True
  Ready             True
  ContainersReady   True
  PodScheduled      True
Events:
  Type     Reason     Age                  From               Message
  ----     ------     ----                 ----               -------
  Normal   Scheduled  2h                   default-scheduler  Successfully assigned default/liveness-exec to node01
"""
_REASONS = [("Warning", "Unhealthy", "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory"),
            ("Normal", "Killing", "Container liveness failed liveness probe, will be restarted"),
            ("Normal", "Pulled", "Container image \"registry.k8s.io/busybox\" already present on machine"),
            ("Normal", "Created", "Created container liveness"), ("Normal", "Started", "Started container liveness"),
            ("Warning", "BackOff", "Back-off restarting failed container liveness in pod liveness-exec_default")]


def paste(lines: int = 5000) -> str:
    """A describe, then `kubectl get events` rows, ``lines`` lines in all."""
    head = DESCRIBE.split("\n")
    rows = ["LAST SEEN   TYPE      REASON      OBJECT              MESSAGE"]
    i = 0
    while len(head) + len(rows) < lines:
        kind, reason, message = _REASONS[i % len(_REASONS)]
        rows.append(f"{human_duration(7200 - i):10}  {kind:8}  {reason:10}  pod/liveness-exec   {message}")
        i += 1
    return "\n".join(head + rows) + "\n"


def bench_observed(paired: Callable[..., Any], goal: Callable[..., bool]) -> bool:
    manifest = MANIFEST.read_text(encoding="utf-8")
    text = paste()
    assert len(text.splitlines()) == 5000
    obs = read_observed(text)
    assert len(obs.events) > 4900 and not obs.unread, (len(obs.events), obs.unread[:3])
    print("\nObserved output (issue 23): reading a paste against one explain() of the same Pod")
    ok = goal("5,000-line describe/events paste: read / explain() of the Pod",
              paired(lambda: read_observed(text), lambda: explain(manifest), 11), 2)
    same = explain(manifest, observed=text).pods[0].observed.scenario     # the two hours the paste shows
    hours = paired(lambda: read_observed(text), lambda: explain(manifest, same), 11)
    print(f"  {'the same, against explain() over the two hours it shows (info)':62} {hours}")
    both = paired(lambda: explain(manifest, observed=text), lambda: explain(manifest), 7)
    print(f"  {'explain() with the paste / explain() alone (for information)':62} {both}")
    return ok

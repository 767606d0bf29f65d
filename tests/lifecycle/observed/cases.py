"""Small observations, one per kind of divergence, for the divergence and reproduction tests."""
from __future__ import annotations

import json
from typing import Any

T0 = "2024-05-01T10:00:00Z"


def stamp(seconds: float) -> str:
    whole = int(seconds)
    return f"2024-05-01T10:{whole // 60:02d}:{whole % 60:02d}Z"


def pod(containers: list[dict[str, Any]], policy: str = "Always") -> str:
    return json.dumps({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
                       "spec": {"restartPolicy": policy, "containers": containers}})


def status(statuses: list[dict[str, Any]], conditions: list[dict[str, Any]] = (), phase: str = "Running",
           meta: dict[str, Any] | None = None) -> str:
    return json.dumps({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", **(meta or {})},
                       "status": {"phase": phase, "startTime": T0, "conditions": list(conditions),
                                  "containerStatuses": statuses}})


def running(name: str = "app", since: float = 1, restarts: int = 0, ready: bool = True,
            last: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "ready": ready, "started": True, "restartCount": restarts,
                           "state": {"running": {"startedAt": stamp(since)}}}
    if last is not None:
        out["lastState"] = {"terminated": last}
    return out


def ended(code: int, reason: str, start: float, end: float) -> dict[str, Any]:
    return {"exitCode": code, "reason": reason, "startedAt": stamp(start), "finishedAt": stamp(end)}


NGINX = [{"name": "app", "image": "nginx:1.27"}]
PROBED = [{"name": "app", "image": "nginx:1.27",
           "readinessProbe": {"httpGet": {"path": "/ready", "port": 80}, "periodSeconds": 5}}]
FINITE = [{"name": "app", "image": "busybox:1.36", "command": ["sh", "-c", "echo hello"]}]

DESCRIBE_EVENTS = """Name:         web
Events:
  Type    Reason     Age   From               Message
  ----    ------     ----  ----               -------
{rows}
"""

# kind -> (manifest, paste)
CASES: dict[str, tuple[str, str]] = {
    "completed-restarted": (pod(NGINX), status([running(since=95, restarts=3, last=ended(0, "Completed", 60, 62))])),
    "crashed": (pod(NGINX), status([running(since=95, restarts=3, last=ended(1, "Error", 60, 62))],
                                    [{"type": "Ready", "status": "True", "lastTransitionTime": stamp(200)}])),
    "oom-killed": (pod(NGINX), status([{"name": "app", "restartCount": 2, "ready": False,
                                         "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                                         "lastState": {"terminated": ended(137, "OOMKilled", 70, 100)}}])),
    "image-pull-failed": (pod(NGINX), status([{"name": "app", "restartCount": 0, "ready": False,
                                                "state": {"waiting": {"reason": "ImagePullBackOff"}}}],
                                              [{"type": "PodScheduled", "status": "True",
                                                "lastTransitionTime": stamp(90)}], "Pending")),
    "cannot-start": (pod(NGINX), status([{"name": "app", "restartCount": 0, "ready": False,
                                           "state": {"waiting": {"reason": "CreateContainerConfigError"}}}],
                                         phase="Pending")),
    "slow-image-pull": (pod(NGINX), DESCRIBE_EVENTS.format(rows="\n".join([
        "  Normal  Scheduled  60s   default-scheduler  Successfully assigned default/web to n",
        "  Normal  Pulling    58s   kubelet            Pulling image \"nginx:1.27\"",
        "  Normal  Pulled     30s   kubelet            Successfully pulled image",
        "  Normal  Started    29s   kubelet            Started container app"]))),
    "late-start": (pod(NGINX), DESCRIBE_EVENTS.format(rows="\n".join([
        "  Normal  Scheduled  60s   default-scheduler  Successfully assigned default/web to n",
        "  Normal  Started    40s   kubelet            Started container app"]))),
    "late-ready": (pod(PROBED), status([running(since=1)], [{"type": "Ready", "status": "True",
                                                              "lastTransitionTime": stamp(46)}])),
    "never-ready": (pod(PROBED), """Name:         web
Status:       Running
Containers:
  app:
    State:          Running
      Started:      Wed, 01 May 2024 10:00:01 +0000
    Ready:          False
    Restart Count:  0
Events:
  Type     Reason     Age                 From               Message
  ----     ------     ----                ----               -------
  Normal   Scheduled  120s                default-scheduler  Successfully assigned default/web to n
  Warning  Unhealthy  5s (x20 over 110s)  kubelet            Readiness probe failed: HTTP probe failed with statuscode: 503
"""),
    "deleted": (pod(NGINX), status([running(since=1)], meta={"deletionTimestamp": stamp(90),
                                                               "deletionGracePeriodSeconds": 30})),
    "not-observed": (pod(FINITE), status([running(since=1)], [{"type": "Ready", "status": "True",
                                                                "lastTransitionTime": stamp(280)}])),
    "exited": (pod(NGINX, "Never"), status([{"name": "app", "restartCount": 0, "ready": False,
                                              "state": {"terminated": ended(0, "Completed", 1, 50)}}],
                                            phase="Succeeded")),
    "status": (pod(NGINX), "NAME   READY   STATUS        RESTARTS   AGE\nweb    0/1     Terminating   0          30s\n"),
}

"""Generated Pods of any size, for `make bench` and the tests of large Pods."""
from __future__ import annotations

from typing import Any

import yaml


def generated_pod(n: int) -> str:
    """A Pod with ``n`` containers: a fifth plain init, a tenth native sidecars, the rest apps,
    with probes and hooks on many of them."""
    inits, sidecars = [], []
    apps = []
    for i in range(n):
        if i % 10 == 0:
            sidecars.append({
                "name": f"sidecar-{i}", "image": "envoyproxy/envoy:v1.30", "restartPolicy": "Always",
                "startupProbe": {"tcpSocket": {"port": 15000 + i}, "periodSeconds": 2, "failureThreshold": 10},
                "readinessProbe": {"httpGet": {"path": "/ready", "port": 15000 + i}, "periodSeconds": 5},
                "lifecycle": {"preStop": {"exec": {"command": ["sh", "-c", "sleep 2"]}}},
            })
        elif i % 5 == 0:
            inits.append({"name": f"init-{i}", "image": "alpine:3.20", "command": ["sh", "-c", "sleep 1"]})
        else:
            app: dict[str, Any] = {"name": f"app-{i}", "image": "example/app:1.0",
                                   "ports": [{"containerPort": 8000 + i}],
                                   "readinessProbe": {"httpGet": {"path": "/ready", "port": 8000 + i},
                                                      "periodSeconds": 5},
                                   "livenessProbe": {"httpGet": {"path": "/live", "port": 8000 + i},
                                                     "periodSeconds": 10},
                                   "resources": {"requests": {"cpu": "10m", "memory": "16Mi"}}}
            if i % 3 == 0:
                app["startupProbe"] = {"httpGet": {"path": "/started", "port": 8000 + i}, "periodSeconds": 5,
                                       "failureThreshold": 30}
            if i % 7 == 0:
                app["lifecycle"] = {"postStart": {"exec": {"command": ["sh", "-c", "echo started"]}},
                                    "preStop": {"sleep": {"seconds": 3}}}
            apps.append(app)
    init_containers = []
    for i in range(max(len(inits), len(sidecars))):   # interleave plain init containers and sidecars
        init_containers += sidecars[i:i + 1] + inits[i:i + 1]
    doc = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"generated-{n}"},
           "spec": {"terminationGracePeriodSeconds": 30, "initContainers": init_containers, "containers": apps}}
    return yaml.safe_dump(doc, sort_keys=False)

"""Hostile inputs shared by the tests and `make bench` (which times them)."""
from __future__ import annotations

import yaml


def billion_laughs() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev, cur = chr(96 + i), chr(97 + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\nkind: Pod\n"


def deep_nesting(depth: int = 10_000) -> str:
    return "kind: Pod\nspec: " + "[" * depth + "]" * depth + "\n"


def deep_block_nesting(depth: int = 1_000) -> str:
    return "kind: Pod\n" + "".join(" " * i + f"k{i}:\n" for i in range(depth))


def oversized(size: int = 1024 * 1024 + 10) -> str:
    return "# " + "x" * size + "\nkind: Pod\n"


def binary() -> str:
    return bytes(range(256)).decode("latin-1") * 4


def wrong_types() -> str:
    return """apiVersion: v1
kind: Pod
metadata: [not, a, mapping]
spec:
  restartPolicy: 7
  terminationGracePeriodSeconds: "thirty"
  initContainers: {name: x}
  containers:
    - name: 12
      image: [a]
      ports: "8080"
      command: sh -c
      livenessProbe: "yes"
      resources: []
    - "just a string"
  volumes: 5
"""


def many_containers(n: int) -> str:
    doc = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "many"},
           "spec": {"containers": [{"name": f"c{i}", "image": "busybox"} for i in range(n)]}}
    return yaml.safe_dump(doc)


CASES = {
    "billion laughs": billion_laughs,
    "10,000-deep flow nesting": deep_nesting,
    "1,000-deep block nesting": deep_block_nesting,
    "1 MiB + 10 bytes": oversized,
    "binary data": binary,
    "wrong types everywhere": wrong_types,
    "501 containers": lambda: many_containers(501),
}


# ---- observed output (issue 23): what a paste of kubectl's output may hold at its worst ----------------
def observed_laughs() -> str:
    return "status:\n  " + billion_laughs().replace("\n", "\n  ")


def observed_one_long_line(size: int = 1_000_000) -> str:
    return "Normal Scheduled " + "1m" * (size // 2) + " default-scheduler x"


def observed_many_event_rows(n: int = 15_000) -> str:
    return "Events:\n" + "".join(f"  Warning  BackOff  {i % 59 + 1}s (x{i} over 5m)  kubelet  Back-off\n"
                                 for i in range(n))


def observed_ages_and_brackets(n: int = 40_000) -> str:
    return "10s (x" * n + "\n" + "Normal " * n + "\n" + "{" * n + "\n" + "spec.containers{" * (n // 10)


def observed_many_pods(n: int = 15_000) -> str:
    return "".join(f"Name: p{i}\nStatus: Running\nContainers:\n c:\n State: Running\n" for i in range(n))


OBSERVED_CASES = {
    "billion laughs in a status": observed_laughs,
    "10,000-deep flow nesting": deep_nesting,
    "1 MiB + 10 bytes": oversized,
    "binary data": binary,
    "one line of a megabyte": observed_one_long_line,
    "15,000 event rows": observed_many_event_rows,
    "runs of half-patterns": observed_ages_and_brackets,
    "15,000 described Pods": observed_many_pods,
}

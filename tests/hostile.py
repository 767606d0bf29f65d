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

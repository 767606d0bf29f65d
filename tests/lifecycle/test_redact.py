"""Credential scan (issue 11): linear time on adversarial input, the patterns it must not miss."""
from __future__ import annotations

import json
import time

import pytest
import yaml

from explainer.lifecycle.redact import LAST_APPLIED, REDACTED, find_secrets, redact

LIMIT = 1024 * 1024   # the largest manifest the explainer reads (the stored limit is smaller)


def _adversarial() -> dict[str, str]:
    """Inputs that made the old patterns scan to the end of the text from every candidate start."""
    def comment(unit: str) -> str:
        return "# " + unit * ((LIMIT - 20) // len(unit)) + "\nkind: Pod\n"
    return {
        "JWT prefixes": comment("eyJ-"),
        "JWT segments": comment("eyJaaaaaaaaaaaa."),
        "PEM headers": comment("-----BEGIN RSA PRIVATE KEY-----"),
        "PEM header letters": "-----BEGIN " + "A " * (LIMIT // 2 - 8),
        "Slack prefixes": comment("xoxb-"),
        "password options": comment("-token="),
        "long options": comment("--db-password "),
        "mysql": comment("mysql "),
        "URL user parts": comment("://a:"),
        "bearer": comment("bearer "),
        "API keys": comment("sk_live_"),
        "one long line of word characters": "x" * LIMIT,
        "many lines": "a: b\n" * (LIMIT // 5),
    }


@pytest.mark.parametrize("name", sorted(_adversarial()))
def test_the_scan_is_fast_on_adversarial_input_at_the_size_limit(name: str) -> None:
    text = _adversarial()[name]
    assert len(text.encode()) <= LIMIT
    started = time.process_time()
    find_secrets(text)
    redact(text)
    spent = time.process_time() - started
    assert spent < 1.0, f"{name}: {spent:.2f} s of CPU"


POD = """apiVersion: v1
kind: Pod
metadata:
  name: leaky
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"leaky"},"spec":{"containers":[{"name":"app","image":"app","env":[{"name":"DB_PASSWORD","value":"s3cret-in-annotation"}]}]}}
spec:
  containers:
  - name: app
    image: app:1
    args: ["--db-password", "hunter2", "--port", "8080"]
    env:
    - {name: STRIPE, value: sk_live_4eC39HqLyjWDarjtT1zdp7dc}
  - name: db-client
    image: mysql:8
    command: [mysql, -uroot, -phunter3, -h, db]
  - name: shell
    image: busybox
    command: [sh, -c, "migrate --admin-password letmein && mysql -u root -pquux42 -e 'select 1'"]
"""


def test_missing_patterns_are_found() -> None:
    hits = {(h.line, h.what) for h in find_secrets(POD)}
    assert (6, f"the annotation {LAST_APPLIED} (a copy of the manifest with its credentials)") in hits
    assert (12, "the value of --db-password for app") in hits
    assert (14, "an API secret key") in hits
    assert (17, "the value of -p for db-client") in hits
    assert (20, "a password in a command") in hits


def test_redaction_removes_every_found_value_and_keeps_the_manifest_valid() -> None:
    out = redact(POD)
    for secret in ("hunter2", "hunter3", "sk_live_4eC39", "letmein", "quux42", "s3cret-in-annotation"):
        assert secret not in out, secret
    assert len(out.split("\n")) == len(POD.split("\n"))   # line numbers still match
    doc = yaml.safe_load(out)
    app, client, shell = doc["spec"]["containers"]
    assert app["args"] == ["--db-password", REDACTED, "--port", "8080"]
    assert client["command"] == ["mysql", "-uroot", f"-p{REDACTED}", "-h", "db"]
    assert shell["command"][2] == f"migrate --admin-password {REDACTED} && mysql -u root -p{REDACTED} -e 'select 1'"
    assert doc["metadata"]["annotations"][LAST_APPLIED] == REDACTED
    assert find_secrets(out) == []


def test_a_clean_annotation_and_ordinary_options_are_not_flagged() -> None:
    clean = {"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "a", "image": "nginx"}]}}
    text = (f"metadata:\n  annotations:\n    {LAST_APPLIED}: {json.dumps(json.dumps(clean))}\n"
            "spec:\n  containers:\n  - name: a\n    image: nginx\n"
            "    args: [--token-file, /var/run/token, --password-file=/etc/pw, -p, '8080', --secret-name, $(NAME)]\n")
    assert find_secrets(text) == []


def test_pem_blocks_are_paired_in_one_pass() -> None:
    key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----"
    text = f"a: |\n  x\nb: |\n  {key.replace(chr(10), chr(10) + '  ')}\nc: -----BEGIN EC PRIVATE KEY----- cut off\n"
    lines = [h.line for h in find_secrets(text)]
    assert lines == [4, 7]
    out = redact(text)
    assert "MIIEow" not in out and out.count("\n") == text.count("\n")

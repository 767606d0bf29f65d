"""Credential scan (issue 11): linear time on adversarial input, the patterns it must not miss."""
from __future__ import annotations

import json
import re
import time

import pytest
import yaml
from hypothesis import assume, given, settings, strategies as st

from explainer.web.redact.credentials import LAST_APPLIED, REDACTED, RedactionFailed, _standing, find_secrets, redact
from tests.profiles import examples

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


# ---- redacting the parsed document (issue 27) -----------------------------------------------------------
CASES = """apiVersion: v1
kind: ConfigMap
metadata: {name: app-config}
data:
  password: cm-hunter-one
  DB_PASSWORD: "cm-hunter-two"
  LOG_LEVEL: debug
  application.properties: |
    spring.datasource.url=jdbc:postgresql://db/app
    spring.datasource.password = props-hunter-three
    server.port=8080
---
apiVersion: v1
kind: Pod
metadata: {name: leaky}
x-shared: &pw anchored-hunter-four
spec:
  containers:
  - name: app
    image: app:1
    env:
    - name: DB_PASSWORD
      value: "multi-line-hunter-five
        second-line-hunter-six"
    - {name: ADMIN_PASSWORD, value: *pw}
    - {name: DB_PW, value: pw-hunter-seven}
    - {name: SIGNING_KEY, value: signing-hunter-eight}
    - {name: PUBLIC_KEY, value: not-a-secret}
    - {name: LOG_LEVEL, value: info}
    readinessProbe:
      httpGet:
        path: /ready
        port: 8080
        httpHeaders:
        - {name: Authorization, value: Basic aHVudGVyOm5pbmU=}
        - {name: Accept, value: application/json}
"""
SECRETS = ("cm-hunter-one", "cm-hunter-two", "props-hunter-three", "anchored-hunter-four", "multi-line-hunter-five",
           "second-line-hunter-six", "pw-hunter-seven", "signing-hunter-eight", "aHVudGVyOm5pbmU=")


def test_every_case_of_the_issue_is_found() -> None:
    hits = {h.what for h in find_secrets(CASES)}
    assert {"ConfigMap app-config: data.password", "ConfigMap app-config: data.DB_PASSWORD",
            "spring.datasource.password in application.properties of ConfigMap app-config",
            "env DB_PASSWORD of app", "env ADMIN_PASSWORD of app", "env DB_PW of app", "env SIGNING_KEY of app",
            "the header Authorization of app"} <= hits, hits
    assert not any("PUBLIC_KEY" in h or "LOG_LEVEL" in h or "Accept" in h for h in hits)


def test_redaction_takes_every_value_out_and_keeps_the_yaml_and_its_lines() -> None:
    out = redact(CASES)
    for secret in SECRETS:
        assert secret not in out, secret
    assert out.count("\n") == CASES.count("\n")
    config, pod = yaml.safe_load_all(out)
    assert config["data"]["LOG_LEVEL"] == "debug" and config["data"]["password"] == REDACTED
    assert config["data"]["application.properties"].splitlines() == [
        "spring.datasource.url=jdbc:postgresql://db/app", f"spring.datasource.password = {REDACTED}",
        "server.port=8080"]
    env = {e["name"]: e["value"] for e in pod["spec"]["containers"][0]["env"]}
    assert env["ADMIN_PASSWORD"] == pod["x-shared"] == REDACTED      # the anchor is redacted where it is written
    assert env["DB_PASSWORD"] == env["DB_PW"] == env["SIGNING_KEY"] == REDACTED
    assert env["PUBLIC_KEY"] == "not-a-secret" and env["LOG_LEVEL"] == "info"
    headers = pod["spec"]["containers"][0]["readinessProbe"]["httpGet"]["httpHeaders"]
    assert headers == [{"name": "Authorization", "value": REDACTED}, {"name": "Accept", "value": "application/json"}]
    assert find_secrets(out) == []


def test_a_value_written_twice_is_blanked_in_its_other_place_too() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: a\n"
            "    env:\n    - {name: API_TOKEN, value: tok-hunter-ten}   # was tok-hunter-ten before\n")
    out = redact(text)
    assert "tok-hunter-ten" not in out and out.count(REDACTED) == 2


def test_a_credential_that_is_also_a_word_of_the_structure_is_refused() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: a\n"
            "    env:\n    - {name: DB_PASSWORD, value: image}\n")
    with pytest.raises(RedactionFailed):
        redact(text)


# what YAML can hold as text (its printable characters); a secret that would end in white space is trimmed
_SECRET_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc"),
                                     blacklist_characters="\x85\u2028\u2029\ufeff\ufffe\uffff"),
                       min_size=6, max_size=40).map(str.strip).filter(
    lambda s: len(s) >= 6 and REDACTED not in s and not re.match(r"^\$[A-Za-z_]\w*$", s))   # $NAME: a reference
_PLACES = ("env", "anchor", "multi-line env", "configmap key", "properties", "header", "env name")


def _manifest(secret: str, place: str, redacted: bool = False) -> str:
    """A manifest with ``secret`` at ``place``; with ``redacted``, the manifest redaction should give."""
    if redacted:
        return _manifest(REDACTED, place).replace(f"Basic {REDACTED}", REDACTED).replace(
            json.dumps(f"{REDACTED}\n{REDACTED[::-1]}"), json.dumps(REDACTED))
    q = json.dumps(secret, ensure_ascii=False)   # a YAML double-quoted scalar
    pod = ("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\n{extra}spec:\n  containers:\n  - name: app\n"
           "    image: app:1\n    env:\n{env}    readinessProbe:\n      httpGet:\n        port: 8080\n"
           "        httpHeaders:\n{headers}")
    env, headers, extra = "    - {name: MODE, value: prod}\n", "        - {name: Accept, value: json}\n", ""
    if place == "env":
        env += f"    - name: DB_PASSWORD\n      value: {q}\n"
    elif place == "anchor":
        extra, env = f"x-values: &secret {q}\n", env + "    - {name: ADMIN_PASSWORD, value: *secret}\n"
    elif place == "multi-line env":
        env += f"    - name: DB_PASSWORD\n      value: {json.dumps(secret + chr(10) + secret[::-1], ensure_ascii=False)}\n"
    elif place == "header":
        headers += f"        - name: Authorization\n          value: {json.dumps('Basic ' + secret, ensure_ascii=False)}\n"
    elif place == "env name":
        env += f"    - {{name: SIGNING_KEY, value: {q}}}\n"
    elif place in ("configmap key", "properties"):
        value = f"DB_PASSWORD: {q}\n" if place == "configmap key" else \
            "  app.properties: |\n" + "".join(f"    {line}\n" for line in
                                             ("a=1", f"app.db.password = {secret}"))
        return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  " + value.lstrip(" ") + "---\n" + \
            pod.format(extra=extra, env=env, headers=headers)
    return pod.format(extra=extra, env=env, headers=headers)


@settings(max_examples=examples(200), deadline=None)
@given(secret=_SECRET_TEXT, place=st.sampled_from(_PLACES))
def test_a_generated_secret_never_survives_redaction(secret: str, place: str) -> None:
    text = _manifest(secret, place)
    assume(find_secrets(text))
    written = {f"Basic {secret}"} if place == "header" else {secret, secret[::-1]} if place == "multi-line env" \
        else {secret}   # each line of the value as the manifest holds it
    parts = [_standing(p) for p in written if len(p.strip()) >= 4]
    expected = _manifest("", place, redacted=True)
    collides = any(p.search(expected) for p in parts)   # the secret is also a word of the manifest around it
    try:
        out = redact(text)
    except RedactionFailed:
        assert collides, (place, secret)                 # refused only when blanking it would change the rest
        return
    assert out.count("\n") == text.count("\n")
    if not collides:   # every place the secret stood reads <redacted>, everything else as it was
        assert list(yaml.safe_load_all(out)) == list(yaml.safe_load_all(expected))
    assert not any(p.search(out) for p in parts), (place, secret)   # nor does it stand anywhere in the text

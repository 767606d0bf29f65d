"""Which rules fix themselves and which need a person, rule by rule, and why (the README's
table says the same).  A fix never invents a value a person must choose (a port, a size, an
image, a name, a script) and never writes what the chosen Kubernetes version drops or rejects."""
from __future__ import annotations

import pytest

from explainer.explain import explain
from explainer.findings import BY_ID
from explainer.findings.patch import MoveItem, SetKey, edit_to_dict

from .corpus import ROOT, settings

FINDINGS = ROOT / "tests" / "fixtures" / "findings"

# (rule, fixable on its fires.yaml fixture, what the fix does / why a person must decide)
FIXABLE: list[tuple[str, bool, str]] = [
    ("app-listens-on-loopback", True, "adds the address flag (--host 0.0.0.0, --bind 0.0.0.0:PORT, ...) when the server's "
                                       "words are items of the command list; inside a shell script a person edits it"),
    ("classic-sidecar-stops-before-app", True, "moves the proxy to initContainers as a native sidecar, where the version "
                                                "runs them (a startupProbe on its declared port where the app reaches it)"),

    ("active-deadline-kills-service", False, "how long the init container may wait, and what to do then, is a "
                                             "choice about the dependency"),
    ("active-deadline-on-pod-template", True, "moves activeDeadlineSeconds from the Pod template to the Job spec, with its value"),
    ("ephemeral-in-spec", True, "removes the ephemeral container (the API server refuses it on create)"),
    ("exec-probe-default-timeout", True, "sets timeoutSeconds 5 where periodSeconds is above it; else the period is a choice too"),
    ("file-shared-without-volume", False, "which directory an empty volume may cover without hiding the "
                                          "image's own files is a choice about the images"),
    ("heap-exceeds-memory-limit", False, "the heap size (or a larger limit) is a person's choice about the program"),
    ("hostport-blocks-surge", True, "sets maxSurge: 0 (and maxUnavailable: 1 where it was 0): the old Pod frees the port first"),

    ("finite-command-under-always", False, "a Job, or which program stays in the foreground, is the author's choice"),
    ("image-reference-invalid", False, "the tag or value a placeholder stands for is the author's to fill in"),
    ("init-never-completes", True, "makes it a native sidecar (restartPolicy: Always, a startupProbe on its "
                                   "declared port when later containers reach it), only where the version "
                                   "runs native sidecars and its command certainly runs until stopped (a "
                                   "guess from a name, like istio-init, needs a person: a one-shot init "
                                   "container made a sidecar would no longer hold the app back)"),
    ("init-wait-without-timeout", False, "how long to wait for the dependency before failing is a choice"),
    ("job-onfailure-restarts-in-place", False, "whether in-place retries or a Pod per attempt suit the work is a choice"),
    ("job-sidecar-blocks-completion", True, "moves the helper to initContainers as a native sidecar, where the "
                                            "version runs them; else the worker must stop it (a person)"),
    ("kill-pid1-shared-namespace", False, "which process to signal, and whether the image has pidof, is the "
                                          "script author's"),
    ("liveness-checks-dependency", False, "what liveness should check instead is a choice about the program"),
    ("liveness-same-as-readiness", False, "a cheaper liveness check is a choice about the program"),
    ("log-shipper-stops-with-app", True, "moves the shipper to initContainers as a native sidecar, where the "
                                         "version runs them; else a preStop that outlasts the app (a person)"),
    ("liveness-without-startup-probe", True, "copies the liveness check into a startupProbe (150 s budget)"),
    ("memory-emptydir-counts-against-limit", False, "the size of what the program writes there is a choice about "
                                                    "the program"),
    ("missing-resources", False, "resource sizes are a person's choice"),
    ("mount-without-volume", False, "what the volume should be (a ConfigMap, a Secret, a claim, or a "
                                    "declared one misspelt) is a choice"),
    ("native-sidecar-unsupported", False, "upgrade, enable the gate, or rewrite as a classic sidecar the app "
                                          "waits for: a choice; a classic sidecar in a Job never completes"),
    ("npm-pid1-swallows-sigterm", False, "what the start script runs (node server.js, ...) is in package.json, not in the manifest"),
    ("port-conflict", False, "a new port must be configured in the program too"),
    ("poststart-reload-runs-once", False, "how to reload on change (a reloader, the program's own watching, "
                                          "a rollout) is a choice about the program"),
    ("poststart-calls-own-server", False, "how to wait for the server (and whether the image has curl) is the author's"),
    ("prestop-exceeds-grace", True, "raises terminationGracePeriodSeconds to the hook plus the shutdown plus "
                                    "10 s; a hook that never ends or a process that ignores SIGTERM needs a "
                                    "person"),
    ("prestop-exec-binary-missing", True, "replaces a hook that only sleeps with the sleep action (1.30 and later); a hook that "
                                           "does more needs a person"),
    ("privileged-container", False, "which privileges the program needs is a choice about the program"),
    ("probe-host-loopback", True, "removes host, so the kubelet probes the Pod IP; not when the server listens on "
                                   "loopback only (its command must change first)"),
    ("probe-on-plain-init", True, "removes the probes and hooks a plain init container cannot have (one "
                                  "that never completes becomes a native sidecar instead, keeping them)"),
    ("probe-scheme-mismatch", True, "sets the scheme the port's name or number speaks"),

    ("probe-timeout-exceeds-period", False, "a shorter timeout or a longer period: a choice"),
    ("process-namespace-assumed", True, "sets shareProcessNamespace: true, unless a container signals PID 1"),
    ("readiness-probe-missing", True, "adds a TCP readinessProbe on the first TCP port the container declares"),
    ("restart-all-containers-gate-off", False, "target a newer version, turn the gate on, or restart only "
                                               "this container: a choice about the cluster and the app"),
    ("restart-rules-ignored", False, "target a newer version, turn the gate on, or rewrite the restart "
                                     "behaviour with the Pod's restartPolicy: a choice"),
    ("service-selects-no-pod", False, "whether the Service's selector or the Pod template's labels are wrong is a choice"),
    ("service-target-port-missing", False, "renaming the container's port or the Service's targetPort is a choice"),
    ("service-without-prestop-drain", True, "adds a preStop sleep action as long as the propagation time (5 s assumed) "
                                            "where a Service of the input selects the container, the version has the "
                                            "action and the sleep and the shutdown fit the grace period; an inference "
                                            "needs a person"),
    ("shell-pid1-ignores-sigterm", False, "how the script should shut down (trap or exec what) is the "
                                          "author's"),
    ("sidecar-start-order-assumed", True, "moves the helper (a known outbound proxy, or a server the app "
                                          "dials that dials nothing itself) to initContainers as a native "
                                          "sidecar with a startupProbe on a port its manifest names; never "
                                          "the app, never an invented port (a <PORT> placeholder needs a "
                                          "person), never on a version without native sidecars"),
    ("sidecar-without-startup-probe", True, "adds a TCP startupProbe on the port later containers reach, or "
                                            "its lowest declared port; a proxy without ports needs a person"),
    ("subpath-mount-never-updates", False, "where the program should read the whole volume from is the "
                                           "author's"),
    ("termination-grace-zero", True, "removes terminationGracePeriodSeconds: 0, back to the 30 s default"),
    ("tested-file-never-created", False, "where the program is healthy enough to create the file, or what to "
                                         "probe instead, is a choice about the program"),
    ("traffic-failure-window", True, "lengthens a preStop sleep action to the propagation time where it and the "
                                     "shutdown fit the grace period; an exec or httpGet hook does more than wait, "
                                     "so a person puts the sleep before it"),
    ("volume-not-mounted", False, "whether the volume is dead or its mount was forgotten (and where) is a "
                                  "choice"),
]


def test_the_table_names_every_rule_once() -> None:
    assert sorted(r for r, _f, _w in FIXABLE) == sorted(BY_ID)


def _findings(text: str, rule: str, scenario: dict | None = None, version: str = "1.34") -> list:
    expl = explain(text, scenario, version)
    return [f for r in expl.pods for f in r.findings if f.id == rule] + [
        f.finding for f in expl.findings if f.id == rule]   # about a Service (findings/inputs.py)


@pytest.mark.parametrize("rule,fixable,why", FIXABLE, ids=[r for r, _f, _w in FIXABLE])
def test_fixable_or_needs_a_person(rule: str, fixable: bool, why: str) -> None:
    text = (FINDINGS / rule / "fires.yaml").read_text(encoding="utf-8")
    scenario, version = settings(text)
    found = _findings(text, rule, scenario, version)
    assert found, f"{rule} does not fire on its fixture"
    assert all(f.fixable is fixable for f in found), (why, [f.to_dict() for f in found])
    for f in found:
        assert f.to_dict()["fixable"] is fixable
        assert all(isinstance(edit_to_dict(e), dict) for e in f.patch)


def _fixture(rule: str) -> str:
    return (FINDINGS / rule / "fires.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("rule", ["job-sidecar-blocks-completion", "init-never-completes",
                                  "sidecar-start-order-assumed"])
def test_no_native_sidecar_where_the_version_has_none(rule: str) -> None:
    """On 1.28 without the gate restartPolicy: Always is dropped, on 1.27 rejected: no such fix."""
    text = _fixture(rule)
    for version, gates in (("1.27", None), ("1.28", None), ("1.28", {"SidecarContainers": False})):
        found = _findings(text, rule, {"featureGates": gates} if gates else None, version)
        assert found and not any(f.fixable for f in found), (version, gates)
    found = _findings(text, rule, {"featureGates": {"SidecarContainers": True}}, "1.28")
    assert found and all(f.fixable for f in found)


PROXY_WITHOUT_PORTS = """
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: app
      image: example/app:1.0
    - name: istio-proxy
      image: istio/proxyv2:1.22.0
"""


def test_no_invented_port_for_a_proxy_that_declares_none() -> None:
    found = _findings(PROXY_WITHOUT_PORTS, "sidecar-start-order-assumed")
    assert found and not found[0].fixable
    native = PROXY_WITHOUT_PORTS.replace("  containers:\n    - name: app", "  initContainers:\n    - name: istio-proxy\n"
                                         "      image: istio/proxyv2:1.22.0\n      restartPolicy: Always\n"
                                         "  containers:\n    - name: app").rsplit("    - name: istio-proxy", 1)[0]
    found = _findings(native, "sidecar-without-startup-probe")
    assert found and not found[0].fixable


def test_sidecar_start_order_never_moves_what_may_be_the_main_container() -> None:
    """An exporter that scrapes the app on localhost: the app is no proxy, so it stays put."""
    text = """
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: web
      image: example/web:1.0
      ports: [{containerPort: 8080}]
    - name: exporter
      image: example/exporter:1.0
      args: ["--scrape=http://localhost:8080/metrics"]
"""
    assert all(not f.fixable for f in _findings(text, "sidecar-start-order-assumed"))


def test_the_sidecar_fix_probes_the_port_the_app_reaches() -> None:
    (f,) = _findings(_fixture("sidecar-start-order-assumed"), "sidecar-start-order-assumed")
    (move,) = f.patch
    assert isinstance(move, MoveItem) and move.to[-1] == "initContainers"
    extra = dict(move.set)
    assert extra["restartPolicy"] == "Always" and extra["startupProbe"]["tcpSocket"] == {"port": 5432}


def test_prestop_fix_needs_a_person_when_no_grace_period_helps() -> None:
    text = """
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  terminationGracePeriodSeconds: 30
  containers:
    - name: web
      image: nginx:1.27
      lifecycle:
        preStop:
          exec: {command: ["sh", "-c", "while true; do sleep 1; done"]}
"""
    found = _findings(text, "prestop-exceeds-grace")
    assert found and not found[0].fixable
    (f,) = _findings(_fixture("prestop-exceeds-grace"), "prestop-exceeds-grace")
    (edit,) = f.patch
    assert isinstance(edit, SetKey) and edit.path[-1] == "terminationGracePeriodSeconds" and edit.value > 30


def test_process_namespace_fix_stays_away_when_a_container_signals_pid1() -> None:
    text = _fixture("process-namespace-assumed")
    (f,) = _findings(text, "process-namespace-assumed")
    assert f.fixable
    # nginx's preStop signals PID 1, which would then be pause: no automatic fix
    signalled = text.replace("""      ports:
        - containerPort: 80
""", """      ports:
        - containerPort: 80
      lifecycle:
        preStop:
          exec: {command: ["sh", "-c", "sleep 1; kill -QUIT 1"]}
""", 1)
    (f,) = _findings(signalled, "process-namespace-assumed")
    assert not f.fixable


def test_liveness_fix_copies_the_check_itself() -> None:
    (f,) = _findings(_fixture("liveness-without-startup-probe"), "liveness-without-startup-probe")
    (edit,) = f.patch
    data = edit_to_dict(edit)
    assert data["path"][-1] == "startupProbe"
    assert data["value"]["httpGet"] == {"path": "/healthz", "port": 8080}
    assert data["value"]["failureThreshold"] * data["value"]["periodSeconds"] >= 30


def test_init_never_completes_fixes_only_what_certainly_never_ends() -> None:
    """istio-init (like linkerd-init) names a mesh, but "-init" says it is a one-shot set-up: no finding
    (made a sidecar, the app would no longer wait for it).  A command that certainly runs forever is
    fixed."""
    text = """
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers:
    - name: istio-init
      image: istio/proxyv2:1.22.0
      args: ["istio-iptables", "-p", "15001"]
    - name: tail
      image: busybox:1.36
      command: ["sh", "-c", "tail -f /dev/null"]
  containers:
    - name: app
      image: example/app:1.0
"""
    found = {f.container: f for f in _findings(text, "init-never-completes")}
    assert "istio-init" not in found
    assert found["tail"].fixable


def test_an_opt_out_of_native_sidecars_is_respected() -> None:
    """Istio's `sidecar.istio.io/nativeSidecar: "false"` says a person chose a classic sidecar."""
    text = _fixture("sidecar-start-order-assumed")
    opted_out = text.replace("    metadata:\n      labels: {app: accounts}\n",
                             '    metadata:\n      labels: {app: accounts}\n'
                             '      annotations: {sidecar.istio.io/nativeSidecar: "false"}\n', 1)
    assert opted_out != text
    (f,) = _findings(opted_out, "sidecar-start-order-assumed")
    assert not f.fixable

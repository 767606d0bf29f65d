"""What the manifest shows about behaviour it does not state (evidence.py), and how the simulation
plays it out: an OOM kill, probes that never pass, hooks that fail, a proxy gone before the app."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.lifecycle.quantity import as_bytes
from explainer.lifecycle.commands.evidence import (
    jvm_max_heap, loopback_bind, missing_hook_binary, package_manager_pid1, poststart_self_call,
    shellless_image)
from explainer.lifecycle.manifest.parse import parse_manifest
from explainer.lifecycle.scenario.document import Scenario, parse_scenario
from explainer.lifecycle.kubelet.simulate import simulate

FINDINGS = Path(__file__).resolve().parents[2] / "fixtures" / "findings"


def _sim(rule: str, scenario: str | None = None, name: str = "fires.yaml"):
    pod = parse_manifest((FINDINGS / rule / name).read_text(encoding="utf-8")).pods[0]
    return pod, simulate(pod, parse_scenario(scenario) if scenario else Scenario())


def _events(sim, container: str, kind: str):
    return [e for e in sim.events if e.container == container and e.type == kind]


@pytest.mark.parametrize(("text", "expected"), [
    ("512Mi", 512 * 2 ** 20), ("1Gi", 2 ** 30), ("1G", 1e9), ("500M", 5e8), ("1e9", 1e9),
    ("268435456", 268435456), (1073741824, 1073741824), ("1.5Gi", 1.5 * 2 ** 30), ("lots", None), (True, None)])
def test_memory_quantities(text, expected) -> None:
    assert as_bytes(text) == expected


def _container(yaml_text: str):
    return parse_manifest(yaml_text).pods[0].containers[0]


def _pod(containers: str, extra: str = "") -> str:
    return f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n{extra}  containers:\n{containers}"


def test_the_command_line_heap_wins_over_java_opts_and_java_options_wins_over_both() -> None:
    c = _container(_pod('    - name: a\n      image: j\n      args: ["-Xmx512m", "-jar", "a.jar"]\n'
                        '      env: [{name: JAVA_OPTS, value: "-Xmx2g"}]\n'))
    assert jvm_max_heap(c).bytes == 512 * 2 ** 20 and jvm_max_heap(c).source == "args"
    c = _container(_pod('    - name: a\n      image: j\n      args: ["-Xmx512m"]\n'
                        '      env: [{name: _JAVA_OPTIONS, value: "-Xmx3G"}]\n'))
    assert jvm_max_heap(c).bytes == 3 * 2 ** 30
    c = _container(_pod('    - name: a\n      image: j\n      env: [{name: GREETING, value: "-Xmx3G"}]\n'))
    assert jvm_max_heap(c) is None   # not an options variable


def test_heap_at_the_limit_is_oom_killed_and_crash_loops() -> None:
    _pod_, sim = _sim("heap-exceeds-memory-limit")
    exits = _events(sim, "api", "exited")
    assert len(exits) >= 3 and all((e.exit_code, e.reason) == (137, "OOMKilled") for e in exits)
    assert exits[0].t == 60 and exits[0].assumed
    assert _events(sim, "api", "backoff")[0].reason == "CrashLoopBackOff"
    assert "OOMKilled" in {p.status for p in sim.timeline}


def test_heap_below_the_limit_runs_on() -> None:
    _pod_, sim = _sim("heap-exceeds-memory-limit", name="quiet.yaml")
    assert not _events(sim, "api", "exited")


def test_a_scenario_run_overrides_the_oom_guess() -> None:
    _pod_, sim = _sim("heap-exceeds-memory-limit", "containers: {api: {runSeconds: forever}}")
    assert not _events(sim, "api", "exited")


@pytest.mark.parametrize(("rule", "container", "kind"), [
    ("probe-host-loopback", "web", "readiness"),
    ("app-listens-on-loopback", "api", "readiness"),
])
def test_a_readiness_probe_that_cannot_pass_never_makes_the_container_ready(rule, container, kind) -> None:
    _pod_, sim = _sim(rule)
    assert _events(sim, container, "started") and not _events(sim, container, "ready")
    assert any(f"{container}'s {kind} probe can never pass" in n.render() for n in sim.notes)


def test_a_liveness_probe_that_cannot_pass_restarts_the_container() -> None:
    _pod_, sim = _sim("probe-scheme-mismatch")
    kills = _events(sim, "dashboard", "liveness_failed")
    assert len(kills) >= 2 and kills[0].t == 50   # checks at 30, 40, 50 s


@pytest.mark.parametrize("rule", ["probe-host-loopback", "app-listens-on-loopback", "probe-scheme-mismatch"])
def test_the_corrected_probe_passes(rule) -> None:
    pod, sim = _sim(rule, name="quiet.yaml")
    c = pod.containers[0].name
    assert _events(sim, c, "ready") and not _events(sim, c, "liveness_failed")


def test_poststart_calling_its_own_server_fails_and_the_container_restarts() -> None:
    _pod_, sim = _sim("poststart-calls-own-server")
    hooks = _events(sim, "search", "poststart_done")
    assert hooks and all(e.reason == "FailedPostStartHook" for e in hooks)
    assert not hooks[0].assumed          # the call is made at once: the race is certain
    assert _events(sim, "search", "terminating")[0].t == hooks[0].t   # killed right after the hook fails
    assert [e.restart_count for e in _events(sim, "search", "started")][:3] == [0, 1, 2]
    assert _events(sim, "search", "backoff")[0].reason == "CrashLoopBackOff"


def test_poststart_after_a_fixed_sleep_fails_as_assumed() -> None:
    text = (FINDINGS / "cases" / "poststart_after_fixed_sleep.yaml").read_text(encoding="utf-8")
    pod = parse_manifest(text).pods[0]
    sim = simulate(pod)
    hooks = _events(sim, "ldap", "poststart_done")
    assert hooks[0].reason == "FailedPostStartHook" and hooks[0].assumed


def test_poststart_that_waits_in_a_loop_succeeds() -> None:
    _pod_, sim = _sim("poststart-calls-own-server", name="quiet.yaml")
    assert [e.reason for e in _events(sim, "search", "poststart_done")] == [None]
    assert not _events(sim, "search", "terminating")


def test_a_scenario_post_start_exit_code_fails_any_hook() -> None:
    _pod_, sim = _sim("poststart-calls-own-server", "containers: {search: {postStartExitCode: 0}}")
    assert not _events(sim, "search", "terminating")


def test_prestop_in_a_distroless_image_fails_at_once_and_sigterm_follows() -> None:
    _pod_, sim = _sim("prestop-exec-binary-missing", "deleteAt: 20")
    started, = _events(sim, "registrar", "prestop_started")
    done, = _events(sim, "registrar", "prestop_done")
    term, = _events(sim, "registrar", "terminating")
    assert (done.reason, done.exit_code) == ("FailedPreStopHook", 126)
    assert started.t == done.t == term.t == 20     # the 5 s drain never happens


def test_the_sleep_action_drains() -> None:
    _pod_, sim = _sim("prestop-exec-binary-missing", "deleteAt: 20", name="quiet.yaml")
    assert _events(sim, "registrar", "terminating")[0].t == 25


def test_a_classic_proxy_is_gone_while_the_app_still_drains() -> None:
    _pod_, sim = _sim("classic-sidecar-stops-before-app", "deleteAt: 30")   # as its header says
    proxy_exit, = _events(sim, "cloud-sql-proxy", "exited")
    app_exit, = _events(sim, "app", "exited")
    assert proxy_exit.t == 30 and app_exit.t == 40          # 10 s of preStop without the proxy


def test_a_native_sidecar_proxy_outlives_the_app() -> None:
    _pod_, sim = _sim("classic-sidecar-stops-before-app", "deleteAt: 30", name="quiet.yaml")
    assert _events(sim, "cloud-sql-proxy", "exited")[0].t >= _events(sim, "app", "exited")[0].t


@pytest.mark.parametrize(("command", "expected"), [
    ('["uvicorn", "main:app"]', ("uvicorn", 8000)),
    ('["python", "-m", "uvicorn", "main:app", "--port", "9000"]', ("uvicorn", 9000)),
    ('["gunicorn", "app:app"]', ("gunicorn", 8000)),
    ('["flask", "run"]', ("flask", 5000)),
    ('["sh", "-c", "python manage.py migrate && python manage.py runserver"]', ("manage.py runserver", 8000)),
    ('["uvicorn", "main:app", "--host", "0.0.0.0"]', None),
    ('["gunicorn", "-b", ":8000", "app:app"]', None),
    ('["gunicorn", "-c", "conf.py", "app:app"]', None),
    ('["python", "manage.py", "runserver", "0.0.0.0:8000"]', None),
    ('["flask", "db", "upgrade"]', None),
    ('["node", "server.js"]', None),
])
def test_servers_that_bind_loopback_by_default(command, expected) -> None:
    bind = loopback_bind(_container(_pod(f"    - name: a\n      image: x\n      command: {command}\n")))
    assert (bind.program, bind.port) == expected if expected else bind is None


def test_an_env_var_that_sets_the_address_counts() -> None:
    c = _container(_pod('    - name: a\n      image: x\n      command: ["uvicorn", "m:app"]\n'
                        '      env: [{name: UVICORN_HOST, value: "0.0.0.0"}]\n'))
    assert loopback_bind(c) is None


@pytest.mark.parametrize(("image", "expected"), [
    ("gcr.io/distroless/static-debian12:nonroot", True), ("gcr.io/distroless/base:debug", False),
    ("registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.0", True),
    ("gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.11.0", True),
    ("gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.11.0-alpine", False),
    ("registry.k8s.io/coredns/coredns:v1.11.1", True), ("nginx:1.27", False), ("busybox", False),
    # fluent-bit's own images are distroless, its -debug tags add busybox (docs.fluentbit.io, "Docker");
    # Bitnami's and AWS's builds have a shell (docs/lifecycle-model.md §29.2)
    ("fluent/fluent-bit:3.0", True), ("cr.fluentbit.io/fluent/fluent-bit:2.2", True),
    ("fluent/fluent-bit:3.0-debug", False), ("bitnami/fluent-bit:3.0", False),
    ("public.ecr.aws/aws-observability/aws-for-fluent-bit:2.32.0", False)])
def test_images_known_to_have_no_shell(image, expected) -> None:
    assert shellless_image(image) is expected


def test_a_hook_running_the_images_own_binary_is_not_missing() -> None:
    c = _container(_pod('    - name: a\n      image: gcr.io/distroless/static\n'
                        '      lifecycle: {preStop: {exec: {command: ["/app", "drain"]}}}\n'))
    assert missing_hook_binary(c) is None


@pytest.mark.parametrize(("command", "expected"), [
    ('["npm", "start"]', "npm start"), ('["npm", "run", "serve"]', "npm run serve"),
    ('["yarn", "start"]', "yarn start"), ('["sh", "-c", "cd /app && exec pnpm start"]', "pnpm start"),
    ('["sh", "-c", "npm start"]', None), ('["tini", "--", "npm", "start"]', None), ('["npm", "ci"]', None),
    ('["node", "server.js"]', None)])
def test_a_package_manager_as_the_main_process(command, expected) -> None:
    assert package_manager_pid1(_container(_pod(f"    - name: a\n      image: node\n      command: {command}\n"))) \
        == expected


def test_poststart_calls_read_the_port_and_the_wait() -> None:
    def call(hook: str, ports: str = "[{containerPort: 8080}]"):
        pod = parse_manifest(_pod(f"    - name: a\n      image: x\n      ports: {ports}\n"
                                  f"      lifecycle: {{postStart: {hook}}}\n")).pods[0]
        return poststart_self_call(pod, pod.containers[0])
    assert call('{exec: {command: ["sh", "-c", "curl -X POST localhost:8080/init"]}}').certain
    assert not call('{exec: {command: ["sh", "-c", "sleep 5; curl localhost:8080/init"]}}').certain
    assert call('{exec: {command: ["sh", "-c", "curl --retry-connrefused localhost:8080/init"]}}') is None
    assert call('{exec: {command: ["sh", "-c", "curl localhost:9999/x"]}}') is None
    assert call('{exec: {command: ["sh", "-c", "cp /a /b"]}}') is None
    assert call('{httpGet: {path: /x, port: 8080}}').how == "httpGet"
    assert call('{httpGet: {host: example.com, path: /x, port: 8080}}') is None
    # a URL is not the httpie client: an agent's wait command polls it until ready
    assert call('{exec: {command: ["pilot-agent", "wait", "--url=http://localhost:8080/healthz/ready"]}}') is None
    assert call('{exec: {command: ["sh", "-c", "http POST localhost:8080/init"]}}').how == "http"

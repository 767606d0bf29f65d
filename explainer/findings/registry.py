"""Every rule, by name, in one screen: add a module here and its two fixtures to add a rule."""
from __future__ import annotations

from types import ModuleType
from typing import Any

from .base import Draft, Finding
from .i18n import Text

from .rules import (
    active_deadline_kills_service,
    active_deadline_on_pod_template,
    app_listens_on_loopback,
    classic_sidecar_stops_before_app,
    ephemeral_in_spec,
    exec_probe_default_timeout,
    file_shared_without_volume,
    finite_command_under_always,
    heap_exceeds_memory_limit,
    hostport_blocks_surge,
    image_reference_invalid,
    init_never_completes,
    init_wait_without_timeout,
    job_onfailure_restarts_in_place,
    job_sidecar_blocks_completion,
    kill_pid1_shared_namespace,
    liveness_checks_dependency,
    liveness_same_as_readiness,
    liveness_without_startup_probe,
    log_shipper_stops_with_app,
    memory_emptydir_counts_against_limit,
    missing_resources,
    mount_without_volume,
    native_sidecar_unsupported,
    npm_pid1_swallows_sigterm,
    port_conflict,
    poststart_calls_own_server,
    poststart_reload_runs_once,
    prestop_exceeds_grace,
    prestop_exec_binary_missing,
    privileged_container,
    probe_host_loopback,
    probe_on_plain_init,
    probe_scheme_mismatch,
    probe_timeout_exceeds_period,
    process_namespace_assumed,
    readiness_probe_missing,
    restart_all_containers_gate_off,
    restart_rules_ignored,
    service_selects_no_pod,
    service_target_port_missing,
    service_without_prestop_drain,
    shell_pid1_ignores_sigterm,
    sidecar_start_order_assumed,
    sidecar_without_startup_probe,
    subpath_mount_never_updates,
    termination_grace_zero,
    tested_file_never_created,
    traffic_failure_window,
    volume_not_mounted,
)

RULES: tuple[ModuleType, ...] = (
    active_deadline_kills_service,
    active_deadline_on_pod_template,
    app_listens_on_loopback,
    classic_sidecar_stops_before_app,
    ephemeral_in_spec,
    exec_probe_default_timeout,
    file_shared_without_volume,
    finite_command_under_always,
    heap_exceeds_memory_limit,
    hostport_blocks_surge,
    image_reference_invalid,
    init_never_completes,
    init_wait_without_timeout,
    job_onfailure_restarts_in_place,
    job_sidecar_blocks_completion,
    kill_pid1_shared_namespace,
    liveness_checks_dependency,
    liveness_same_as_readiness,
    liveness_without_startup_probe,
    log_shipper_stops_with_app,
    memory_emptydir_counts_against_limit,
    missing_resources,
    mount_without_volume,
    native_sidecar_unsupported,
    npm_pid1_swallows_sigterm,
    port_conflict,
    poststart_calls_own_server,
    poststart_reload_runs_once,
    prestop_exceeds_grace,
    prestop_exec_binary_missing,
    privileged_container,
    probe_host_loopback,
    probe_on_plain_init,
    probe_scheme_mismatch,
    probe_timeout_exceeds_period,
    process_namespace_assumed,
    readiness_probe_missing,
    restart_all_containers_gate_off,
    restart_rules_ignored,
    service_selects_no_pod,
    service_target_port_missing,
    service_without_prestop_drain,
    shell_pid1_ignores_sigterm,
    sidecar_start_order_assumed,
    sidecar_without_startup_probe,
    subpath_mount_never_updates,
    termination_grace_zero,
    tested_file_never_created,
    traffic_failure_window,
    volume_not_mounted,
)


def _by_id(rules: tuple[ModuleType, ...]) -> dict[str, ModuleType]:
    out: dict[str, ModuleType] = {}
    for rule in rules:
        if rule.ID in out:
            raise ImportError(f"duplicate rule id {rule.ID!r}: {out[rule.ID].__name__} and {rule.__name__}")
        out[rule.ID] = rule
    return out


BY_ID: dict[str, ModuleType] = _by_id(RULES)


def references(rule: Any) -> tuple[str, ...]:
    return (rule.DOCS_URL,) + tuple(getattr(rule, "REFERENCES", ()))


def complete(draft: Draft) -> Finding:
    """The finding a rule yielded, with its rule's title, severity (unless the rule chose one for
    this case) and references."""
    severity, title, refs = _OWN[draft.id]
    return Finding(draft.id, draft.severity or severity, draft.container, draft.path, draft.line,
                   Text(title), draft.explanation, draft.fix, refs, draft.patch)


# each rule's own (severity, title, references), read once: they are module constants
_OWN: dict[str, tuple[Any, str, tuple[str, ...]]] = {
    rule.ID: (rule.SEVERITY, rule.TITLE, references(rule)) for rule in RULES}

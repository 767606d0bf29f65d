"""parse_manifest: documents -> Pods (workloads reduced to their template), shape errors with paths."""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.explain import explain
from explainer.lifecycle.errors import ManifestError
from explainer.lifecycle.manifest.parse import parse_manifest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _text(relative: str) -> str:
    return (FIXTURES / relative).read_text(encoding="utf-8")


# fixture, message substring, line, path, kind, reason
SHAPE_ERRORS = [
    ("containers_not_list", "containers must be a list", 7, "spec.containers", "structure", None),
    ("container_without_name", "Every container needs a name", 10, "spec.containers[1]", "structure",
     "Required value"),
    ("unknown_restart_policy", "restartPolicy 'Sometimes' is not one of Always, OnFailure, Never", 7,
     "spec.restartPolicy", "structure", "Unsupported value"),
    ("port_out_of_range", "containerPort is 70000; it must be from 1 to 65535", 11,
     "spec.containers[0].ports[0].containerPort", "structure", "Invalid value"),
    ("port_as_string", "containerPort must be a whole number, not a text ('8080')", 12,
     "spec.containers[0].ports[0].containerPort", "structure", None),
]


@pytest.mark.parametrize("fixture, substring, line, path, kind, reason", SHAPE_ERRORS,
                         ids=[row[0] for row in SHAPE_ERRORS])
def test_shape_errors_have_message_line_and_path(fixture, substring, line, path, kind, reason) -> None:
    intake = parse_manifest(_text(f"invalid/{fixture}.yaml"))
    assert intake.pods == []
    (rec,) = intake.errors
    assert substring in rec.message
    assert (rec.line, rec.path, rec.kind, rec.reason) == (line, path, kind, reason)
    assert rec.document == 0


@pytest.mark.parametrize("fixture, substring, line, path, kind, reason", SHAPE_ERRORS,
                         ids=[row[0] for row in SHAPE_ERRORS])
def test_explain_reports_shape_errors_and_simulates_nothing(fixture, substring, line, path, kind, reason) -> None:
    expl = explain(_text(f"invalid/{fixture}.yaml"))
    assert expl.pods == []
    assert [(e.line, e.path, e.kind, e.reason) for e in expl.errors] == [(line, path, kind, reason)]
    assert substring in expl.errors[0].message


def test_type_errors_speak_kubernetes_not_python() -> None:
    (rec,) = parse_manifest(_text("invalid/containers_not_list.yaml")).errors
    assert "LMap" not in rec.message
    assert "not a mapping" in rec.message


def test_seed_without_indentation_names_the_likely_cause_and_each_misplaced_field() -> None:
    """Seed 004's first manifest, pasted without indentation: nothing runs; the reader learns that
    the indentation looks lost and which fields sit at the top level, each with its line."""
    expl = explain(_text("invalid/seed_no_indentation.yaml"))
    assert expl.pods == []
    summary, *fields = expl.errors
    assert "indentation looks lost" in summary.message and summary.line == 5
    assert [(e.path, e.line, e.reason) for e in fields] == [
        ("name", 5, "Indentation"), ("containers", 7, "Indentation"), ("image", 9, "Indentation"),
        ("command", 10, "Indentation")]
    assert "belongs under metadata" in fields[0].message
    assert "belongs under spec" in fields[1].message
    assert "a container" in fields[2].message


def test_a_well_indented_pod_is_not_called_flattened() -> None:
    assert parse_manifest(_text("pods/three_inits.yaml")).errors == []


def test_duplicate_container_names_are_a_validation_error_with_path_and_line() -> None:
    expl = explain(_text("invalid/duplicate_container_names.yaml"))
    (rec,) = expl.errors
    assert rec.kind == "validation"
    assert rec.reason == "Duplicate value"
    assert rec.path == "spec.containers[1].name"
    assert rec.line == 11
    assert "'app'" in rec.message
    (report,) = expl.pods
    assert not report.admitted and report.simulation is None


def _many_containers(n: int) -> str:
    lines = ["apiVersion: v1", "kind: Pod", "metadata:", "  name: crowded", "spec:", "  containers:"]
    for i in range(n):
        lines += [f"  - name: c{i}", "    image: busybox:1.36"]
    return "\n".join(lines) + "\n"


def test_501_containers_are_rejected_as_a_limit() -> None:
    intake = parse_manifest(_many_containers(501))
    assert intake.pods == []
    (rec,) = intake.errors
    assert rec.kind == "limit"
    assert "501 containers" in rec.message and "500" in rec.message
    assert rec.path == "spec" and rec.line == 5


def test_500_containers_are_accepted() -> None:
    intake = parse_manifest(_many_containers(500))
    assert intake.errors == []
    assert len(intake.pods[0].containers) == 500


def test_unreadable_text_raises_manifest_error() -> None:
    with pytest.raises(ManifestError) as info:
        parse_manifest(_text("invalid/syntax_error.yaml"))
    assert info.value.line == 9


@pytest.mark.parametrize("text", [
    pytest.param("apiVersion: v1\x00kind: Pod\n", id="nul"),
    pytest.param(bytes(range(256)).decode("latin-1"), id="all-bytes"),
])
def test_binary_data_is_an_error_from_explain_not_an_exception(text: str) -> None:
    expl = explain(text)
    assert expl.pods == []
    assert expl.errors and expl.errors[0].kind == "syntax"


def test_multi_line_json_pod_is_accepted() -> None:
    intake = parse_manifest(_text("scenarios/pod.json"))
    assert intake.errors == [] and intake.skipped == []
    (pod,) = intake.pods
    assert pod.name == "from-json"
    assert pod.restart_policy == "OnFailure"
    assert [c.name for c in pod.containers] == ["app"]
    assert pod.containers[0].line == 10     # the line of its opening brace
    assert pod.containers[0].ports[0].container_port == 8080


def test_documents_without_a_pod_are_skipped_with_a_reason() -> None:
    intake = parse_manifest(_text("scenarios/multi_document.yaml"))
    assert intake.errors == []
    assert [(s.document, s.kind, s.name, s.line) for s in intake.skipped] == [
        (0, "Service", "web", 3), (1, "ConfigMap", "web-config", 14)]
    assert all("holds no Pod" in s.reason for s in intake.skipped)


# pod name, source kind, source name, document, line, batch, spec path
TEMPLATES = [
    ("web", "Deployment", "web", 2, 21, False, ("spec", "template", "spec")),
    ("nightly-report", "CronJob", "nightly-report", 3, 41, True,
     ("spec", "jobTemplate", "spec", "template", "spec")),
    ("listed-one", "Pod", "listed-one", 4, 60, False, ("items", 0, "spec")),
    ("listed-two", "Pod", "listed-two", 4, 68, False, ("items", 1, "spec")),
    ("migrate", "Job", "migrate", 5, 77, True, ("spec", "template", "spec")),
]


def test_workloads_are_reduced_to_their_pod_template_with_their_source() -> None:
    intake = parse_manifest(_text("scenarios/multi_document.yaml"))
    got = [(p.name, p.source.kind, p.source.name, p.source.document, p.source.line, p.batch, p.spec_path)
           for p in intake.pods]
    assert got == TEMPLATES


def test_a_jobs_pod_has_batch_semantics() -> None:
    intake = parse_manifest(_text("scenarios/multi_document.yaml"))
    by_name = {p.name: p for p in intake.pods}
    assert by_name["migrate"].batch and by_name["migrate"].restart_policy == "Never"
    assert by_name["nightly-report"].batch and by_name["nightly-report"].restart_policy == "OnFailure"
    assert not by_name["web"].batch


def test_template_containers_carry_their_path_and_line() -> None:
    intake = parse_manifest(_text("scenarios/multi_document.yaml"))
    report = next(p for p in intake.pods if p.name == "nightly-report")
    (c,) = report.containers
    assert c.path == "spec.jobTemplate.spec.template.spec.containers[0]"
    assert c.line == 53


def test_explain_runs_every_pod_of_a_multi_document_manifest() -> None:
    expl = explain(_text("scenarios/multi_document.yaml"))
    assert expl.errors == []
    assert [r.pod.name for r in expl.pods] == [row[0] for row in TEMPLATES]
    assert all(r.simulation is not None for r in expl.pods)
    assert [s.kind for s in expl.skipped] == ["Service", "ConfigMap"]


# Seed 004's three Pods, each pasted without its indentation (issue 26): the first still reads as YAML
# (a flat mapping), the other two do not (a syntax error; a duplicate key). Every one is named as lost
# indentation, with the reader's own error kept after the diagnosis.
SEED_004 = [
    ("invalid/seed_no_indentation.yaml", 5, None),
    ("invalid/seed_no_indentation_db.yaml", 5, "YAML syntax error"),
    ("invalid/seed_no_indentation_gateway.yaml", 5, "Duplicate key 'image'"),
]


@pytest.mark.parametrize("fixture,line,reader", SEED_004, ids=lambda v: str(v))
def test_every_seed_004_pod_without_indentation_is_named_as_such(fixture: str, line: int, reader: str | None) -> None:
    expl = explain(_text(fixture))
    assert expl.pods == []
    assert "indentation looks lost" in expl.errors[0].message and expl.errors[0].line == line
    assert all(e.line for e in expl.errors)
    if reader is not None:
        assert reader in expl.errors[-1].message and expl.errors[-1].kind == "syntax"


def test_list_items_at_column_one_are_sent_back_to_their_list() -> None:
    """A container's item goes under containers (it names one and an image follows), not under the ports
    list just above it; a port's item goes under ports."""
    messages = {e.line: e.message for e in explain(_text("invalid/seed_no_indentation_gateway.yaml")).errors}
    assert "belongs under initContainers" in messages[8]
    assert "belongs under containers" in messages[12] and "belongs under containers" in messages[16]
    assert "belongs under ports" in messages[15] and "belongs under volumes" in messages[21]


def test_a_syntax_error_in_an_indented_manifest_is_not_called_flattened() -> None:
    text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n   image: x\n"
    expl = explain(text)
    assert len(expl.errors) == 1 and "indentation" not in expl.errors[0].message


@pytest.mark.parametrize("slug", [e.slug for e in __import__("explainer.examples", fromlist=["EXAMPLES"]).EXAMPLES])
def test_every_gallery_example_without_its_indentation_is_named_as_such(slug: str) -> None:
    """Each teaching example pasted with its leading spaces lost (issue 25: the production example's reads as
    no YAML at all, "did not find expected key"): the cause first, the reader's own words last, its line
    quoted as written."""
    from explainer.examples import BY_SLUG
    flat = "".join(line.lstrip() + "\n" for line in BY_SLUG[slug].manifest().splitlines())
    expl = explain(flat)
    assert "indentation looks lost" in expl.errors[0].message, expl.errors[:2]
    assert all(e.line for e in expl.errors)
    last = expl.errors[-1]
    assert last.kind == "syntax" or last.reason == "Indentation"
    if "The line reads:" in last.message:
        assert "The line reads: “" in last.message and last.message.endswith("”")

"""--summary and --format github: one line per finding, in the shapes CI and editors read."""
from __future__ import annotations

from explainer.explain import explain
from explainer.render.annotations import github_lines, summary_lines
from explainer.render.text import TextStyle, explanation_as_text, skipped_line, summary_line
from tests.conftest import load_manifest

JOB = "suppress/job-object-annotation"


def test_summary_is_path_line_severity_rule_container_title() -> None:
    out = summary_lines([("jobs/migrate.yaml", explain(load_manifest(JOB)))])
    assert out.splitlines() == [
        "jobs/migrate.yaml:17: warning sidecar-start-order-assumed proxy: Start order assumed between app containers",
        "jobs/migrate.yaml:14: info missing-resources worker: No resource requests",
        "jobs/migrate.yaml:17: info missing-resources proxy: No resource requests",
    ]


def test_summary_names_input_errors_with_their_line() -> None:
    out = summary_lines([("bad.yaml", explain("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: [\n"))])
    (line,) = out.splitlines()
    assert line.startswith("bad.yaml:") and ": error manifest-syntax" in line


def test_github_workflow_commands_escape_their_fields() -> None:
    expl = explain(load_manifest(JOB))
    lines = github_lines([("dir,with:odd%chars/m.yaml", expl)]).splitlines()
    assert lines and all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    assert all("file=dir%2Cwith%3Aodd%25chars/m.yaml,line=" in line for line in lines)
    notice = next(line for line in lines if "missing-resources" in line)
    assert notice.startswith("::notice ") and "title=missing-resources (worker)::" in notice
    assert all("\n" not in line for line in lines)


def test_text_wraps_to_the_width_and_colours_only_when_asked() -> None:
    expl = explain(load_manifest("seeds/lifecycle-demo"), "deleteAt: 30")
    plain = explanation_as_text(expl)
    assert max(len(line) for line in plain.splitlines()) > 120 and "\x1b[" not in plain
    narrow = explanation_as_text(expl, TextStyle(width=80))
    prose = [line for line in narrow.splitlines() if not line.startswith("        ")]   # fix YAML is kept
    assert max(len(line) for line in prose) <= 80
    assert "\x1b[" in explanation_as_text(expl, TextStyle(width=80, color=True))


def test_skipped_objects_fold_into_one_line() -> None:
    # (ClusterRole is rbac.authorization.k8s.io/v1: as `v1` the API server would refuse it)
    docs = "".join(f"---\napiVersion: {'rbac.authorization.k8s.io/v1' if kind == 'ClusterRole' else 'v1'}\n"
                   f"kind: {kind}\nmetadata: {{name: n{i}}}\n"
                   for i, kind in enumerate(["ConfigMap"] * 3 + ["Service", "ClusterRole", "ClusterRole"]))
    expl = explain(docs)
    assert skipped_line(expl.skipped) == "skipped 6 objects that hold no Pod: ConfigMap ×3, ClusterRole ×2, Service"
    assert explanation_as_text(expl).count("skipped") == 1


def test_summary_line_counts_files_pods_and_findings() -> None:
    expl = explain(load_manifest(JOB))
    assert summary_line([expl], files=1) == \
        "1 file; 1 Pod; findings: 0 errors, 1 warning, 2 info; 1 suppressed"


def test_an_empty_input_says_there_is_nothing_to_explain() -> None:
    assert "nothing to explain" in explanation_as_text(explain(""))


def test_findings_about_a_service_have_their_line_and_name_the_service() -> None:
    path = "svc.yaml"
    files = [(path, explain(load_manifest("findings/service-target-port-missing/fires")))]
    assert ("svc.yaml:11: error service-target-port-missing Service/api: Service targets a port name no "
            "container declares\n") in summary_lines(files)
    assert ("::error file=svc.yaml,line=11,title=service-target-port-missing (Service/api)::Service targets a port "
            "name no container declares\n") in github_lines(files)
    assert summary_line([files[0][1]]).startswith("1 Pod; findings: 1 error")

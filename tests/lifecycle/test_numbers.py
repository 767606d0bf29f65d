"""Numbers written as text (issue 27): "²" passes str.isdigit() but not int(), and int() refuses text of
more than 4,300 digits; 10 ** 999999999 never ends.  Each line below once made explain() raise (or hang)
when its number was written so; now the input is explained, with errors where the API server has some."""
from __future__ import annotations

import re

import pytest

from explainer.explain import explain
from explainer.lifecycle.numbers import whole_number
from tests.conftest import FIXTURES_DIR

ODD = {"superscript": lambda n: n + "²", "only superscript": lambda n: "²", "5,000 digits": lambda n: "9" * 5000,
       "huge exponent": lambda n: n + "e999999999"}
# fixture, line: a number on that line that a part of the model reads as text
CASES = [("findings/cases/finite_sleep_hour_restarts_hourly", 13), ("findings/cases/own_prestop_kill_1", 14),
         ("findings/cases/start_order_cloud_sql_proxy", 30), ("findings/cases/hostport_host_network_surge", 13),
         ("findings/prestop-exec-binary-missing/fires", 21), ("pods/rw_cloudsql_job_quitquitquit", 21),
         ("pods/rw_cloudsql_job_quitquitquit", 24), ("ci/repo/apps/web", 19), ("ci/repo/apps/web", 45)]
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


@pytest.mark.parametrize("odd", list(ODD))
@pytest.mark.parametrize(("fixture", "line"), CASES)
def test_an_odd_number_in_a_manifest_is_explained_not_raised(fixture: str, line: int, odd: str) -> None:
    lines = (FIXTURES_DIR / f"{fixture}.yaml").read_text(encoding="utf-8").split("\n")
    assert _NUMBER.search(lines[line - 1]), lines[line - 1]
    lines[line - 1] = _NUMBER.sub(lambda m: ODD[odd](m.group(0)), lines[line - 1])
    expl = explain("\n".join(lines), None, "1.35")
    assert expl.pods or expl.errors


@pytest.mark.parametrize("value", ["²s", "8080²s", "9" * 5000 + "s", "1e999999999s"])
def test_an_odd_restart_period_in_a_scenario_is_a_scenario_error(value: str) -> None:
    expl = explain("kind: Pod\napiVersion: v1\nmetadata: {name: p}\nspec: {containers: [{name: a, image: a}]}\n",
                   {"crashLoopBackOff": {"maxContainerRestartPeriod": value}}, "1.35")
    assert [e.kind for e in expl.errors] == ["scenario"]


@pytest.mark.parametrize(("text", "expected"), [("8080", 8080), ("0", 0), ("²", None), ("١٢", None), ("", None),
                                                ("-1", None), (" 1", None), ("9" * 18, int("9" * 18)),
                                                ("9" * 19, None), (12, None)])
def test_whole_number_reads_ascii_digits_of_bounded_length(text: object, expected: int | None) -> None:
    assert whole_number(text) == expected


def test_a_scenario_over_its_limit_is_called_a_scenario() -> None:
    from explainer.lifecycle.errors import ManifestError
    from explainer.lifecycle.scenario.text import read_scenario_text

    with pytest.raises(ManifestError) as caught:
        read_scenario_text("# " + "x" * 70_000 + "\nuntil: 5\n")
    assert caught.value.records[0].message.startswith("The scenario is 70,012 bytes; the limit is 65,536")

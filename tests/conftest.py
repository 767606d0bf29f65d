"""Shared test helpers: YAML fixtures by name and the golden-file fixture."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests import profiles  # noqa: F401  (loads the Hypothesis profile before any test module)

TESTS_DIR = Path(__file__).resolve().parent
FIXTURES_DIR = TESTS_DIR / "fixtures"
GOLDEN_DIR = TESTS_DIR / "golden"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/ files from the current output instead of comparing",
    )


EXAMPLES_DIR = TESTS_DIR.parent / "explainer" / "examples"


def load_manifest(name: str) -> str:
    """Text of tests/fixtures/<name>.yaml, e.g. load_manifest("pods/native_sidecar").

    "seeds/<slug>" reads the teaching examples the app ships (explainer/examples/<slug>.yaml),
    so the gallery and the tests use the same files.
    """
    if name.startswith("seeds/"):
        return (EXAMPLES_DIR / f"{name.removeprefix('seeds/')}.yaml").read_text(encoding="utf-8")
    return (FIXTURES_DIR / f"{name}.yaml").read_text(encoding="utf-8")


def _normalise(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n") + "\n"


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[str, str], None]:
    """golden("scenario/trace.txt", text): compare text to tests/golden/<path>.

    With --update-golden the file is (re)written instead; review the diff.
    """
    update = request.config.getoption("--update-golden")

    def check(relative_path: str, text: str) -> None:
        path = GOLDEN_DIR / relative_path
        actual = _normalise(text)
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(actual, encoding="utf-8", newline="\n")
            return
        if not path.exists():
            pytest.fail(f"golden file {path.relative_to(TESTS_DIR.parent)} is missing; "
                        "run pytest --update-golden and review it")
        expected = _normalise(path.read_text(encoding="utf-8"))
        assert actual == expected, (
            f"output differs from {path.relative_to(TESTS_DIR.parent)}; "
            "if the change is intended, run pytest --update-golden and review the diff"
        )

    return check

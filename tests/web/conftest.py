"""Browser tests: a real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# Playwright's sync API runs an event loop in the test thread; the live server's database
# access happens in its own thread, and test code touches the ORM only between page actions.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make setup` (it installs Debian's chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        # as root, in a closed network: no sandbox, no background traffic
        "args": ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


@pytest.fixture
def shot(request: pytest.FixtureRequest):
    """shot(page, "name"): a full-page screenshot under test-artifacts/ (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = ARTIFACTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Rate-limit counters and rendered pictures live in the cache: start each test empty."""
    from django.core.cache import cache
    cache.clear()


@pytest.fixture(autouse=True)
def _own_costly_slots(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The slots for costly work (explainer/web/gate.py) of this test process alone: two test processes share
    the name of their in-memory database, and would otherwise wait for each other's slot."""
    settings.COSTLY_DIR = str(tmp_path_factory.getbasetemp() / "costly-slots")

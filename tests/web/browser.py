"""Chromium for the page tests: the browser, a live server on the test database, where screenshots go.

The fixtures ``site`` and ``browser`` are made available to every module of tests/web by conftest.py.

The server is pytest-django's LiveServer (Django's LiveServerThread) started here rather than
through the ``live_server`` fixture: that fixture forces ``transactional_db``, whose teardown
empties every table, including the session's committed cities and runs other tests share.
This server reads only committed data: the session's runs and the modules' own fixtures.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"{CHROMIUM} is missing: run scripts/services.sh, which installs Debian's chromium",
)


@pytest.fixture(scope="module")
def site(django_db_blocker, web_runs):
    """A live server on the test database (committed data only); its base URL."""
    from pytest_django.live_server_helper import LiveServer

    with django_db_blocker.unblock():
        server = LiveServer("localhost")
    yield server.url
    server.stop()


@pytest.fixture(scope="module")
def browser():
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop here
    from playwright.sync_api import sync_playwright

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()

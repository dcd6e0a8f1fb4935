"""Chromium for the page tests: the browser, a live server on the test database, where screenshots go.

The fixtures ``site`` and ``browser`` are made available to every module of tests/web by conftest.py.

Chromium missing is a failure, not a skip: ``make test`` installs it (scripts/services.sh). Every page a
test opens through ``browser`` is watched for Content-Security-Policy violations (Chromium reports each
on the console), and the module's tests end in an error if any page reported one.

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
CSP_VIOLATION = "Content Security Policy"  # in the text of each violation Chromium logs


def chromium_path() -> str:
    """Debian's Chromium; a failure (not a skip) when it is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"{CHROMIUM} is missing: run scripts/services.sh (make test does), which installs Debian's chromium"
        )
    return CHROMIUM


@pytest.fixture
def chromium() -> str:
    return chromium_path()


needs_chromium = pytest.mark.usefixtures("chromium")


class WatchedBrowser:
    """A Playwright browser whose every page reports Content-Security-Policy violations into ``violations``."""

    def __init__(self, browser) -> None:
        self._browser = browser
        self.violations: list[str] = []

    def watch(self, page) -> None:
        def seen(message) -> None:
            if CSP_VIOLATION in message.text:
                self.violations.append(f"{page.url}: {message.text}")

        page.on("console", seen)

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        self.watch(page)
        return page

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.on("page", self.watch)
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


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
    """Chromium, each page watched for Content-Security-Policy violations (none may be reported)."""
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop here
    from playwright.sync_api import sync_playwright

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = WatchedBrowser(pw.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS))
        yield browser
        browser.close()
    assert browser.violations == [], "pages broke the Content-Security-Policy:\n" + "\n".join(browser.violations)

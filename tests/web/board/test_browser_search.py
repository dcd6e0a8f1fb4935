"""The leaderboard's search form in a real browser on a phone-sized screen (390 x 844): it fits without
horizontal overflow and, without any script of ours, submits the filters as a GET query.

Fixtures from tests/web/browser.py: a live server on committed data (the session's web-fixture
runs), Debian's Chromium through Playwright.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from tests.web.browser import SCREENSHOTS, needs_chromium

pytestmark = [
    needs_chromium,
    pytest.mark.django_db,
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser):
    page = browser.new_page(viewport=PHONE, java_script_enabled=False)  # the form must work without scripts
    yield page
    page.close()


def overflow(page, selector: str) -> list[str]:
    """The controls under ``selector`` that reach past the viewport's right edge, or scroll sideways."""
    return page.eval_on_selector(
        selector,
        """(form) => {
            const out = [];
            if (form.scrollWidth > form.clientWidth + 1) out.push('form scrolls: ' + form.scrollWidth);
            for (const el of form.querySelectorAll('input, select, button, label')) {
                const box = el.getBoundingClientRect();
                if (box.right > window.innerWidth + 0.5) out.push((el.name || el.tagName) + ' ends at ' + box.right);
            }
            return out;
        }""",
    )


def test_search_form_fits_a_phone_and_filters_without_javascript(phone, site, web_runs):
    heuristic = web_runs["heuristic"]
    phone.goto(f"{site}/?release=web-fixture")
    form = "form.board-filters"
    assert overflow(phone, form) == []
    phone.fill(f"{form} input[name=q]", "HEURISTIC")
    phone.select_option(f"{form} select[name=category]", "routing")
    phone.fill(f"{form} input[name=since]", "2000-01-01")
    with phone.expect_navigation():
        phone.click(f"{form} button[type=submit]")
    query = parse_qs(urlparse(phone.url).query)
    assert query["q"] == ["HEURISTIC"] and query["category"] == ["routing"] and query["since"] == ["2000-01-01"]
    links = phone.eval_on_selector_all(
        "table.leaderboard td a[href^='/runs/']", "els => els.map(e => e.getAttribute('href'))"
    )
    assert links == [f"/runs/{heuristic.id}/"]
    assert phone.input_value(f"{form} input[name=q]") == "HEURISTIC"  # the form shows what it filtered by
    assert "Routing PR" in phone.inner_text("table.category-view")
    assert overflow(phone, form) == []
    phone.screenshot(path=str(SCREENSHOTS / "leaderboard-search-390.png"), full_page=True)

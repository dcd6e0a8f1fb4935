"""The hardest-cases matrix, score against cost, the note reader and the replay search in a real browser
(Debian's headless Chromium through Playwright) at a phone's 390x844: nothing wider than the screen,
no script error, every request to the local server. Fixtures and server from tests/web/browser.py."""

from __future__ import annotations

import pytest

from tests.web.browser import SCREENSHOTS, needs_chromium

pytestmark = [
    needs_chromium,
    pytest.mark.django_db,
]


@pytest.fixture(scope="module")
def helsinki_note_id(helsinki, django_db_blocker) -> str:
    from benchmark.runs.models import Step

    with django_db_blocker.unblock():
        return Step.objects.filter(tool="note_detail", error_kind="").values_list("arguments__note_id", flat=True)[0]


def test_the_new_pages_fit_a_phone_screen(site, browser, web_runs, helsinki_note_id):
    failed = web_runs["heuristic"].trajectories.filter(passed=False).order_by("id").first()
    pages = {
        "matrix": f"{site}/releases/web-fixture/matrix/?baselines=1",
        "cost": f"{site}/releases/web-fixture/cost/",
        "note": f"{site}/notes/{helsinki_note_id}/?city=helsinki",
        "replay-search": f"{site}/trajectories/{failed.id}/?q=search",
    }
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors, requests = [], []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", lambda request: requests.append(request.url))
    for name, url in pages.items():
        response = page.goto(url)
        assert response.status == 200, name
        # the replay page as a whole is not ours to fit (its map column is wider at 390 px): its search box is
        root = "document.querySelector('.replay-search')" if name == "replay-search" else "document.documentElement"
        width = page.evaluate(
            f"[Math.max({root}.scrollWidth, {root}.getBoundingClientRect().right), window.innerWidth]"
        )
        wide = page.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth)"
            ".map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12)"
        )
        assert width[0] <= width[1], f"{name} is {width[0]} px wide on a {width[1]} px screen: {wide}"
        page.screenshot(path=SCREENSHOTS / f"insight-{name}-390x844.png", full_page=True)
    page.goto(pages["matrix"])
    assert page.locator("table.matrix tbody tr").count() == 22  # the 22 cases, both baseline runs as columns
    assert page.locator("table.matrix a[href^='/trajectories/']").count() == 44
    page.goto(pages["cost"])
    assert page.locator("svg.cost .run-point").count() >= 1
    page.goto(pages["replay-search"])
    first = page.locator(".search-results li").first
    step = int(first.get_attribute("data-step"))
    first.locator("a").click()
    page.wait_for_url(f"**step={step}")
    assert page.locator(f"#A-step-{step}").is_visible()
    assert errors == [] and all(url.startswith(site) for url in requests), (errors, requests)
    page.close()

"""The run page's plots in a real browser (Debian's headless Chromium through Playwright): at a
desktop width every plot's text is drawn at 13 px or more, and on a 390 px phone figure 5's panels
fit the screen while the wide figures scroll inside their own box. Screenshots go to
test-artifacts/screenshots/. The live server and browser fixtures are tests/web/browser.py's."""

from __future__ import annotations

import pytest

from tests.web.browser import SCREENSHOTS, needs_chromium

PREFIX = "plots-browser"

pytestmark = [
    needs_chromium,
    pytest.mark.django_db,
]

# Each SVG text's drawn size in CSS px: its font-size in viewBox units times the SVG's scale on screen.
TEXT_SIZES = """() => [...document.querySelectorAll('svg.plot text')].map(t => ({
  text: t.textContent, px: parseFloat(t.getAttribute('font-size')) * t.ownerSVGElement.getScreenCTM().a}))"""
BOXES = """(selector) => [...document.querySelectorAll(selector)].map(e => {
  const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, width: r.width}; })"""


@pytest.fixture(scope="module")
def plots_run(grid_city, django_db_blocker):
    """A committed run of 22 cases, passed and failed, with tool calls: every figure is drawn."""
    from benchmark.cases.models import Case, Release
    from tests.factories import failing_scores, metric, passing_scores, release_with_cases, run_with_results

    steps = [
        {"tool": "place_search", "arguments": {}, "observation": {"error": {"kind": "x"}}, "error_kind": "not_found"},
        {
            "tool": "routing",
            "arguments": {},
            "observation": {"places": [], "truncated": True},
            "error_kind": "truncated",
        },
    ]
    wrong = (False, failing_scores(IG=metric("IG", 0.5), TE=metric("TE", 0.25), RP=metric("RP", 0.75)))
    with django_db_blocker.unblock():
        release = release_with_cases(PREFIX, per_cell=2)
        run = run_with_results(
            release, name=PREFIX, results=[(True, passing_scores()), wrong], steps=steps, tokens=(9000, 600)
        )
    yield run
    with django_db_blocker.unblock():
        run.delete()
        Release.objects.filter(name=PREFIX).delete()
        Case.objects.filter(case_id__startswith=PREFIX).delete()


def open_run(browser, site: str, run, width: int, height: int):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{site}/runs/{run.id}/")
    page.wait_for_selector("svg.plot-tokens")
    return page


def test_plot_text_is_at_least_13px_at_desktop_widths(site, browser, plots_run):
    for width in (1024, 1280, 1600):
        page = open_run(browser, site, plots_run, width, 900)
        sizes = page.evaluate(TEXT_SIZES)
        assert len(sizes) > 60
        small = [s for s in sizes if s["px"] < 13]
        assert not small, (width, small[:5])
        assert len(page.evaluate(BOXES, "svg.plot-exceedance")) == 3
        page.screenshot(path=str(SCREENSHOTS / f"run-plots-{width}.png"), full_page=True)
        page.close()


def test_on_a_phone_the_panels_fit_the_screen_and_wide_figures_scroll_in_their_box(site, browser, plots_run):
    page = open_run(browser, site, plots_run, 390, 844)
    panels = page.evaluate(BOXES, "svg.plot-exceedance")
    assert len(panels) == 3 and all(p["left"] >= 0 and p["right"] <= 390 and p["width"] >= 300 for p in panels)
    assert all(p["right"] <= 390 for p in page.evaluate(BOXES, ".plot-wide"))
    assert min(s["px"] for s in page.evaluate(TEXT_SIZES)) >= 11
    page.screenshot(path=str(SCREENSHOTS / "run-plots-390.png"), full_page=True)
    page.close()

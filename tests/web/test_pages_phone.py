"""Every public page in Chromium at a desktop size (1400x900) and a phone size (390x844).

For each page and size: no page error and no console error (a missing favicon would be one), no request
that leaves this server, and a full-page screenshot in test-artifacts/screenshots/<page>-<w>x<h>.png
(also, as a small JPEG, in $LP_SCREENSHOTS_DIR when set: docs/dashboard.md, "Screenshots"). At the phone
size: the page is no wider than the screen, and every button, nav link, pagination link, timeline step,
form control, table sort link and map zoom button is at least 44 x 44 CSS px.
Then the phone layout's promises one by one: the leaderboard's run names stay in view while its score
columns scroll, the replay stacks map, timeline and notes, the skip link is the first thing Tab reaches,
and /favicon.ico answers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.web.browser import SCREENSHOTS, needs_chromium

pytestmark = [needs_chromium, pytest.mark.django_db]

DESKTOP, PHONE = (1400, 900), (390, 844)
STAFF, PASSWORD = "phone-staff", "phone-pw-1"
ENDPOINT = "phone-endpoint-with-a-rather-long-name"
LOCAL_HOSTS = {"localhost", "127.0.0.1"}
# What a finger must hit: buttons, nav links, pagination, timeline steps, form controls, sort links, map zoom.
TOUCH_TARGETS = (
    "button, input:not([type=hidden]), select, textarea, header a, .pagination a, .step-list a, th a, "
    ".leaflet-bar a, summary"
)
SMALL_TARGETS_JS = """(selector) => {
  const small = [];
  for (const element of document.querySelectorAll(selector)) {
    if (!element.getClientRects().length || getComputedStyle(element).visibility === 'hidden') continue;
    const checkable = element.matches('input[type=checkbox], input[type=radio]');
    const target = checkable && element.labels.length ? element.labels[0] : element;  // a label toggles it too
    const box = target.getBoundingClientRect();
    if (box.width < 44 || box.height < 44) {
      const text = (target.innerText || target.value || target.getAttribute('aria-label') || target.name || '').trim();
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      small.push(`${target.tagName.toLowerCase()} "${text.slice(0, 40)}" ${size}`);
    }
  }
  return small;
}"""
WIDE_ELEMENTS_JS = """() => {
  const scrolledAway = e => {  // inside a box that scrolls or clips: that box is the offender, if any
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && !scrolledAway(e))
    .slice(0, 8)
    .map(e => `${e.tagName.toLowerCase()}.${e.className} right=${Math.round(e.getBoundingClientRect().right)}`);
}"""


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    signed_in: bool = False
    status: int = 200
    wait_for: str = ""  # a selector that shows the page's script has drawn
    shows: str = ""  # a selector of what this page is here to cover (the test checks it is there)


@pytest.fixture(scope="module")
def staff(django_db_blocker):
    """A committed staff member with one endpoint (the endpoints page lists it)."""
    from django.contrib.auth.models import User

    from benchmark.endpoints.models import ModelEndpoint
    from benchmark.endpoints.services import endpoint_create

    with django_db_blocker.unblock():
        ModelEndpoint.objects.filter(name=ENDPOINT).delete()
        User.objects.filter(username=STAFF).delete()
        user = User.objects.create_user(STAFF, password=PASSWORD, is_staff=True)
        endpoint_create(
            name=ENDPOINT,
            model="openai/gpt-4o-mini",
            api_base="",
            api_key="sk-phone",
            owner=user,
        )
    yield user
    with django_db_blocker.unblock():
        ModelEndpoint.objects.filter(name=ENDPOINT).delete()
        user.delete()


@pytest.fixture(scope="module")
def queued_run(web_release, django_db_blocker):
    """A run that stays queued (nothing executes it): its page shows the Cancel button and the progress."""
    from benchmark.runs.services import run_create

    with django_db_blocker.unblock():
        run = run_create(agent="heuristic", release=web_release, name="phone queued run", limit=3)
    yield run
    with django_db_blocker.unblock():
        run.delete()


@pytest.fixture(scope="module")
def pages(web_runs, web_model_run, queued_run, django_db_blocker) -> dict[str, Page]:
    from benchmark.runs.models import Step

    reference, heuristic = web_runs["reference"], web_runs["heuristic"]
    with django_db_blocker.unblock():
        failed = heuristic.trajectories.filter(passed=False).order_by("entry__position").first()
        won = reference.trajectories.filter(passed=True, entry__case__case_id__in=_failed_case_ids(heuristic))
        case_id = won.order_by("entry__position").values_list("entry__case__case_id", flat=True).first()
        first_case = reference.trajectories.order_by("entry__position").values_list("entry__case__case_id", flat=True)[
            0
        ]
        note_id = (
            Step.objects.filter(trajectory__run=reference, tool="note_detail", error_kind="")
            .order_by("id")
            .values_list("arguments__note_id", flat=True)
            .first()
        )
    assert failed is not None and case_id, "the fixture runs need a case only the reference passed"
    assert note_id, "the reference run reads a note"
    compare = f"/compare/?a={reference.id}&b={heuristic.id}"
    replay_ready = "#replay-map[data-ready=true][data-streets=loaded]"
    return {
        page.name: page
        for page in [
            Page("leaderboard", "/?release=web-fixture", shows="table.leaderboard th a"),
            Page("leaderboard-category", "/?release=web-fixture&category=routing", shows="table.category-view"),
            Page("matrix", "/releases/web-fixture/matrix/?baselines=1", shows="table.matrix"),
            Page("cost", "/releases/web-fixture/cost/?x=tokens"),
            Page("note", f"/notes/{note_id}/", shows=".note-reader"),
            Page("run", f"/runs/{heuristic.id}/", signed_in=True, shows="form.run-action button"),
            Page("run-queued", f"/runs/{queued_run.id}/", signed_in=True, shows="button:text('Cancel run')"),
            Page("replay", f"/trajectories/{failed.id}/", wait_for=replay_ready, shows=".timeline button"),
            Page("replay-search", f"/trajectories/{failed.id}/?q=place", wait_for=replay_ready, shows=".replay-search"),
            Page("compare", compare),
            Page("compare-side-by-side", f"{compare}&case={case_id}#side-by-side", wait_for=replay_ready),
            Page("cases", "/cases/?release=web-fixture&page=2", shows=".pagination a"),  # 10 a page here
            Page(
                "case", f"/cases/web-fixture/{first_case}/", wait_for="#case-map[data-streets=loaded] .case-map-number"
            ),
            Page("glossary", "/glossary/"),
            Page("about", "/about/", shows="pre.bibtex"),
            Page("model", f"/models/{web_model_run.endpoint.model}/", shows="table.model-runs a"),
            Page("not-found", "/runs/99999999/", status=404, shows="main a[href='/about/']"),
            Page("login", "/accounts/login/"),
            Page("submit", "/submit/", signed_in=True, shows="form.submit-form textarea, form.submit-form select"),
            Page("token", "/accounts/token/", signed_in=True),
            Page("endpoints", "/accounts/endpoints/", signed_in=True, shows="table.endpoints button"),
        ]
    }


def _failed_case_ids(run) -> list[str]:
    return list(run.trajectories.filter(passed=False).values_list("entry__case__case_id", flat=True))


@pytest.fixture(scope="module")
def staff_session(site, browser, staff, django_db_blocker) -> dict:
    """The cookies of the staff member signed in through the sign-in form."""
    with django_db_blocker.unblock():  # the live server reads the database in this fixture, outside a test
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{site}/accounts/login/")
        page.fill("input[name=username]", STAFF)
        page.fill("input[name=password]", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_selector("header form.inline button")  # "Sign out phone-staff"
        state = context.storage_state()
        context.close()
    return state


@pytest.fixture
def open_page(site, browser, staff_session):
    """open_page(page, (w, h)) -> (Playwright page, problems, requests): the page loaded and its scripts done."""
    contexts = []

    def open_(spec: Page, size: tuple[int, int]):
        width, height = size
        context = browser.new_context(
            viewport={"width": width, "height": height}, storage_state=staff_session if spec.signed_in else None
        )
        contexts.append(context)
        page = context.new_page()
        problems, requests = [], []
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.on("console", lambda m: problems.append(f"console: {m.text} {m.location}") if m.type == "error" else None)
        page.on("request", lambda request: requests.append(request.url))
        response = page.goto(f"{site}{spec.path}", wait_until="networkidle")
        assert response.status == spec.status, f"{spec.name}: HTTP {response.status}"
        if spec.status != 200:  # Chromium reports the page's own status as a console error; nothing else may fail
            document = f"{site}{spec.path}"
            problems[:] = [p for p in problems if not (f"status of {spec.status}" in p and document in p)]
        if spec.wait_for:
            page.wait_for_selector(spec.wait_for, state="attached")
        return page, problems, requests

    yield open_
    for context in contexts:
        context.close()


def screenshot(page, name: str, size: tuple[int, int]) -> None:
    filename = f"{name}-{size[0]}x{size[1]}"
    page.screenshot(path=SCREENSHOTS / f"{filename}.png", full_page=True)
    if os.environ.get("LP_SCREENSHOTS_DIR"):  # the copies linked from docs/dashboard.md
        folder = Path(os.environ["LP_SCREENSHOTS_DIR"])
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=folder / f"{filename}.jpg", full_page=True, type="jpeg", quality=40)


PAGE_NAMES = [
    "leaderboard",
    "leaderboard-category",
    "matrix",
    "cost",
    "note",
    "run",
    "run-queued",
    "replay",
    "replay-search",
    "compare",
    "compare-side-by-side",
    "cases",
    "case",
    "glossary",
    "about",
    "model",
    "not-found",
    "login",
    "submit",
    "token",
    "endpoints",
]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1400x900", "390x844"])
@pytest.mark.parametrize("name", PAGE_NAMES)
def test_every_page_fits_the_screen_with_big_enough_targets_and_no_errors(open_page, pages, name, size, monkeypatch):
    from benchmark.web.cases import browser as case_browser

    monkeypatch.setattr(case_browser, "PAGE_SIZE", 10)  # the 22 cases take three pages: pagination links
    page, problems, requests = open_page(pages[name], size)
    if pages[name].shows:
        assert page.locator(pages[name].shows).count(), f"{name} lacks {pages[name].shows}"
    screenshot(page, name, size)
    assert problems == [], f"{name} at {size}: {problems}"
    outside = [
        u for u in requests if urlparse(u).scheme not in ("data", "blob") and urlparse(u).hostname not in LOCAL_HOSTS
    ]
    assert requests and outside == [], f"{name} fetched from outside this server: {outside}"
    if size == PHONE:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE[0], (
            f"{name} is {width} px wide on a {PHONE[0]} px screen: {page.evaluate(WIDE_ELEMENTS_JS)}"
        )
        small = page.evaluate(SMALL_TARGETS_JS, TOUCH_TARGETS)
        assert small == [], f"{name}: touch targets under 44 x 44 px: {small}"


def test_the_pages_cover_every_route_of_the_list(pages):
    assert sorted(pages) == sorted(PAGE_NAMES)


def test_on_a_phone_the_leaderboard_keeps_rank_and_run_in_view_while_the_scores_scroll(open_page, pages, web_runs):
    page, _, _ = open_page(pages["leaderboard"], PHONE)
    region = page.locator("div.table-scroll").first  # the models' table, or the baselines' when no model ran
    assert region.get_attribute("role") == "region" and region.get_attribute("tabindex") == "0"
    assert region.get_attribute("aria-label")
    run_cell = region.locator("tbody tr").first.locator("td").nth(1)
    overall = region.locator("tbody tr").first.locator("td.overall")
    before = run_cell.bounding_box()
    assert overall.bounding_box()["x"] > PHONE[0], "the overall score starts off screen"
    region.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")  # the keyboard scrolls the focused region
    page.wait_for_timeout(500)  # smooth scrolling
    assert region.evaluate("e => e.scrollLeft") > 0
    assert run_cell.bounding_box()["x"] == pytest.approx(before["x"], abs=1), "the run's name scrolled away"
    region.evaluate(  # scroll on until the overall score's right edge meets the screen's
        "(e, cell) => { e.scrollLeft += cell.getBoundingClientRect().right - e.getBoundingClientRect().right; }",
        overall.element_handle(),
    )
    page.wait_for_timeout(100)
    after, box = run_cell.bounding_box(), overall.bounding_box()
    assert after["x"] == pytest.approx(before["x"], abs=1), "the run's name scrolled away with the scores"
    assert box["x"] + box["width"] <= PHONE[0] + 1 and box["x"] >= after["x"] + after["width"] - 1, (
        "the overall score is in view, beside the run's name"
    )
    hit = "([x, y]) => document.elementFromPoint(x, y).closest('td')"
    assert page.evaluate(
        f"{hit} === document.querySelector('.table-scroll tbody tr td.overall')",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    covered = page.evaluate(
        f"{hit} === document.querySelector('.table-scroll tbody tr td:nth-child(2)')", [after["x"] + 5, after["y"] + 5]
    )
    assert covered, "the scrolled scores pass under the run's name, not over it"


def test_the_leaderboards_first_phone_screen_is_the_ranking_and_no_column_is_cut_on_a_desktop(open_page, pages):
    """At 390x844 the filters are folded and the first screen shows the first row's rank, model and overall PR;
    at 1400x900 every table of the leaderboard shows all its columns (none scrolls sideways)."""
    page, _, _ = open_page(pages["leaderboard"], PHONE)
    fold = page.locator("details#board-filters")
    assert fold.get_attribute("open") is None and page.locator("form.board-filters select[name=q]").count() == 0
    assert not page.locator("form.board-filters input[name=q]").is_visible()
    first = page.locator("table.leaderboard tbody tr").first
    for part, where in (
        ("rank", first.locator("td.rank")),
        ("model", first.locator("code.model")),
        ("overall PR", first.locator(".overall-inline")),
    ):
        box = where.bounding_box()
        assert box and box["y"] + box["height"] <= PHONE[1] and box["x"] + box["width"] <= PHONE[0], (
            f"the first row's {part} is not on the first screen: {box}"
        )
    assert first.locator(".overall-inline").inner_text().startswith("overall ")
    fold.locator("summary").click()  # one tap opens them
    assert page.locator("form.board-filters input[name=q]").is_visible()

    page, _, _ = open_page(pages["leaderboard"], DESKTOP)
    assert page.locator("details#board-filters").get_attribute("open") is not None  # open on a desktop
    assert not page.locator(".overall-inline").first.is_visible()  # the overall column says it there
    regions = page.locator("div.table-scroll")
    assert regions.count() >= 2
    cut = regions.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.ariaLabel)")
    assert cut == [], f"tables cut at 1400x900: {cut}"


def test_on_a_phone_the_replay_stacks_map_timeline_and_notes(open_page, pages):
    page, _, _ = open_page(pages["replay"], PHONE)
    map_box = page.locator("#replay-map").bounding_box()
    timeline = page.locator("[data-track=A] .timeline").bounding_box()
    panel = page.locator("[data-track=A] .step-panel:not([hidden])").bounding_box()
    assert map_box["x"] >= 0 and map_box["x"] + map_box["width"] <= PHONE[0]
    assert map_box["width"] >= PHONE[0] - 40, "the map takes the screen's width"
    assert 250 <= map_box["height"] <= 0.7 * PHONE[1], "the map leaves room to see the timeline"
    assert map_box["y"] + map_box["height"] <= timeline["y"] <= panel["y"], "map, then timeline, then the step"
    assert timeline["width"] <= PHONE[0]
    page.click("[data-track=A] [data-action=next]")  # the timeline still works on the phone
    assert page.get_attribute("[data-track=A]", "data-position") == "1"


def test_the_skip_link_is_the_first_tab_stop_and_moves_the_focus_to_the_content(open_page, pages):
    page, _, _ = open_page(pages["leaderboard"], PHONE)
    assert page.locator("a.skip-link").bounding_box()["y"] < 0, "hidden until focused"
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused == "Skip to content"
    box = page.locator("a.skip-link").bounding_box()
    assert box["y"] >= 0 and box["height"] >= 44, "visible once focused"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "content"
    page.keyboard.press("Tab")  # the next stop is inside the content, past the header's links
    assert page.evaluate("document.getElementById('content').contains(document.activeElement)")


def test_the_favicon_is_ours_and_favicon_ico_answers(site, open_page, pages):
    page, _, _ = open_page(pages["glossary"], DESKTOP)
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert urlparse(icon).hostname is None and icon.endswith(".svg")
    for path in (icon, "/favicon.ico"):
        response = page.request.get(f"{site}{path}")
        assert response.status == 200 and response.headers["content-type"].startswith("image/svg+xml"), path
        assert b"<svg" in response.body()

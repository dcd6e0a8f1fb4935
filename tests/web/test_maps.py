"""The maps in a real browser (Debian's Chromium through Playwright, on a live server): dense results, names, offline.

- A search step with 20 results close together: no two marker icons overlap (their bounding boxes), the count
  badges and single markers together stand for every result, each exactly once, and a badge zooms in on click
  or Enter (static/js/map-markers.js).
- Every marker has an accessible name (aria-label and title) with the place's name and id, on the replay, the
  case page and the admin's case map; the reference's rings say "gold stop N".
- The admin's case page shows the map before the JSON fields.
- No request leaves this server (tiles are off).

Fixtures come from test_browser.py (the live server on committed data, the browser) and tests/web/conftest.py.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest

from tests.web.browser import SCREENSHOTS, needs_chromium
from tests.web.test_browser import open_replay, places_shown, replay_json

VIEWPORTS = [(1400, 900), (390, 844)]
ICONS = "#replay-map .leaflet-marker-icon"
LOCAL_HOSTS = {"localhost", "127.0.0.1"}
GROUPED_AT_ZOOM = "Number(document.getElementById('replay-map').getAttribute('data-grouped-at-zoom'))"

pytestmark = [
    needs_chromium,
    pytest.mark.django_db,
]


@pytest.fixture(scope="module")
def trip_case(web_release, django_db_blocker):
    """A trip-design case of the committed release "web-fixture": several answer places."""
    with django_db_blocker.unblock():
        entry = next(e for e in web_release.entries.order_by("position") if e.case.category == "trip_design")
        return entry.case


@pytest.fixture(scope="module")
def dense_replay(trip_case, web_runs, django_db_blocker):
    """A committed trajectory whose first step is a nearby_search returning 20 places around the answer's first one."""
    from benchmark.cases.models import Release
    from benchmark.cases.selectors import case_place_ids
    from benchmark.cases.services import release_freeze
    from tests.web import conftest as web

    with django_db_blocker.unblock():
        Release.objects.filter(name="web-maps-dense").delete()
        release = release_freeze(name="web-maps-dense", split="public", cases=[trip_case], audit=False)
        center = case_place_ids(trip_case.answer)[0]
        calls = [("nearby_search", {"center": center, "radius_meters": 1000})]
        trajectory = web.recorded_trajectory(release=release, calls=calls, answer=trip_case.answer, name="web dense")
    yield trajectory
    with django_db_blocker.unblock():
        trajectory.run.delete()
        release.delete()


@pytest.fixture
def viewport_page(browser, request):
    """A page at the parametrized viewport that records every request and every script error."""
    width, height = request.param
    page = browser.new_page(viewport={"width": width, "height": height})
    page.requests, page.errors = [], []
    page.on("request", lambda r: page.requests.append(r.url))
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.size = f"{width}x{height}"
    yield page
    page.close()


def icons(page, selector: str = ICONS) -> list[dict]:
    """Every marker icon on the map: its box, accessible name, title and the places it stands for."""
    return page.evaluate(
        """(selector) => Array.from(document.querySelectorAll(selector)).map((icon) => {
            const box = icon.getBoundingClientRect();
            return {x: box.x, y: box.y, w: box.width, h: box.height, label: icon.getAttribute('aria-label'),
                    title: icon.getAttribute('title'), count: Number(icon.getAttribute('data-count') || 1),
                    cluster: icon.classList.contains('lp-cluster'), tabindex: icon.getAttribute('tabindex')};
        })""",
        selector,
    )


def overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if (
                a["x"] < b["x"] + b["w"]
                and b["x"] < a["x"] + a["w"]
                and a["y"] < b["y"] + b["h"]
                and b["y"] < a["y"] + a["h"]
            ):
                pairs.append((a["label"], b["label"]))
    return pairs


def place_ids_named(labels: list[str]) -> list[str]:
    return [pid for label in labels for pid in re.findall(r"\(([A-Z]\d+)\)", label)]


def only_this_server(requests: list[str]) -> bool:
    return bool(requests) and all(
        urlparse(u).scheme in ("data", "blob") or urlparse(u).hostname in LOCAL_HOSTS for u in requests
    )


def check_declutter(page, results: list[dict]) -> list[dict]:
    """No two icons overlap; singles and badges stand for every result exactly once, each named."""
    shown = icons(page)
    assert overlapping(shown) == []
    assert sum(icon["count"] for icon in shown) == len(results) == places_shown(page)
    assert sorted(place_ids_named([icon["label"] for icon in shown])) == sorted(r["place_id"] for r in results)
    by_rank = {f"result {r['rank']}: {r['name']} ({r['place_id']})": r for r in results}
    for icon in shown:
        assert icon["title"] == icon["label"] and icon["tabindex"] == "0"  # hover text, accessible name, focusable
        if not icon["cluster"]:
            assert any(icon["label"].startswith(name) for name in by_rank), icon["label"]
    return shown


@pytest.mark.parametrize("viewport_page", VIEWPORTS, indirect=True)
def test_dense_results_never_pile_up_and_every_place_stays_reachable(site, viewport_page, dense_replay):
    page = viewport_page
    payload = replay_json(site, dense_replay.id)
    results = [f["properties"] for f in payload["steps"][0]["features"] if f["properties"]["kind"] == "result"]
    assert len(results) == 20 and all(r["name"] for r in results)
    open_replay(page, f"{site}/trajectories/{dense_replay.id}/?step=1")
    page.screenshot(path=SCREENSHOTS / f"maps-dense-{page.size}.png")
    shown = check_declutter(page, results)
    assert any(icon["cluster"] for icon in shown), "20 results within 1 km pile up at this zoom: some are grouped"
    center = next(f["properties"] for f in payload["steps"][0]["features"] if f["properties"]["kind"] == "center")
    dot = page.locator("#replay-map path.lp-center")  # a point drawn as a path is named and focusable too
    assert dot.get_attribute("aria-label") == f"search centre: {center['name']} ({center['place_id']})"
    assert dot.get_attribute("tabindex") == "0"

    zoom = page.evaluate("window.lpReplay.map.getZoom()")
    page.locator(f"{ICONS}.lp-cluster").first.click()  # a badge zooms in on its places
    page.wait_for_function(f"{GROUPED_AT_ZOOM} > {zoom}")
    check_declutter(page, results)

    for _ in range(12):  # from the keyboard: Enter on a focused badge zooms in, or lists places that share a spot
        badges = page.locator(f"{ICONS}.lp-cluster")
        if not badges.count():
            break
        zoom, count = page.evaluate("window.lpReplay.map.getZoom()"), int(badges.first.get_attribute("data-count"))
        badges.first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(f"{GROUPED_AT_ZOOM} > {zoom} || document.querySelector('.lp-cluster-list')")
        if page.locator(".lp-cluster-list").count():
            listed = page.locator(".lp-cluster-list li").all_inner_texts()
            assert len(listed) == count and all(re.search(r"\([A-Z]\d+\)", item) for item in listed)
            assert page.evaluate("window.lpReplay.map.getZoom() === window.lpReplay.map.getMaxZoom()")
            break
        check_declutter(page, results)
        assert page.evaluate("document.activeElement.classList.contains('leaflet-marker-icon')")  # focus follows
    page.screenshot(path=SCREENSHOTS / f"maps-dense-zoomed-{page.size}.png")
    assert only_this_server(page.requests), [u for u in page.requests if urlparse(u).hostname not in LOCAL_HOSTS]
    assert page.errors == []


@pytest.mark.parametrize("viewport_page", VIEWPORTS, indirect=True)
def test_answer_and_gold_markers_are_named(site, viewport_page, dense_replay):
    page = viewport_page
    payload = replay_json(site, dense_replay.id)
    open_replay(page, f"{site}/trajectories/{dense_replay.id}/?step=answer")
    stops = [f["properties"] for f in payload["answer"]["features"] if f["properties"]["kind"] == "stop"]
    gold = [f["properties"] for f in payload["reference"]["features"] if f["properties"]["kind"] == "stop"]
    assert len(stops) >= 2 and len(gold) == len(stops)
    rings = icons(page, "#replay-map .lp-reference-stop")
    assert sorted(r["label"] for r in rings) == sorted(
        f"gold stop {g['number']}: {g['name']} ({g['place_id']})" for g in gold
    )
    agent = icons(page, "#replay-map .leaflet-marker-icon:not(.lp-reference-stop)")
    assert overlapping(agent) == []
    assert sorted(place_ids_named([a["label"] for a in agent])) == sorted(s["place_id"] for s in stops)
    assert all(a["label"] and a["title"] for a in agent)
    legs = [f["properties"] for f in payload["answer"]["features"] if f["properties"]["kind"] == "leg"]
    leg_names = page.locator("#replay-map path.lp-leg").evaluate_all("(els) => els.map((e) => e.ariaLabel)")
    assert len(leg_names) == len(legs) == len(stops) - 1
    for leg, label in zip(sorted(legs, key=lambda leg: leg["leg"]), sorted(leg_names)):
        assert label.startswith(
            f"leg {leg['leg']}: {leg['from_name']} ({leg['from']}) to {leg['to_name']} ({leg['to']})"
        )
    page.locator("#replay-map .lp-reference-stop").first.focus()  # under the agent's stop: reached by keyboard
    assert page.locator(".leaflet-tooltip", has_text="gold stop").count() == 1  # the tooltip names it on focus too
    assert only_this_server(page.requests)
    assert page.errors == []


@pytest.fixture(scope="module")
def curator(django_db_blocker):
    from django.contrib.auth.models import User

    from tests.factories import staff_user

    with django_db_blocker.unblock():
        User.objects.filter(username="maps-curator").delete()
        user = staff_user("maps-curator", curator=True)
    yield user
    with django_db_blocker.unblock():
        user.delete()


def case_places(page) -> list[dict]:
    data = page.evaluate("JSON.parse(document.getElementById('case-map-data').textContent)")
    return [f["properties"] for f in data["features"] if f["properties"]["kind"] == "place"]


def check_case_map(page) -> None:
    page.wait_for_selector("#case-map[data-ready=true]")
    page.wait_for_selector("#case-map[data-streets=loaded]")
    places = case_places(page)
    shown = icons(page, "#case-map .leaflet-marker-icon")
    assert len(places) >= 2 and overlapping(shown) == []
    assert sum(icon["count"] for icon in shown) == len(places)
    names = [icon["label"] for icon in shown]
    assert sorted(place_ids_named(names)) == sorted(p["place_id"] for p in places)
    singles = {icon["label"] for icon in shown if not icon["cluster"]}
    assert singles <= {f"gold stop {p['number']}: {p['name']} ({p['place_id']})" for p in places}


@pytest.mark.parametrize("viewport_page", VIEWPORTS, indirect=True)
def test_admin_case_page_shows_the_named_map_before_the_json(site, viewport_page, curator, trip_case):
    page = viewport_page
    page.goto(f"{site}/admin/login/?next=/admin/cases/case/{trip_case.pk}/change/")
    page.fill("#id_username", "maps-curator")
    page.fill("#id_password", "pw")
    page.click("input[type=submit]")
    page.wait_for_url(f"**/admin/cases/case/{trip_case.pk}/change/")
    check_case_map(page)
    page.locator("#case-map").scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOTS / f"maps-admin-case-{page.size}.png")
    map_top = page.locator("#case-map").bounding_box()["y"]
    json_top = page.locator(".field-answer_html").bounding_box()["y"]  # the first of the review's JSON fields
    question_top = page.locator(".field-question").bounding_box()["y"]
    assert question_top < map_top < json_top
    assert "{#" not in page.inner_text("#content")  # no template syntax leaks into the page
    # The curator's tools (issue 46): the site's name, the Reject button with its reason, the public page and runs.
    assert page.locator("#site-name").inner_text() == "LifePlanner curation"
    assert page.locator("form.reject-case textarea[name=reason]").is_visible()
    assert page.locator("form.reject-case input[type=submit][value=Reject]").is_visible()
    public = page.get_by_role("link", name="Public page")
    assert public.get_attribute("href") == f"/cases/{trip_case.case_id}/"
    assert page.get_by_role("link", name="Its runs").get_attribute("href") == f"/cases/{trip_case.case_id}/#runs"
    assert only_this_server(page.requests)
    assert page.errors == []


@pytest.mark.parametrize("viewport_page", VIEWPORTS, indirect=True)
def test_public_case_page_markers_are_named(site, viewport_page, web_release, trip_case):
    page = viewport_page
    page.goto(f"{site}/cases/{web_release.name}/{trip_case.case_id}/")
    check_case_map(page)
    page.screenshot(path=SCREENSHOTS / f"maps-case-{page.size}.png")
    assert only_this_server(page.requests)
    assert page.errors == []

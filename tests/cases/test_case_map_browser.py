"""The case map in a real browser (Debian's chromium): markers and route draw without tiles.

The page comes from the Django test client and its static files from the staticfiles
finders (served to the browser through request interception), so the test needs no live
server and no network: tile requests fail, as they would offline.
"""

from urllib.parse import urlparse

import pytest
from django.contrib.staticfiles import finders

from benchmark.cases.services import case_create
from tests.factories import routing_document, staff_user
from tests.web.browser import CHROMIUM, LAUNCH_ARGS

pytestmark = pytest.mark.django_db


def test_case_change_page_draws_numbered_markers_and_the_route(client, grid_city):
    from playwright import sync_api

    client.force_login(staff_user("cura", curator=True))
    case = case_create(document=routing_document())
    page_path = f"/admin/cases/case/{case.pk}/change/"
    html = client.get(page_path).content
    streets = client.get("/city/gridtown/streets.geojson").content  # before Playwright's event loop starts

    def serve(route):
        path = urlparse(route.request.url).path
        found = finders.find(path.removeprefix("/static/")) if path.startswith("/static/") else None
        if path == page_path:
            route.fulfill(body=html, content_type="text/html; charset=utf-8")
        elif found:
            route.fulfill(path=found)
        elif path == "/city/gridtown/streets.geojson":  # the city's streets, from our road data
            route.fulfill(body=streets, content_type="application/json")
        else:
            route.abort()

    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.route("**/*", serve)
        page.goto(f"http://testserver{page_path}")
        page.wait_for_selector("#case-map .case-map-number")
        page.wait_for_selector("#case-map[data-streets=loaded]")
        numbers = page.locator("#case-map .case-map-number").all_inner_texts()
        routes = page.locator("#case-map path.leaflet-interactive").count()
        browser.close()
    assert numbers == ["1", "2", "3"]
    assert routes == 2
    assert errors == []

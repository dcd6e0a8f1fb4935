"""The case browser: filters and pages, a case page with its map, answers of a hidden split only for
curators, the runs that passed it, escaping of hostile text, and the map in a real browser."""

import json
import re
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders

from benchmark.cases.models import Release
from benchmark.cases.services import release_freeze
from benchmark.runs.models import EvaluationRun
from tests.factories import failing_scores, release_with_cases, run_with_results, staff_user
from tests.web.browser import CHROMIUM, LAUNCH_ARGS

pytestmark = pytest.mark.django_db
TRIP_CONSTRAINTS = {
    "vehicle": "walking",
    "mode": "time",
    "before": [["N4", "N5"]],
    "fact": {"key": "free_wifi", "place_id": "N4"},
}


@pytest.fixture
def public():
    return release_with_cases("cases-v1", per_cell=3)  # 33 cases


@pytest.fixture
def hidden():
    return release_with_cases(
        "cases-hidden", cells=[("trip_design", "L2")], split=Release.HIDDEN, constraints=TRIP_CONSTRAINTS
    )


def case_ids(html):
    return re.findall(r'<a href="/cases/[\w-]+/([\w-]+)/">', html)


def test_case_list_filters_by_category_level_and_words(client, public):
    every = client.get("/cases/?release=cases-v1").content.decode()
    assert "33 cases match" in every and len(case_ids(every)) == 33
    routing = client.get("/cases/?release=cases-v1&category=routing&level=L2").content.decode()
    assert len(case_ids(routing)) == 3 and all("-routing-L2-" in c for c in case_ids(routing))
    one = case_ids(routing)[0]
    found = client.get(f"/cases/?release=cases-v1&q={one[-4:]}").content.decode()
    assert case_ids(found) == [one]
    words = client.get("/cases/?release=cases-v1&q=MUSEO+kivi").content.decode()  # in every question
    assert len(case_ids(words)) == 33


def test_case_list_pages_through_a_release(client, django_assert_max_num_queries):
    release_with_cases("big", per_cell=6)  # 66 cases, 50 per page
    with django_assert_max_num_queries(3):  # releases, the count, the page
        first = client.get("/cases/?release=big").content.decode()
    second = client.get("/cases/?release=big&page=2").content.decode()
    assert len(case_ids(first)) == 50 and len(case_ids(second)) == 16
    assert 'href="?release=big&amp;page=2"' in first and "page 2 of 2" in second


def test_case_list_defaults_to_the_newest_public_release_and_explains_bad_filters(client, public, hidden):
    assert "cases-v1" in client.get("/cases/").content.decode()
    for query, message in [
        ("level=L5", "level must be one of L0, L1, L2"),
        ("category=x", "category must be one of place_perception"),
        ("q=" + "a" * 201, "at most 200 characters"),
    ]:
        page = client.get(f"/cases/?{query}")
        assert page.status_code == 400 and message in page.content.decode()
    missing = client.get("/cases/?release=nope")
    assert missing.status_code == 404 and "no release named &#x27;nope&#x27;" in missing.content.decode()


def test_public_case_page_shows_answer_path_evidence_and_map(client, grid_city, public):
    entry = public.entries.order_by("position").first()
    html = client.get(f"/cases/cases-v1/{entry.case.case_id}/").content.decode()
    assert "Reference answer" in html and "Reference tool path" in html and "Required evidence" in html
    data = json.loads(
        re.search(r'<script id="case-map-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    )
    places = [f["properties"]["place_id"] for f in data["features"] if f["properties"]["kind"] == "place"]
    assert places == ["N1", "N4", "N5"]
    assert [f["properties"]["leg"] for f in data["features"] if f["properties"]["kind"] == "route"] == [1, 2]
    assert "js/case-map.js" in html and "leaflet" in html
    assert "js/streets.js" in html and 'data-url="/city/gridtown/streets.geojson"' in html  # our streets, no tiles
    assert '"layers": []' in html and "tile.openstreetmap" not in html


def test_hidden_case_answers_and_revealing_constraints_are_for_curators_only(client, grid_city, hidden):
    case_id = hidden.entries.get().case.case_id
    url = f"/cases/cases-hidden/{case_id}/"
    anonymous = client.get(url).content.decode()
    client.force_login(User.objects.create_user("reader", password="pw"))
    signed_in = client.get(url).content.decode()
    for html in (anonymous, signed_in):
        assert "shown to curators only" in html and "Reference answer" not in html
        assert "case-map-data" not in html and "free_wifi" not in html and "&quot;N4&quot;" not in html
        assert "<th>vehicle</th>" in html and "2 more constraints" in html
    client.force_login(staff_user("cura", curator=True))
    curator = client.get(url).content.decode()
    assert "Reference answer" in curator and "case-map-data" in curator and "free_wifi" in curator
    assert "&quot;N4&quot;" in curator


def test_case_page_lists_the_runs_that_ran_it_with_replay_links(client, public):
    owner = User.objects.create_user("owner", password="pw")
    passed = run_with_results(public, name="good run")
    failed = run_with_results(public, name="bad run", results=[(False, failing_scores())])
    smoke = run_with_results(public, name="my smoke", purpose=EvaluationRun.SMOKE, created_by=owner)
    entry = public.entries.order_by("position").first()
    url = f"/cases/cases-v1/{entry.case.case_id}/"
    html = client.get(url).content.decode()
    good = passed.trajectories.get(entry=entry).id
    bad = failed.trajectories.get(entry=entry).id
    assert f'href="/trajectories/{good}/"' in html and f'href="/trajectories/{bad}/"' in html
    assert html.count('class="badge passed"') == 1 and html.count('class="badge failed"') == 1
    assert "my smoke" not in html
    client.force_login(owner)
    assert f'href="/runs/{smoke.id}/"' in client.get(url).content.decode()


def test_case_links_resolve_to_the_newest_release_and_unknown_cases_are_404(client, public):
    case_id = public.entries.order_by("position").first().case.case_id
    release_with_cases("cases-v2")  # newer, without the case
    again = release_freeze(
        name="cases-v3", split="public", cases=[public.entries.order_by("position").first().case], audit=False
    )
    assert client.get(f"/cases/{case_id}/").url == f"/cases/{again.name}/{case_id}/"
    assert client.get("/cases/no-such-case/").status_code == 404
    page = client.get(f"/cases/cases-v2/{case_id}/")
    assert page.status_code == 404 and "release &#x27;cases-v2&#x27; has no case" in page.content.decode()


def test_hostile_question_and_answer_text_is_escaped(client, grid_city):
    answer = {"name": "</script><script>alert(1)</script>", "place_id": "N1"}
    release = release_with_cases(
        "evil", cells=[("place_perception", "L0")], answer=answer, question='<img src=x onerror="alert(2)"> Where?'
    )
    entry = release.entries.get()
    html = client.get(f"/cases/evil/{entry.case.case_id}/").content.decode()
    listing = client.get("/cases/?release=evil").content.decode()
    for page in (html, listing):
        assert "<img src=x" not in page and "&lt;img src=x onerror=&quot;alert(2)&quot;&gt;" in page
    assert "</script><script>alert(1)" not in html
    assert "&quot;name&quot;: &quot;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;" in html


def test_case_page_map_draws_in_a_real_browser(client, grid_city, public):
    from playwright import sync_api

    entry = public.entries.order_by("position").first()
    page_path = f"/cases/cases-v1/{entry.case.case_id}/"
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
            route.abort()  # map tiles: offline, as in a closed network

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
    assert numbers == ["1", "2", "3"] and routes == 2
    assert errors == []

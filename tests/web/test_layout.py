"""What the phone layout rests on, without a browser (issue 15, points 4 and 10): the skip link, the favicon,
and every wide table of the leaderboard and the run page inside a region a keyboard can scroll.
tests/web/test_pages_phone.py checks the same pages in Chromium at 1400x900 and 390x844."""

import re

import pytest

from tests.factories import failing_scores, passing_scores, release_with_cases, run_with_results

pytestmark = pytest.mark.django_db
FOCUSABLE = re.compile(r"<(a|button|input|select|textarea)\b[^>]*>")
REGION = re.compile(r'<div class="[^"]*\bscroll-x\b[^"]*" role="region" aria-label="[^"]+" tabindex="0">\s*<table\b')


@pytest.fixture
def run():
    release = release_with_cases("layout-v1")
    return run_with_results(release, name="half", results=[(True, passing_scores()), (False, failing_scores())])


def test_the_skip_link_is_the_first_focusable_element_and_targets_the_main_content(client):
    html = client.get("/glossary/").content.decode()
    body = html[html.index("<body") :]
    first = FOCUSABLE.search(body)
    assert first and 'class="skip-link"' in first.group(0) and 'href="#content"' in first.group(0)
    assert '<main id="content" tabindex="-1">' in body


def test_favicon_ico_leads_to_our_svg_icon_which_every_page_links(client):
    html = client.get("/glossary/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', html)
    assert icon and icon.group(1).endswith("favicon.svg")
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == icon.group(1)


@pytest.mark.parametrize("page", ["leaderboard", "run"])
def test_every_table_of_the_leaderboard_and_the_run_page_scrolls_in_a_labelled_focusable_region(client, run, page):
    path = f"/?release={run.release.name}" if page == "leaderboard" else f"/runs/{run.id}/"
    html = client.get(path).content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    tables = main.count("<table")
    wrapped = len(REGION.findall(main))
    narrow = main.count('<table class="board"><tbody>')  # the failure reasons' legend: two columns of words
    assert tables >= 2 and wrapped == tables - narrow, f"{page}: {wrapped} of {tables} tables in a scroll region"

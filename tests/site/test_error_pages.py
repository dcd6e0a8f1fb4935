"""The site's own error pages, with DEBUG on (the demo) as with it off, and the API's index.

Django with DEBUG on answers a 404 with every URL pattern of the site and an exception with its traceback;
lifeplanner_site/errors.py answers both with the site's pages (SITE_ERROR_PAGES=0 brings Django's back).
Under /api/ every answer stays JSON; /api/ and /api/v1/ are JSON indexes; /api/docs/ leads back to the site.
"""

from __future__ import annotations

import logging

import pytest

from benchmark.api.views import INDEX


def _site_page(response, status: int) -> str:
    page = response.content.decode()
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    assert '<a class="brand" href="/">LifePlanner</a>' in page, "not the site's page"
    for debug in ("Using the URLconf", "Traceback", "technical", "URLconf defined in"):
        assert debug not in page, f"Django's debug page shows through ({debug!r})"
    return page


@pytest.fixture(params=[True, False], ids=["debug-on", "debug-off"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/runs/99999/", "/no-such-page/", "/trajectories/99999/", "/notes/nope/"])
def test_a_missing_page_is_the_sites_own_404_with_debug_on_or_off(client, debug, url):
    page = _site_page(client.get(url), 404)
    assert "not found" in page.lower()
    assert 'href="/"' in page and 'href="/cases/"' in page  # a way on


@pytest.mark.django_db
def test_a_views_404_message_is_shown_on_the_sites_page(client, debug, settings):
    settings.ROOT_URLCONF = "tests.site.error_urls"
    page = _site_page(client.get("/gone/"), 404)
    assert "no run 99999 that you can see" in page


@pytest.mark.django_db
def test_a_server_error_is_the_sites_own_500_and_the_traceback_goes_to_the_log(client, debug, settings, caplog):
    settings.ROOT_URLCONF = "tests.site.error_urls"
    client.raise_request_exception = False
    with caplog.at_level(logging.ERROR, logger="django.request"):
        page = _site_page(client.get("/boom/"), 500)
    assert "Server error" in page and "boom" not in page
    logged = [r for r in caplog.records if r.name == "django.request" and r.levelno == logging.ERROR]
    assert len(logged) == 1 and logged[0].exc_info and "boom" in str(logged[0].exc_info[1])


@pytest.mark.django_db
def test_site_error_pages_off_gives_a_developer_djangos_debug_page(client, settings):
    settings.DEBUG, settings.SITE_ERROR_PAGES = True, False
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and "URLconf" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/v1/nothing/", "/api/v2/", "/api/v1/runs/99999/"])
def test_under_the_api_a_404_stays_json_with_debug_on_or_off(client, debug, url):
    response = client.get(url)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json()["detail"]


@pytest.mark.django_db
def test_api_v1_is_a_json_index_of_every_resource(client, debug):
    response = client.get("/api/v1/")
    assert response.status_code == 200
    index = response.json()
    assert [name for name, _, _ in INDEX] == list(index["resources"])
    for name, resource in index["resources"].items():  # each URL answers, in JSON
        answer = client.get(resource["url"])
        assert answer["Content-Type"] == "application/json", name
        assert answer.status_code in (200, 401, 403), f"{name}: {answer.status_code}"
        assert resource["description"]
    assert client.get(index["schema"]).status_code == 200
    assert client.get(index["docs"]).status_code == 200
    assert "Authorization: Token" in index["authentication"]


@pytest.mark.django_db
def test_api_root_names_its_versions(client, debug):
    response = client.get("/api/")
    assert response.status_code == 200
    assert response.json()["versions"] == {"v1": "http://testserver/api/v1/"}


@pytest.mark.django_db
def test_the_api_docs_lead_back_to_the_site(client):
    page = client.get("/api/docs/").content.decode()
    assert 'href="/">&larr; LifePlanner</a>' in page
    assert 'href="/api/v1/"' in page and 'href="/about/"' in page

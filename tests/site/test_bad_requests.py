"""Requests no page can answer: a NUL in the URL path, and what the DEBUG error page may show."""

from __future__ import annotations

import sys

import pytest
from django.test import RequestFactory
from django.views.debug import technical_500_response

from tests.factories import release


@pytest.fixture
def a_release(db):
    return release("nul-public")


@pytest.mark.parametrize(
    "path",
    [
        "/cases/%00/",
        "/cases/nul-public/%00/",
        "/cases/nul-public/a%00b/",
        "/api/v1/releases/nul-public/cases/%00/",
        "/api/v1/releases/%00/",
        "/static/%00",
    ],
)
def test_a_nul_in_the_url_path_is_a_400_not_a_server_error(client, a_release, path):
    client.raise_request_exception = False
    response = client.get(path)
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()
    if path.startswith("/api/"):
        assert "NUL character" in response.json()["detail"]


def test_the_debug_error_page_hides_the_database_and_redis_urls(settings):
    settings.DEBUG = True
    request = RequestFactory().get("/boom/")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        page = technical_500_response(request, *sys.exc_info()).content.decode()
    assert "boom" in page and "DATABASE_URL" in page  # the page is there, the value is not
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        assert getattr(settings, name) not in page, f"{name} is shown"

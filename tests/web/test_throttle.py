"""Request budgets: anonymous clients of the compare page and of the API get a 429 past their rate."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from benchmark.web.throttle import parse_rate

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_rates_are_read_as_requests_per_period_and_bad_ones_say_what_is_allowed():
    assert parse_rate("30/min") == (30, 60) and parse_rate("5/second") == (5, 1) and parse_rate(None) is None
    with pytest.raises(ValueError, match="'30/min'"):
        parse_rate("thirty")


def test_the_api_throttles_anonymous_clients_at_their_rate(client, settings):
    settings.API_THROTTLE_RATES = {"anon": "3/min", "user": None}
    codes = [client.get("/api/v1/releases/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert client.get("/api/v1/releases/", REMOTE_ADDR="10.0.0.9").status_code == 200  # another client


def test_without_a_rate_nothing_is_throttled(client, settings):
    settings.API_THROTTLE_RATES = {"anon": None, "user": None}
    assert {client.get("/api/v1/releases/").status_code for _ in range(10)} == {200}


def test_the_compare_page_throttles_anonymous_clients_but_not_signed_in_users(client, settings, django_user_model):
    settings.PAGE_THROTTLE_RATES = {"compare": "2/min"}
    codes = [client.get("/compare/?a=1&b=2").status_code for _ in range(3)]
    assert codes[:2] != [429, 429] and codes[2] == 429  # the budget counts requests, found or not
    limited = client.get("/compare/?a=1&b=2")
    assert limited.status_code == 429 and "at most 2 per 60 s" in limited.content.decode()
    assert int(limited["Retry-After"]) <= 60
    user = django_user_model.objects.create_user("reader", password="pw-123456789")
    client.force_login(user)
    assert client.get("/compare/?a=1&b=2").status_code != 429

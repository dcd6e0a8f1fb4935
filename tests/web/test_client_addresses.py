"""Both throttles count an anonymous client by the one address a proxy in front vouches for, never by what the
client writes into X-Forwarded-For (issue 45: 140 anonymous API requests a minute, each with a new header, all
answered 200)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import RequestFactory

from benchmark.web.throttle import client_ip

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def address(settings, proxies: int, peer: str, forwarded: str | None) -> str:
    settings.TRUSTED_PROXIES = proxies
    extra = {"REMOTE_ADDR": peer} | ({"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {})
    return client_ip(RequestFactory().get("/", **extra))


@pytest.mark.parametrize(
    "proxies, peer, forwarded, expected",
    [
        (0, "203.0.113.7", None, "203.0.113.7"),  # no proxy
        (0, "203.0.113.7", "1.2.3.4", "203.0.113.7"),  # no proxy: the header is the client's own words
        (1, "10.0.0.2", "203.0.113.7", "203.0.113.7"),  # one proxy that overwrites the header
        (1, "10.0.0.2", "1.2.3.4, 203.0.113.7", "203.0.113.7"),  # one appending proxy, a forged first hop
        (1, "10.0.0.2", "1.2.3.4,5.6.7.8 , 203.0.113.7", "203.0.113.7"),  # several forged hops
        (2, "10.0.0.3", "1.2.3.4, 203.0.113.7, 10.0.0.2", "203.0.113.7"),  # a load balancer, then nginx
        (2, "10.0.0.3", "203.0.113.7", "10.0.0.3"),  # fewer hops than proxies: the peer, one shared budget
        (1, "10.0.0.2", "", "10.0.0.2"),
    ],
)
def test_the_client_is_the_hop_the_outermost_trusted_proxy_saw(settings, proxies, peer, forwarded, expected):
    assert address(settings, proxies, peer, forwarded) == expected


def test_a_new_forwarded_header_per_request_does_not_buy_a_new_api_budget(client, settings):
    settings.API_THROTTLE_RATES = {"anon": "3/min", "user": None}
    settings.TRUSTED_PROXIES = 0
    codes = [client.get("/api/v1/releases/", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code for i in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_behind_an_appending_proxy_forged_first_hops_share_the_clients_budget(client, settings):
    settings.API_THROTTLE_RATES = {"anon": "2/min", "user": None}
    settings.PAGE_THROTTLE_RATES = {"compare": "2/min"}
    settings.TRUSTED_PROXIES = 1
    api = [
        client.get("/api/v1/releases/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"1.1.1.{i}, 203.0.113.7")
        for i in range(3)
    ]
    assert [r.status_code for r in api] == [200, 200, 429]
    pages = [
        client.get("/compare/?a=1&b=2", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"1.1.1.{i}, 203.0.113.7")
        for i in range(3)
    ]
    assert pages[2].status_code == 429
    other = client.get("/api/v1/releases/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.8")
    assert other.status_code == 200  # another client behind the same proxy has its own budget

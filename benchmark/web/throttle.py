"""A request budget per anonymous client for the pages that cost CPU (the compare page), and the API's.

Rates are "N/second|minute|hour|day" strings from ``settings.PAGE_THROTTLE_RATES`` and
``settings.API_THROTTLE_RATES`` (read on every request, so tests and operators can change them);
a rate of None means no limit. Counters live in Django's cache (per process with the default
local-memory cache; shared between processes when ``CACHE_URL`` points at Redis). Signed-in users
are not throttled on pages; the API throttles them at their own, higher rate.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import SimpleRateThrottle

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """(requests, seconds) of a rate such as "30/min"; None for no limit.

    Raises:
        ValueError: a rate that is not "N/period" with a period of second, minute, hour or day.
    """
    if rate is None:
        return None
    count, _, period = str(rate).partition("/")
    if not count.strip().isdigit() or not period.strip() or period.strip()[0] not in _PERIODS:
        raise ValueError(f"throttle rate {rate!r} must look like '30/min' (periods: second, minute, hour, day)")
    return int(count), _PERIODS[period.strip()[0]]


def client_ip(request: HttpRequest) -> str:
    """The client's address, as both throttles (pages and API) count clients.

    With no trusted proxy (``settings.TRUSTED_PROXIES`` 0, the default), the peer's address: X-Forwarded-For
    is the client's own words. Behind N trusted proxies, each of which appends the address it was connected from
    (nginx's ``$proxy_add_x_forwarded_for``, a cloud load balancer) or, for the outermost one, overwrites the
    header (``proxy_set_header X-Forwarded-For $remote_addr``), the N-th hop from the right: the address the
    outermost trusted proxy saw. Whatever a client writes into the header sits left of it and is not read. A
    header with fewer hops than proxies (a proxy not configured as documented) counts the peer: those requests
    share one budget rather than each naming its own.
    """
    peer = request.META.get("REMOTE_ADDR") or "unknown"
    trusted = settings.TRUSTED_PROXIES
    if trusted <= 0:
        return peer
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    return hops[-trusted] if len(hops) >= trusted else peer


def page_throttled(request: HttpRequest, scope: str) -> HttpResponse | None:
    """A 429 answer when an anonymous client has used its budget for ``scope``; None to go on."""
    if request.user.is_authenticated:
        return None
    limit = parse_rate(settings.PAGE_THROTTLE_RATES.get(scope))
    if limit is None:
        return None
    count, seconds = limit
    wait = budget_spent(scope=scope, ident=client_ip(request), count=count, seconds=seconds)
    if wait is None:
        return None
    response = HttpResponse(
        f"Too many requests for this page: at most {count} per {seconds} s without signing in. Try again in {wait} s.",
        status=429,
        content_type="text/plain",
    )
    response["Retry-After"] = str(wait)
    return response


def budget_spent(*, scope: str, ident: str, count: int, seconds: int) -> int | None:
    """Count one request of ``ident`` (a client's address, a user's id) for ``scope``: None while at most
    ``count`` were made in the current window of ``seconds``, else the seconds until the next window."""
    window = int(time.time() // seconds)
    key = f"throttle:{scope}:{ident}:{window}"
    cache.add(key, 0, seconds + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, seconds + 1)
        used = 1
    if used <= count:
        return None
    return seconds - int(time.time()) % seconds


class _SettingsRateThrottle(SimpleRateThrottle):
    """DRF's rate throttle with its rate read from ``settings.API_THROTTLE_RATES`` at request time (DRF's
    own classes read theirs once, at import)."""

    def get_rate(self):
        rates: dict[str, str | None] = settings.API_THROTTLE_RATES
        return rates.get(self.scope or "")

    def allow_request(self, request, view):
        self.rate = self.get_rate()
        limit = parse_rate(self.rate)
        if limit is None:  # no rate: no limit
            return True
        self.num_requests, self.duration = limit
        return super().allow_request(request, view)


class AnonApiThrottle(_SettingsRateThrottle):
    scope = "anon"

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            return None
        # client_ip, not DRF's get_ident: without NUM_PROXIES, get_ident returns the whole X-Forwarded-For
        # header, so a new header value was a new budget
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


class UserApiThrottle(_SettingsRateThrottle):
    scope = "user"

    def get_cache_key(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}

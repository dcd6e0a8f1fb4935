"""Error answers of the site: under /api/ always JSON (``{"detail": ...}``, as DRF answers), elsewhere Django's pages.

DRF answers its own views' errors in JSON. These cover what happens before a view: a path that names no
route (``/api/v1/endpoints/0.5/``: ids are whole numbers), a request Django refuses (a bad Host header, an
oversized form) and a server error.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt

API_PREFIX = "/api/"


@csrf_exempt  # a POST to no route is a 404, not a CSRF failure page (the API's views take tokens, not cookies)
def api_not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    """Any path under /api/ that names no route (the last route of the site's URLs)."""
    detail = f"no API route matches {request.path[:200]!r}; see /api/docs/ for the routes (ids are whole numbers)"
    if not request.path.endswith("/"):
        try:
            resolve(request.path + "/")
            detail = f"no API route matches {request.path[:200]!r}; the API's paths end with '/'"
        except Resolver404:
            pass
    return JsonResponse({"detail": detail}, status=404)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": "bad request: the request was refused before it reached the API"}, status=400)
    return defaults.bad_request(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return api_not_found(request)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": "server error: it is logged; please report it with the time"}, status=500)
    return defaults.server_error(request)

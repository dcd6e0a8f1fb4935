"""Error answers of the site: under /api/ always JSON (``{"detail": ...}``, as DRF answers), elsewhere the site's
own pages (templates/400.html, 403.html, 404.html, 500.html), with DEBUG on as with it off.

DRF answers its own views' errors in JSON. These cover what happens before a view: a path that names no
route (``/api/v1/endpoints/0.5/``: ids are whole numbers), a request Django refuses (a bad Host header, an
oversized form) and a server error. With DEBUG on, Django would answer a 404 with its list of every URL
pattern and an exception with its traceback; ``SiteErrorPagesMiddleware`` gives the visitor of a demo the
site's pages instead (``SITE_ERROR_PAGES=0`` brings Django's back, for a developer).
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.urls import Resolver404, resolve
from django.utils.log import log_response
from django.views.decorators.csrf import csrf_exempt

API_PREFIX = "/api/"
MESSAGE_CHARS = 300
TITLES = {400: "Bad request", 403: "Not allowed", 404: "Page not found", 500: "Server error"}


@csrf_exempt  # a POST to no route is a 404, not a CSRF failure page (the API's views take tokens, not cookies)
def api_not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    """Any path under /api/ that names no route (the last route of the site's URLs)."""
    detail = (
        f"no API route matches {request.path[:200]!r}; see /api/v1/ for the resources and /api/docs/ for the routes"
    )
    if not request.path.endswith("/"):
        try:
            resolve(request.path + "/")
            detail = f"no API route matches {request.path[:200]!r}; the API's paths end with '/'"
        except Resolver404:
            pass
    return JsonResponse({"detail": detail}, status=404)


def _page(request: HttpRequest | None, status: int, message: str = "") -> HttpResponse:
    """The site's page for ``status``; the 500 page renders without the request's context (no database)."""
    template = loader.get_template(f"{status}.html")
    context = {"error_title": TITLES[status], "status": status, "message": message[:MESSAGE_CHARS]}
    return HttpResponse(template.render(context, request if status != 500 else None), status=status)


def _message(exception: Exception | None) -> str:
    """What a 404's exception says, when it says something meant for a reader (a route miss says nothing)."""
    if exception is None or isinstance(exception, Resolver404) or not exception.args:
        return ""
    return exception.args[0] if isinstance(exception.args[0], str) else ""


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": "bad request: the request was refused before it reached the API"}, status=400)
    return _page(request, 400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": "permission denied"}, status=403)
    return _page(request, 403, _message(exception))


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return api_not_found(request)
    return _page(request, 404, _message(exception))


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": "server error: it is logged; please report it with the time"}, status=500)
    return _page(request, 500)


class SiteErrorPagesMiddleware:
    """With DEBUG on, a 404 and an exception answered with the site's pages, as with DEBUG off.

    A view's Http404 or exception reaches ``process_exception`` (the exception is logged as Django logs it);
    a path that names no route is a 404 response with no ``resolver_match``, replaced in ``__call__``.
    Off when DEBUG is off (the handlers of lifeplanner_site/urls.py answer then) or ``SITE_ERROR_PAGES`` is off.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    @staticmethod
    def _active(request: HttpRequest) -> bool:
        on = settings.DEBUG and settings.SITE_ERROR_PAGES
        return bool(on) and not request.path.startswith(API_PREFIX)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 404 and getattr(request, "resolver_match", None) is None and self._active(request):
            return page_not_found(request, Resolver404())
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not self._active(request):
            return None
        if isinstance(exception, Http404):
            return page_not_found(request, exception)
        if _handled_by_django(exception):
            return None
        response = server_error(request)
        # Logged as Django logs an exception it answers itself: the traceback goes to the log, not to the page.
        log_response(
            "%s: %s", "Internal Server Error", request.path, response=response, request=request, exception=exception
        )
        return response


def _handled_by_django(exception: Exception) -> bool:
    """Exceptions Django answers itself with a 400 or 403 (suspicious operations, permission denied, bad requests)."""
    from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
    from django.http.multipartparser import MultiPartParserError

    return isinstance(exception, BadRequest | PermissionDenied | SuspiciousOperation | MultiPartParserError)

"""Request guards shared by every page and the API, and what an error page may show."""

from __future__ import annotations

import re

from django.conf import settings
from django.http import HttpResponseBadRequest, JsonResponse
from django.views.debug import SafeExceptionReporterFilter


class RejectNulCharactersMiddleware:
    """PostgreSQL text cannot hold the NUL character (0x00): a URL path or a query parameter with one
    is answered 400, naming the parameter, instead of failing deep in a query."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path:  # /cases/%00/: no page or object has one in its address
            message = "the URL path contains a NUL character (0x00), which is not allowed"
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=400)
            return HttpResponseBadRequest(message)
        for name, values in request.GET.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                message = f"query parameter {name!r} contains a NUL character (0x00), which is not allowed"
                if request.path.startswith("/api/"):
                    return JsonResponse({"detail": message}, status=400)
                return HttpResponseBadRequest(message)
        return self.get_response(request)


class ContentSecurityPolicyMiddleware:
    """Every answer carries ``settings.CONTENT_SECURITY_POLICY``: scripts and styles from this site only, no
    inline script or style (the pages keep their data in JSON blocks, static/js starts the maps), no frame.
    The replay pages render a model's own text; a script smuggled into it would not run."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response


class SafeErrorPageFilter(SafeExceptionReporterFilter):
    """With DEBUG on, the error page lists the settings and the request's environment: besides
    Django's own (keys, passwords, tokens), hide every URL and DSN, since ``DATABASE_URL``,
    ``REDIS_URL`` or ``CACHE_URL`` may carry a password (settings.DEFAULT_EXCEPTION_REPORTER_FILTER)."""

    hidden_settings = re.compile("API|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|URL|DSN|DATABASE", flags=re.I)

"""Request guards shared by every page and the API."""
from __future__ import annotations

from django.http import HttpResponseBadRequest, JsonResponse


class RejectNulCharactersMiddleware:
    """PostgreSQL text cannot hold the NUL character (0x00): a query parameter with one is answered
    400, naming the parameter, instead of failing deep in a query."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        for name, values in request.GET.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                message = f"query parameter {name!r} contains a NUL character (0x00), which is not allowed"
                if request.path.startswith("/api/"):
                    return JsonResponse({"detail": message}, status=400)
                return HttpResponseBadRequest(message)
        return self.get_response(request)

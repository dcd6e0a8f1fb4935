"""A user's account pages: the API token (shown once, replaced or revoked) and one's own model endpoints: the
list, removing an endpoint's stored API key, deleting an endpoint.

Views parse input, call one service or selector, render. Another user's endpoint answers 404, as
an endpoint that does not exist does: names and ids of private endpoints cannot be probed.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from benchmark.accounts.selectors import api_token_of, endpoints_of, owned_endpoint
from benchmark.accounts.services import (
    EndpointInUse,
    api_token_create,
    api_token_revoke,
    endpoint_delete,
    endpoint_key_remove,
)


@login_required
@require_GET
def my_endpoints(request: HttpRequest) -> HttpResponse:
    """The signed-in user's endpoints, each with buttons to remove its key and to delete it."""
    return render(request, "web/endpoints.html", {"endpoints": endpoints_of(user=request.user)})


@login_required
@require_POST
def endpoint_key_remove_view(request: HttpRequest, endpoint_id: int) -> HttpResponse:
    endpoint = _own(request, endpoint_id)
    if endpoint_key_remove(endpoint=endpoint):
        messages.success(request, f"The API key of {endpoint.name!r} was removed.")
    else:
        messages.info(request, f"{endpoint.name!r} had no stored API key.")
    return redirect("my-endpoints")


@login_required
@require_POST
def endpoint_delete_view(request: HttpRequest, endpoint_id: int) -> HttpResponse:
    endpoint = _own(request, endpoint_id)
    try:
        outcome = endpoint_delete(endpoint=endpoint)
    except EndpointInUse as exc:
        messages.error(request, str(exc))
        return redirect("my-endpoints")
    messages.success(
        request,
        f"Endpoint {endpoint.name!r} was deleted"
        + ("; its finished runs stay on the leaderboard." if outcome == "retired" else "."),
    )
    return redirect("my-endpoints")


def _own(request: HttpRequest, endpoint_id: int):
    endpoint = owned_endpoint(user=request.user, endpoint_id=endpoint_id)
    if endpoint is None:
        raise Http404("no such endpoint")
    return endpoint


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """See whether one has an API token; create (or replace) it, shown once; or revoke it."""
    created = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action not in ("create", "revoke"):
            return render(
                request,
                "web/token.html",
                {"token": api_token_of(user=request.user), "error": "unknown action: use create or revoke"},
                status=400,
            )
        if action == "create":
            created = api_token_create(user=request.user)
        else:
            api_token_revoke(user=request.user)
            messages.success(request, "Your API token was revoked.")
            return redirect("api-token")
    response = render(request, "web/token.html", {"token": api_token_of(user=request.user), "created": created})
    response["Cache-Control"] = "no-store"  # the page showing a new token must not be cached
    return response

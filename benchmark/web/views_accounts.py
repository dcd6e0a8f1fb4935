"""A user's own model endpoints: the list, removing an endpoint's stored API key, deleting an endpoint.

Views parse input, call one service or selector, render. Another user's endpoint answers 404, as
an endpoint that does not exist does: names and ids of private endpoints cannot be probed.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from benchmark.accounts.selectors import endpoints_of, owned_endpoint
from benchmark.accounts.services import EndpointInUse, endpoint_delete, endpoint_key_remove


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

"""Reads of accounts: whose token this is, and a user's own endpoints."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from benchmark.accounts.models import ApiToken
from benchmark.endpoints.models import ModelEndpoint

from .services import api_token_hash


def api_token_of(*, user) -> ApiToken | None:
    """``user``'s API token row (its hash and creation time), or None."""
    return ApiToken.objects.filter(user=user).first()


def api_token_user(*, token: str):
    """The user a presented token belongs to, or None when no stored token has its hash."""
    found = ApiToken.objects.select_related("user").filter(key_hash=api_token_hash(token)).first()
    return found.user if found else None


def endpoints_of(*, user) -> QuerySet[ModelEndpoint]:
    """``user``'s endpoints that are not deleted, newest first, with their number of runs."""
    if not (user and user.is_authenticated):
        return ModelEndpoint.objects.none()
    return (
        ModelEndpoint.objects.filter(owner=user, deleted_at__isnull=True)
        .annotate(n_runs=Count("runs"))
        .order_by("-created_at", "-id")
    )


def owned_endpoint(*, user, endpoint_id: int) -> ModelEndpoint | None:
    """The endpoint if ``user`` owns it and it is not deleted; None otherwise (others' endpoints look absent)."""
    if not (user and user.is_authenticated):
        return None
    return ModelEndpoint.objects.filter(id=endpoint_id, owner=user, deleted_at__isnull=True).first()

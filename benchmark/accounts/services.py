"""Writes of accounts: API tokens (only their SHA-256 is stored) and deleting one's own endpoints or their keys."""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone

from benchmark.accounts.models import ApiToken
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun

TOKEN_PREFIX = "lpt_"
ACTIVE_RUNS = (EvaluationRun.QUEUED, EvaluationRun.RUNNING)


class EndpointInUse(Exception):
    """The endpoint has a run queued or running; the message names it and says what to do."""


def api_token_hash(token: str) -> str:
    """The SHA-256 (hex) under which a token is stored and looked up."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def api_token_create(*, user) -> str:
    """Give ``user`` a new API token, replacing any previous one; returns the token (shown once, never stored)."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.update_or_create(
        user=user, defaults={"key_hash": api_token_hash(token), "created_at": timezone.now()}
    )
    return token


def api_token_revoke(*, user) -> bool:
    """Delete ``user``'s API token; False when they had none."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted > 0


def endpoint_delete(*, endpoint: ModelEndpoint) -> str:
    """Delete an endpoint: for good when no run names it, else softly (marked deleted, key wiped, runs kept).

    Either way its name is free again and it can no longer be run. The caller checks ownership
    (``owned_endpoint``). Returns "deleted" or "retired".

    Raises:
        EndpointInUse: a run of the endpoint is queued or running (cancel it first).
    """
    with transaction.atomic():
        locked = ModelEndpoint.objects.select_for_update().get(id=endpoint.id)
        _refuse_if_running(locked)
        if not locked.runs.exists():
            locked.delete()
            return "deleted"
        locked.deleted_at, locked.api_key_encrypted = timezone.now(), ""
        locked.save(update_fields=["deleted_at", "api_key_encrypted"])
        return "retired"


def endpoint_key_remove(*, endpoint: ModelEndpoint) -> bool:
    """Wipe the endpoint's stored API key; False when it had none.

    Runs still in progress then stop at their next case with a clear message when the model
    needs a key (see ``benchmark.runs.preflight``).
    """
    return ModelEndpoint.objects.filter(id=endpoint.id).exclude(api_key_encrypted="").update(api_key_encrypted="") == 1


def _refuse_if_running(endpoint: ModelEndpoint) -> None:
    active = list(endpoint.runs.filter(status__in=ACTIVE_RUNS).order_by("id").values_list("id", flat=True)[:5])
    if active:
        raise EndpointInUse(
            f"endpoint {endpoint.name!r} is in use by queued or running run(s) "
            f"{', '.join(map(str, active))}: wait until they finish, or cancel them, then delete it"
        )

"""Accounts: a user's REST API token, stored hashed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiToken(models.Model):
    """A user's REST API token (``Authorization: Token <token>``), one per user.

    Only the token's SHA-256 is kept: the token itself is shown once, when it is created.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token")
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "benchmark_apitoken"

    def __str__(self) -> str:
        return f"API token {self.key_hash[:12]} of user {self.user_id}"

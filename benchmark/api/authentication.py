"""REST API authentication by ``Authorization: Token <token>``, against stored SHA-256 hashes only."""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication


class HashedTokenAuthentication(TokenAuthentication):
    """DRF's token header, checked against ``benchmark.accounts.models.ApiToken`` (hashes; tokens are never stored)."""

    def authenticate_credentials(self, key: str):
        from benchmark.accounts.selectors import api_token_user

        user = api_token_user(token=key)
        if user is None:
            raise exceptions.AuthenticationFailed("invalid token: create a new one at /accounts/token/")
        if not user.is_active:
            raise exceptions.AuthenticationFailed("this account is disabled")
        return user, key

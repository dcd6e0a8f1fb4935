"""Accounts: a user's REST API token (stored hashed, shown once) and the model endpoints they own.

``services`` holds the writes (``api_token_create``, ``api_token_revoke``, ``endpoint_delete``,
``endpoint_key_remove``); ``selectors`` the reads (``api_token_of``, ``api_token_user``,
``endpoints_of``, ``owned_endpoint``).
"""
from .selectors import api_token_of, api_token_user, endpoints_of, owned_endpoint
from .services import (
    TOKEN_PREFIX,
    EndpointInUse,
    api_token_create,
    api_token_hash,
    api_token_revoke,
    endpoint_delete,
    endpoint_key_remove,
)

__all__ = ["TOKEN_PREFIX", "EndpointInUse", "api_token_create", "api_token_hash", "api_token_of", "api_token_revoke",
           "api_token_user", "endpoint_delete", "endpoint_key_remove", "endpoints_of", "owned_endpoint"]

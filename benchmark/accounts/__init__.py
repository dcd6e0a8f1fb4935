"""Accounts: a user's REST API token (stored hashed, shown once) and the model endpoints they own.

``services`` holds the writes (``api_token_create``, ``api_token_revoke``, ``endpoint_delete``,
``endpoint_key_remove``); ``selectors`` the reads (``api_token_of``, ``api_token_user``,
``endpoints_of``, ``owned_endpoint``).
"""

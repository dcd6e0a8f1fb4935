"""Fixtures of the API tests."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import World
from tests.factories import world as make_world


@pytest.fixture
def world(db, settings) -> World:
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the fixtures' endpoints point at 127.0.0.1
    return make_world()


@pytest.fixture
def as_user():
    """as_user(user_or_None) -> an APIClient signed in (session) as that user, or anonymous."""

    def client(account=None) -> APIClient:
        api = APIClient()
        if account is not None:
            api.force_authenticate(account)
        return api

    return client

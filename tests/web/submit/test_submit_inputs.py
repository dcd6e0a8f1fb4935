"""Bad JSON in the submit form's params: the form says what is wrong with params, never a server error."""

from __future__ import annotations

import pytest

from benchmark.endpoints.models import ModelEndpoint
from tests.factories import release, user

FORM = {
    "name": "input model",
    "model": "openai/gpt-4o-mini",
    "api_base": "http://127.0.0.1:9/v1",
    "api_key": "sk-input-test",
    "concurrency": "2",
    "requests_per_minute": "",
    "release": "input-public",
}


@pytest.fixture
def submitter(db, client, settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    release("input-public")
    client.force_login(user("input-submitter"))
    client.raise_request_exception = False
    return client


@pytest.mark.parametrize(
    "params, message",
    [
        ('{"stop": "end\\u0000"}', "params.stop contains a NUL character (not allowed)"),
        ('{"stop": ' + "[" * 100_000 + "]" * 100_000 + "}", "params must be a JSON object"),
        ('{"stop": [[[[[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]]]]}', "params.stop[0]"),
    ],
    ids=["nul", "100000-deep", "17-deep"],
)
def test_bad_params_are_a_form_error_naming_params(submitter, params, message):
    response = submitter.post("/submit/", {**FORM, "params": params})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["params"] and errors["params"][0].startswith(message)
    assert not ModelEndpoint.objects.filter(name="input model").exists()

"""Only values that look like keys are registered for log redaction (issue 13): a user's "API key" such as
"succeeded" must not blank that word in every log line of the site."""

from __future__ import annotations

import logging

import pytest

from benchmark.endpoints import redaction
from benchmark.endpoints.redaction import SecretRedactingFilter, redact, register_secret


def _logged(message: str) -> str:
    record = logging.LogRecord("probe", logging.INFO, __file__, 1, message, None, None)
    SecretRedactingFilter().filter(record)
    return record.getMessage()


@pytest.mark.django_db
def test_an_endpoint_whose_key_is_a_word_does_not_blank_that_word_in_the_logs(settings):
    from benchmark.endpoints.services import endpoint_api_key, endpoint_create

    settings.ALLOW_PRIVATE_ENDPOINTS = True
    plain = endpoint_create(
        name="wordy", model="openai/gpt-4o-mini", api_base="http://127.0.0.1:9/v1", api_key="succeeded"
    )
    assert endpoint_api_key(plain) == "succeeded"
    assert _logged("run 7 succeeded") == "run 7 succeeded"


@pytest.mark.parametrize(
    "value",
    [
        "succeeded",
        "internationalization",
        "completed_successfully",
        "correct-horse-battery-staple",
        "aaaaaaaaaaaaaaaaaaaa1",
        "2026-01-01T10:00:00Z",
    ],
)
def test_words_phrases_and_plain_values_are_not_registered(value):
    register_secret(value)
    assert not redaction.looks_like_key(value) and redact(f"status: {value}") == f"status: {value}"


@pytest.mark.parametrize(
    "value",
    [
        "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
        "Zq8vN2kLmP4rT7wXyB1cD5fG",
        "550e8400-e29b-41d4-a716-446655440000",
        "hf_abcdefghijklmnopqrstuvw",
        "lpt_abcdefghijklmnopqrstuvwxyz",
    ],
)
def test_key_like_values_are_registered_and_redacted(value):
    register_secret(value)
    assert redaction.looks_like_key(value) and _logged(f"calling with {value} now") == "calling with [redacted] now"

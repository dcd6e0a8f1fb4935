"""Schemathesis against the live OpenAPI schema: no operation answers with a server error or an undocumented status.

The schema is fetched from the app's own /api/schema/ and requests go to the app in process
(WSGI) on the test database, with every kind of row loaded (releases public and hidden, finished
runs, a smoke test, trajectories with steps) and a token, so the submission operation runs too.
Each generated request is then replayed with its path parameters naming rows that exist, so the
fuzzed query strings and bodies reach real objects rather than only 404s. Responses must also
match the schema.

(schemathesis' lazy ``from_fixture`` loader does not work with pytest 9, hence the schema is
loaded when the module is collected; that needs no database.)
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from benchmark.accounts.services import api_token_create

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
# Every answer's status code is one the schema documents for the operation (benchmark/api/schema.py adds the
# 400, 404 and 429 every operation of a kind shares), and its body matches the schema.
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]


@pytest.fixture
def in_test_transaction():
    """As Django's test client does: a request's start and end must not close the test's transaction."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def token(world) -> str:
    return api_token_create(user=world.owner)


def existing(world, path: str) -> dict[str, object]:
    """Path parameter values that name real rows."""
    case = world.public.entries.select_related("case").first().case
    trajectory = world.evaluation.trajectories.first()
    return {
        "name": world.public.name,
        "release_name": world.public.name,
        "case_id": case.case_id,
        "id": trajectory.id if path.startswith("/api/v1/trajectories/") else world.evaluation.id,
    }


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_operation_answers_with_a_server_error(case, world, token, in_test_transaction):
    headers = {"Authorization": f"Token {token}"}
    case.call_and_validate(headers=headers, checks=CHECKS)
    if case.path_parameters:
        values = existing(world, case.path)
        case.path_parameters = {name: values[name] for name in case.path_parameters}
        case.call_and_validate(headers=headers, checks=CHECKS)

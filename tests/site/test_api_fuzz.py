"""A bounded schemathesis run against the production-like server: gunicorn with DEBUG off, as the ``web``
container runs it (the ``stack`` fixture), behind a TLS proxy's headers. No generated request may get a
server error. (tests/api/test_schemathesis.py fuzzes the same schema in process, with every kind of row and a
token, and checks the answers against the schema too.)
"""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error

from tests.api.test_schemathesis import schema as in_process_schema
from tests.site.conftest import SITE_HOST

live = schemathesis.openapi.from_dict(in_process_schema.raw_schema)
PROXY_HEADERS = {"Host": SITE_HOST, "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}


@live.parametrize()
@settings(
    max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate]
)
def test_no_generated_request_gets_a_server_error_from_the_production_server(case, stack):
    response = case.call_and_validate(
        base_url=f"http://127.0.0.1:{stack.port}", headers=PROXY_HEADERS, checks=[not_a_server_error], timeout=30
    )
    if response.status_code == 414:  # gunicorn's own refusal of a request line over 4,094 bytes: the site never saw it
        return
    # It reached the site (not a redirect to https nor a refused Host), whose answers all carry the policy.
    assert response.status_code not in (301, 302) and "content-security-policy" in response.headers

"""Bad JSON sent to the API: a 400 naming the field, never a server error (a NUL, NaN, a huge number,
a body nested 100,000 deep)."""

from __future__ import annotations

import json

import pytest

from benchmark.endpoints.models import ModelEndpoint

SUBMISSION = {
    "name": "input model",
    "model": "openai/gpt-4o-mini",
    "api_base": "http://127.0.0.1:9/v1",
    "api_key": "sk-input-test",
    "concurrency": 2,
    "release": "api-public",
}


def post_raw(client, body: str):
    client.raise_request_exception = False
    return client.post("/api/v1/runs/", data=body, content_type="application/json")


def test_a_nul_in_params_is_a_400_naming_the_field(world, as_user):
    response = as_user(world.other).post("/api/v1/runs/", {**SUBMISSION, "params": {"stop": "end\x00"}}, format="json")
    assert response.status_code == 400
    assert response.json() == {"params": ["params.stop contains a NUL character (not allowed)"]}
    assert not ModelEndpoint.objects.filter(name="input model").exists()


@pytest.mark.parametrize(
    "value, field, reason",
    [
        ("NaN", "params.temperature", "is NaN"),
        ("-Infinity", "params.temperature", "is Infinity"),
        ("1" + "0" * 5000, "params.temperature", "is a number with 5,001 digits"),
    ],
    ids=["nan", "infinity", "5000-digit"],
)
def test_nan_infinity_and_huge_numbers_are_a_400_naming_the_field(world, as_user, value, field, reason):
    body = json.dumps({**SUBMISSION, "params": {"temperature": 0}})
    body = body.replace('"temperature": 0', f'"temperature": {value}')  # what json.dumps would refuse to write
    response = post_raw(as_user(world.other), body)
    assert response.status_code == 400
    assert response.json()["params"][0].startswith(f"{field} {reason}")


def test_a_body_nested_100000_deep_is_a_400(world, as_user):
    body = '{"params": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = post_raw(as_user(world.other), body)
    assert response.status_code == 400
    assert response.json()["detail"] == "JSON parse error - the body is nested deeper than 16 levels (not allowed)"


def test_a_deep_params_object_is_a_400_naming_the_field(world, as_user):
    deep = {"stop": [[[[[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]]]]}
    response = as_user(world.other).post("/api/v1/runs/", {**SUBMISSION, "params": deep}, format="json")
    assert response.status_code == 400 and response.json()["params"][0].startswith("params.stop[0]")


# --- paths and paging: JSON answers naming what was wrong -------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/api/v1/endpoints/0.5/", "/api/v1/runs/abc/", "/api/v1/nothing/", "/api/v2/runs/", "/api/v1/trajectories/1e3/"],
)
def test_a_path_that_names_no_route_is_a_json_404(world, as_user, path):
    response = as_user(world.owner).get(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json()["detail"].startswith(f"no API route matches {path!r}")


def test_a_path_without_its_trailing_slash_is_told_so(world, as_user):
    response = as_user(world.owner).get("/api/v1/runs")
    assert response.status_code == 404
    assert response.json() == {"detail": "no API route matches '/api/v1/runs'; the API's paths end with '/'"}


@pytest.mark.parametrize(
    "query, name, allowed",
    [
        ("offset=null", "offset", "from 0 to 1000000000000"),
        ("offset=-1", "offset", "from 0 to 1000000000000"),
        ("limit=0", "limit", "from 1 to 500"),
        ("limit=501", "limit", "from 1 to 500"),
        ("limit=1.5", "limit", "from 1 to 500"),
        ("limit=%EF%BC%91", "limit", "from 1 to 500"),  # a full-width digit one: isdigit() says yes, int() too
    ],
)
def test_odd_paging_parameters_are_a_400_naming_the_parameter(world, as_user, query, name, allowed):
    for path in ("/api/v1/runs/", "/api/v1/releases/", "/api/v1/trajectories/"):
        response = as_user(world.owner).get(f"{path}?{query}")
        assert response.status_code == 400, (path, query)
        assert list(response.json()) == [name] and response.json()[name][0].endswith(f"use a whole number {allowed}")


def test_paging_within_range_pages(world, as_user):
    runs = as_user(world.owner).get("/api/v1/runs/?limit=1&offset=0").json()
    assert len(runs["results"]) == 1 and runs["count"] >= 1


def test_a_request_django_refuses_before_any_view_is_a_json_400_under_the_api(client, settings):
    settings.ALLOWED_HOSTS = ["lifeplanner.test"]
    client.raise_request_exception = False
    response = client.get("/api/v1/runs/", HTTP_HOST="evil.example")  # DisallowedHost, before any view
    assert response.status_code == 400 and response["Content-Type"] == "application/json"
    assert response.json()["detail"].startswith("bad request")
    page = client.get("/runs/", HTTP_HOST="evil.example")  # the site's pages keep Django's own page
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")

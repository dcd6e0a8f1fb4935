"""The REST API: each resource, the visibility rules per role, token auth for writes, and the key
never in a response."""

from __future__ import annotations

import json

import pytest
from django.http import HttpRequest
from rest_framework.test import APIClient

from benchmark.accounts.services import api_token_create
from benchmark.agents.config import RunConfig
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from tests.factories import SECRET, finished_run

pytestmark = pytest.mark.django_db

SUBMISSION = {
    "name": "token model",
    "model": "openai/gpt-4o-mini",
    "api_base": "http://127.0.0.1:9/v1",
    "api_key": SECRET,
    "concurrency": 2,
}


def ids(response) -> set[int]:
    return {row["id"] for row in response.json()["results"]}


# --- releases and cases ---------------------------------------------------------------------------


def test_releases_are_listed_for_anyone_with_their_case_counts(world, as_user):
    response = as_user().get("/api/v1/releases/")
    rows = {r["name"]: r for r in response.json()["results"]}
    assert response.status_code == 200
    assert rows["api-public"]["n_cases"] == 6 and rows["api-hidden"]["split"] == "hidden"
    assert as_user().get("/api/v1/releases/api-public/").json()["content_hash"] == world.public.content_hash
    assert as_user().get("/api/v1/releases/nope/").status_code == 404


def test_public_cases_show_their_answers_to_anonymous_readers(world, as_user):
    response = as_user().get("/api/v1/releases/api-public/cases/")
    cases = response.json()["results"]
    assert [c["position"] for c in cases] == list(range(6))
    assert all(c["answers_visible"] and c["answer"]["end"]["place_id"] == "N5" for c in cases)
    assert cases[0]["reference_path"][0]["tool"] == "place_search"


@pytest.mark.parametrize("role", [None, "other", "owner"])
def test_hidden_answers_stay_hidden_from_everyone_but_curators_and_staff(world, as_user, role):
    reader = getattr(world, role) if role else None
    cases = as_user(reader).get("/api/v1/releases/api-hidden/cases/").json()["results"]
    one = as_user(reader).get(f"/api/v1/releases/api-hidden/cases/{cases[0]['case_id']}/").json()
    for case in [*cases, one]:
        assert case["question"] and not case["answers_visible"]
        assert case["answer"] is None and case["reference_path"] is None and case["required_evidence"] is None
    assert "N5" not in json.dumps(cases)


@pytest.mark.parametrize("role", ["curator", "staff"])
def test_curators_and_staff_see_hidden_answers(world, as_user, role):
    cases = as_user(getattr(world, role)).get("/api/v1/releases/api-hidden/cases/").json()["results"]
    assert all(c["answers_visible"] and c["answer"]["end"]["place_id"] == "N5" for c in cases)


def test_cases_filter_by_category_and_refuse_an_unknown_one_naming_the_allowed(world, as_user):
    routing = as_user().get("/api/v1/releases/api-public/cases/?category=routing").json()["results"]
    assert {c["category"] for c in routing} == {"routing"} and len(routing) == 2
    bad = as_user().get("/api/v1/releases/api-public/cases/?category=teleport")
    assert (
        bad.status_code == 400
        and "place_perception, nearby_discovery, routing, trip_design" in bad.json()["category"][0]
    )
    assert as_user().get("/api/v1/releases/api-public/cases/nope/").status_code == 404


# --- runs -------------------------------------------------------------------------------------------


def test_smoke_tests_are_listed_only_for_their_submitter_and_staff(world, as_user):
    public_runs = {world.evaluation.id, world.hidden_run.id}
    EvaluationRun.objects.exclude(release__name__startswith="api-").delete()  # other modules' committed runs
    assert ids(as_user().get("/api/v1/runs/")) == public_runs
    assert ids(as_user(world.other).get("/api/v1/runs/")) == public_runs
    assert ids(as_user(world.curator).get("/api/v1/runs/")) == public_runs
    assert ids(as_user(world.owner).get("/api/v1/runs/")) == public_runs | {world.smoke.id}
    assert ids(as_user(world.staff).get("/api/v1/runs/")) == public_runs | {world.smoke.id}
    assert as_user().get(f"/api/v1/runs/{world.smoke.id}/").status_code == 404
    assert as_user(world.other).get(f"/api/v1/runs/{world.smoke.id}/").status_code == 404
    assert as_user(world.owner).get(f"/api/v1/runs/{world.smoke.id}/").json()["smoke"]["status"] == "passed"


def test_runs_filter_by_release_purpose_and_status(world, as_user):
    assert ids(as_user().get("/api/v1/runs/?release=api-hidden")) == {world.hidden_run.id}
    assert ids(as_user(world.owner).get("/api/v1/runs/?purpose=smoke")) == {world.smoke.id}
    assert ids(as_user().get("/api/v1/runs/?status=queued")) == set()
    bad = as_user().get("/api/v1/runs/?status=sleeping")
    assert bad.status_code == 400 and "queued, running, completed, cancelled, failed" in bad.json()["status"][0]


def test_a_run_shows_progress_and_aggregates_and_endpoint_details_only_to_its_owner(world, as_user):
    url = f"/api/v1/runs/{world.evaluation.id}/"
    anonymous = as_user().get(url).json()
    assert anonymous["progress"]["done"] == 6 and anonymous["progress"]["passed"] == 3
    assert anonymous["aggregates"]["table2"]["n"] == 6 and anonymous["overall"]["value"] == 50.0
    assert anonymous["model"] == "openai/gpt-4o-mini" and anonymous["smoke"] is None
    assert anonymous["endpoint"]["details_visible"] is False and anonymous["endpoint"]["api_base"] is None
    owner = as_user(world.owner).get(url).json()
    assert owner["endpoint"]["api_base"] == "http://127.0.0.1:9/v1" and owner["endpoint"]["concurrency"] == 2
    assert as_user(world.other).get(url).json()["endpoint"]["params"] is None
    assert as_user(world.staff).get(url).json()["endpoint"]["params"] == {"max_tokens": 512}


def test_scores_give_table_2_and_3_and_each_trajectorys_metric_values(world, as_user):
    scores = as_user().get(f"/api/v1/runs/{world.evaluation.id}/scores/").json()
    assert scores["table2"]["overall"]["value"] == 50.0 and set(scores["table3"]) == {"L0", "L1", "L2"}
    assert len(scores["trajectories"]) == 6
    assert [t["passed"] for t in scores["trajectories"]] == [True, False] * 3
    assert scores["trajectories"][0]["metrics"] == {"pass_rate": 1.0, "PIoU": 1.0}
    assert as_user().get(f"/api/v1/runs/{world.smoke.id}/scores/").status_code == 404


# --- trajectories ---------------------------------------------------------------------------------


def test_trajectories_of_a_run_and_one_with_its_steps(world, as_user):
    rows = as_user().get(f"/api/v1/trajectories/?run={world.evaluation.id}").json()["results"]
    assert len(rows) == 6 and all(r["n_steps"] == 2 and r["run"] == world.evaluation.id for r in rows)
    failed = as_user().get(f"/api/v1/trajectories/?run={world.evaluation.id}&passed=false").json()["results"]
    assert len(failed) == 3 and not any(r["passed"] for r in failed)
    one = as_user().get(f"/api/v1/trajectories/{rows[0]['id']}/").json()
    assert [s["tool"] for s in one["steps"]] == ["place_search", "submit_answer"]
    assert one["final_answer"] == {"name": "Museo Kivi", "place_id": "N5"} and one["question"].startswith("api-public")
    assert one["scores"]["PIoU"]["details"]["reference"] == ["N5-REFERENCE-ONLY"]  # a public release: whole scores
    bad = as_user().get("/api/v1/trajectories/?run=abc")
    assert bad.status_code == 400 and "run id" in bad.json()["run"][0]


def test_smoke_trajectories_are_only_for_their_submitter(world, as_user):
    smoke_rows = world.smoke.trajectories.values_list("id", flat=True)
    assert not set(smoke_rows) & {
        r["id"] for r in as_user(world.other).get("/api/v1/trajectories/?limit=500").json()["results"]
    }
    assert as_user(world.other).get(f"/api/v1/trajectories/{smoke_rows[0]}/").status_code == 404
    assert as_user(world.owner).get(f"/api/v1/trajectories/{smoke_rows[0]}/").status_code == 200


def test_a_hidden_releases_trajectories_and_score_details_are_only_for_curators(world, as_user):
    trajectory = world.hidden_run.trajectories.first()
    url = f"/api/v1/trajectories/{trajectory.id}/"
    refused = as_user(world.other).get(url)
    assert refused.status_code == 404 and "REFERENCE-ONLY" not in refused.content.decode()
    listed = as_user(world.other).get(f"/api/v1/trajectories/?run={world.hidden_run.id}").json()
    assert listed["count"] == 0
    assert as_user(world.curator).get(url).json()["scores"]["PIoU"]["details"]["reference"] == ["N5-REFERENCE-ONLY"]


# --- leaderboard ----------------------------------------------------------------------------------


def test_the_leaderboard_lists_evaluation_runs_never_smoke_tests(world, as_user):
    board = as_user(world.owner).get("/api/v1/leaderboard/?release=api-public").json()
    assert board["release"] == "api-public" and [r["run_id"] for r in board["rows"]] == [world.evaluation.id]
    row = board["rows"][0]
    assert row["overall"]["value"] == 50.0 and row["n"] == 6 and row["model"] == "openai/gpt-4o-mini"
    assert set(row["cells"]) >= {"routing/L0", "trip_design/L1"} and row["rank"] == [1, 1]
    assert as_user().get("/api/v1/leaderboard/?release=nope").status_code == 404
    bad = as_user().get("/api/v1/leaderboard/?release=api-public&sort=shoe-size")
    assert bad.status_code == 400 and "sort must be one of" in bad.json()["sort"][0]


def test_the_leaderboard_defaults_to_the_newest_public_release_with_runs(world, as_user):
    board = as_user().get("/api/v1/leaderboard/").json()
    assert board["release"] == "api-public" and {"api-public", "api-hidden"} <= set(board["releases"])


# --- writes: submitting a model ---------------------------------------------------------------------


def test_writes_need_a_signed_in_user(world):
    response = APIClient().post("/api/v1/runs/", SUBMISSION, format="json")
    assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Token")
    assert APIClient().put(f"/api/v1/runs/{world.evaluation.id}/", {}, format="json").status_code in (401, 405)
    assert APIClient().post("/api/v1/releases/", {}, format="json").status_code in (401, 403, 405)


def test_a_bad_token_is_refused(world):
    api = APIClient(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api.post("/api/v1/runs/", SUBMISSION, format="json").status_code == 401


def test_a_session_without_the_csrf_token_cannot_submit(world):
    api = APIClient(enforce_csrf_checks=True)
    api.login(request=HttpRequest(), username=world.other.username, password="pw")  # axes needs a request
    assert api.post("/api/v1/runs/", SUBMISSION, format="json").status_code == 403
    assert not ModelEndpoint.objects.filter(name="token model").exists()


def test_a_token_submits_a_model_and_gets_its_smoke_run_without_the_key(world, settings):
    api = APIClient(HTTP_AUTHORIZATION=f"Token {api_token_create(user=world.other)}")
    response = api.post("/api/v1/runs/", {**SUBMISSION, "release": "api-public"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["purpose"] == "smoke" and body["status"] == "running" and body["release"] == "api-public"
    assert body["progress"]["total"] == 3 and body["smoke"]["status"] == "running"
    assert {c["category"] for c in body["smoke"]["cases"]} == {"place_perception", "nearby_discovery", "routing"}
    assert body["endpoint"]["details_visible"] and body["endpoint"]["api_base"] == "http://127.0.0.1:9/v1"
    assert SECRET not in response.content.decode() and "api_key" not in response.content.decode()
    endpoint = ModelEndpoint.objects.get(name="token model")
    assert endpoint.owner == world.other and SECRET not in endpoint.api_key_encrypted
    assert EvaluationRun.objects.get(id=body["id"]).created_by == world.other


def test_a_submission_with_bad_fields_gets_each_problem_named_and_never_the_key(world, as_user, settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = False
    response = as_user(world.other).post(
        "/api/v1/runs/",
        {**SUBMISSION, "model": "notaprovider/x", "api_base": "http://127.0.0.1:9/v1", "params": {"api_key": "x"}},
        format="json",
    )
    errors = response.json()
    assert response.status_code == 400
    assert "not a litellm provider" in errors["model"][0]
    assert "loopback" in errors["api_base"][0] and "ALLOW_PRIVATE_ENDPOINTS" in errors["api_base"][0]
    assert "params may not set api_key" in errors["params"][0]
    assert SECRET not in response.content.decode()
    bad_types = as_user(world.other).post(
        "/api/v1/runs/", {**SUBMISSION, "concurrency": 0, "release": "nope"}, format="json"
    )
    assert bad_types.status_code == 400 and set(bad_types.json()) == {"concurrency", "release"}
    assert not EvaluationRun.objects.filter(purpose="smoke", created_by=world.other).exists()


def test_a_submission_cannot_choose_its_run_settings(world, as_user):
    """Every submission runs with the benchmark's settings, so that the leaderboard compares like with like."""
    refused = as_user(world.other).post("/api/v1/runs/", {**SUBMISSION, "config": {"tool_budget": 50}}, format="json")
    assert refused.status_code == 400 and "leave config out" in refused.json()["config"][0]
    assert not EvaluationRun.objects.filter(created_by=world.other, purpose="smoke").exists()
    response = as_user(world.other).post("/api/v1/runs/", SUBMISSION, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["config"] == RunConfig().stored()


def test_submissions_past_the_daily_limit_get_429_with_retry_after(world, as_user, settings):
    settings.SUBMISSIONS_PER_DAY = 1
    api = as_user(world.other)
    assert api.post("/api/v1/runs/", SUBMISSION, format="json").status_code == 201
    again = api.post("/api/v1/runs/", {**SUBMISSION, "name": "second"}, format="json")
    assert again.status_code == 429 and 0 < int(again["Retry-After"]) <= 24 * 3600
    assert "you may submit again after" in again.json()["detail"]
    staff = as_user(world.staff)
    assert all(
        staff.post("/api/v1/runs/", {**SUBMISSION, "name": f"staff {i}"}, format="json").status_code == 201
        for i in range(2)
    )


def test_no_response_anywhere_holds_the_key(world, as_user):
    urls = [
        "/api/v1/runs/",
        f"/api/v1/runs/{world.evaluation.id}/",
        f"/api/v1/runs/{world.smoke.id}/",
        f"/api/v1/runs/{world.evaluation.id}/scores/",
        f"/api/v1/trajectories/?run={world.evaluation.id}",
        "/api/v1/leaderboard/",
        "/api/schema/",
    ]
    for reader in (None, world.owner, world.staff):
        for url in urls:
            response = as_user(reader).get(url)
            hidden = reader is None and url.endswith(f"/{world.smoke.id}/")  # not the anonymous reader's to see
            assert response.status_code == (404 if hidden else 200), url
            assert SECRET not in response.content.decode(), url
    assert "api_key_encrypted" not in as_user(world.staff).get(f"/api/v1/runs/{world.smoke.id}/").content.decode()


# --- bounded queries, schema and docs -------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/releases/",
        "/api/v1/releases/api-public/cases/",
        "/api/v1/runs/",
        "/api/v1/trajectories/",
        "/api/v1/leaderboard/?release=api-public",
    ],
)
def test_list_endpoints_use_a_bounded_number_of_queries(world, as_user, url, django_assert_max_num_queries):
    for i in range(6):  # more rows must not mean more queries
        finished_run(world.public, name=f"extra {i}")
    with django_assert_max_num_queries(6):
        response = as_user(world.owner).get(url)
    assert response.status_code == 200 and (len(response.json().get("results") or response.json().get("rows")) >= 2)


def test_the_schema_is_openapi_3_and_the_docs_page_serves_its_own_assets(client):
    schema = client.get("/api/schema/?format=json").json()
    assert schema["openapi"].startswith("3.") and "/api/v1/runs/" in schema["paths"]
    assert "post" in schema["paths"]["/api/v1/runs/"] and "/api/v1/leaderboard/" in schema["paths"]
    page = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower() and "unpkg" not in page.lower()


def test_a_nul_character_in_a_query_parameter_is_a_clear_400(client):
    response = client.get("/api/v1/leaderboard/?release=a%00b")
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "query parameter 'release' contains a NUL character (0x00), which is not allowed"
    )
    page = client.get("/cases/?q=%00")
    assert page.status_code == 400 and b"query parameter 'q' contains a NUL character" in page.content


def test_an_api_submission_without_a_key_must_say_no_key(world, as_user, settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    keyless = {**SUBMISSION, "api_key": "", "name": "keyless api", "release": "api-public"}
    refused = as_user(world.other).post("/api/v1/runs/", keyless, format="json")
    assert refused.status_code == 400 and "no_key" in json.dumps(refused.json())
    accepted = as_user(world.other).post("/api/v1/runs/", {**keyless, "no_key": True}, format="json")
    assert accepted.status_code == 201, accepted.content

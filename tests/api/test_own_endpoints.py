"""/api/v1/endpoints/: a user lists, removes the key of, and deletes their own endpoints (issue 13)."""

from __future__ import annotations

import pytest

from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from tests.factories import SECRET, endpoint, finished_run

pytestmark = pytest.mark.django_db


def test_the_list_holds_only_ones_own_endpoints_without_keys(world, as_user):
    rows = as_user(world.owner).get("/api/v1/endpoints/").json()["results"]
    assert {r["name"] for r in rows} == {"api model", "api smoke"}
    assert all(r["has_api_key"] and r["n_runs"] == 1 for r in rows) and SECRET not in str(rows)
    assert as_user(world.other).get("/api/v1/endpoints/").json()["results"] == []
    assert as_user().get("/api/v1/endpoints/").status_code == 401


def test_another_users_endpoint_answers_404_to_every_method(world, as_user):
    theirs = world.evaluation.endpoint
    api = as_user(world.other)
    assert api.get(f"/api/v1/endpoints/{theirs.id}/").status_code == 404
    assert api.delete(f"/api/v1/endpoints/{theirs.id}/key/").status_code == 404
    assert api.delete(f"/api/v1/endpoints/{theirs.id}/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.api_key_encrypted and theirs.deleted_at is None


def test_an_owner_removes_the_key_then_deletes_the_endpoint(world, as_user):
    api = as_user(world.owner)
    unused = endpoint("api unused", world.owner)
    assert api.delete(f"/api/v1/endpoints/{unused.id}/key/").status_code == 204
    assert api.get(f"/api/v1/endpoints/{unused.id}/").json()["has_api_key"] is False
    assert api.delete(f"/api/v1/endpoints/{unused.id}/").status_code == 204
    assert not ModelEndpoint.objects.filter(id=unused.id).exists()

    used = world.evaluation.endpoint  # a finished run names it: kept for the run, without its key
    assert api.delete(f"/api/v1/endpoints/{used.id}/").status_code == 204
    used.refresh_from_db()
    assert used.deleted_at is not None and used.api_key_encrypted == ""
    assert api.get(f"/api/v1/endpoints/{used.id}/").status_code == 404
    assert api.get(f"/api/v1/runs/{world.evaluation.id}/").status_code == 200


def test_deleting_an_endpoint_with_a_run_in_progress_is_a_conflict(world, as_user):
    busy = endpoint("api busy", world.owner)
    run = finished_run(world.public, name="busy", created_by=world.owner, endpoint=busy)
    EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.QUEUED)
    response = as_user(world.owner).delete(f"/api/v1/endpoints/{busy.id}/")
    assert response.status_code == 409 and f"run(s) {run.id}" in response.json()["detail"]
    assert ModelEndpoint.objects.get(id=busy.id).deleted_at is None

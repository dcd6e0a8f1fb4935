"""A leaderboard that can be trusted (issue 15, point 2): baselines apart and unranked, partial runs
unranked and without intervals, run names unique per release, and owners and staff able to cancel and
unlist a run. The page and the API apply the same rules."""

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from benchmark.board.leaderboard import leaderboard_rows, leaderboard_sort
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.listing import is_baseline
from benchmark.runs.models import EvaluationRun, Trajectory
from benchmark.runs.services import run_create
from tests.factories import failing_scores, passing_scores, release_with_cases, run_with_results, staff_user

pytestmark = pytest.mark.django_db
PASS, FAIL = (True, passing_scores()), (False, failing_scores())


@pytest.fixture
def release():
    return release_with_cases("trust-v1", per_cell=2)  # 22 cases


@pytest.fixture
def board(release):
    """Two models (one complete, one partial) and three baselines that all score better than the models."""
    scripted = ModelEndpoint.objects.create(name="scripted", model="openai/scripted")
    return {
        "model": run_with_results(release, name="model", results=[PASS, FAIL]),
        "partial": run_with_results(release, name="partial", limit=5),
        "reference": run_with_results(release, name="oracle", agent="reference"),
        "heuristic": run_with_results(release, name="rules", agent="heuristic", results=[PASS] * 3 + [FAIL]),
        "scripted": run_with_results(release, name="scripted", agent="litellm", endpoint=scripted),
    }


def test_a_run_is_a_baseline_by_its_agent_or_a_scripted_model():
    assert is_baseline(agent="reference") and is_baseline(agent="heuristic")
    assert is_baseline(agent="litellm", model="openai/scripted") and is_baseline(agent="litellm", model="fake")
    assert not is_baseline(agent="litellm", model="openai/gpt-4o") and not is_baseline(agent="external")


def test_baselines_come_after_the_models_and_are_never_ranked(release, board):
    rows = leaderboard_rows(release=release, user=None)
    names = [r["name"] for r in rows]
    assert names[:2] == ["model", "partial"] and set(names[2:]) == {"oracle", "rules", "scripted"}
    assert [r["section"] for r in rows[:2]] == ["verified", "partial"]
    by_name = {r["name"]: r for r in rows}
    assert by_name["model"]["rank"] == [1, 1]  # the oracle at 100% does not push it down
    assert all(by_name[n]["baseline"] and by_name[n]["rank"] is None for n in ("oracle", "rules", "scripted"))
    for sort in ("-overall", "overall", "name", "-date", "-routing/L0"):
        assert [r["baseline"] for r in leaderboard_sort(rows, sort=sort)] == [False, False, True, True, True]


def test_partial_runs_are_unranked_without_an_interval_and_sort_after_complete_runs(release, board):
    rows = leaderboard_rows(release=release, user=None)
    partial = next(r for r in rows if r["name"] == "partial")
    assert not partial["complete"] and partial["rank"] is None and (partial["n"], partial["expected"]) == (5, 22)
    assert partial["overall"] == {"value": 100.0, "low": None, "high": None}
    # 100% on 5 cases does not sort above 50% on all 22
    assert [r["name"] for r in leaderboard_sort(rows, sort="-overall")][:2] == ["model", "partial"]


def test_the_page_shows_baselines_in_their_own_section_and_partial_runs_without_interval(client, board):
    html = client.get("/").content.decode()
    models, baselines = html.split('id="baselines"')
    verified, partials = models.split('id="partial"')
    assert ">model<" in verified and ">partial<" in partials and ">partial<" not in verified
    assert ">oracle<" not in models and ">oracle<" in baselines and ">scripted<" in baselines
    assert baselines.count('<span class="badge baseline">baseline</span>') == 3
    assert "partial: 5 of 22" in models
    partial_row = models[models.index(">partial<") :].split("</tr>")[0]
    assert "<strong>100.0</strong>" in partial_row and 'class="ci"' not in partial_row


def test_the_api_leaderboard_applies_the_same_rules(board):
    rows = APIClient().get("/api/v1/leaderboard/?release=trust-v1&sort=-overall").json()["rows"]
    assert [(r["name"], r["baseline"]) for r in rows][:2] == [("model", False), ("partial", False)]
    assert {r["name"] for r in rows if r["baseline"]} == {"oracle", "rules", "scripted"}
    assert all(r["rank"] is None for r in rows if r["baseline"])
    partial = next(r for r in rows if r["name"] == "partial")
    assert partial["rank"] is None and partial["complete"] is False and partial["expected"] == 22
    assert partial["overall"] == {"value": 100.0, "low": None, "high": None}


def _running(release, owner):
    run = run_create(agent="heuristic", release=release, name="slow", created_by=owner)
    EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.RUNNING)
    return run


def _user(name):
    return User.objects.create_user(username=name, password="pw")


def test_the_owner_cancels_a_running_run_from_its_page(client, release):
    owner = _user("owner")
    run = _running(release, owner)
    client.force_login(owner)
    assert "Cancel run" in client.get(f"/runs/{run.id}/").content.decode()
    response = client.post(f"/runs/{run.id}/cancel/", follow=True)
    run.refresh_from_db()
    assert run.status == EvaluationRun.CANCELLED and run.cancelled_by == owner
    assert not run.trajectories.filter(status=Trajectory.QUEUED).exists()
    assert "Run cancelled: 22 queued cases stopped." in response.content.decode()


def test_others_may_not_cancel_or_unlist_and_see_no_buttons(client, release):
    run = _running(release, _user("owner"))
    for who in (None, _user("stranger")):
        if who:
            client.force_login(who)
        page = client.get(f"/runs/{run.id}/").content.decode()
        assert "Cancel run" not in page and "Hide from the leaderboard" not in page
        assert client.post(f"/runs/{run.id}/cancel/").status_code == 403
        assert client.post(f"/runs/{run.id}/unlist/").status_code == 403
    run.refresh_from_db()
    assert run.status == EvaluationRun.RUNNING and run.unlisted_at is None


def test_actions_need_post_and_a_csrf_token(release):
    from django.test import Client

    owner = _user("owner")
    run = _running(release, owner)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.get(f"/runs/{run.id}/cancel/").status_code == 405
    assert client.post(f"/runs/{run.id}/cancel/").status_code == 403
    run.refresh_from_db()
    assert run.status == EvaluationRun.RUNNING


def test_staff_unlist_a_run_from_the_leaderboard_and_list_it_again(client, release, board):
    admin = staff_user("admin")
    model = board["model"]
    client.force_login(admin)
    client.post(f"/runs/{model.id}/unlist/")
    model.refresh_from_db()
    assert model.unlisted_at is not None and model.unlisted_by == admin
    assert ">model<" not in client.get("/").content.decode()
    api_rows = APIClient().get("/api/v1/leaderboard/?release=trust-v1").json()["rows"]
    assert model.id not in [r["run_id"] for r in api_rows]
    page = client.get(f"/runs/{model.id}/").content.decode()
    assert page.count("unlisted: not on the leaderboard") == 1 and "Show on the leaderboard" in page
    client.post(f"/runs/{model.id}/unlist/", {"listed": "1"})
    assert ">model<" in client.get("/").content.decode()


def test_a_finished_run_cannot_be_cancelled(client, release, board):
    client.force_login(staff_user("admin"))
    response = client.post(f"/runs/{board['model'].id}/cancel/", follow=True)
    assert "only a queued or running run can be cancelled" in response.content.decode()
    board["model"].refresh_from_db()
    assert board["model"].status == EvaluationRun.COMPLETED


def test_a_release_whose_runs_are_all_unlisted_is_not_offered_nor_the_default(client, release, board):
    newer = release_with_cases("trust-v2", per_cell=1)
    hidden_run = run_with_results(newer, name="only run", results=[PASS])
    EvaluationRun.objects.filter(id=hidden_run.id).update(unlisted_at=timezone.now())
    page = client.get("/").content.decode()
    assert 'value="trust-v2"' not in page and "Release <strong>trust-v1</strong>" in page
    releases = APIClient().get("/api/v1/leaderboard/").json()["releases"]
    assert "trust-v2" not in str(releases)

"""Hidden releases: their answers, and whatever gives them away, are for curators and staff on every surface.

A passing run's final answer *is* the gold, so on a hidden release the answers, the steps' arguments,
observations and model text, and the score explanations and details of every run are withheld from
everyone but curators and staff, the run's owner included: anonymous, another user and the owner get the
verdict and the metric values only. Who may start a run there is a setting.
"""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

from benchmark.cases.models import Release
from benchmark.runs.models import EvaluationRun, Step, Trajectory
from benchmark.runs.services import run_create
from benchmark.runs.visibility import can_run_on, can_see_answers, trajectory_shown
from benchmark.submissions.services import submission_create
from tests.api.data import SECRET, release, user

pytestmark = pytest.mark.django_db

GOLD = "812.4"  # the reference total_distance_m of every case (tests.benchmark.factories.routing_document)
# What only a curator may see: the gold (in the case and in the passing answer), and marks put in each
# part of the run that could carry it.
RUN_SECRETS = (
    GOLD,
    "ARGUMENT-MARK",
    "OBSERVATION-MARK",
    "MODEL-TEXT-MARK",
    "EXPLANATION-MARK",
    "DETAIL-MARK",
    "TE-MARK",
    "ERROR-MARK",
)
CASE_SECRETS = (GOLD, "multi_stop_routing", "sample_place", "observation_sha256")
NOT_CURATORS = (None, "other", "owner")  # who may not see the answers (curators and staff may)
SUBMISSION = {
    "name": "hidden try",
    "model": "openai/gpt-4o-mini",
    "api_base": "http://127.0.0.1:9/v1",
    "api_key": SECRET,
    "concurrency": 2,
}


def _finish(trajectory: Trajectory) -> None:
    """A passing trajectory whose answer is the case's reference answer, with a mark in every private part."""
    gold = trajectory.entry.snapshot["answer"]
    Step.objects.bulk_create(
        [
            Step(
                trajectory=trajectory,
                index=0,
                tool="place_search",
                arguments={"query_name": "ARGUMENT-MARK"},
                observation={"places": [{"place_id": "OBSERVATION-MARK"}]},
                model_text="MODEL-TEXT-MARK",
                latency_ms=3.0,
                input_tokens=100,
                output_tokens=20,
            ),
            Step(
                trajectory=trajectory,
                index=1,
                tool="submit_answer",
                arguments={"result": gold},
                observation={"result": gold},
                latency_ms=1.0,
            ),
        ]
    )
    trajectory.scores = {
        "pass_rate": {"value": 1.0, "applicable": True, "source": "rule", "explanation": "passes", "details": {}},
        "PIoU": {
            "value": 1.0,
            "applicable": True,
            "source": "rule",
            "explanation": "EXPLANATION-MARK",
            "details": {"reference": ["DETAIL-MARK"]},
        },
        "TE": {
            "value": 0.5,
            "applicable": True,
            "source": "rule",
            "explanation": "2 tool calls against 1 in the reference path (TE-MARK)",
            "details": {"reference_calls": 1, "calls": 2},
        },
    }
    trajectory.passed, trajectory.ended, trajectory.status = True, "submitted", Trajectory.DONE
    trajectory.final_answer = gold
    trajectory.error = "agent stopped: the model said ERROR-MARK"  # an error may quote the model
    trajectory.save()


def _run(hidden: Release, *, name: str, created_by=None) -> EvaluationRun:
    run = run_create(agent="reference", release=hidden, name=name, created_by=created_by)
    for trajectory in run.trajectories.all():
        _finish(trajectory)
    run.status = EvaluationRun.COMPLETED
    run.save()
    return run


@pytest.fixture
def hidden_world(db, settings) -> dict:
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    cells = [("routing", "L0", "routing_L0")]
    accounts = {
        "owner": user("hid-owner"),
        "other": user("hid-other"),
        "staff": user("hid-staff", staff=True),
        "curator": user("hid-curator", curator=True),
    }
    public, hidden = release("hid-public", cells=cells), release("hid-hidden", split=Release.HIDDEN, cells=cells)
    mine, theirs = _run(hidden, name="owner's run", created_by=accounts["owner"]), _run(hidden, name="another run")
    trajectory = mine.trajectories.get()
    case_id = trajectory.entry.snapshot["case_id"]
    urls = {
        "trajectory API": f"/api/v1/trajectories/{trajectory.id}/",
        "replay.json": f"/trajectories/{trajectory.id}/replay.json",
        "replay page": f"/trajectories/{trajectory.id}/",
        "compare page": f"/compare/?a={mine.id}&b={theirs.id}&case={case_id}&trial=0",
    }
    case_urls = {
        "case page": f"/cases/hid-hidden/{case_id}/",
        "case API": f"/api/v1/releases/hid-hidden/cases/{case_id}/",
    }
    return {
        "users": accounts,
        "public": public,
        "hidden": hidden,
        "run": mine,
        "trajectory": trajectory,
        "urls": urls,
        "case_urls": case_urls,
    }


def _get(client, url: str, account) -> str:
    client.logout()
    if account is not None:
        client.force_login(account)
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


# --- reading ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", NOT_CURATORS)
@pytest.mark.parametrize("surface", ["trajectory API", "replay.json", "replay page", "compare page"])
def test_no_run_surface_shows_a_hidden_releases_answers_to_a_non_curator(client, hidden_world, role, surface):
    account = hidden_world["users"][role] if role else None
    body = _get(client, hidden_world["urls"][surface], account)
    leaked = [secret for secret in RUN_SECRETS if secret in body]
    assert leaked == [], f"{surface} shows {leaked} to {role or 'anonymous'}"


@pytest.mark.parametrize("role", NOT_CURATORS)
@pytest.mark.parametrize("surface", ["case page", "case API"])
def test_no_case_surface_shows_a_hidden_releases_answers_to_a_non_curator(client, hidden_world, role, surface):
    account = hidden_world["users"][role] if role else None
    body = _get(client, hidden_world["case_urls"][surface], account)
    assert [secret for secret in CASE_SECRETS if secret in body] == []


@pytest.mark.parametrize(
    "surface", ["trajectory API", "replay.json", "replay page", "compare page", "case page", "case API"]
)
@pytest.mark.parametrize("role", ["curator", "staff"])
def test_curators_and_staff_see_the_answers_on_every_surface(client, hidden_world, surface, role):
    url = {**hidden_world["urls"], **hidden_world["case_urls"]}[surface]
    assert GOLD in _get(client, url, hidden_world["users"][role])


def test_the_owner_sees_the_verdict_metric_values_and_how_each_call_went(client, hidden_world):
    owner = hidden_world["users"]["owner"]
    detail = json.loads(_get(client, hidden_world["urls"]["trajectory API"], owner))
    assert detail["passed"] is True and detail["answers_visible"] is False and detail["final_answer"] is None
    assert detail["scores"] == {
        "pass_rate": {"value": 1.0, "applicable": True, "source": "rule"},
        "PIoU": {"value": 1.0, "applicable": True, "source": "rule"},
        "TE": {"value": 0.5, "applicable": True, "source": "rule"},
    }
    assert [
        (s["tool"], s["arguments"], s["observation"], s["model_text"], s["input_tokens"]) for s in detail["steps"]
    ] == [("place_search", None, None, None, 100), ("submit_answer", None, None, None, 0)]
    replay = json.loads(_get(client, hidden_world["urls"]["replay.json"], owner))
    assert replay["trajectory"]["passed"] is True and replay["answer"]["raw"] is None
    assert {m["name"]: m["value"] for m in replay["metrics"]} == {"pass_rate": 1.0, "PIoU": 1.0, "TE": 0.5}
    page = _get(client, hidden_world["urls"]["replay page"], owner)
    assert 'class="verdict passed"' in page and "An answer was submitted; on a hidden release" in page


def test_a_public_release_shows_everything_to_everyone(client, hidden_world):
    run = _run(hidden_world["public"], name="public run")
    body = _get(client, f"/api/v1/trajectories/{run.trajectories.get().id}/", None)
    assert all(secret in body for secret in RUN_SECRETS)


def test_one_rule_decides_and_cuts_every_trajectory_document(hidden_world):
    accounts, hidden = hidden_world["users"], hidden_world["hidden"]
    assert [
        can_see_answers(user=accounts[r] if r else None, release=hidden) for r in (*NOT_CURATORS, "staff", "curator")
    ] == [False, False, False, True, True]
    assert can_see_answers(user=None, release=hidden_world["public"])
    document = {
        "final_answer": {"x": 1},
        "scores": {"A": {"value": 1, "explanation": "e", "details": {}}},
        "steps": [{"tool": "t", "arguments": {"a": 1}, "observation": {}, "model_text": "m", "index": 0}],
    }
    assert trajectory_shown(document, full=False) == {
        "final_answer": None,
        "scores": {"A": {"value": 1}},
        "steps": [{"tool": "t", "arguments": None, "observation": None, "model_text": None, "index": 0}],
    }
    assert trajectory_shown(document, full=True) is document


# --- running ----------------------------------------------------------------------------------------


def test_an_ordinary_user_may_not_submit_to_a_hidden_release_by_default(client, hidden_world):
    other = hidden_world["users"]["other"]
    client.force_login(other)
    response = client.post("/api/v1/runs/", {**SUBMISSION, "release": "hid-hidden"}, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["release"] == [
        "release hid-hidden is hidden: only curators and staff may run on it; choose a public release"
    ]  # the refusal names no operator setting
    form = client.post("/submit/", {**SUBMISSION, "release": "hid-hidden", "requests_per_minute": "", "params": ""})
    page = form.content.decode()
    assert form.status_code == 200 and "you may not run on that release" in page and "HIDDEN_RELEASE" not in page
    assert 'value="hid-hidden"' not in page  # after the POST too, the form offers only releases the user may run on
    assert not EvaluationRun.objects.filter(created_by=other).exists()
    assert (
        client.post(
            "/api/v1/runs/", {**SUBMISSION, "release": "hid-public"}, content_type="application/json"
        ).status_code
        == 201
    )


@pytest.mark.parametrize("role", ["staff", "curator"])
def test_curators_and_staff_may_submit_to_a_hidden_release(hidden_world, role):
    account = hidden_world["users"][role]
    smoke = submission_create(user=account, release=hidden_world["hidden"], **SUBMISSION)
    assert smoke.release == hidden_world["hidden"] and smoke.created_by == account


def test_with_hidden_release_runners_all_any_signed_in_user_may_run_there(hidden_world, settings):
    other, hidden = hidden_world["users"]["other"], hidden_world["hidden"]
    with pytest.raises(ValidationError, match="only curators and staff"):
        submission_create(user=other, release=hidden, **SUBMISSION)
    settings.HIDDEN_RELEASE_RUNNERS = "all"
    assert submission_create(user=other, release=hidden, **SUBMISSION).release == hidden
    assert not can_run_on(user=None, release=hidden)  # never anonymous
    settings.HIDDEN_RELEASE_RUNNERS = "everyone"
    with pytest.raises(ValueError, match="HIDDEN_RELEASE_RUNNERS must be one of staff, all"):
        can_run_on(user=other, release=hidden)


def test_the_submit_form_offers_a_hidden_release_only_to_those_who_may_run_on_it(client, hidden_world):
    hidden = hidden_world["hidden"].name
    client.force_login(hidden_world["users"]["other"])
    assert f'value="{hidden}"' not in client.get("/submit/").content.decode()
    client.force_login(hidden_world["users"]["staff"])
    assert f'value="{hidden}"' in client.get("/submit/").content.decode()

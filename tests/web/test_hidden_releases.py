"""Hidden releases: their answers, and whatever gives them away, are for curators and staff on every surface.

A passing run's final answer *is* the gold, so on a hidden release the answers, the steps' arguments,
observations and model text, and the score explanations and details of every run are withheld from
everyone but curators and staff, the run's owner included; and since a verdict per case per run is one bit
of the gold, so are the per-case results (each trajectory, its verdict and metric values): anonymous,
another user and the owner see each run's aggregates only. Who may start a run there is a setting. Every
route of the site is swept (``test_every_route_...``), taken from the URL configuration, so a new page is
covered without editing this file.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from benchmark.board.visibility import can_run_on, can_see_answers, trajectory_shown
from benchmark.cases.models import Release
from benchmark.runs.models import EvaluationRun, Step, Trajectory
from benchmark.runs.services import run_create
from benchmark.submissions.services import submission_create
from tests.factories import SECRET, release, user

pytestmark = pytest.mark.django_db

GOLD = "812.4"  # the reference total_distance_m of every case (tests.factories.routing_document)
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


def _fetch(client, url: str, account):
    client.logout()
    if account is not None:
        client.force_login(account)
    return client.get(url)


def _get(client, url: str, account) -> str:
    response = _fetch(client, url, account)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


# --- reading ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", NOT_CURATORS)
@pytest.mark.parametrize("surface", ["trajectory API", "replay.json", "replay page", "compare page"])
def test_no_per_case_surface_of_a_hidden_release_answers_a_non_curator(client, hidden_world, role, surface):
    account = hidden_world["users"][role] if role else None
    response = _fetch(client, hidden_world["urls"][surface], account)
    body = response.content.decode()
    assert response.status_code == 404, f"{surface} answers {response.status_code} to {role or 'anonymous'}"
    assert [secret for secret in RUN_SECRETS if secret in body] == []


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


def test_the_owner_sees_the_runs_aggregates_and_no_case_by_case_result(client, hidden_world):
    """The bit a verdict gives, case by case and run after run, is not given: not in the API's list, detail or
    scores, not on the run page, the case page, the matrix, the compare page, the failures download or the
    smoke report; the run's own aggregates are."""
    from benchmark.runs.aggregates import run_aggregates

    owner, run, trajectory = hidden_world["users"]["owner"], hidden_world["run"], hidden_world["trajectory"]
    run.aggregates = run_aggregates(run=run)
    run.save(update_fields=["aggregates"])
    client.force_login(owner)
    assert client.get(f"/api/v1/trajectories/?run={run.id}").json()["count"] == 0
    assert client.get(f"/api/v1/trajectories/{trajectory.id}/").status_code == 404
    scores = client.get(f"/api/v1/runs/{run.id}/scores/").json()
    assert scores["trajectories"] == [] and scores["table2"]["overall"]["value"] == 100.0
    page = client.get(f"/runs/{run.id}/").content.decode()
    assert "its per-case results (each case&#x27;s verdict" in page and f"/trajectories/{trajectory.id}/" not in page
    case = client.get(hidden_world["case_urls"]["case page"]).content.decode()
    assert "hidden-per-case" in case and f"/trajectories/{trajectory.id}/" not in case
    matrix = client.get("/releases/hid-hidden/matrix/?baselines=1").content.decode()
    assert "data-state=" not in matrix and "hidden-per-case" in matrix
    assert client.get(f"/runs/{run.id}/failures.json").status_code == 404
    compare = client.get(hidden_world["urls"]["compare page"])
    assert compare.status_code == 404 and "shown to curators and staff only" in compare.content.decode()
    for role in ("curator", "staff"):  # who may see it all
        client.force_login(hidden_world["users"][role])
        assert client.get(f"/api/v1/trajectories/?run={run.id}").json()["count"] == 1
        assert len(client.get(f"/api/v1/runs/{run.id}/scores/").json()["trajectories"]) == 1
        assert f"/trajectories/{trajectory.id}/" in client.get(hidden_world["case_urls"]["case page"]).content.decode()


def test_a_smoke_report_on_a_hidden_release_shows_no_case_verdict_to_its_non_curator_owner(hidden_world, settings):
    from benchmark.submissions.smoke import smoke_report

    settings.HIDDEN_RELEASE_RUNNERS = "all"
    other, hidden = hidden_world["users"]["other"], hidden_world["hidden"]
    smoke = submission_create(user=other, release=hidden, **SUBMISSION)
    for trajectory in smoke.trajectories.all():
        _finish(trajectory)
    report = smoke_report(run=smoke)
    assert [case["passed"] for case in report.cases] == [True]
    assert [case["passed"] for case in report.for_reader(user=other, release=hidden).cases] == [None]
    assert report.for_reader(user=hidden_world["users"]["curator"], release=hidden) is report


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


# --- every route --------------------------------------------------------------------------------------


def _routes() -> list[tuple[str, object]]:
    """(route as written, URL pattern) of every route of the site but the admin's (its own permissions: staff)."""
    from django.urls import URLResolver, get_resolver

    def walk(patterns, prefix: str = ""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern), pattern

    return [(route, pattern) for route, pattern in walk(get_resolver().url_patterns) if not route.startswith("admin/")]


def _parameters(pattern) -> list[str]:
    from django.urls.resolvers import RoutePattern

    if isinstance(pattern.pattern, RoutePattern):
        return list(pattern.pattern.converters)
    return list(pattern.pattern.regex.groupindex)


def _route_urls(world: dict) -> list[str]:
    """One URL per route, its parameters naming the hidden world's rows (and a query where the page needs one).
    A route with a parameter this does not know fails the sweep: name a value for it here."""
    from django.urls import reverse

    run, trajectory, case_id = world["run"], world["trajectory"], world["trajectory"].entry.snapshot["case_id"]
    values = {
        "run_id": run.id,
        "release_name": "hid-hidden",
        "name": "hid-hidden",
        "case_id": case_id,
        "fmt": "json",
        "endpoint_id": 1,
        "test_id": "0" * 32,
        "note_id": "hid-note",
        "path": "anything/",
        "model": run.endpoint.model if run.endpoint else run.model_name or "hid/model",  # its model card
    }
    queries = {
        "home": "?release=hid-hidden",
        "cases": "?release=hid-hidden",
        "compare": "?" + world["urls"]["compare page"].partition("?")[2],
        "leaderboard": "?release=hid-hidden",
        "trajectory-list": f"?run={run.id}",
    }
    urls, unknown = [], []
    for route, pattern in _routes():
        name = pattern.name or ""
        if not name:  # the API's last route, any path under /api/ that names no other
            urls.append("/api/" + values["path"])
            continue
        kwargs: dict[str, object] = {}
        for parameter in _parameters(pattern):
            if parameter == "pk":  # run-detail, run-scores; endpoint-*; trajectory, trajectory-json, trajectory-detail
                kwargs[parameter] = (
                    run.id if name.startswith("run") else 1 if name.startswith("endpoint") else trajectory.id
                )
            elif parameter == "name" and name == "city-streets":
                kwargs[parameter] = "gridtown"
            elif parameter in values:
                kwargs[parameter] = values[parameter]
            else:
                unknown.append(f"{route} ({parameter})")
        urls.append(reverse(name, kwargs=kwargs) + queries.get(name, ""))
    assert unknown == [], f"routes with parameters the sweep cannot fill: {unknown}"
    return urls


@pytest.mark.parametrize("role", NOT_CURATORS)
def test_every_route_of_the_site_keeps_a_hidden_releases_answers_and_per_case_results(client, hidden_world, role):
    """GET on every route (from the URL configuration), as anonymous, another user and the owner: no server
    error, no secret of the case or the run, and no way to the hidden trajectory (its replay link or its id
    in a JSON answer)."""
    account = hidden_world["users"][role] if role else None
    trajectory = hidden_world["trajectory"]
    urls = _route_urls(hidden_world)
    assert len(urls) >= 40 and any("/matrix/" in url for url in urls)
    problems = []
    for url in urls:
        response = _fetch(client, url, account)
        body = response.content.decode(errors="replace") if not getattr(response, "streaming", False) else ""
        if response.status_code >= 500:
            problems.append(f"{url}: {response.status_code}")
        # The API's schema names the fields of every case document (observation_sha256 among them), no value.
        secrets = RUN_SECRETS if url.startswith("/api/schema/") else (*RUN_SECRETS, *CASE_SECRETS)
        leaked = [secret for secret in secrets if secret in body]
        if leaked:
            problems.append(f"{url}: shows {leaked}")
        if f"/trajectories/{trajectory.id}/" in body or f'"trajectory_id": {trajectory.id}' in body:
            problems.append(f"{url}: leads to the hidden trajectory {trajectory.id}")
    assert problems == [], f"as {role or 'anonymous'}:\n" + "\n".join(problems)

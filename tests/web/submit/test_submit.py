"""Submitting a model: the form, its errors, the per-user limit, the API token page, and the smoke
test end to end (a real OpenAI-compatible HTTP fake, the real litellm agent and tools, real Redis).
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
import redis
from django.contrib.auth.models import User

from benchmark.accounts.models import ApiToken
from benchmark.accounts.services import api_token_hash
from benchmark.agents.text_calls import looks_like_tool_call
from benchmark.cases.models import Case, Release
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from benchmark.submissions.services import smoke_case_ids, submission_create
from benchmark.submissions.smoke import smoke_report
from tests.factories import CELLS, SECRET, release, user
from tests.fakes.openai_server import FakeOpenAI, error, reply
from tests.processes import celery_broker

BROKER = "redis://127.0.0.1:6379/5"  # a database of its own, flushed by the tests that use it
FORM = {
    "name": "my model",
    "model": "openai/gpt-4o-mini",
    "api_base": "http://127.0.0.1:9/v1",
    "api_key": SECRET,
    "concurrency": "2",
    "requests_per_minute": "",
    "params": "",
    "release": "web-public",
}


@pytest.fixture
def submitter(db, client, settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    release("web-public")
    account = user("submitter")
    client.force_login(account)
    return account


# --- the form -------------------------------------------------------------------------------------


def test_the_submit_page_needs_a_signed_in_user(client, db):
    response = client.get("/submit/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/submit/"
    assert client.get("/accounts/token/")["Location"].startswith("/accounts/login/")


def test_signing_in_with_the_login_page_and_out_with_a_post(client, db):
    user("walker")
    page = client.get("/accounts/login/?next=/submit/").content.decode()
    assert 'name="username"' in page and 'name="password"' in page and "no self sign-up" in page
    wrong = client.post("/accounts/login/", {"username": "walker", "password": "nope"})
    assert "did not match" in wrong.content.decode()
    response = client.post("/accounts/login/", {"username": "walker", "password": "pw", "next": "/submit/"})
    assert response.status_code == 302 and response["Location"] == "/submit/"
    assert client.get("/submit/").status_code == 200
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/submit/").status_code == 302


def test_a_submission_creates_the_endpoint_and_queues_a_smoke_test(client, submitter):
    response = client.post("/submit/", FORM)
    assert response.status_code == 302 and response["Location"] == "/submit/"
    smoke = EvaluationRun.objects.get(created_by=submitter)
    assert smoke.purpose == "smoke" and smoke.status == "running" and smoke.agent == "litellm"
    assert smoke.trajectories.count() == 3 and smoke.endpoint.owner == submitter
    page = client.get("/submit/").content.decode()
    assert "Submitted: the smoke test" in page and f'href="/runs/{smoke.id}/"' in page
    assert "data-progress-url" in page and SECRET not in page


def test_form_errors_name_each_problem_and_never_render_the_key(client, submitter, settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = False
    response = client.post("/submit/", {**FORM, "model": "notaprovider/x", "params": "{not json"})
    page = response.content.decode()
    assert response.status_code == 200 and "params must be a JSON object" in page
    response = client.post("/submit/", {**FORM, "model": "notaprovider/x", "params": '{"api_key": "x"}'})
    page = response.content.decode()
    assert "is not a litellm provider" in page and "loopback" in page and "params may not set api_key" in page
    assert SECRET not in page
    assert re.search(r'<input type="password" name="api_key"[^>]*>', page).group(0).count("value=") == 0
    assert client.post("/submit/", {**FORM, "concurrency": "0"}).status_code == 200
    assert not EvaluationRun.objects.filter(created_by=submitter).exists()
    assert not ModelEndpoint.objects.filter(owner=submitter).exists()


def test_a_user_past_the_daily_limit_is_told_when_they_may_submit_again(client, submitter, settings):
    settings.SUBMISSIONS_PER_DAY = 2
    assert client.post("/submit/", FORM).status_code == 302
    assert client.post("/submit/", {**FORM, "name": "second"}).status_code == 302
    page = client.post("/submit/", {**FORM, "name": "third"}).content.decode()
    assert "you have made 2 submissions in the last 24 hours, the limit; you may submit again after" in page
    assert EvaluationRun.objects.filter(created_by=submitter, purpose="smoke").count() == 2
    first = EvaluationRun.objects.filter(created_by=submitter).order_by("created_at").first()
    # A day later the oldest no longer counts.
    EvaluationRun.objects.filter(id=first.id).update(created_at=first.created_at - timedelta(hours=25))
    assert client.post("/submit/", {**FORM, "name": "third"}).status_code == 302


def test_staff_are_not_limited(client, submitter, settings):
    settings.SUBMISSIONS_PER_DAY = 1
    client.force_login(user("boss", staff=True))
    assert all(client.post("/submit/", {**FORM, "name": f"staff {i}"}).status_code == 302 for i in range(3))


def test_the_smoke_test_takes_one_case_per_category_where_the_release_has_them(db):
    mixed = release("web-mixed")
    chosen = smoke_case_ids(release=mixed)
    categories = [Case.objects.get(case_id=c).category for c in chosen]
    assert categories == ["place_perception", "nearby_discovery", "routing"]
    assert all(Case.objects.get(case_id=c).level == "L0" for c in chosen)
    routing_only = release("web-routing", cells=[c for c in CELLS if c[0] == "routing"] * 2)
    assert len(smoke_case_ids(release=routing_only)) == 3
    assert len(smoke_case_ids(release=release("web-one", cells=CELLS[:1]))) == 1


def test_without_a_public_release_a_submission_says_so(db, settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    Release.objects.update(split=Release.HIDDEN)  # releases other modules committed too (rolled back after)
    release("web-secret", split=Release.HIDDEN)
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="no public release"):
        submission_create(user=user("early"), name="x", model="openai/gpt-4o-mini", api_base="", api_key=SECRET)


# --- the API token page ---------------------------------------------------------------------------


def test_the_token_is_shown_once_on_creation_and_can_be_revoked(client, submitter):
    assert "You have no API token yet" in client.get("/accounts/token/").content.decode()
    created = client.post("/accounts/token/", {"action": "create"})
    key = re.search(r'class="token-value">([^<]+)<', created.content.decode()).group(1)
    assert ApiToken.objects.get(user=submitter).key_hash == api_token_hash(key)  # only its hash is stored
    assert created["Cache-Control"] == "no-store"
    later = client.get("/accounts/token/").content.decode()
    assert key not in later and "You have an API token" in later
    client.post("/accounts/token/", {"action": "create"})
    assert ApiToken.objects.get(user=submitter).key_hash != api_token_hash(key)  # replaced
    assert client.post("/accounts/token/", {"action": "revoke"}).status_code == 302
    assert not ApiToken.objects.filter(user=submitter).exists()
    assert client.post("/accounts/token/", {"action": "steal"}).status_code == 400


# --- spotting tool calls the provider did not parse -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"name": "place_search", "arguments": {"query_name": "x"}}</tool_call>',
        '```json\n{"name": "submit_answer", "arguments": {"result": {}}}\n```',
        '[TOOL_CALLS] [{"name": "routing", "arguments": {}}]',
        '<function=place_search>{"query_name": "x"}</function>',
        "submit_answer(result={'name': 'Museo Kivi'})",
        '{"type": "function", "function": "place_search", "parameters": {"query_name": "x"}}',
    ],
)
def test_tool_calls_written_as_text_are_recognised(text):
    assert looks_like_tool_call(text, {"place_search", "submit_answer", "routing"})


@pytest.mark.parametrize(
    "text",
    [
        "The nearest cafe is Kahvila Koira, 120 m away.",
        'My answer: {"name": "Museo Kivi", "place_id": "N5"}',
        "I will search for places first.",
        "",
        # the scaffold's own words, echoed by a small model (figure 9 and the reminder)
        "You must call submit_answer(result=<your_answer>) with your final answer as a JSON object.",
        "After completing your analysis, you MUST call submit_answer() to deliver your final answer",
    ],
)
def test_ordinary_text_is_not_taken_for_a_tool_call(text):
    assert not looks_like_tool_call(text, {"place_search", "submit_answer", "routing"})


# --- the smoke test end to end --------------------------------------------------------------------


def good_model(body: dict) -> dict:
    """Looks a place up, then submits an answer: structured tool calls, as a working provider sends."""
    if not any(m.get("role") == "tool" for m in body["messages"]):
        return reply("Looking it up.", tool_calls=[{"name": "place_search", "arguments": {"query_name": "Koira"}}])
    return reply(
        tool_calls=[{"name": "submit_answer", "arguments": {"result": {"name": "Museo Kivi", "place_id": "N5"}}}]
    )


TEXT_CALL = '<tool_call>{"name": "place_search", "arguments": {"query_name": "<script>alert(1)</script>"}}</tool_call>'


@pytest.fixture
def flow(grid_city, django_db_blocker, settings):
    """Committed rows (the smoke run's workers are threads with their own connections), a broker of
    its own, and cleanup; yields a function that submits against a fake endpoint and runs the smoke test."""
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    settings.REDIS_URL = BROKER  # the endpoint's concurrency caps live there too
    broker = redis.Redis.from_url(BROKER)
    broker.flushdb()
    with django_db_blocker.unblock():
        _assert_test_database()
        _remove_flow_rows()
        flow_release, account = release("flow-public"), user("flow-user")

    def submit_and_smoke(fake: FakeOpenAI, name: str) -> EvaluationRun:
        from benchmark.runs.driver import run_sync

        smoke = submission_create(
            user=account, name=name, model="openai/fake", api_base=fake.url, api_key=SECRET, release=flow_release
        )
        run_sync(run=smoke, concurrency=1, progress=None)
        smoke.refresh_from_db()
        return smoke

    with celery_broker(BROKER), django_db_blocker.unblock():
        yield {"submit": submit_and_smoke, "user": account, "release": flow_release, "broker": broker}
        _remove_flow_rows()
    broker.flushdb()


def _assert_test_database() -> None:
    """pytest-django sets the test database up only when a collected test asks for ``db`` (or is marked):
    refuse to commit rows anywhere else (e.g. when only these tests are selected with -k)."""
    from django.db import connection

    name = connection.settings_dict["NAME"]
    assert name.startswith("test_"), f"refusing to write committed rows into {name!r}: select a test that uses db too"


def _remove_flow_rows() -> None:
    endpoints = list(ModelEndpoint.objects.filter(owner__username="flow-user").values_list("id", flat=True))
    EvaluationRun.objects.filter(release__name="flow-public").delete()
    ModelEndpoint.objects.filter(id__in=endpoints).delete()
    Release.objects.filter(name="flow-public").delete()
    Case.objects.filter(case_id__startswith="flow-public-").delete()
    User.objects.filter(username="flow-user").delete()


def queued_trajectories(broker: redis.Redis) -> set[int]:
    """The trajectory ids of the tasks waiting in the broker's evaluation queue."""
    messages = [json.loads(raw) for raw in broker.lrange("evaluation", 0, -1)]
    return {
        int(m["headers"]["argsrepr"].strip("(),")) for m in messages if m["headers"]["task"].endswith("trajectory_task")
    }


def test_a_good_model_passes_the_smoke_test_and_its_full_run_is_queued(flow, client, caplog):
    with FakeOpenAI([good_model]) as fake:
        smoke = flow["submit"](fake, "good model")
    report = smoke_report(run=smoke)
    assert smoke.status == "completed" and report.status == "passed" and report.blocking == []
    assert [c["ended"] for c in report.cases] == ["submitted"] * 3
    full = EvaluationRun.objects.get(id=report.full_run_id)
    assert full.purpose == "evaluation" and full.status == "running" and full.endpoint_id == smoke.endpoint_id
    assert full.trajectories.count() == 6 and full.trajectories.filter(status="queued").count() == 6
    assert full.created_by == flow["user"] and full.config["smoke_run"] == smoke.id
    # The broker got the smoke test's tasks (run here in process instead) and the full run's.
    ids = lambda run: set(run.trajectories.values_list("id", flat=True))  # noqa: E731
    assert queued_trajectories(flow["broker"]) == ids(smoke) | ids(full)
    assert len(fake.requests) == 6 and all(r["model"] == "fake" for r in fake.requests)
    client.force_login(flow["user"])
    page = client.get("/submit/").content.decode()
    assert "The smoke test found no blocking problem, so the full run" in page
    assert 'data-state="full run queued"' in page and f"Cancel the full run (run {full.id})" in page
    assert f'href="/runs/{full.id}/"' in page and SECRET not in page and SECRET not in caplog.text


def test_a_model_writing_tool_calls_as_text_is_stopped_with_the_problem_shown(flow, client):
    with FakeOpenAI([reply(TEXT_CALL)]) as fake:
        smoke = flow["submit"](fake, "text model")
    report = smoke_report(run=smoke)
    kinds = {p.kind for p in report.blocking}
    assert report.status == "blocked" and {"unparsed_tool_call", "no_tool_call", "no_answer"} <= kinds
    assert report.full_run_id is None
    assert not EvaluationRun.objects.filter(endpoint=smoke.endpoint, purpose="evaluation").exists()
    assert queued_trajectories(flow["broker"]) == set(smoke.trajectories.values_list("id", flat=True))
    client.force_login(flow["user"])
    page = client.get("/submit/").content.decode()
    assert "the full run was not queued" in page and "Blocking: unparsed_tool_call" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page  # escaped


def test_a_model_error_is_reported_with_the_key_redacted(flow):
    with FakeOpenAI([error(401, f"Incorrect API key provided: {SECRET}")]) as fake:
        smoke = flow["submit"](fake, "broken model")
    report = smoke_report(run=smoke)
    errors = [p for p in report.problems if p.kind == "model_error"]
    assert report.status == "blocked" and len(errors) == 3 and all(p.blocking for p in errors)
    assert errors[0].message.startswith("the endpoint failed: 127.0.0.1:")  # its address, then what to check
    assert "refused the API key (HTTP 401): check the key" in errors[0].message
    assert "(AuthenticationError: " in errors[0].message  # the technical words follow, in brackets
    assert SECRET not in str(report.to_dict()) and "[redacted]" in errors[0].message
    assert not EvaluationRun.objects.filter(endpoint=smoke.endpoint, purpose="evaluation").exists()


def test_a_keyless_endpoint_must_say_so(client, submitter):
    """An empty key is refused unless the user ticks "no API key": the site's own keys are never used."""
    keyless = {**FORM, "api_key": "", "name": "keyless"}
    refused = client.post("/submit/", keyless)
    assert refused.status_code == 200 and "no_key" in refused.content.decode()
    assert not EvaluationRun.objects.filter(created_by=submitter).exists()
    accepted = client.post("/submit/", {**keyless, "no_key": "on"})
    assert accepted.status_code == 302
    assert EvaluationRun.objects.get(created_by=submitter).endpoint.name == "keyless"

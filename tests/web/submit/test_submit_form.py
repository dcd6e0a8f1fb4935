"""The submit page as a user meets it: every problem in one round, the connection test, the full run's
cost, the state of each submission, and cancelling one's own runs."""

from __future__ import annotations

import time

import pytest
import redis
from django.core.cache import cache

from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun, Trajectory
from benchmark.submissions.selectors import submission_state
from benchmark.submissions.services import _full_run_create
from benchmark.submissions.smoke import SmokeReport
from tests.factories import CELLS, SECRET, release, user
from tests.fakes.openai_server import FakeOpenAI, drip, error, reply
from tests.processes import CONNECTION_TEST_BROKER, celery_broker, connection_test_worker

FORM = {
    "name": "my model",
    "model": "openai/gpt-4o-mini",
    "api_base": "http://127.0.0.1:9/v1",
    "api_key": SECRET,
    "concurrency": "2",
    "requests_per_minute": "",
    "params": "",
    "release": "form-public",
}


@pytest.fixture
def submitter(db, client, settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    settings.CONNECTION_TEST_RATE = "3/min"
    cache.clear()  # the connection tests' counters
    release("form-public")
    account = user("form-submitter")
    client.force_login(account)
    return account


# --- one round of validation ------------------------------------------------------------------------


def test_a_bad_concurrency_does_not_hide_a_bad_url_or_model(client, submitter):
    response = client.post("/submit/", {**FORM, "concurrency": "0", "api_base": "not a url", "model": "nope/x"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 1" in page  # the form's own check
    assert "An API base URL looks like http(s)://host[:port][/path]" in page  # the service's, same round
    assert "is not a litellm provider" in page
    assert page.count('class="field-error"') == 3  # said once each
    assert not ModelEndpoint.objects.filter(owner=submitter).exists()


def test_the_form_and_the_services_errors_of_one_field_are_listed_together(client, submitter):
    ModelEndpoint.objects.create(name="taken", model="openai/x", owner=submitter)
    page = client.post("/submit/", {**FORM, "name": "taken", "params": "[1]", "api_base": "ftp://x"}).content.decode()
    assert "you already have an endpoint named &#x27;taken&#x27;" in page
    assert "params must be a JSON object" in page and "scheme &#x27;ftp&#x27; is not allowed" in page


def test_not_a_url_says_what_an_api_base_looks_like(client, submitter):
    page = client.post("/submit/", {**FORM, "api_base": "not a url"}).content.decode()
    assert "must not contain spaces" in page and "https://api.example.com/v1" in page


# --- the connection test ----------------------------------------------------------------------------


@pytest.fixture
def eager():
    """Tasks run where they are queued: the connection test's result is in the page that queued it (the
    tests below with a real worker show the page following a test that is not)."""
    from lifeplanner_site.celery import app

    previous, app.conf.task_always_eager = app.conf.task_always_eager, True
    yield
    app.conf.task_always_eager = previous


def _test(client, **changes):
    return client.post("/submit/", {**FORM, **changes, "action": "test"})


def test_a_dripping_endpoint_is_tested_by_a_worker_within_the_deadline_while_the_site_answers(
    client, submitter, settings
):
    """A server that sends its answer one byte every half second: each read is quick, the whole takes minutes.
    The web request only queues the test; a worker makes the call and stops at the 20 s deadline."""
    with connection_test_worker(settings), FakeOpenAI([drip(interval_s=0.5)]) as fake:
        started = time.monotonic()
        response = _test(client, api_base=fake.url)  # answered at once: the page says queued, not the result
        page = response.content.decode()
        assert response.status_code == 200 and 'Connection test: <strong data-field="state">queued</strong>' in page
        url = page.split('data-connection-test-url="')[1].split('"')[0]
        health, running_at, queued_at = [], None, started
        while time.monotonic() - started < 90:  # the worker's start, then the call
            health.append(client.get("/health/").status_code)
            asked_at = time.monotonic()
            state = client.get(url).json()
            if state["state"] == "queued":
                queued_at = asked_at  # the test had not started when this poll was asked
            if state["state"] == "running" and running_at is None:
                running_at = time.monotonic()
            if state["finished"]:
                break
            time.sleep(0.5)
        assert running_at is not None, "the page never saw the test running"
        finished_at = time.monotonic()
    assert (
        state["ok"] is False and state["message"] == "no complete answer within 20 s, the deadline of a connection test"
    )
    # The polls see the start and the end late, by up to one poll each, so the run is measured from the last poll
    # that still saw it queued (it cannot have started before) for the deadline, and from the first that saw it
    # running for the ceiling.
    assert finished_at - queued_at >= 20  # the deadline was waited for in full
    assert finished_at - running_at < 30  # the deadline, not the minutes the whole answer would take
    assert set(health) == {200} and len(health) >= 10  # the site answered all along (a poll takes 0.5 to 2 s)
    assert len(fake.requests) == 1 and SECRET not in str(state)


def test_a_connection_test_is_one_at_a_time_and_only_its_owner_follows_it(client, submitter, settings):
    """With no worker to take it, the first test stays queued; a second is refused until it ends."""
    redis.Redis.from_url(CONNECTION_TEST_BROKER).flushdb()
    settings.REDIS_URL = CONNECTION_TEST_BROKER
    with celery_broker(CONNECTION_TEST_BROKER):
        first = _test(client)
    url = first.content.decode().split('data-connection-test-url="')[1].split('"')[0]
    second = _test(client)
    assert second.status_code == 429 and "your previous connection test has not finished yet" in second.content.decode()
    assert client.get(url).json()["state"] == "queued"
    client.force_login(user("form-other"))
    assert client.get(url).status_code == 404  # another user's test does not exist for them
    assert client.get("/submit/connection-tests/not-an-id.json").status_code == 404


def test_a_connection_test_reports_ok_with_the_latency_and_spends_nothing(client, submitter, eager):
    with FakeOpenAI([reply("ok")]) as fake:
        response = _test(client, api_base=fake.url)
    page = response.content.decode()
    assert response.status_code == 200 and "Connection test: <strong>ok</strong>" in page and " ms" in page
    assert len(fake.requests) == 1 and fake.requests[0]["max_tokens"] == 1
    assert fake.headers[0]["authorization"] == f"Bearer {SECRET}"
    assert not EvaluationRun.objects.filter(created_by=submitter).exists()
    assert not ModelEndpoint.objects.filter(owner=submitter).exists()
    assert SECRET not in page


def test_a_wrong_key_is_reported_without_the_key(client, submitter, eager):
    with FakeOpenAI([error(401, f"Incorrect API key provided: {SECRET}")]) as fake:
        page = _test(client, api_base=fake.url).content.decode()
    assert "Connection test: <strong>failed</strong>" in page
    assert "401" in page or "AuthenticationError" in page
    assert SECRET not in page and len(fake.requests) == 1  # not retried
    assert not EvaluationRun.objects.filter(created_by=submitter).exists()


def test_the_egress_guard_refuses_a_private_address_before_any_request(client, submitter, settings, eager):
    settings.ALLOW_PRIVATE_ENDPOINTS = False
    with FakeOpenAI([reply("ok")]) as fake:
        page = _test(client, api_base=fake.url).content.decode()
    assert "Connection test: <strong>failed</strong>: refused" in page and "loopback" in page
    assert fake.requests == []


def test_a_closed_port_is_said_as_connection_refused_at_its_address(client, submitter, eager):
    import socket

    with socket.socket() as sock:  # a port where nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    page = _test(client, api_base=f"http://127.0.0.1:{port}/v1").content.decode()
    assert (
        f"Connection test: <strong>failed</strong>: connection refused at 127.0.0.1:{port}: is the server running, "
        "and is the URL right?"
    ) in page


def test_the_tested_key_is_kept_encrypted_for_the_following_submit_and_never_rendered(client, submitter, eager):
    from benchmark.endpoints.services import endpoint_api_key
    from benchmark.web.submit.views import KEPT_KEY

    with FakeOpenAI([reply("ok")]) as fake:
        page = _test(client, api_base=fake.url).content.decode()
    assert "Connection test: <strong>ok</strong>" in page and "the key you tested is kept" in page
    assert SECRET not in page and "leave the field empty to submit with it" in page
    kept = client.session[KEPT_KEY]
    assert SECRET not in str(kept) and kept["secret"]  # encrypted in the session
    page = client.get("/submit/").content.decode()
    assert SECRET not in page and "Forget it" in page
    assert client.post("/submit/", {**FORM, "api_key": ""}).status_code == 302  # submitted with the kept key
    endpoint = ModelEndpoint.objects.get(owner=submitter)
    assert endpoint_api_key(endpoint) == SECRET
    assert KEPT_KEY not in client.session  # used once


def test_a_kept_key_is_forgotten_on_request_or_when_it_expires(client, submitter, eager):
    from benchmark.web.submit.views import KEPT_KEY, KEPT_KEY_TTL_S

    with FakeOpenAI([reply("ok")] * 2) as fake:
        _test(client, api_base=fake.url)
        page = client.post("/submit/", {**FORM, "api_key": "", "action": "forget-key"}).content.decode()
        assert "is forgotten" in page and KEPT_KEY not in client.session
        _test(client, api_base=fake.url)
    session = client.session
    session[KEPT_KEY] = {**session[KEPT_KEY], "at": time.time() - KEPT_KEY_TTL_S - 1}
    session.save()
    page = client.post("/submit/", {**FORM, "api_key": ""}).content.decode()
    assert not ModelEndpoint.objects.filter(owner=submitter).exists()  # no key: refused, as without a test
    assert "Forget it" not in page


def test_a_connection_test_is_rate_limited_per_user(client, submitter, eager):
    with FakeOpenAI([reply("ok")]) as fake:
        answers = [_test(client, api_base=fake.url) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert "too many connection tests: at most 3 per 60 s" in answers[-1].content.decode()
    assert len(fake.requests) == 3


def test_a_connection_test_needs_a_usable_model_first(client, submitter):
    page = _test(client, model="").content.decode()
    assert "not tried: fix model first" in page


# --- the cost warning, the state of a submission, cancelling ------------------------------------------


def test_the_page_warns_how_many_cases_and_calls_the_full_run_takes(client, submitter):
    page = client.get("/submit/").content.decode()
    cases = len(CELLS)
    assert f"release form-public: <strong>{cases} cases</strong>, from {cases} to {cases * 31} model calls" in page


def _submit(client) -> EvaluationRun:
    assert client.post("/submit/", FORM).status_code == 302
    return EvaluationRun.objects.get(purpose="smoke")


def _state(client) -> str:
    page = client.get("/submit/").content.decode()
    return page.split('data-state="', 1)[1].split('"', 1)[0]


def test_the_page_follows_a_submission_from_smoke_test_to_finished_full_run(client, submitter):
    smoke = _submit(client)
    assert _state(client) == "smoke running"
    EvaluationRun.objects.filter(id=smoke.id).update(status=EvaluationRun.COMPLETED)
    full = _full_run_create(smoke=smoke)
    assert _state(client) == "full run queued"
    done = full.trajectories.order_by("id")[:2].values_list("id", flat=True)
    Trajectory.objects.filter(id__in=list(done)).update(status=Trajectory.DONE)
    page = client.get("/submit/").content.decode()
    total = full.trajectories.count()
    assert 'data-state="full run running"' in page and f"(2 of {total} cases done)" in page
    assert f'data-progress-url="/runs/{full.id}/progress.json"' in page
    EvaluationRun.objects.filter(id=full.id).update(status=EvaluationRun.COMPLETED)
    page = client.get("/submit/").content.decode()
    assert 'data-state="finished"' in page and f'<a href="/runs/{full.id}/">the results of run {full.id}</a>' in page
    assert "is queued" not in page.split("Your submissions", 1)[1]


def test_a_blocked_smoke_test_is_shown_as_blocked(db):
    smoke = EvaluationRun(status=EvaluationRun.COMPLETED)
    assert submission_state(smoke=smoke, report=SmokeReport(status="blocked"), full=None)["state"] == "blocked"


def test_the_submitter_may_cancel_their_smoke_test(client, submitter):
    smoke = _submit(client)
    page = client.get("/submit/").content.decode()
    assert f"Cancel the smoke test (run {smoke.id})" in page
    response = client.post(f"/submit/cancel/{smoke.id}/", follow=True)
    assert "Cancelled run" in response.content.decode()
    smoke.refresh_from_db()
    assert smoke.status == EvaluationRun.CANCELLED
    assert _state(client) == "stopped"


def test_nobody_else_may_cancel_a_submission(client, submitter):
    smoke = _submit(client)
    client.force_login(user("stranger"))
    assert client.post(f"/submit/cancel/{smoke.id}/").status_code == 404
    assert client.get(f"/submit/cancel/{smoke.id}/").status_code == 405
    smoke.refresh_from_db()
    assert smoke.status == EvaluationRun.RUNNING
    client.force_login(user("boss", staff=True))
    assert client.post(f"/submit/cancel/{smoke.id}/").status_code == 302
    smoke.refresh_from_db()
    assert smoke.status == EvaluationRun.CANCELLED

"""Live progress of a run: the JSON it polls (visible runs only), the partial without JavaScript,
and the partial in a real browser (Debian's chromium) following a smoke test to its report."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import timezone

from benchmark.runs.models import EvaluationRun, Step, Trajectory
from benchmark.submissions.services import submission_create
from tests.factories import SECRET, finished_run, release, user
from tests.web.browser import CHROMIUM, LAUNCH_ARGS

pytestmark = pytest.mark.django_db


@pytest.fixture
def smoke(settings):
    """A signed-in user's queued smoke test on a fresh public release (its tasks never leave: the
    test transaction is never committed, so nothing is sent to the broker)."""
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    release("prog-public")
    return submission_create(
        user=user("prog-owner"),
        name="prog model",
        model="openai/gpt-4o-mini",
        api_base="http://127.0.0.1:9/v1",
        api_key=SECRET,
    )


def test_progress_json_counts_a_visible_run(client, smoke):
    run = finished_run(smoke.release, name="finished")
    data = client.get(f"/runs/{run.id}/progress.json").json()
    assert data["status"] == "completed" and data["finished"] and data["purpose"] == "evaluation"
    assert data["progress"] == {
        "total": 6,
        "done": 6,
        "running": 0,
        "queued": 0,
        "cancelled": 0,
        "passed": 3,
        "failed": 3,
        "tokens": 720,
        "tool_calls": 12,
    }
    assert client.get("/runs/999999/progress.json").status_code == 404


def test_a_smoke_tests_progress_is_only_for_its_submitter_and_staff(client, smoke):
    url = f"/runs/{smoke.id}/progress.json"
    assert client.get(url).status_code == 404
    client.force_login(user("prog-other"))
    assert client.get(url).status_code == 404
    client.force_login(smoke.created_by)
    data = client.get(url).json()
    assert data["status"] == "running" and not data["finished"] and data["progress"]["queued"] == 3
    assert data["full_run"] is None and SECRET not in str(data)
    client.force_login(user("prog-staff", staff=True))
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 405


def test_the_partial_shows_the_counts_without_javascript(smoke):
    smoke.trajectories.filter(id=smoke.trajectories.first().id).update(status=Trajectory.DONE, passed=True)
    html = render_to_string("web/_progress.html", {"run": smoke})
    assert f'data-progress-url="/runs/{smoke.id}/progress.json"' in html and 'data-status="running"' in html
    assert '<span data-field="done">1</span> of <span data-field="total">3</span>' in html
    assert '<td data-field="queued">2</td>' in html and '<td data-field="passed">1</td>' in html
    assert 'src="/static/js/progress.js"' in html


def _finish(trajectory: Trajectory) -> None:
    Step.objects.create(trajectory=trajectory, index=0, tool="place_search", arguments={}, observation={})
    trajectory.status, trajectory.ended, trajectory.passed = Trajectory.DONE, "submitted", True
    trajectory.save()


def test_the_progress_updates_live_and_the_page_shows_the_report_when_the_run_ends(client, smoke):
    """The browser gets the real views' answers (Django test client, request interception) in the
    order a live run produces them: the page while the smoke test runs, a poll after one case, a poll
    after the run ended, then the reloaded page. (They are taken before the browser starts: the
    browser's callbacks run in an event loop, where Django would not reuse this test's transaction.)"""
    from playwright import sync_api

    client.force_login(smoke.created_by)
    progress_url = f"/runs/{smoke.id}/progress.json"
    pending = list(smoke.trajectories.order_by("id"))
    pages = [client.get("/submit/")]
    _finish(pending[0])
    polls = [client.get(progress_url)]
    for trajectory in pending[1:]:
        _finish(trajectory)
    EvaluationRun.objects.filter(id=smoke.id).update(status=EvaluationRun.COMPLETED, finished_at=timezone.now())
    polls.append(client.get(progress_url))
    pages.append(client.get("/submit/"))
    served = {"/submit/": 0, progress_url: 0}

    def serve(route):
        path = urlparse(route.request.url).path
        if path.startswith("/static/"):
            found = finders.find(path.removeprefix("/static/"))
            return route.fulfill(path=found) if found else route.abort()
        answers = {"/submit/": pages, progress_url: polls}.get(path)
        if answers is None:
            return route.abort()
        response = answers[min(served[path], len(answers) - 1)]
        served[path] += 1
        route.fulfill(status=response.status_code, body=response.content, content_type=response["Content-Type"])

    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.route("**/*", serve)
        page.goto("http://testserver/submit/")
        at_load = {name: page.locator(f'[data-field="{name}"]').inner_text() for name in ("done", "status")}
        page.wait_for_function("document.querySelector('[data-field=\"done\"]').textContent === '1'", timeout=15000)
        live = {name: page.locator(f'[data-field="{name}"]').inner_text() for name in ("queued", "passed", "note")}
        page.wait_for_selector("text=The smoke test found no blocking problem", timeout=30000)
        after = page.content()
        browser.close()
    assert at_load == {"done": "0", "status": "running"}
    assert live["queued"] == "2" and live["passed"] == "1" and live["note"].startswith("Updated")
    assert "data-progress-url" not in after and "submission-passed" in after  # reloaded: the report, no progress
    assert errors == [] and served == {"/submit/": 2, progress_url: 2}


def test_the_run_page_includes_the_live_progress_while_the_run_is_running(client, smoke):
    client.force_login(smoke.created_by)
    page = client.get(f"/runs/{smoke.id}/").content.decode()
    assert f'data-progress-url="/runs/{smoke.id}/progress.json"' in page and "js/progress.js" in page
    EvaluationRun.objects.filter(id=smoke.id).update(status=EvaluationRun.CANCELLED)
    assert "data-progress-url" not in client.get(f"/runs/{smoke.id}/").content.decode()

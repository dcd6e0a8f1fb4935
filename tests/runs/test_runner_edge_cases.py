"""The evaluate command and the runner at their edges: limits, interrupted runs, a missing API key, and
arguments the model wrote as broken JSON (issue 13)."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F
from django.utils import timezone

from benchmark.cases.models import Case, Release
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun, ModelCall, Trajectory
from tests.agents.test_litellm_agent import DETAIL, SUBMIT, run_agent  # noqa: F401 (a fixture)
from tests.factories import CELLS, release
from tests.fakes.openai_server import reply
from tests.processes import REPO, child_env, wait_for

BROKER = "redis://127.0.0.1:6379/7"  # a Redis database of its own (no worker listens), flushed by the test


@pytest.fixture
def grid_cases(grid_city, django_db_blocker):
    """A committed release of three grid-city cases (threads and child processes see it); removed after the test."""
    name = f"edge-{uuid.uuid4().hex[:8]}"
    with django_db_blocker.unblock():
        made = release(name, cells=CELLS[:3])
    yield made
    with django_db_blocker.unblock():
        runs = EvaluationRun.objects.filter(release=made)
        endpoints = list(runs.exclude(endpoint=None).values_list("endpoint_id", flat=True))
        runs.delete()
        ModelEndpoint.objects.filter(id__in=endpoints).delete()
        Release.objects.filter(id=made.id).delete()
        Case.objects.filter(case_id__startswith=name).delete()


def evaluate(*args: str) -> str:
    out = io.StringIO()
    call_command("evaluate", *args, "--no-progress", stdout=out, stderr=out)
    return out.getvalue()


# --- --limit --------------------------------------------------------------------------------------


@pytest.mark.parametrize("limit", ["0", "-1"])
def test_a_limit_under_one_is_refused_with_a_clear_message(grid_cases, django_db_blocker, limit):
    with django_db_blocker.unblock():
        with pytest.raises(CommandError, match=rf"limit must be a whole number of cases, 1 or more .*got {limit}"):
            evaluate("--agent", "reference", "--release", grid_cases.name, "--limit", limit, "--sync")
        assert not EvaluationRun.objects.filter(release=grid_cases).exists()  # nothing ran, not the whole release


def test_a_limit_of_one_runs_one_case(grid_cases, django_db_blocker):
    with django_db_blocker.unblock():
        evaluate("--agent", "reference", "--release", grid_cases.name, "--limit", "1", "--sync")
        run = EvaluationRun.objects.get(release=grid_cases)
        assert run.status == EvaluationRun.COMPLETED and run.trajectories.count() == 1


# --- interrupted runs -----------------------------------------------------------------------------


def _interrupt_every_case(monkeypatch) -> None:
    def interrupted(**_):
        raise KeyboardInterrupt

    monkeypatch.setattr("benchmark.runs.execute.trajectory_execute", interrupted)


def test_an_interrupted_sync_run_is_started_so_the_lost_message_sweep_hands_it_to_workers(
    grid_cases, django_db_blocker, monkeypatch, settings
):
    from benchmark.runs.driver import run_sync
    from benchmark.runs.housekeeping import lost_tasks_resend
    from benchmark.runs.services import run_create
    from benchmark.runs.tasks import trajectory_task

    # A queue of this test's own on the broker, empty: nothing waits there for the queued cases.
    settings.CELERY_TASK_ROUTES = {
        **settings.CELERY_TASK_ROUTES,
        "benchmark.tasks.trajectory_task": {"queue": f"edge-lost-{uuid.uuid4().hex}"},
    }
    sent: list[int] = []
    monkeypatch.setattr(trajectory_task, "delay", sent.append)  # autocommit: on_commit would send at once
    _interrupt_every_case(monkeypatch)
    with django_db_blocker.unblock():
        run = run_create(agent="reference", release=grid_cases, name="interrupted sync")
        with pytest.raises(KeyboardInterrupt):
            run_sync(run=run, concurrency=1, progress=None)
        run.refresh_from_db()
        assert run.status == EvaluationRun.RUNNING and run.started_at is not None
        assert set(run.trajectories.values_list("status", flat=True)) == {Trajectory.QUEUED}
        EvaluationRun.objects.filter(id=run.id).update(started_at=F("started_at") - timedelta(hours=1))
        lost = lost_tasks_resend()
        assert sorted(lost) == sorted(sent) == sorted(run.trajectories.values_list("id", flat=True))


def test_ctrl_c_in_a_sync_run_says_how_to_resume_and_resuming_finishes_it(grid_cases, django_db_blocker, monkeypatch):
    with django_db_blocker.unblock():
        with monkeypatch.context() as patched:
            _interrupt_every_case(patched)
            err = io.StringIO()
            with pytest.raises(SystemExit) as exited:
                try:
                    call_command(
                        "evaluate",
                        "--agent",
                        "reference",
                        "--release",
                        grid_cases.name,
                        "--sync",
                        "--no-progress",
                        stdout=io.StringIO(),
                        stderr=err,
                    )
                except KeyboardInterrupt:  # not raised on: it would end the whole test session
                    pytest.fail("Ctrl-C left the command as a KeyboardInterrupt (a traceback)")
        run = EvaluationRun.objects.get(release=grid_cases)
        message = err.getvalue()
        assert exited.value.code == 130
        assert f"Interrupted: run {run.id} stopped in this process (0 of 3 cases done, 3 left)" in message
        assert f"manage.py evaluate --resume {run.id} --sync" in message
        assert f"manage.py evaluate --cancel {run.id}" in message

        summary = evaluate("--resume", str(run.id), "--sync")  # no broker needed: nothing is sent to workers
        run.refresh_from_db()
        assert run.status == EvaluationRun.COMPLETED
        assert set(run.trajectories.values_list("status", flat=True)) == {Trajectory.DONE}
        assert f"Resumed run {run.id} in this process." in summary


def _interruptible() -> None:
    """In the child: Ctrl-C does what it does in a terminal. A suite started in the background (`make test &`,
    nohup, some CI runners) passes SIGINT on as ignored, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_while_following_a_queued_run_says_it_goes_on_without_a_traceback(grid_cases, django_db_blocker):
    import redis

    broker = redis.Redis.from_url(BROKER)
    broker.flushdb()
    child = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "evaluate",
            "--agent",
            "reference",
            "--release",
            grid_cases.name,
            "--name",
            "followed",
        ],
        cwd=REPO,
        env=child_env(REDIS_URL=BROKER),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_interruptible,
    )
    try:
        with django_db_blocker.unblock():
            wait_for(
                lambda: EvaluationRun.objects.filter(release=grid_cases, status=EvaluationRun.RUNNING).exists(),
                60,
                "the run to be queued",
            )
            run = EvaluationRun.objects.get(release=grid_cases)
        time.sleep(1.0)  # inside the follow loop
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
        broker.flushdb()
    text = err.decode()
    assert child.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert f"Stopped following run {run.id}; the run goes on on the workers (0 of 3 cases done, 3 left)" in text
    assert f"manage.py evaluate --resume {run.id}" in text and f"manage.py evaluate --cancel {run.id}" in text
    with django_db_blocker.unblock():
        assert EvaluationRun.objects.get(id=run.id).status == EvaluationRun.RUNNING  # Ctrl-C did not stop it


# --- a missing API key ----------------------------------------------------------------------------


def test_a_missing_api_key_fails_a_command_line_run_at_once(grid_cases, django_db_blocker, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with django_db_blocker.unblock():
        started = time.monotonic()
        with pytest.raises(CommandError, match=r"an API key is required: openai's own service"):
            evaluate("--model", "openai/gpt-4o-mini", "--release", grid_cases.name, "--limit", "1", "--sync")
        assert time.monotonic() - started < 10
        assert not ModelCall.objects.filter(trajectory__run__release=grid_cases).exists()
        assert not EvaluationRun.objects.filter(release=grid_cases, status=EvaluationRun.COMPLETED).exists()


def test_resuming_a_run_whose_key_was_removed_fails_it_before_its_first_case(
    grid_cases, django_db_blocker, monkeypatch
):
    from benchmark.endpoints.services import endpoint_create
    from benchmark.runs.services import run_create

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with django_db_blocker.unblock():
        endpoint = endpoint_create(
            name=f"keyed {grid_cases.name}", model="openai/gpt-4o-mini", api_base="", api_key="sk-test-0123456789abcdef"
        )
        run = run_create(agent="litellm", release=grid_cases, endpoint=endpoint, limit=2)
        ModelEndpoint.objects.filter(id=endpoint.id).update(api_key_encrypted="")  # its owner removed the key
        with pytest.raises(
            CommandError,
            match=rf"run {run.id} failed before its first case: endpoint 'keyed "
            rf".*' \(openai/gpt-4o-mini\) has no API key: an API key is required",
        ):
            evaluate("--resume", str(run.id), "--sync")
        run.refresh_from_db()
        assert run.status == EvaluationRun.FAILED and "has no API key" in run.error
        assert set(run.trajectories.values_list("status", flat=True)) == {Trajectory.CANCELLED}
        assert not ModelCall.objects.filter(trajectory__run=run).exists()


def test_a_missing_api_key_fails_a_worker_run_at_its_first_case(grid_cases, django_db_blocker, monkeypatch):
    from benchmark.runs.execute import trajectory_execute
    from benchmark.runs.services import run_create

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with django_db_blocker.unblock():
        # Saved before endpoints were checked for a key: openai's own service, and no key.
        endpoint = ModelEndpoint.objects.create(name=f"keyless {grid_cases.name}", model="openai/gpt-4o-mini")
        run = run_create(agent="litellm", release=grid_cases, endpoint=endpoint)
        EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.RUNNING, started_at=timezone.now())
        first, *others = run.trajectories.order_by("id")
        assert trajectory_execute(trajectory_id=first.id, claimant="task-1") == "model_error"
        first.refresh_from_db()
        run.refresh_from_db()
        assert run.status == EvaluationRun.FAILED and "has no API key" in run.error
        assert "has no API key" in first.error and not first.model_calls.exists()
        assert {t.status for t in run.trajectories.exclude(id=first.id)} == {Trajectory.CANCELLED}
        assert trajectory_execute(trajectory_id=others[0].id, claimant="task-2") == "skipped"


# --- broken JSON arguments ------------------------------------------------------------------------


def test_the_step_of_broken_json_arguments_records_the_message_the_model_saw(run_agent, settings):  # noqa: F811
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the fake endpoint listens on 127.0.0.1
    broken = reply("Let me look.", tool_calls=[DETAIL])
    broken["body"]["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = "{not json"
    outcome, tools, requests, _ = run_agent([broken, reply(tool_calls=[DETAIL]), reply(tool_calls=[SUBMIT])])

    told = json.loads(requests[1]["messages"][-1]["content"])
    step = tools.steps[0]
    assert step.error_kind == "invalid_parameter" and step.arguments == "{not json"
    assert step.observation == told
    assert "not valid JSON" in told["error"]["message"] and "call the tool again" in told["error"]["message"]
    assert outcome.ended == "submitted"


def test_a_runs_timeout_reaches_the_agent():
    """RunConfig carries timeout_s, so the agent's clock is the run's (it used to fall back to 600 s always)."""
    from benchmark.agents.config import DEFAULT_TIMEOUT_S, RunConfig

    assert RunConfig.from_stored({"timeout_s": 5}).timeout_s == 5
    assert RunConfig.from_stored({}).timeout_s == DEFAULT_TIMEOUT_S == 600

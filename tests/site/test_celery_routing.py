"""Celery: which queue each task goes to, the beat schedule, time limits that fit the longest case,
and the housekeeping sweep run by celery beat on the stack's real workers."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from benchmark.runs.models import EvaluationRun, Trajectory
from lifeplanner_site.celery import app
from tests.processes import wait_for
from tests.site.conftest import app_services
from tests.site.test_settings_deploy import PRODUCTION, load_settings

_names = itertools.count(1)


def registered_tasks() -> dict:
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if name.startswith("benchmark.")}


def queue_of(task_name: str) -> str:
    return app.amqp.router.route({}, task_name, (), {})["queue"].name


# --- routes and the schedule -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("benchmark.tasks.trajectory_task", "evaluation"),
        ("benchmark.tasks.run_rescore_task", "scoring"),
        ("benchmark.tasks.housekeeping_sweep_task", "housekeeping"),
        ("benchmark.tasks.model_calls_prune_task", "housekeeping"),
    ],
)
def test_each_kind_of_task_has_its_queue(task, queue):
    assert task in registered_tasks()
    assert queue_of(task) == queue


def test_every_task_lands_on_a_queue_that_a_compose_worker_consumes():
    consumed = set()
    for spec in app_services().values():
        if spec["command"][0] == "worker":
            consumed |= set(spec["command"][1].split(","))
    assert consumed == set(settings.LIFEPLANNER_QUEUES)
    for name in registered_tasks():
        assert queue_of(name) in consumed, f"{name} goes to {queue_of(name)!r}, which no compose worker consumes"
    assert queue_of("a.task.nobody.routed") == settings.CELERY_TASK_DEFAULT_QUEUE == "evaluation"


def test_the_beat_schedule_names_registered_housekeeping_tasks():
    tasks = registered_tasks()
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert {entry["task"] for entry in schedule.values()} == {
        "benchmark.tasks.housekeeping_sweep_task",
        "benchmark.tasks.model_calls_prune_task",
    }
    for name, entry in schedule.items():
        assert entry["task"] in tasks, f"beat entry {name} names an unregistered task"
        assert queue_of(entry["task"]) == "housekeeping"
        assert entry["options"]["expires"] > 0
    assert schedule["housekeeping-sweep"]["schedule"] == settings.HOUSEKEEPING_SWEEP_SECONDS


# --- time limits ----------------------------------------------------------------------------------------------


def test_the_evaluation_task_limits_come_from_the_longest_case():
    from benchmark.agents import config
    from benchmark.endpoints import llm

    # The agent's wall clock is the one in the code, and it is what bounds the conversation; no run may set a
    # longer one (RunConfig's ceiling), since the task's time limit would cut it first.
    assert settings.EVALUATION_AGENT_SECONDS == config.DEFAULT_TIMEOUT_S == config.RunConfig().timeout_s
    with pytest.raises(config.RunConfigError, match="timeout_s must be a number from 1 to 600"):
        config.RunConfig.from_input({"timeout_s": settings.EVALUATION_AGENT_SECONDS + 1})
    assert 30 * llm.REQUEST_TIMEOUT_S * llm.RetryPolicy().max_attempts > settings.EVALUATION_AGENT_SECONDS
    task = registered_tasks()["benchmark.tasks.trajectory_task"]
    assert (
        task.soft_time_limit
        == settings.EVALUATION_SOFT_TIME_LIMIT
        == (
            settings.EVALUATION_AGENT_SECONDS
            + settings.EVALUATION_SCORING_SECONDS
            + settings.EVALUATION_OVERHEAD_SECONDS
        )
    )
    assert task.soft_time_limit < task.time_limit == settings.EVALUATION_TIME_LIMIT


def test_no_task_outlives_the_visibility_timeout():
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    for name, task in registered_tasks().items():
        assert task.acks_late, f"{name} is acknowledged before it runs: a dead worker would lose it"
        assert task.time_limit and task.soft_time_limit < task.time_limit < visibility, name


def test_without_judges_a_case_gets_twelve_minutes_then_one_more(monkeypatch):
    derived = load_settings(monkeypatch, **PRODUCTION)
    assert (derived.EVALUATION_SCORING_SECONDS, derived.EVALUATION_SOFT_TIME_LIMIT, derived.EVALUATION_TIME_LIMIT) == (
        60,
        720,
        780,
    )
    assert derived.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] == 7200


def test_judges_lengthen_the_limits_and_the_visibility_timeout_follows(monkeypatch):
    judges = (
        '[{"name": "a", "model": "openai/x"}, {"name": "b", "model": "openai/y", "timeout_s": 60, "num_retries": 0}]'
    )
    derived = load_settings(monkeypatch, **PRODUCTION, JUDGE_MODELS=judges)
    # Scoring: 60 s of rules + 2 roles x 2 versions (as given, neutral) x (120 s x 3 tries + 60 s x 1 try) = 1740 s.
    assert derived.EVALUATION_SCORING_SECONDS == 1740
    assert derived.EVALUATION_SOFT_TIME_LIMIT == 600 + 1740 + 60
    assert derived.EVALUATION_TIME_LIMIT == 2460
    assert derived.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] == 7200


def test_a_malformed_judge_list_is_refused_with_what_is_wrong(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="timeout_s and num_retries, where given, are numbers"):
        load_settings(monkeypatch, JUDGE_MODELS='[{"name": "a", "model": "x", "timeout_s": "slow"}]')


# --- the sweep, sent by the stack's celery beat and run by its workers ---------------------------------------


@pytest.fixture
def sweep_release(grid_city, django_db_blocker):
    """A committed one-case release of the grid city, removed with its runs afterwards."""
    from benchmark.cases.models import Case, Release
    from benchmark.cases.services import case_create, release_freeze
    from tests.factories import routing_document

    name = f"site-sweep-{next(_names)}"
    with django_db_blocker.unblock():
        case = case_create(document=routing_document(status="validated", case_id=f"{name}-case"))
        release = release_freeze(name=name, split="public", cases=[case], audit=False)
    yield release
    with django_db_blocker.unblock():
        EvaluationRun.objects.filter(release=release).delete()
        Release.objects.filter(id=release.id).delete()
        Case.objects.filter(id=case.id).delete()


def _running_run(release, *, attempts: int | None, done: bool = False) -> EvaluationRun:
    from benchmark.runs.services import run_create

    run = run_create(agent="reference", release=release, name=f"sweep {next(_names)}")
    EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.RUNNING, started_at=timezone.now())
    if done:
        run.trajectories.update(status=Trajectory.DONE, ended="no_submission", finished_at=timezone.now())
    else:  # its worker died an hour ago
        run.trajectories.update(
            status=Trajectory.RUNNING,
            attempts=attempts,
            claimed_by="dead-task",
            claimed_at=timezone.now() - timedelta(hours=1),
        )
    return run


def test_beat_and_the_workers_recover_dead_workers_cases_and_complete_runs(stack, sweep_release, django_db_blocker):
    with django_db_blocker.unblock():
        requeued = _running_run(sweep_release, attempts=1)
        exhausted = _running_run(sweep_release, attempts=settings.EVALUATION_MAX_ATTEMPTS)
        ended = _running_run(sweep_release, attempts=None, done=True)
        runs = (requeued, exhausted, ended)

        def all_completed() -> bool:
            return set(EvaluationRun.objects.filter(id__in=[r.id for r in runs]).values_list("status", flat=True)) == {
                EvaluationRun.COMPLETED
            }

        wait_for(all_completed, 120, "the sweep to finish the three runs")
        again = requeued.trajectories.get()
        assert again.status == Trajectory.DONE and again.ended == "no_submission" and again.attempts == 2
        assert again.claimed_by not in ("", "dead-task")  # a new task of the evaluation worker ran it
        given_up = exhausted.trajectories.get()
        assert given_up.ended == "timeout" and given_up.passed is False and given_up.attempts == 3
        assert given_up.error.startswith("gave up after 3 attempts")
        assert EvaluationRun.objects.get(id=ended.id).aggregates["table2"]["n"] == 1
    assert "Sending due task housekeeping-sweep" in stack.log("beat")
    stack.alive("beat")

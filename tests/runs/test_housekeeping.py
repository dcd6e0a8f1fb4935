"""The housekeeping sweep (benchmark/runs/housekeeping.py), in process: what it re-queues, gives up on, completes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from benchmark.runs.dispatch import broker_messages_waiting
from benchmark.runs.housekeeping import housekeeping_sweep
from benchmark.runs.models import EvaluationRun, Trajectory

pytestmark = pytest.mark.django_db


@pytest.fixture
def release(grid_city):
    from benchmark.cases.services import case_create, release_freeze
    from tests.factories import routing_document

    case = case_create(document=routing_document(status="validated"))
    return release_freeze(name="housekeeping", split="public", cases=[case], audit=False)


def a_run(
    release,
    *,
    agent: str = "reference",
    status: str = EvaluationRun.RUNNING,
    trajectory: str,
    claimed_ago_s: float = 3600,
    attempts: int = 1,
) -> EvaluationRun:
    from benchmark.runs.services import run_create

    run = run_create(agent="reference", release=release)
    EvaluationRun.objects.filter(id=run.id).update(agent=agent, status=status)
    run.trajectories.update(
        status=trajectory,
        attempts=attempts,
        claimed_by="task-1",
        claimed_at=timezone.now() - timedelta(seconds=claimed_ago_s),
    )
    return run


def test_a_dead_workers_case_is_queued_again_with_a_new_task(release, django_capture_on_commit_callbacks):
    run = a_run(release, trajectory=Trajectory.RUNNING)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        report = housekeeping_sweep()
    trajectory = run.trajectories.get()
    assert report.requeued == [trajectory.id] and report.abandoned == [] and report.runs_finished == []
    assert trajectory.status == Trajectory.QUEUED and trajectory.claimed_by == "" and trajectory.claimed_at is None
    assert len(callbacks) == 1  # trajectory_task.delay, sent after commit


def test_a_case_out_of_claims_is_recorded_as_timed_out_and_its_run_completed(release, settings):
    run = a_run(release, trajectory=Trajectory.RUNNING, attempts=settings.EVALUATION_MAX_ATTEMPTS)
    report = housekeeping_sweep()
    trajectory = run.trajectories.get()
    assert report.abandoned == [trajectory.id] and report.runs_finished == [run.id]
    assert trajectory.status == Trajectory.DONE and trajectory.ended == "timeout" and trajectory.passed is False
    assert trajectory.error == (
        f"gave up after 3 attempts: each ended without a result (its worker died, or the "
        f"task passed its {settings.EVALUATION_TIME_LIMIT} s hard time limit)"
    )
    assert trajectory.scores["error"]["value"] is None
    run.refresh_from_db()
    assert run.status == EvaluationRun.COMPLETED and run.aggregates["table2"]["overall"]["value"] == 0.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"trajectory": Trajectory.RUNNING, "claimed_ago_s": 5},  # a live worker's lease
        {"trajectory": Trajectory.RUNNING, "status": EvaluationRun.CANCELLED},  # cancelled runs stay as they are
        {"trajectory": Trajectory.RUNNING, "agent": "external"},  # self-driven: never queued for workers
        {"trajectory": Trajectory.QUEUED},  # waiting for a worker: its task is in the queue
    ],
)
def test_the_sweep_leaves_alone_what_is_not_a_dead_workers_case(release, kwargs):
    run = a_run(release, **kwargs)
    before = run.trajectories.get()
    report = housekeeping_sweep()
    after = run.trajectories.get()
    assert report.requeued == report.abandoned == report.runs_finished == []
    assert (after.status, after.claimed_by, after.attempts) == (before.status, before.claimed_by, before.attempts)


def test_a_run_whose_last_case_ended_is_completed_once(release):
    run = a_run(release, trajectory=Trajectory.DONE)
    assert housekeeping_sweep().runs_finished == [run.id]
    assert EvaluationRun.objects.get(id=run.id).status == EvaluationRun.COMPLETED
    assert housekeeping_sweep().runs_finished == []


def test_queued_cases_whose_message_was_lost_get_their_task_again(
    release, django_capture_on_commit_callbacks, settings
):
    # A queue of this test's own on the broker, empty: the message is gone.
    settings.CELERY_TASK_ROUTES = {
        **settings.CELERY_TASK_ROUTES,
        "benchmark.tasks.trajectory_task": {"queue": "housekeeping-lost-probe"},
    }
    run = a_run(release, trajectory=Trajectory.QUEUED)
    EvaluationRun.objects.filter(id=run.id).update(started_at=timezone.now() - timedelta(hours=1))
    assert broker_messages_waiting(queue="housekeeping-lost-probe") == 0
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        report = housekeeping_sweep()
    assert report.lost == [run.trajectories.get().id] and report.requeued == []
    assert len(callbacks) == 1  # trajectory_task.delay for each, sent after commit


def test_broker_messages_waiting_counts_what_is_in_a_queue():
    from django.conf import settings
    from kombu import Connection

    with Connection(settings.CELERY_BROKER_URL) as connection:
        queue = connection.SimpleQueue("housekeeping-probe")
        try:
            queue.clear()
            assert broker_messages_waiting(queue="housekeeping-probe") == 0
            queue.put({"probe": 1})
            assert broker_messages_waiting(queue="housekeeping-probe") == 1
        finally:
            queue.clear()
            queue.close()

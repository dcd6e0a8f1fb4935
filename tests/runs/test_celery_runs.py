"""Runs on real Celery workers (Redis broker): a worker killed mid-run loses nothing, duplicates nothing."""

from __future__ import annotations

import subprocess
import time

import pytest
import redis
from django.conf import settings

from benchmark.runs.models import EvaluationRun, Trajectory
from tests.processes import celery_broker, child_env, kill_process_group, start_celery_worker, wait_for

# No django_db mark: these tests work in autocommit (via django_db_blocker) so that the worker
# processes see every row the test writes.
BROKER = "redis://127.0.0.1:6379/14"  # a database of its own, flushed by the test
LEASE_S = "2"


def start_worker() -> subprocess.Popen:
    env = child_env(REDIS_URL=BROKER, EVALUATION_LEASE_SECONDS=LEASE_S, CELERY_VISIBILITY_TIMEOUT="4")
    return start_celery_worker(env, pool="prefork", concurrency=1)


def kill(worker: subprocess.Popen) -> None:
    kill_process_group(worker)


@pytest.fixture
def broker(settings):
    redis.Redis.from_url(BROKER).flushdb()
    settings.EVALUATION_LEASE_SECONDS = int(LEASE_S)
    with celery_broker(BROKER):
        yield BROKER


@pytest.fixture
def committed_run(eval_release, django_db_blocker):
    from benchmark.runs.services import run_create

    with django_db_blocker.unblock():
        run = run_create(agent="reference", release=eval_release, config={"trials": 2}, name="kill drill")
    yield run
    with django_db_blocker.unblock():
        run.delete()


def test_a_worker_killed_mid_run_is_resumed_with_exactly_one_trajectory_per_case_and_trial(
    broker, committed_run, django_db_blocker
):
    with django_db_blocker.unblock():
        _kill_drill(committed_run)


def _kill_drill(run):
    from benchmark.runs.services import run_enqueue, run_resume

    total = run.trajectories.count()
    assert total == 44  # 22 cases x 2 trials
    run_enqueue(run=run)
    worker = start_worker()
    try:
        wait_for(lambda: run.trajectories.filter(status=Trajectory.DONE).count() >= 3, 90, "the first cases")
    finally:
        kill(worker)
    done_before = run.trajectories.filter(status=Trajectory.DONE).count()
    assert done_before < total, "the worker finished everything before it was killed; the drill proves nothing"
    finished_steps = {t.id: t.steps.count() for t in run.trajectories.filter(status=Trajectory.DONE)}
    time.sleep(float(LEASE_S) + 0.5)  # the dead worker's lease runs out
    worker = start_worker()
    try:
        run_resume(run=run)
        wait_for(
            lambda: EvaluationRun.objects.get(id=run.id).status == EvaluationRun.COMPLETED,
            120,
            "the resumed run to complete",
        )
    finally:
        kill(worker)
    trajectories = list(run.trajectories.select_related("entry"))
    assert len(trajectories) == total and {t.status for t in trajectories} == {Trajectory.DONE}
    assert len({(t.entry_id, t.trial) for t in trajectories}) == total
    for t in trajectories:  # no trajectory holds two executions' steps, and finished work was kept as it was
        assert t.steps.count() == len(t.entry.snapshot["reference_path"])
        if t.id in finished_steps:
            assert t.steps.count() == finished_steps[t.id] and t.attempts == 1
    assert all(t.passed for t in trajectories)
    run.refresh_from_db()
    assert run.aggregates["table2"]["overall"]["value"] == 100.0 and run.aggregates["table2"]["n"] == total


def test_a_redelivered_task_does_nothing_twice(committed_run, django_db_blocker):
    from benchmark.runs.execute import trajectory_execute
    from benchmark.runs.models import EvaluationRun as Run

    run = committed_run
    with django_db_blocker.unblock():
        Run.objects.filter(id=run.id).update(status=Run.RUNNING)
        first = run.trajectories.order_by("id").first()
        assert trajectory_execute(trajectory_id=first.id, claimant="task-1") == "submitted"
        steps = first.steps.count()
        assert trajectory_execute(trajectory_id=first.id, claimant="task-1") == "skipped"
        assert trajectory_execute(trajectory_id=first.id, claimant="task-2") == "skipped"
        first.refresh_from_db()
        assert first.attempts == 1 and first.steps.count() == steps
    assert settings.CELERY_TASK_ACKS_LATE

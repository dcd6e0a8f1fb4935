"""Celery tasks of runs: thin wrappers that take ids and call one service.

Task names keep the ``benchmark.tasks.`` prefix they had before the apps were split: messages
already queued and the beat schedule still find them (settings.CELERY_TASK_ROUTES routes by name)."""

from celery import shared_task
from celery.signals import worker_init
from django.conf import settings
from django.db import InterfaceError, OperationalError


@worker_init.connect
def warm_up_worker(**_) -> None:
    """Before a worker takes its first task (and before a prefork pool forks): load what every case needs."""
    from benchmark.runs.execute import worker_warm_up

    worker_warm_up()


@shared_task(
    name="benchmark.tasks.trajectory_task",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=8,
    soft_time_limit=settings.EVALUATION_SOFT_TIME_LIMIT,
    time_limit=settings.EVALUATION_TIME_LIMIT,
)
def trajectory_task(self, trajectory_id: int) -> str:
    """Run one (case, trial) of an evaluation run; a re-delivered task does nothing twice."""
    from django.db import close_old_connections

    from benchmark.runs.execute import trajectory_execute

    close_old_connections()
    return trajectory_execute(trajectory_id=trajectory_id, claimant=self.request.id or "")


@shared_task(name="benchmark.tasks.housekeeping_sweep_task", acks_late=True, soft_time_limit=120, time_limit=180)
def housekeeping_sweep_task() -> dict:
    """Re-queue cases of dead workers, give up on those out of claims, complete ended runs (celery beat)."""
    from benchmark.runs.housekeeping import housekeeping_sweep

    return housekeeping_sweep().as_dict()

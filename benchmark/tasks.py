"""Celery tasks: thin wrappers that take ids and call one service."""
from celery import shared_task
from django.db import InterfaceError, OperationalError


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, autoretry_for=(OperationalError, InterfaceError),
             retry_backoff=2, retry_backoff_max=60, retry_jitter=True, max_retries=8,
             soft_time_limit=900, time_limit=960)
def trajectory_task(self, trajectory_id: int) -> str:
    """Run one (case, trial) of an evaluation run; a re-delivered task does nothing twice."""
    from django.db import close_old_connections

    from benchmark.evaluation.execute import trajectory_execute

    close_old_connections()
    return trajectory_execute(trajectory_id=trajectory_id, claimant=self.request.id or "")

"""Celery tasks: thin wrappers that take ids and call one service."""
from celery import shared_task
from celery.signals import worker_init
from django.conf import settings
from django.db import InterfaceError, OperationalError


@worker_init.connect
def warm_up_worker(**_) -> None:
    """Before a worker takes its first task (and before a prefork pool forks): load what every case needs."""
    from benchmark.evaluation.execute import worker_warm_up

    worker_warm_up()


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, autoretry_for=(OperationalError, InterfaceError),
             retry_backoff=2, retry_backoff_max=60, retry_jitter=True, max_retries=8,
             soft_time_limit=settings.EVALUATION_SOFT_TIME_LIMIT, time_limit=settings.EVALUATION_TIME_LIMIT)
def trajectory_task(self, trajectory_id: int) -> str:
    """Run one (case, trial) of an evaluation run; a re-delivered task does nothing twice."""
    from django.db import close_old_connections

    from benchmark.evaluation.execute import trajectory_execute

    close_old_connections()
    return trajectory_execute(trajectory_id=trajectory_id, claimant=self.request.id or "")


@shared_task(soft_time_limit=3600, time_limit=3660)
def run_rescore_task(run_id: int, reason: str) -> dict:
    """Re-score a finished run with the current metric and judge code; returns the record's counts."""
    from benchmark.models import EvaluationRun
    from benchmark.operations.rescore import run_rescore

    record = run_rescore(run=EvaluationRun.objects.get(id=run_id), reason=reason)
    return {"rescore": record.id, "trajectories": record.n_trajectories, "pass_changed": record.n_pass_changed,
            "metric_changed": record.n_metric_changed}


@shared_task(soft_time_limit=3600, time_limit=3660)
def model_calls_prune_task() -> dict:
    """Clear recorded model responses older than MODEL_CALL_RETENTION_DAYS (scheduled by celery beat)."""
    from benchmark.operations.retention import model_calls_prune

    report = model_calls_prune()
    return {"runs": len(report.runs), "calls": report.calls, "bytes": report.bytes}


@shared_task(acks_late=True, soft_time_limit=120, time_limit=180)
def housekeeping_sweep_task() -> dict:
    """Re-queue cases of dead workers, give up on those out of claims, complete ended runs (celery beat)."""
    from benchmark.housekeeping import housekeeping_sweep

    return housekeeping_sweep().as_dict()

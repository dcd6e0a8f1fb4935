"""Celery tasks of operations: re-scoring and retention (names as in benchmark/runs/tasks.py)."""

from celery import shared_task


@shared_task(name="benchmark.tasks.run_rescore_task", soft_time_limit=3600, time_limit=3660)
def run_rescore_task(run_id: int, reason: str) -> dict:
    """Re-score a finished run with the current metric and judge code; returns the record's counts."""
    from benchmark.operations.rescore import run_rescore
    from benchmark.runs.models import EvaluationRun

    record = run_rescore(run=EvaluationRun.objects.get(id=run_id), reason=reason)
    return {
        "rescore": record.id,
        "trajectories": record.n_trajectories,
        "pass_changed": record.n_pass_changed,
        "metric_changed": record.n_metric_changed,
    }


@shared_task(name="benchmark.tasks.model_calls_prune_task", soft_time_limit=3600, time_limit=3660)
def model_calls_prune_task() -> dict:
    """Clear recorded model responses older than MODEL_CALL_RETENTION_DAYS (scheduled by celery beat)."""
    from benchmark.operations.retention import model_calls_prune

    report = model_calls_prune()
    return {"runs": len(report.runs), "calls": report.calls, "bytes": report.bytes}

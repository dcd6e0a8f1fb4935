"""Retention of recorded model responses: clear old ModelCall bodies, keep their metadata.

A run's recording (each model request and response) is what ``evaluate --replay`` answers
from. After ``MODEL_CALL_RETENTION_DAYS`` the bodies of finished runs are cleared: the rows
stay with their sequence, latency, attempts and error, the steps, answers and scores stay,
and the run is marked ``config["recording_pruned_at"]`` so that it is never replayed from a
recording that is no longer there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Func, IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from benchmark.runs.models import EvaluationRun, ModelCall
from benchmark.runs.recording import PRUNED_MARK

FINISHED = (EvaluationRun.COMPLETED, EvaluationRun.CANCELLED, EvaluationRun.FAILED)


@dataclass
class PruneReport:
    """What a prune did (or, with ``dry_run``, would do)."""

    older_than_days: int
    cutoff: str
    dry_run: bool
    runs: list[dict] = field(default_factory=list)  # {run, name, finished_at, calls, bytes}

    @property
    def calls(self) -> int:
        return sum(r["calls"] for r in self.runs)

    @property
    def bytes(self) -> int:
        return sum(r["bytes"] for r in self.runs)


def retention_days() -> int:
    """``settings.MODEL_CALL_RETENTION_DAYS`` (0 keeps recordings forever)."""
    return _checked_days(settings.MODEL_CALL_RETENTION_DAYS, "MODEL_CALL_RETENTION_DAYS")


def model_calls_prune(*, older_than_days: int | None = None, dry_run: bool = False) -> PruneReport:
    """Clear the request and response bodies of model calls of runs finished more than N days ago.

    Args:
        older_than_days: N; default ``MODEL_CALL_RETENTION_DAYS``. 0 prunes nothing (keep forever).
        dry_run: report what would be cleared (calls and bytes per run) and change nothing.

    Returns:
        A ``PruneReport``. Runs that are the source of a replay still queued or running are skipped.

    Raises:
        ValueError: a negative or non-integer number of days.
    """
    days = retention_days() if older_than_days is None else _checked_days(older_than_days, "--older-than")
    cutoff = timezone.now() - timedelta(days=days)
    report = PruneReport(older_than_days=days, cutoff=cutoff.isoformat(), dry_run=dry_run)
    if days == 0:
        return report
    for run in _prunable_runs(cutoff):
        calls = _bodies(run)
        summary = calls.aggregate(bytes=Coalesce(Sum(F("request_bytes") + F("response_bytes")), 0))
        # A finished run without finished_at (an older row) is judged by created_at: see _prunable_runs.
        finished_at = run.finished_at.isoformat() if run.finished_at else None
        entry = {
            "run": run.id,
            "name": run.name,
            "finished_at": finished_at,
            "calls": calls.count(),
            "bytes": summary["bytes"],
        }
        if not dry_run:
            entry["calls"] = _prune_run(run)
        report.runs.append(entry)
    return report


def _checked_days(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(
            f"{name} must be a whole number of days, 0 or more (0 keeps recordings forever); got {value!r}"
        )
    return value


def _prunable_runs(cutoff) -> list[EvaluationRun]:
    old = Q(finished_at__lt=cutoff) | Q(finished_at__isnull=True, created_at__lt=cutoff)
    with_bodies = _with_bodies(ModelCall.objects.all()).values("trajectory__run_id")
    return list(
        EvaluationRun.objects.filter(old, status__in=FINISHED, id__in=with_bodies)
        .exclude(id__in=_replayed_now())
        .order_by("id")
    )


def _replayed_now():
    """Runs that a replay still queued or running is reading its responses from."""
    return EvaluationRun.objects.filter(
        status__in=(EvaluationRun.QUEUED, EvaluationRun.RUNNING), replay_of__isnull=False
    ).values("replay_of_id")


def _with_bodies(calls):
    return calls.filter(Q(response__isnull=False) | ~Q(request={}))


def _bodies(run: EvaluationRun):
    def size(name):
        return Coalesce(Func(F(name), function="pg_column_size", output_field=IntegerField()), Value(0))

    return _with_bodies(ModelCall.objects.filter(trajectory__run=run)).annotate(
        request_bytes=size("request"), response_bytes=size("response")
    )


def _prune_run(run: EvaluationRun) -> int:
    with transaction.atomic():
        locked = EvaluationRun.objects.select_for_update().get(id=run.id)
        if EvaluationRun.objects.filter(id=run.id, id__in=_replayed_now()).exists():
            return 0  # a replay started meanwhile: keep what it reads
        cleared = _with_bodies(ModelCall.objects.filter(trajectory__run=locked)).update(request={}, response=None)
        locked.config = {**(locked.config or {}), PRUNED_MARK: timezone.now().isoformat()}
        locked.save(update_fields=["config"])
    return cleared

"""What a run's owner and staff may do from the run page: cancel it while it runs, unlist it (hide it
from the leaderboard) and list it again. Each action records who did it on the run.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils import timezone

from benchmark.runs.models import EvaluationRun
from benchmark.runs.services import run_cancel


def run_manageable(*, user, run: EvaluationRun) -> bool:
    """Whether ``user`` may cancel or unlist ``run``: its owner (``created_by``) and staff."""
    if not (user and user.is_authenticated and user.is_active):
        return False
    return bool(user.is_staff) or (run.created_by_id is not None and run.created_by_id == user.pk)


def _check(*, user, run: EvaluationRun, action: str) -> None:
    if not run_manageable(user=user, run=run):
        raise PermissionDenied(f"only the run's owner and staff may {action} it")


def run_cancel_by(*, run: EvaluationRun, user) -> int:
    """Cancel a queued or running ``run`` on behalf of ``user``; returns how many cases were stopped.

    Raises:
        PermissionDenied: ``user`` is neither the run's owner nor staff.
        ValueError: the run has already ended.
    """
    _check(user=user, run=run, action="cancel")
    run.refresh_from_db(fields=["status"])
    if run.status not in (EvaluationRun.QUEUED, EvaluationRun.RUNNING):
        raise ValueError(f"run {run.id} is {run.status}: only a queued or running run can be cancelled")
    stopped = run_cancel(run=run)
    EvaluationRun.objects.filter(id=run.id).update(cancelled_by=user)
    run.refresh_from_db()
    return stopped


def run_unlist(*, run: EvaluationRun, user, listed: bool = False) -> None:
    """Hide ``run`` from the leaderboard (page and API), or show it again with ``listed=True``.

    The run, its page and its trajectories stay: unlisting only takes it off the leaderboard.

    Raises:
        PermissionDenied: ``user`` is neither the run's owner nor staff.
    """
    _check(user=user, run=run, action="unlist" if not listed else "list")
    if listed:
        EvaluationRun.objects.filter(id=run.id).update(unlisted_at=None, unlisted_by=None)
    else:
        EvaluationRun.objects.filter(id=run.id, unlisted_at__isnull=True).update(
            unlisted_at=timezone.now(), unlisted_by=user
        )
    run.refresh_from_db(fields=["unlisted_at", "unlisted_by"])

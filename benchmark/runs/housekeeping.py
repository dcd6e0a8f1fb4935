"""The housekeeping sweep (celery beat runs it every HOUSEKEEPING_SWEEP_SECONDS on the housekeeping queue).

A worker that dies (killed, out of memory, past its hard time limit) leaves its trajectory
RUNNING under a lease nobody renews. The broker would redeliver the task only after its
visibility timeout (hours); the sweep acts once the lease has expired:

- a trajectory with claims left goes back to QUEUED and gets a new task;
- one claimed EVALUATION_MAX_ATTEMPTS times already is recorded as ended ``timeout``, not
  scored, and not passed: the case kills its worker or outlives the time limit every time;
- a running run whose last trajectory has ended is completed (its aggregates computed),
  in case the worker that finished the last one died before it could do that itself;
- a trajectory still QUEUED long after its run started, while nothing waits in the
  evaluation queue, lost its message (Redis restarted without its data, a publish failed):
  its task is sent again. A duplicate is harmless (the claim makes it a no-op), and checking
  the queue first means a long backlog is never sent twice.

Runs of self-driven agents (external MCP agents, uploads) are never queued for workers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from benchmark.runs.dispatch import TRAJECTORY_TASK, broker_messages_waiting, trajectories_enqueue
from benchmark.runs.lifecycle import ACTIVE, lease_seconds, run_maybe_finish, trajectory_abandon, trajectory_requeue
from benchmark.runs.models import EvaluationRun, Trajectory
from benchmark.runs.services import SELF_DRIVEN_AGENTS

SWEEP_BATCH = 1000  # trajectories per sweep; the next sweep takes the rest


@dataclass
class SweepReport:
    requeued: list[int] = field(default_factory=list)
    abandoned: list[int] = field(default_factory=list)
    runs_finished: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def housekeeping_sweep() -> SweepReport:
    """Re-queue trajectories whose worker died, give up on those out of claims, complete ended runs."""
    report = SweepReport(lost=lost_tasks_resend())
    for trajectory in _stale_trajectories():
        if trajectory.attempts >= settings.EVALUATION_MAX_ATTEMPTS:
            if trajectory_abandon(trajectory_id=trajectory.id, attempts=trajectory.attempts):
                report.abandoned.append(trajectory.id)
        elif trajectory_requeue(trajectory_id=trajectory.id):
            report.requeued.append(trajectory.id)
    report.runs_finished = runs_finish_ended()
    return report


def _stale_trajectories() -> list[Trajectory]:
    stale = timezone.now() - timedelta(seconds=lease_seconds())
    return list(
        Trajectory.objects.filter(status=Trajectory.RUNNING, claimed_at__lt=stale, run__status=EvaluationRun.RUNNING)
        .exclude(run__agent__in=SELF_DRIVEN_AGENTS)
        .only("id", "attempts")
        .order_by("id")[:SWEEP_BATCH]
    )


def lost_tasks_resend() -> list[int]:
    """Send again the tasks of queued trajectories whose message is gone; their ids (see the module docstring)."""
    started_before = timezone.now() - timedelta(seconds=lease_seconds())
    ids = list(
        Trajectory.objects.filter(
            status=Trajectory.QUEUED, run__status=EvaluationRun.RUNNING, run__started_at__lt=started_before
        )
        .exclude(run__agent__in=SELF_DRIVEN_AGENTS)
        .order_by("id")
        .values_list("id", flat=True)[:SWEEP_BATCH]
    )
    if not ids or broker_messages_waiting(queue=settings.CELERY_TASK_ROUTES[TRAJECTORY_TASK]["queue"]):
        return []
    trajectories_enqueue(ids)
    return ids


def runs_finish_ended() -> list[int]:
    """Complete every running run none of whose trajectories is queued or running; their ids."""
    ended = (
        EvaluationRun.objects.filter(status=EvaluationRun.RUNNING)
        .exclude(trajectories__status__in=ACTIVE)
        .values_list("id", flat=True)
    )
    return [run_id for run_id in ended if run_maybe_finish(run_id=run_id)]

"""A trajectory's lifecycle, in one place: claim, heartbeat, finish, requeue and abandon are made here.

    QUEUED --claim--> RUNNING --finish--> DONE (scored; the run completes with its last trajectory)
                        |  ^ heartbeat (renews the lease)
                        |--lease expired, claims left--> QUEUED (requeue, the housekeeping sweep)
                        '--lease expired, out of claims--> DONE "timeout" (abandon)

A trajectory row exists for every (run, release case, trial) from the start (unique), so a
re-delivered task can only ever fill the same row. A task claims its row atomically:
QUEUED -> RUNNING, or a RUNNING row whose lease (``claimed_at`` heartbeat) is older than
LEASE_SECONDS, i.e. its worker died. Finished rows (DONE) are never run again. What a run does to
all its rows at once stays with the run (``services``: cancel and fail cancel its queued rows, reopen
queues them again), and an upload creates its rows already claimed (``benchmark.external.upload``).

The callers: ``execute.trajectory_execute`` (the platform's agents: claim, heartbeat, finish),
``benchmark.external`` (external agents and uploads: claim, finish) and ``housekeeping`` (requeue,
abandon, complete ended runs).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from benchmark.agents.toolbox import StepRecord
from benchmark.cases.document import CaseDocument
from benchmark.runs.models import EvaluationRun, ModelCall, Step, Trajectory
from environment.build.bulk import copy_rows
from environment.tools.context import ToolContext

from .dispatch import trajectories_enqueue
from .signals import run_finished

log = logging.getLogger(__name__)

ACTIVE = (Trajectory.QUEUED, Trajectory.RUNNING)


def lease_seconds() -> int:
    return settings.EVALUATION_LEASE_SECONDS


def claimable(claimant: str = "") -> Q:
    stale = timezone.now() - timedelta(seconds=lease_seconds())
    claimable = Q(status=Trajectory.QUEUED) | Q(status=Trajectory.RUNNING, claimed_at__lt=stale)
    if claimant:  # a retry of the task that holds the claim (e.g. after the database was briefly away)
        claimable |= Q(status=Trajectory.RUNNING, claimed_by=claimant)
    return claimable


def trajectory_claim(*, trajectory_id: int, claimant: str = "") -> bool:
    """Atomically take the trajectory for ``claimant`` (a task id); False when it is done,
    cancelled, or held by a live worker."""
    now = timezone.now()
    claimed = Trajectory.objects.filter(
        claimable(claimant), id=trajectory_id, run__status__in=[EvaluationRun.QUEUED, EvaluationRun.RUNNING]
    ).update(status=Trajectory.RUNNING, claimed_at=now, claimed_by=claimant, attempts=F("attempts") + 1, started_at=now)
    return claimed == 1


def trajectory_heartbeat(*, trajectory_id: int) -> None:
    Trajectory.objects.filter(id=trajectory_id, status=Trajectory.RUNNING).update(claimed_at=timezone.now())


def run_maybe_finish(*, run_id: int) -> bool:
    """When no trajectory is left to run, compute the aggregates and mark the run completed."""
    from .aggregates import run_aggregates

    if Trajectory.objects.filter(run_id=run_id, status__in=ACTIVE).exists():
        return False  # the common case, answered without taking the run's lock
    with transaction.atomic():
        run = EvaluationRun.objects.select_for_update().get(id=run_id)
        if run.status != EvaluationRun.RUNNING or run.trajectories.filter(status__in=ACTIVE).exists():
            return False
        run.aggregates = run_aggregates(run=run)
        run.status, run.finished_at = EvaluationRun.COMPLETED, timezone.now()
        run.save(update_fields=["aggregates", "status", "finished_at"])
    run_finished.send(sender=EvaluationRun, run=run)  # e.g. a smoke test's submission queues its full run
    return True


def trajectory_finish(
    *,
    trajectory: Trajectory,
    steps: Sequence[StepRecord],
    final_answer: Any,
    ended: str,
    error: str = "",
    input_tokens: int = 0,
    output_tokens: int = 0,
    model_calls: Sequence[dict] = (),
    city: ToolContext | None = None,
    document: CaseDocument | None = None,
) -> None:
    """Score a finished trajectory and write it whole: steps, model calls, answer, scores, DONE.

    Built-in agents (``trajectory_execute``), external MCP agents and uploads all end here, so
    a trajectory is recorded and scored the same way whoever produced it. ``steps`` replace any
    steps already stored; when the trajectory did not end ``submitted``, the answer scored is
    the last accepted ``submit_answer`` among the steps. Completes the run when it was the last.
    What PostgreSQL cannot hold is repaired first and noted in the error (``hygiene``). ``city``: the city
    version the agent's tools answered from, when the caller knows it (scoring then need not look it up);
    ``document``: the trajectory's case, when the caller has already read it.
    """
    from .hygiene import count, trajectory_storable
    from .scoring.trajectories import trajectory_score  # loads the judges: only where a trajectory ends

    # Repaired for PostgreSQL (a NUL in a model's text, NaN in an answer) before it is scored, so the
    # scores are those of what is stored, and a bad value cannot fail the transaction below.
    storable = trajectory_storable(steps=steps, final_answer=final_answer, error=error, model_calls=model_calls)
    steps, final_answer, error, model_calls = (
        storable.steps,
        storable.final_answer,
        storable.error,
        storable.model_calls,
    )
    input_tokens, output_tokens = count(input_tokens), count(output_tokens)
    document = document or CaseDocument.model_validate(trajectory.entry.snapshot)
    scores, passed = trajectory_score(
        document,
        steps=steps,
        final_answer=final_answer,
        ended=ended,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        city=city,
    )
    # What is written of the trajectory's row (the claim's fields and the heartbeat's are left alone).
    finished = {
        "final_answer": final_answer,
        "ended": ended,
        "error": error,
        "input_tokens": input_tokens or count(sum(s.input_tokens for s in steps)),
        "output_tokens": output_tokens or count(sum(s.output_tokens for s in steps)),
        "scores": scores,
        "passed": passed,
        "status": Trajectory.DONE,
        "finished_at": timezone.now(),
    }
    with transaction.atomic():
        # The row written only if no other worker finished the case first (its lease had run out): one
        # statement, which locks the row as SELECT ... FOR UPDATE would; a late finisher waits, then writes
        # nothing.
        if not Trajectory.objects.filter(id=trajectory.id).exclude(status=Trajectory.DONE).update(**finished):
            log.warning(
                "trajectory %s is finished already (by another worker) or gone; this result is discarded", trajectory.id
            )
            return
        # Steps an external agent stored one by one, or leftovers of a dead attempt: replaced.
        _rows_replace(Step, trajectory.id, [vars(s) for s in steps])
        _rows_replace(ModelCall, trajectory.id, model_calls)
    for field, value in finished.items():
        setattr(trajectory, field, value)
    run_maybe_finish(run_id=trajectory.run_id)


def _rows_replace(model: type[Step] | type[ModelCall], trajectory_id: int, rows: Sequence[dict]) -> None:
    """Replace a trajectory's rows of ``model`` (steps or model calls) with ``rows`` (field name -> value).

    One DELETE and one COPY. ``bulk_create`` spent most of a trajectory's write in Python, building and
    binding an INSERT of every value (docs/benchmarks.md, issue 16's fifth pass); COPY sends the rows as
    they are. Each value is prepared by its model field as ``bulk_create`` would (JSON as jsonb, None as
    NULL); a field a row leaves out gets its default, and ``auto_now_add`` the time of the write.

    Raises:
        TypeError: a row names a field the model does not have.
    """
    meta = model._meta
    owner = meta.get_field("trajectory")
    fields = [field for field in meta.concrete_fields if not field.primary_key and field is not owner]
    names = {field.name for field in fields}
    now = timezone.now()
    with connection.cursor() as cursor:
        table, column = connection.ops.quote_name(meta.db_table), connection.ops.quote_name(owner.column)
        cursor.execute(f"DELETE FROM {table} WHERE {column} = %s", [trajectory_id])
    for row in rows:
        if unknown := set(row) - names:
            raise TypeError(f"{model.__name__} has no field {', '.join(sorted(unknown))}")
    copy_rows(
        meta.db_table,
        [owner.column, *(field.column for field in fields)],
        ([trajectory_id, *(_prepared(field, row, now) for field in fields)] for row in rows),
    )


def _prepared(field, row: dict, now) -> Any:
    if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
        value = row.get(field.name) or now
    else:
        value = row[field.name] if field.name in row else field.get_default()
    return field.get_db_prep_save(value, connection)


def _still_stale(trajectory_id: int):
    stale = timezone.now() - timedelta(seconds=lease_seconds())
    return Trajectory.objects.filter(id=trajectory_id, status=Trajectory.RUNNING, claimed_at__lt=stale)


def trajectory_requeue(*, trajectory_id: int) -> bool:
    """Put a trajectory whose lease expired back in the queue with a new task; False if a worker renewed it."""
    with transaction.atomic():
        changed = _still_stale(trajectory_id).update(status=Trajectory.QUEUED, claimed_by="", claimed_at=None)
        if changed:
            trajectories_enqueue([trajectory_id])
    return changed == 1


def trajectory_abandon(*, trajectory_id: int, attempts: int) -> bool:
    """Record a trajectory that ran out of claims as ended "timeout", unscored and not passed."""
    limit = settings.EVALUATION_TIME_LIMIT
    error = (
        f"gave up after {attempts} attempts: each ended without a result (its worker died, or the task "
        f"passed its {limit} s hard time limit)"
    )
    scores = {"error": {"value": None, "explanation": f"not scored: {error}"}}
    changed = _still_stale(trajectory_id).update(
        status=Trajectory.DONE, ended="timeout", error=error, scores=scores, passed=False, finished_at=timezone.now()
    )
    return changed == 1

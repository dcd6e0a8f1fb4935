"""Runs with several trials per case, for the tests of aggregates, pages and summaries over trials."""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone

from benchmark.cases.models import Release
from benchmark.runs.aggregates import run_aggregates
from benchmark.runs.models import EvaluationRun, Trajectory
from tests.web.board_factories import failing_scores, passing_scores


def run_with_trials(
    release: Release, *, name: str, trials: int, passed: Callable[[int, int], bool] = lambda position, trial: True
) -> EvaluationRun:
    """A completed run with ``trials`` DONE trajectories per release entry and its aggregates.

    ``passed(position, trial)``: the verdict of each trajectory (default: every one passes).
    """
    run = EvaluationRun.objects.create(
        name=name,
        agent="reference",
        release=release,
        status=EvaluationRun.COMPLETED,
        verified=True,
        finished_at=timezone.now(),
        config={"trials": trials, "seed": 0},
        description="The reference agent, several trials: tests/web/trial_factories.py.",
    )
    Trajectory.objects.bulk_create(
        [
            Trajectory(
                run=run,
                entry=entry,
                trial=trial,
                status=Trajectory.DONE,
                ended="submitted",
                passed=passed(entry.position, trial),
                scores=passing_scores() if passed(entry.position, trial) else failing_scores(),
                final_answer={"answer": "x"},
            )
            for entry in release.entries.order_by("position")
            for trial in range(trials)
        ]
    )
    run.aggregates = run_aggregates(run=run)
    run.save(update_fields=["aggregates"])
    return run

"""Reads of the API that are more than a filter."""

from __future__ import annotations

from django.db.models import JSONField
from django.db.models.expressions import RawSQL

from benchmark.runs.models import EvaluationRun, Trajectory

# Each metric's value, taken out of the scores document in the database: the documents (explanations,
# details) are far larger than the values and need not be sent or parsed.
METRIC_VALUES = RawSQL(
    "SELECT COALESCE(jsonb_object_agg(e.key, e.value -> 'value'), '{}'::jsonb) "
    "FROM jsonb_each(benchmark_trajectory.scores) AS e WHERE jsonb_typeof(e.value) = 'object'",
    (),
    output_field=JSONField(),
)


def score_rows(*, run: EvaluationRun) -> list[dict]:
    """Every scored trajectory of ``run``: case, trial, ending, verdict and metric values, in case order."""
    rows = (
        run.trajectories.filter(status=Trajectory.DONE)
        .order_by("entry__position", "trial")
        .values(
            "id",
            "entry__case__case_id",
            "entry__case__category",
            "entry__case__level",
            "trial",
            "ended",
            "passed",
            metrics=METRIC_VALUES,
        )
    )
    return [
        {
            "trajectory": r["id"],
            "case_id": r["entry__case__case_id"],
            "category": r["entry__case__category"],
            "level": r["entry__case__level"],
            "trial": r["trial"],
            "ended": r["ended"],
            "passed": r["passed"],
            "metrics": r["metrics"],
        }
        for r in rows
    ]

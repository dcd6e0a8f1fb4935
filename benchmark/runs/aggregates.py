"""A run's tables (table 2, table 3, the same metrics per category) from its scored trajectories,
and what its tokens cost.

``run_aggregates`` is what a run stores when it ends or is re-scored (``EvaluationRun.aggregates``);
``run_tables`` is the same without the cost, which needs litellm, for pages that show a run still in
progress (``benchmark.runs.results``).
"""

from __future__ import annotations

from benchmark.agents.config import RunConfig
from benchmark.runs.costs import run_cost
from benchmark.runs.models import EvaluationRun, Trajectory
from judging.aggregate import CaseScore, table2, table3, table_categories


def run_case_scores(*, run: EvaluationRun) -> list[CaseScore]:
    """One CaseScore per scored trajectory of ``run`` (case_id and trial kept apart)."""
    rows = (
        run.trajectories.filter(status=Trajectory.DONE)
        .select_related("entry__case")
        .order_by("entry__position", "trial")
    )
    return [
        CaseScore(
            case_id=t.entry.case.case_id,
            trial=t.trial,
            category=t.entry.case.category,
            level=t.entry.case.level,
            passed=bool(t.passed),
            metrics={k: v.get("value") for k, v in (t.scores or {}).items()},
            tokens=t.input_tokens + t.output_tokens,
        )
        for t in rows
    ]


def run_tables(*, run: EvaluationRun) -> dict:
    """Table 2, table 3 and the per-category table (``categories``) over the run's scored trajectories."""
    scores = run_case_scores(run=run)
    return {
        "table2": table2(scores, seed=RunConfig.from_stored(run.config).seed),
        "table3": table3(scores),
        "categories": table_categories(scores),
    }


def run_aggregates(*, run: EvaluationRun) -> dict:
    """What ``EvaluationRun.aggregates`` stores: ``run_tables`` and the run's ``cost`` (USD or None)."""
    return {**run_tables(run=run), "cost": run_cost(run=run)}

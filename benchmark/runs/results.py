"""A run's results, the one way pages, the API and the leaderboard read them: table 2, table 3 and
the per-category table, computed only by ``judging.aggregate``.

A run that ended (or was re-scored) has them stored in ``EvaluationRun.aggregates``
(``benchmark/runs/aggregates.py::run_aggregates``): ``run_results_stored`` reads them and nothing
else (the leaderboard and the API, which show final results only). ``run_results`` is the run page's
read: the stored results, or for a run still in progress the same tables computed now over its
finished trajectories (``run_tables``), so its live numbers are those it will store. Results stored
before the per-category table was kept lack ``categories``: ``run_results`` computes it from the
stored scores, and a re-score (``manage.py rescore_run``) stores it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from benchmark.runs.aggregates import run_case_scores, run_tables
from benchmark.runs.models import EvaluationRun
from judging.aggregate import table_categories


@dataclass(frozen=True)
class RunResults:
    """Table 2 (``judging.aggregate.table2``), table 3 (``table3``), the per-category table
    (``table_categories``; None only from ``run_results_stored`` for results stored before it was
    kept), the cost in USD (None when unknown or not yet computed), and whether they are ``final``
    (stored when the run ended) or computed now over the trajectories finished so far."""

    table2: dict
    table3: dict
    categories: dict | None
    cost: float | None
    final: bool

    def as_dict(self) -> dict:
        """The stored document's shape: {table2, table3, categories, cost}."""
        return {"table2": self.table2, "table3": self.table3, "categories": self.categories, "cost": self.cost}


def run_results_stored(*, run: EvaluationRun) -> RunResults | None:
    """The results stored when ``run`` ended or was re-scored; None before. Reads no trajectory (the
    leaderboard reads every run's), so ``categories`` is None in results stored before it was kept."""
    stored = run.aggregates or {}
    if not stored.get("table2"):
        return None
    return RunResults(
        table2=stored["table2"],
        table3=stored.get("table3") or {},
        categories=stored.get("categories"),
        cost=stored.get("cost"),
        final=True,
    )


def run_results(*, run: EvaluationRun) -> RunResults:
    """``run``'s results for its page, every table present.

    The stored results when the run has them (a per-category table missing from results stored
    before it was kept is computed now); otherwise the same tables computed now over the
    trajectories finished so far (``final`` False, and no cost: pricing needs litellm).
    """
    stored = run_results_stored(run=run)
    if stored is None:
        return RunResults(**run_tables(run=run), cost=None, final=False)
    if stored.categories is None:
        return replace(stored, categories=table_categories(run_case_scores(run=run)))
    return stored

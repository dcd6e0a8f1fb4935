"""The leaderboard: one row per evaluation run of a release, read from the runs' stored results.

Nothing here loads trajectories: table 2 (cells, overall pass rate with its 95% interval,
macro average, tokens) and the run's cost are the results stored when a run ends
(``benchmark.runs.results.run_results_stored``, computed by benchmark/runs/aggregates.py), so a
page never imports litellm.
"""

from __future__ import annotations

from benchmark.cases.models import Release
from benchmark.runs.config import RunConfig
from benchmark.runs.models import EvaluationRun
from judging.aggregate import Interval, rank_ranges
from judging.vocabulary import CELLS, cell_key

from .results import run_results_stored
from .visibility import runs_visible

CELL_KEYS = tuple(cell_key(category, level) for category, level in CELLS)
# ?sort= values; "-name" sorts the same column the other way. Cells sort by their key, e.g. "routing/L1".
SORT_COLUMNS = ("rank", "name", "agent", "model", "date", "verified", "overall", "macro", "tokens", "cost", *CELL_KEYS)
DEFAULT_SORT = "rank"


def leaderboard_releases(*, user) -> list[Release]:
    """The releases that have at least one evaluation run ``user`` may see, newest first."""
    ids = runs_visible(user=user).filter(purpose=EvaluationRun.EVALUATION).values("release_id")
    return list(Release.objects.filter(id__in=ids).order_by("-created_at", "-id"))


def default_release(releases: list[Release]) -> Release | None:
    """The newest public release with runs, else the newest release with runs."""
    return next((r for r in releases if r.split == Release.PUBLIC), releases[0] if releases else None)


def leaderboard_rows(*, release: Release, user, cases: int | None = None) -> list[dict]:
    """One row per evaluation run of ``release`` that ``user`` may see (smoke tests never), best first.

    Each row: run_id, name, agent, model (litellm string or ""), created_at, status, verified
    (False = self-reported upload), cells (PR@0.9 of table 2's 11 cells, None where the run has
    no case), overall ({value, low, high} in %, or None before the run ends), macro, avg_tokens,
    cost (total USD at litellm's local price list, stored with the aggregates; None when unknown),
    rank ([best, worst]: a range where 95% intervals overlap; None for runs without results and for
    partial runs), n (cases scored), complete (the run scored every case of the release, each trial).
    Only complete runs are ranked: an interval over a subset of the cases is not comparable.
    ``cases``: the release's number of cases, when the caller has counted them already.
    """
    runs = list(
        runs_visible(user=user)
        .filter(release=release, purpose=EvaluationRun.EVALUATION)
        .select_related("endpoint")
        .only("id", "name", "agent", "status", "verified", "created_at", "config", "aggregates", "endpoint__model")
        .order_by("id")
    )
    cases = release.entries.count() if cases is None else cases
    rows = [_row(run, cases=cases) for run in runs]
    ranks = rank_ranges({str(r["run_id"]): Interval(**r["overall"]) for r in rows if r["overall"] and r["complete"]})
    for row in rows:
        rank = ranks.get(str(row["run_id"]))
        row["rank"] = list(rank) if rank else None
    return leaderboard_sort(rows, sort=DEFAULT_SORT)


def _row(run: EvaluationRun, *, cases: int) -> dict:
    results = run_results_stored(run=run)
    table2 = results.table2 if results else {}
    cells = table2.get("cells") or {}
    overall = table2.get("overall")
    trials = RunConfig.from_stored(run.config).trials
    return {
        "run_id": run.id,
        "name": run.name,
        "agent": run.agent,
        "model": run.endpoint.model if run.endpoint else "",
        "created_at": run.created_at,
        "status": run.status,
        "verified": run.verified,
        "cells": {key: (cells.get(key) or {}).get("pr") for key in CELL_KEYS},
        "overall": {k: overall[k] for k in ("value", "low", "high")} if overall else None,
        "macro": table2.get("macro"),
        "avg_tokens": table2.get("avg_tokens"),
        "cost": results.cost if results else None,
        "rank": None,
        "n": table2.get("n", 0),
        "complete": bool(overall) and table2.get("n") == cases * trials,
    }


_SORT_KEYS = {
    "rank": lambda r: tuple(r["rank"]) if r["rank"] else None,  # best rank first, then the narrower range
    "name": lambda r: r["name"].lower(),
    "agent": lambda r: r["agent"],
    "model": lambda r: r["model"] or None,
    "date": lambda r: r["created_at"],
    "verified": lambda r: r["verified"],
    "overall": lambda r: r["overall"]["value"] if r["overall"] else None,
    "macro": lambda r: r["macro"],
    "tokens": lambda r: r["avg_tokens"],
    "cost": lambda r: r["cost"],
}


def sort_key(column: str):
    if column in _SORT_KEYS:
        return _SORT_KEYS[column]
    return lambda r: r["cells"].get(column)


def leaderboard_sort(rows: list[dict], *, sort: str) -> list[dict]:
    """Rows ordered by ``sort`` (a column of SORT_COLUMNS, "-" in front to reverse); rows without a
    value for the column come last either way. Ties keep the best overall first.

    Raises:
        ValueError: for an unknown column, naming the allowed ones.
    """
    column = sort[1:] if sort.startswith("-") else sort
    if column not in SORT_COLUMNS:
        raise ValueError(f"sort must be one of {', '.join(SORT_COLUMNS)} (with '-' in front to reverse); got {sort!r}")
    key = sort_key(column)
    by_overall = sorted(rows, key=lambda r: (-(r["overall"]["value"]) if r["overall"] else 0.0, r["run_id"]))
    present = [r for r in by_overall if key(r) is not None]
    missing = [r for r in by_overall if key(r) is None]
    present.sort(key=key, reverse=sort.startswith("-"))
    return present + missing

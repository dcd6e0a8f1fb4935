"""The leaderboard: one row per evaluation run of a release, read from the runs' stored results.

Nothing here loads trajectories: table 2 (cells, overall pass rate with its 95% interval,
macro average, tokens) and the run's cost are the results stored when a run ends
(``benchmark.runs.results.run_results_stored``, computed by benchmark/runs/aggregates.py), so a
page never imports litellm.
"""

from __future__ import annotations

from benchmark.agents.config import RunConfig
from benchmark.cases.models import Release
from benchmark.endpoints.card import card_summary
from benchmark.runs.listing import is_baseline, run_listing_problems, run_model
from benchmark.runs.models import EvaluationRun
from benchmark.runs.results import run_results_stored
from judging.aggregate import Interval, rank_ranges
from kernel.vocabulary import CELLS, Category, Level, cell_key

from .visibility import runs_visible

CELL_KEYS = tuple(cell_key(category, level) for category, level in CELLS)
# ?sort= values; "-name" sorts the same column the other way. Cells sort by their key, e.g. "routing/L1".
SORT_COLUMNS = ("rank", "name", "agent", "model", "date", "verified", "overall", "macro", "tokens", "cost", *CELL_KEYS)
DEFAULT_SORT = "rank"

# The leaderboard's tables, in this order: verified runs of models (the only ranked table), self-reported runs
# (uploads: scored here, answered elsewhere), partial runs of either (fewer cases than the release has), baselines.
SECTIONS = ("verified", "self_reported", "partial", "baseline")


def section_of(*, baseline: bool, complete: bool, verified: bool) -> str:
    """Which table of the leaderboard a row belongs to (SECTIONS)."""
    if baseline:
        return "baseline"
    if not complete:
        return "partial"
    return "verified" if verified else "self_reported"


def leaderboard_releases(*, user) -> list[Release]:
    """The releases that have at least one listed evaluation run ``user`` may see, newest first."""
    runs = runs_visible(user=user).filter(purpose=EvaluationRun.EVALUATION, unlisted_at__isnull=True)
    ids = runs.values("release_id")
    return list(Release.objects.filter(id__in=ids).order_by("-created_at", "-id"))


def default_release(releases: list[Release]) -> Release | None:
    """The newest public release with runs, else the newest release with runs."""
    return next((r for r in releases if r.split == Release.PUBLIC), releases[0] if releases else None)


def leaderboard_rows(*, release: Release, user, cases: int | None = None) -> list[dict]:
    """One row per listed evaluation run of ``release`` that ``user`` may see (smoke tests, unlisted runs and
    runs without a model name or a description never), table by table (SECTIONS), each best first.

    Each row: run_id, name, agent, model (litellm string or ""), created_at, status, verified
    (False = self-reported upload), cells (PR@0.9 of table 2's 11 cells, None where the run has
    no case), categories (each category's pass rate in %: its cells weighted by their trajectories),
    overall ({value, low, high} in %, or None before the run ends), macro, avg_tokens,
    cost (total USD at litellm's local price list, stored with the aggregates; None when unknown),
    rank ([best, worst]: a range where 95% intervals overlap; None for runs without results and for
    baselines and partial runs), n (trajectories scored), expected (cases x trials), complete (the run
    scored every case of the release, each trial), baseline (``is_baseline``), section (its table: SECTIONS),
    description (who ran it and how), submitter (the account that created it, "" for the platform's commands).
    Only the ``verified`` section is ranked: complete, platform-run runs of models. An interval over a subset
    of the cases is not comparable, so a partial run's ``overall`` keeps its value but not its interval (low and
    high are None); a self-reported run was answered elsewhere. A run with ``listing_problems`` is left out.
    ``cases``: the release's number of cases, when the caller has counted them already.
    """
    runs = list(
        runs_visible(user=user)
        .filter(release=release, purpose=EvaluationRun.EVALUATION, unlisted_at__isnull=True)
        .select_related("endpoint", "created_by")
        .only(
            "id",
            "name",
            "agent",
            "status",
            "verified",
            "created_at",
            "config",
            "aggregates",
            "model_name",
            "description",
            "endpoint__model",
            "endpoint__card",
            "created_by__username",
        )
        .order_by("id")
    )
    listed = [run for run in runs if not run_listing_problems(run)]
    cases = release.entries.count() if cases is None else cases
    rows = [_row(run, cases=cases) for run in listed]
    ranked = [r for r in rows if r["overall"] and r["section"] == "verified"]
    ranks = rank_ranges({str(r["run_id"]): Interval(**r["overall"]) for r in ranked})
    for row in rows:
        rank = ranks.get(str(row["run_id"]))
        row["rank"] = list(rank) if rank else None
    return leaderboard_sort(rows, sort=DEFAULT_SORT)


def _row(run: EvaluationRun, *, cases: int) -> dict:
    results = run_results_stored(run=run)
    table2 = results.table2 if results else {}
    cells = table2.get("cells") or {}
    overall = table2.get("overall")
    expected = cases * RunConfig.from_stored(run.config).trials
    model = run_model(run)
    complete = bool(overall) and table2.get("n") == expected
    baseline = is_baseline(agent=run.agent, model=model)
    return {
        "run_id": run.id,
        "name": run.name,
        "agent": run.agent,
        "model": model,
        "card": card_summary(run.endpoint.card if run.endpoint else None),
        "description": run.description,
        "submitter": run.created_by.get_username() if run.created_by else "",
        "created_at": run.created_at,
        "status": run.status,
        "verified": run.verified,
        "cells": {key: (cells.get(key) or {}).get("pr") for key in CELL_KEYS},
        "categories": _category_rates(cells),
        "levels": _level_rates(cells),
        "overall": _overall(overall, complete=complete),
        "pass_k": _pass_k(table2, complete=complete),
        "macro": table2.get("macro"),
        "avg_tokens": table2.get("avg_tokens"),
        "cost": results.cost if results else None,
        "rank": None,
        "n": table2.get("n", 0),
        "expected": expected,
        "complete": complete,
        "baseline": baseline,
        "section": section_of(baseline=baseline, complete=complete, verified=run.verified),
    }


def _category_rates(cells: dict) -> dict[str, float | None]:
    """Each category's pass rate in %: its cells weighted by their scored trajectories (None without any)."""
    return _rates_by(cells, part=0, groups=[category.value for category in Category])


def _level_rates(cells: dict) -> dict[str, float | None]:
    """Each level's pass rate in %: its cells weighted by their scored trajectories (None without any)."""
    return _rates_by(cells, part=1, groups=[level.value for level in Level])


def _rates_by(cells: dict, *, part: int, groups: list[str]) -> dict[str, float | None]:
    """The pass rate in % of each group of cells whose key ("category/level") has ``groups``' value at ``part``."""
    out: dict[str, float | None] = {}
    for group in groups:
        scored = [c for key, c in cells.items() if key.split("/")[part] == group and c.get("pr") is not None]
        n = sum(c.get("n") or 0 for c in scored)
        out[group] = round(sum(c["pr"] * (c.get("n") or 0) for c in scored) / n, 1) if n else None
    return out


def _pass_k(table2: dict, *, complete: bool) -> dict | None:
    """pass^k over the run's cases ({k, value, low, high}: the % of cases whose every one of k trials passed).
    None with one trial per case (pass^1 is the overall pass rate), and for a partial run: a case with fewer
    trials scored so far than the others would count as passing all k on the trials it has."""
    found, k = table2.get("pass_hat_k"), table2.get("trials")
    if not complete or not isinstance(found, dict) or not k or k < 2 or table2.get("trials_min") != k:
        return None
    return {"k": k, "value": found["value"], "low": found["low"], "high": found["high"]}


def _overall(overall: dict | None, *, complete: bool) -> dict | None:
    if not overall:
        return None
    if not complete:  # an interval over some of the cases reads as a claim about all of them
        return {"value": overall["value"], "low": None, "high": None}
    return {k: overall[k] for k in ("value", "low", "high")}


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
    """Rows ordered by ``sort`` (a column of SORT_COLUMNS, "-" in front to reverse), table by table (SECTIONS).

    Within each table rows without a value for the column come last either way. Ties keep the best overall first.

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
    ordered = present + missing
    return sorted(ordered, key=lambda r: SECTIONS.index(r["section"]))  # stable: each table keeps the order

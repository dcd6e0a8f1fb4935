"""The case x run matrix of a release: its cases hardest first, one column per listed complete run.

Columns are the runs the leaderboard lists (``leaderboard_rows``: evaluation runs the viewer may see,
never smoke tests or unlisted runs) that are complete (every case scored in every trial); baselines
only when asked, marked. A case's pass rate is the mean over those runs of the run's pass rate on it
(over its trials), so a run with more trials weighs no more than one with fewer; cases sort by it,
lowest first, ties by case id, and cases no run scored come last. A cell is the run's verdict on the
case (every trial passed, none, or some: "2/3") linking to a trajectory's replay (a failed one when
there is one), or "not run" when the run has no scored trajectory of it.

Queries do not grow with cases x runs: the runs (one, the leaderboard's), the release's entries
(one), and one aggregate over the trajectories grouped by (case, run). The matrix shows verdicts
only, never answers; on a hidden release, a verdict per case is itself one bit of the gold, so its
matrix has cells only for curators and staff (``per_case_visible``); others see its columns alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Min, Q

from benchmark.board.leaderboard import leaderboard_rows
from benchmark.board.visibility import per_case_visible
from benchmark.cases.models import CATEGORIES, LEVELS, Release, ReleaseCase
from benchmark.runs.models import Trajectory
from benchmark.web.whole_numbers import is_whole_number
from judging.pass_k import case_pass_hat_k

PAGE_SIZE = 50
CATEGORY_CODES = tuple(code for code, _ in CATEGORIES)
LEVEL_CODES = tuple(code for code, _ in LEVELS)
BASELINE_CHOICES = ("0", "1")


@dataclass(frozen=True)
class MatrixFilters:
    """The matrix's query parameters, validated: '' means any; ``baselines`` adds the baseline runs."""

    category: str = ""
    level: str = ""
    baselines: bool = False
    page: int = 1

    @classmethod
    def parse(cls, *, category: str = "", level: str = "", baselines: str = "", page: str = "") -> MatrixFilters:
        """Raises ValueError naming the bad parameter, its value and what is allowed."""
        if category and category not in CATEGORY_CODES:
            raise ValueError(f"category must be one of {', '.join(CATEGORY_CODES)}; got {category!r}")
        if level and level not in LEVEL_CODES:
            raise ValueError(f"level must be one of {', '.join(LEVEL_CODES)}; got {level!r}")
        if baselines and baselines not in BASELINE_CHOICES:
            raise ValueError(f"baselines must be 0 (models only) or 1 (baselines too, marked); got {baselines!r}")
        if page and not (is_whole_number(page) and 0 < int(page) < 10**6):
            raise ValueError(f"page must be a page number (1, 2, ...); got {page[:40]!r}")
        return cls(category=category, level=level, baselines=baselines == "1", page=int(page or 1))


def release_matrix(*, release: Release, user, filters: MatrixFilters) -> dict:
    """The matrix page's data: ``runs`` (its columns, ``matrix_runs``), ``cases`` (every matching case,
    hardest first, ``matrix_cases``; the view pages them) and ``totals`` (``matrix_run_totals``)."""
    runs = matrix_runs(release=release, user=user, baselines=filters.baselines)
    if not per_case_visible(user=user, release=release):  # every cell is a case's verdict
        return {"runs": runs, "cases": [], "totals": [], "per_case_visible": False}
    cases = matrix_cases(release=release, runs=runs, filters=filters)
    totals = matrix_run_totals(cases=cases, runs=runs)
    return {"runs": runs, "cases": cases, "totals": totals, "per_case_visible": True}


def matrix_runs(*, release: Release, user, baselines: bool) -> list[dict]:
    """The matrix's columns: the complete listed runs of ``release`` that ``user`` may see, in the
    leaderboard's order (models best first, then baselines when ``baselines``)."""
    rows = leaderboard_rows(release=release, user=user)
    return [r for r in rows if r["complete"] and (baselines or not r["baseline"])]


def matrix_cases(*, release: Release, runs: list[dict], filters: MatrixFilters) -> list[dict]:
    """Every case of ``release`` that passes the filters, hardest first, each with one cell per run.

    A case: number, case_code, category, level, question, rate (% over the runs that scored it, None
    when none did), passed_runs, scored_runs, cells [{run_id, state, passed, trials, trajectory_id}]
    where state is "pass", "fail", "some" (some trials passed) or "none" (not run).
    """
    cases = _entries(release=release, filters=filters)
    verdicts = _verdicts(entry_ids=[c["id"] for c in cases], run_ids=[r["run_id"] for r in runs])
    for case in cases:
        case["cells"] = [_cell(verdicts.get((case["id"], r["run_id"])), r["run_id"]) for r in runs]
        scored = [c for c in case["cells"] if c["state"] != "none"]
        case["scored_runs"] = len(scored)
        case["passed_runs"] = sum(c["state"] == "pass" for c in scored)
        case["rate"] = 100.0 * sum(c["passed"] / c["trials"] for c in scored) / len(scored) if scored else None
    return sorted(cases, key=lambda c: (c["rate"] is None, c["rate"] or 0.0, c["case_code"]))


_ENTRY_COLUMNS = ("id", "number", "case_code", "category", "level", "question")


def _entries(*, release: Release, filters: MatrixFilters) -> list[dict]:
    """The release's cases that pass the filters, read from their frozen snapshots in one query.

    Raw SQL for one reason (as in ``web/runs/report.py``): the snapshot is stored compressed and PostgreSQL
    decompresses it again for every key it extracts; the LATERAL subquery (kept apart by OFFSET 0)
    decompresses it once per row, about 3 times faster on 667 cases.
    """
    where: list[str] = ["e.release_id = %s"]
    params: list[int | str] = [release.id]
    for key, value in (("category", filters.category), ("level", filters.level)):
        if value:
            where.append(f"d.s ->> '{key}' = %s")
            params.append(value)
    sql = f"""
        SELECT e.id, e.position, d.s ->> 'case_id', d.s ->> 'category', d.s ->> 'level', d.s ->> 'question'
        FROM {ReleaseCase._meta.db_table} e
        CROSS JOIN LATERAL (SELECT e.snapshot || '{{}}'::jsonb AS s OFFSET 0) d
        WHERE {" AND ".join(where)}"""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [dict(zip(_ENTRY_COLUMNS, row)) for row in cursor.fetchall()]


def matrix_run_totals(*, cases: list[dict], runs: list[dict]) -> list[dict]:
    """Per run (in column order), over the matching cases it scored (every page): ``rate``, its mean
    pass rate over cases in %, and with several trials per case ``k`` (the fewest trials of a case)
    and ``pass_hat_k`` (``judging.pass_k``: the chance that k trials of a case all pass, averaged over
    cases, in %); None where the run scored none of them. Read from the cells: no query."""
    totals = []
    for column, run in enumerate(runs):
        cells = [case["cells"][column] for case in cases if case["cells"][column]["state"] != "none"]
        k = min((c["trials"] for c in cells), default=0)
        totals.append(
            {
                "run_id": run["run_id"],
                "rate": 100.0 * sum(c["passed"] / c["trials"] for c in cells) / len(cells) if cells else None,
                "k": k if k > 1 else None,
                "pass_hat_k": (
                    100.0
                    * sum(case_pass_hat_k(passed=c["passed"], trials=c["trials"], k=k) for c in cells)
                    / len(cells)
                    if k > 1
                    else None
                ),
            }
        )
    return totals


def _verdicts(*, entry_ids: list[int], run_ids: list[int]) -> dict[tuple[int, int], dict]:
    """One aggregate query: per (entry, run) the scored trials, how many passed, the first trajectory
    and the first failed one."""
    if not entry_ids or not run_ids:
        return {}
    rows = (
        Trajectory.objects.filter(run_id__in=run_ids, entry_id__in=entry_ids, status=Trajectory.DONE)
        .values("entry_id", "run_id")
        .annotate(
            n_trials=Count("id"),
            n_passed=Count("id", filter=Q(passed=True)),
            first=Min("id"),
            first_failed=Min("id", filter=~Q(passed=True)),
        )
        .order_by()
    )
    return {(row["entry_id"], row["run_id"]): row for row in rows}


def _cell(verdict: dict | None, run_id: int) -> dict:
    if verdict is None:
        return {"run_id": run_id, "state": "none", "passed": 0, "trials": 0, "trajectory_id": None}
    passed, trials = verdict["n_passed"], verdict["n_trials"]
    state = "pass" if passed == trials else "fail" if passed == 0 else "some"
    return {
        "run_id": run_id,
        "state": state,
        "passed": passed,
        "trials": trials,
        "trajectory_id": verdict["first_failed"] or verdict["first"],
    }

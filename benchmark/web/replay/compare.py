"""Two runs on the same release compared case by case (read-only).

The difference is run A's pass rate minus run B's on the cases both finished, with a paired
bootstrap 95% interval over cases (``judging.aggregate.paired_comparison``). With several
trials a case counts by its pass rate over its trials: "won" lists the cases where A's rate is
higher than B's, "lost" the reverse, each with one trial of both runs for the replays.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.urls import reverse

from benchmark.agents.config import RunConfig
from benchmark.board.visibility import HIDDEN_PER_CASE, per_case_visible, runs_visible
from benchmark.operations.models import RunRescore
from benchmark.runs.models import EvaluationRun, Trajectory
from benchmark.web.whole_numbers import is_whole_number
from judging.aggregate import CaseScore, paired_comparison
from kernel.vocabulary import CELLS, Category

USAGE = (
    "compare two runs with /compare/?a=<run id>&b=<run id> (optionally &category=<category>, "
    "&case=<case_id>&trial=<n>, &won_page=<n>, &lost_page=<n>)"
)
CATEGORY_CODES = tuple(category.value for category in Category)
CASES_PAGE_SIZE = 25  # won or lost cases a page: a full release differs on hundreds


class CompareError(ValueError):
    """A comparison that cannot be made; the message says what is wrong and what is allowed."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def _run_id(raw: str | None, name: str) -> int:
    if raw is None or not raw.strip():
        raise CompareError(f"missing run {name}: {USAGE}")
    if not is_whole_number(raw.strip()):
        raise CompareError(f"{name} must be a run id (a whole number), got {raw[:40]!r}: {USAGE}")
    return int(raw)


def compare_runs_get(*, a: str | None, b: str | None, user) -> tuple[EvaluationRun, EvaluationRun]:
    """The two runs named by the query parameters ``a`` and ``b``, both visible to ``user``, on one release.

    Raises:
        CompareError: a parameter is missing or not a number (400), a run does not exist or is
            not visible to ``user`` (404), the runs are the same or on different releases (400).
    """
    ids = _run_id(a, "a"), _run_id(b, "b")
    if ids[0] == ids[1]:
        raise CompareError(f"a and b are the same run ({ids[0]}); pick two different runs of one release")
    runs = {r.id: r for r in runs_visible(user=user).select_related("release", "endpoint").filter(pk__in=ids)}
    for name, run_id in zip("ab", ids):
        if run_id not in runs:
            raise CompareError(f"no run {run_id} ({name}) that you can see", status=404)
    run_a, run_b = runs[ids[0]], runs[ids[1]]
    for run in (run_a, run_b):
        if not per_case_visible(user=user, release=run.release):
            raise CompareError(HIDDEN_PER_CASE.format(release=run.release.name), status=404)
    if run_a.release_id != run_b.release_id:
        raise CompareError(
            f"run {run_a.id} is on release {run_a.release.name} and run {run_b.id} on release "
            f"{run_b.release.name}: only runs on the same release can be compared"
        )
    return run_a, run_b


CACHE_SECONDS = 600


def compare_category_check(raw: str | None) -> str:
    """The ``category`` parameter: "" (every category) or one of CATEGORY_CODES.

    Raises:
        CompareError: any other value, naming the allowed ones.
    """
    value = (raw or "").strip()
    if value and value not in CATEGORY_CODES:
        raise CompareError(f"category must be one of {', '.join(CATEGORY_CODES)} (or left out); got {value[:40]!r}")
    return value


def runs_compare_cached(*, a: EvaluationRun, b: EvaluationRun, category: str = "") -> dict:
    """``runs_compare``, kept in the cache under the two runs' fingerprints: any finished, re-run or re-scored
    trajectory changes a fingerprint, so a cached comparison is never stale; a repeated request costs one
    small query instead of reading both runs' trajectories."""
    key = f"{compare_cache_key(a=a, b=b)}:{category}"
    found = cache.get(key)
    if found is None:
        found = runs_compare(a=a, b=b, category=category)
        cache.set(key, found, CACHE_SECONDS)
    return found


def compare_cache_key(*, a: EvaluationRun, b: EvaluationRun) -> str:
    """The cache key of the comparison of ``a`` with ``b`` as their trajectories stand now (one query)."""
    done = Q(trajectories__status=Trajectory.DONE)
    latest_rescore = RunRescore.objects.filter(run=OuterRef("pk")).order_by("-id").values("id")[:1]
    rows = (
        EvaluationRun.objects.filter(pk__in=(a.id, b.id))
        .annotate(n=Count("trajectories", filter=done), last=Max("trajectories__id", filter=done))
        .annotate(rescore=Subquery(latest_rescore))
        .values_list("id", "status", "n", "last", "rescore")
    )
    found = {row[0]: row for row in rows}
    parts = [
        "{}.{}.{}.{}.{}.{}".format(*found.get(run.id, (run.id, run.status, 0, None, None)), _seed(run))
        for run in (a, b)
    ]
    return "compare:{}:{}:{}".format(connection.settings_dict["NAME"], *parts)


def _seed(run: EvaluationRun) -> int:
    return RunConfig.from_stored(run.config).seed


def runs_compare(*, a: EvaluationRun, b: EvaluationRun, category: str = "") -> dict:
    """The paired comparison of run ``a`` against run ``b`` with the won and lost cases, over every case both
    finished or over those of ``category`` alone.

    ``a``/``b`` summarise each run on the shared cases (``passed``: passed trajectories,
    ``pr_shared``: the mean of the cases' pass rates over their trials); ``both_passed`` counts
    the cases every trial of both runs passed, ``both_failed`` those no trial of either passed.
    ``cells``: the same paired comparison within each table-2 cell both runs have cases of (``cell_rows``).

    Raises:
        CompareError: the runs have no finished case in common (in ``category``, when given).
    """
    scores, ids = _case_trials(a=a, b=b)
    scores_a, scores_b = scores[a.id], scores[b.id]
    if category:
        scores_a = [s for s in scores_a if s.category == category]
        scores_b = [s for s in scores_b if s.category == category]
    ids_a, ids_b = ids[a.id], ids[b.id]
    try:
        paired = paired_comparison(scores_a, scores_b, seed=_seed(a))
    except ValueError:
        where = f" in category {category}" if category else ""
        raise CompareError(f"runs {a.id} and {b.id} have no finished case in common{where} yet") from None
    verdicts_a, verdicts_b = _verdicts(scores_a), _verdicts(scores_b)
    shared = [case for case in verdicts_a if case in verdicts_b]
    cells = {s.case_id: (s.category, s.level) for s in scores_a}

    def rows(case_ids: list[str], wanted: tuple[bool, bool]) -> list[dict]:
        out = []
        for case in case_ids:
            trial = _replay_trial(verdicts_a[case], verdicts_b[case], wanted)
            out.append(_row(case, trial, cells[case], ids_a.get((case, trial)), ids_b.get((case, trial))))
        return out

    pairs = [(verdicts_a[case].values(), verdicts_b[case].values()) for case in shared]
    return {
        "a": _summary(a, [verdicts_a[c] for c in shared]),
        "b": _summary(b, [verdicts_b[c] for c in shared]),
        "n": paired["n"],
        "difference": paired["difference"],
        "won": rows(paired["won"], (True, False)),
        "lost": rows(paired["lost"], (False, True)),
        "both_passed": sum(all(va) and all(vb) for va, vb in pairs),
        "both_failed": sum(not any(va) and not any(vb) for va, vb in pairs),
        "category": category,
        "cells": cell_rows(scores_a, scores_b, seed=_seed(a)),
    }


def cell_rows(scores_a: list[CaseScore], scores_b: list[CaseScore], *, seed: int) -> list[dict]:
    """Per table-2 cell that both runs have a finished case of, in table order: {category, level, n (shared
    cases), a and b (each run's pass rate there, %), difference ({value, low, high}: A - B in points, a paired
    bootstrap interval over the cell's cases), won, lost (how many cases each run alone did better on)}, with the
    category's ``label``."""
    by_cell: dict[tuple[str, str], tuple[list[CaseScore], list[CaseScore]]] = {}
    for scores, side in ((scores_a, 0), (scores_b, 1)):
        for score in scores:
            by_cell.setdefault((score.category, score.level), ([], []))[side].append(score)
    rows = []
    for category, level in CELLS:
        cell_a, cell_b = by_cell.get((category, level), ([], []))
        if not cell_a or not cell_b:
            continue
        try:
            paired = paired_comparison(cell_a, cell_b, seed=seed)
        except ValueError:  # no case of the cell in common
            continue
        rows.append(
            {
                "category": category.value,
                "label": category.label,
                "level": level.value,
                "n": paired["n"],
                "a": paired["a"],
                "b": paired["b"],
                "difference": paired["difference"],
                "won": len(paired["won"]),
                "lost": len(paired["lost"]),
            }
        )
    return rows


def _case_trials(
    *, a: EvaluationRun, b: EvaluationRun
) -> tuple[dict[int, list[CaseScore]], dict[int, dict[tuple[str, int], int]]]:
    """Both runs' finished trajectories in one query of only the columns a comparison needs: per run, one
    ``CaseScore`` per trajectory in case order (its verdict, no metrics: the paired comparison reads only
    ``passed``) and the trajectory ids by (case_id, trial). The stored scores, answers and case documents,
    JSON that Python would decode for every row, are never read."""
    rows = (
        Trajectory.objects.filter(run_id__in=(a.id, b.id), status=Trajectory.DONE)
        .order_by("entry__position", "trial")
        .values_list(
            "run_id", "id", "entry__case__case_id", "trial", "entry__case__category", "entry__case__level", "passed"
        )
    )
    scores: dict[int, list[CaseScore]] = {a.id: [], b.id: []}
    ids: dict[int, dict[tuple[str, int], int]] = {a.id: {}, b.id: {}}
    for run_id, pk, case_id, trial, category, level, passed in rows:
        scores[run_id].append(
            CaseScore(case_id=case_id, trial=trial, category=category, level=level, passed=bool(passed))
        )
        ids[run_id][(case_id, trial)] = pk
    return scores, ids


def _verdicts(scores: list[CaseScore]) -> dict[str, dict[int, bool]]:
    """{case_id: {trial: passed}}."""
    out: dict[str, dict[int, bool]] = {}
    for s in scores:
        out.setdefault(s.case_id, {})[s.trial] = s.passed
    return out


def _replay_trial(a: dict[int, bool], b: dict[int, bool], wanted: tuple[bool, bool]) -> int:
    """The trial to show side by side: the first that both runs hold with the verdicts ``wanted``
    (A passed and B failed, for a won case), else the first both hold, else A's first."""
    common = sorted(set(a) & set(b))
    return next((t for t in common if (a[t], b[t]) == wanted), common[0] if common else min(a))


def compare_case_get(*, a: EvaluationRun, b: EvaluationRun, case_id: str, trial: str | None) -> list[Trajectory]:
    """The trajectories of both runs on case ``case_id`` (trial ``trial``, default 0), A first.

    Raises:
        CompareError: the trial is not a number (400), or a run has no such trajectory (404).
    """
    trial = (trial or "0").strip()
    if not is_whole_number(trial):
        raise CompareError(f"trial must be a whole number, got {trial[:40]!r}")
    runs = {a.id: a, b.id: b}
    found = {
        t.run_id: t
        for t in Trajectory.objects.select_related("entry").filter(
            run_id__in=runs, entry__case__case_id=case_id, trial=int(trial)
        )
    }
    for run in (a, b):
        if run.id not in found:
            raise CompareError(f"run {run.id} has no trajectory for case {case_id!r}, trial {trial}", status=404)
        found[run.id].run = run  # already loaded with its release: no second read of the run's aggregates
    return [found[a.id], found[b.id]]


def _row(case_id: str, trial: int, cell: tuple[str, str], a_id: int | None, b_id: int | None) -> dict:
    return {
        "key": case_id,
        "case_id": case_id,
        "trial": trial,
        "category": cell[0],
        "level": cell[1],
        "a_trajectory": a_id,
        "b_trajectory": b_id,
    }


def comparison_links(comparison: dict, *, pages: dict[str, int] | None = None) -> dict:
    """``comparison`` with each won and lost row's links written out (``a_url``, ``b_url``: the replays,
    None without a trajectory; ``side_url``: both replays side by side, in the comparison's category and at the
    lists' ``pages``, {"won": n, "lost": n}), so that the page reverses no URL per row: three ``{% url %}`` tags a
    row took about half of the page's time."""
    replay = _url_of_id("trajectory")
    side = f"{reverse('compare')}?a={comparison['a']['id']}&b={comparison['b']['id']}"
    if comparison.get("category"):
        side += f"&category={comparison['category']}"
    for name, number in sorted((pages or {}).items()):
        if number > 1:
            side += f"&{name}_page={int(number)}"

    def linked(row: dict) -> dict:
        a_id, b_id = row["a_trajectory"], row["b_trajectory"]
        return {
            **row,
            "a_url": replay(a_id) if a_id else None,
            "b_url": replay(b_id) if b_id else None,
            "side_url": f"{side}&case={quote(row['case_id'], safe='/')}&trial={row['trial']}#side-by-side",
        }

    return {
        **comparison,
        "won": [linked(r) for r in comparison["won"]],
        "lost": [linked(r) for r in comparison["lost"]],
    }


def _url_of_id(name: str) -> Callable[[int], str]:
    """The URL of the route ``name`` (one whole-number argument) for any id, reversed once."""
    marker = 987654321
    head, tail = reverse(name, args=[marker]).split(str(marker))
    return lambda pk: f"{head}{int(pk)}{tail}"


def _summary(run: EvaluationRun, verdicts: list[dict[int, bool]]) -> dict:
    rates = [sum(v.values()) / len(v) for v in verdicts]
    return {
        "id": run.id,
        "name": run.name,
        "agent": run.agent,
        "model": run.endpoint.model if run.endpoint else "",
        "status": run.status,
        "verified": run.verified,
        "release": run.release.name,
        "pr_shared": round(100 * sum(rates) / len(rates), 1) if rates else None,
        "passed": sum(sum(v.values()) for v in verdicts),
    }

"""Two runs on the same release compared case by case (read-only).

The difference is run A's pass rate minus run B's on the cases both finished, with a paired
bootstrap 95% interval (``judging.aggregate.paired_comparison``); "won" lists the cases A
passed and B failed, "lost" the reverse, each with both trajectories for the replays.
"""
from __future__ import annotations

from benchmark.evaluation.aggregates import run_case_scores
from benchmark.models import EvaluationRun, Trajectory
from judging.aggregate import paired_comparison

from .visibility import runs_visible

USAGE = "compare two runs with /compare/?a=<run id>&b=<run id> (optionally &case=<case_id>&trial=<n>)"


class CompareError(ValueError):
    """A comparison that cannot be made; the message says what is wrong and what is allowed."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def _run_id(raw: str | None, name: str) -> int:
    if raw is None or not raw.strip():
        raise CompareError(f"missing run {name}: {USAGE}")
    if not raw.strip().isdigit():
        raise CompareError(f"{name} must be a run id (a whole number), got {raw!r}: {USAGE}")
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
    if run_a.release_id != run_b.release_id:
        raise CompareError(f"run {run_a.id} is on release {run_a.release.name} and run {run_b.id} on release "
                           f"{run_b.release.name}: only runs on the same release can be compared")
    return run_a, run_b


def runs_compare(*, a: EvaluationRun, b: EvaluationRun) -> dict:
    """The paired comparison of run ``a`` against run ``b`` with the won and lost cases.

    Raises:
        CompareError: the runs have no finished case in common.
    """
    scores_a, scores_b = run_case_scores(run=a), run_case_scores(run=b)
    try:
        paired = paired_comparison(scores_a, scores_b, seed=int(a.config.get("seed", 0)))
    except ValueError:
        raise CompareError(f"runs {a.id} and {b.id} have no finished case in common yet") from None
    passed_a = {s.case_id: s.passed for s in scores_a}
    passed_b = {s.case_id: s.passed for s in scores_b}
    shared = [key for key in passed_a if key in passed_b]
    cells = {s.case_id: (s.category, s.level) for s in scores_a}
    ids_a, ids_b = _trajectory_ids(a), _trajectory_ids(b)

    def rows(keys: list[str]) -> list[dict]:
        return [_row(key, cells[key], ids_a.get(key), ids_b.get(key)) for key in keys]

    return {
        "a": _summary(a, [passed_a[k] for k in shared]), "b": _summary(b, [passed_b[k] for k in shared]),
        "n": paired["n"], "difference": paired["difference"], "won": rows(paired["won"]), "lost": rows(paired["lost"]),
        "both_passed": sum(passed_a[k] and passed_b[k] for k in shared),
        "both_failed": sum(not passed_a[k] and not passed_b[k] for k in shared),
    }


def compare_case_get(*, a: EvaluationRun, b: EvaluationRun, case_id: str, trial: str | None) -> list[Trajectory]:
    """The trajectories of both runs on case ``case_id`` (trial ``trial``, default 0), A first.

    Raises:
        CompareError: the trial is not a number (400), or a run has no such trajectory (404).
    """
    trial = (trial or "0").strip()
    if not trial.isdigit():
        raise CompareError(f"trial must be a whole number, got {trial!r}")
    found = []
    for run in (a, b):
        trajectory = (Trajectory.objects.select_related("run__release", "entry")
                      .filter(run=run, entry__case__case_id=case_id, trial=int(trial)).first())
        if trajectory is None:
            raise CompareError(f"run {run.id} has no trajectory for case {case_id!r}, trial {trial}", status=404)
        found.append(trajectory)
    return found


def _trajectory_ids(run: EvaluationRun) -> dict[str, int]:
    rows = run.trajectories.filter(status=Trajectory.DONE).values_list("id", "entry__case__case_id", "trial")
    return {f"{case_id}#{trial}": pk for pk, case_id, trial in rows}


def _row(key: str, cell: tuple[str, str], a_id: int | None, b_id: int | None) -> dict:
    case_id, _, trial = key.rpartition("#")
    return {"key": key, "case_id": case_id, "trial": int(trial), "category": cell[0], "level": cell[1],
            "a_trajectory": a_id, "b_trajectory": b_id}


def _summary(run: EvaluationRun, passed: list[bool]) -> dict:
    return {"id": run.id, "name": run.name, "agent": run.agent, "model": run.endpoint.model if run.endpoint else "",
            "status": run.status, "verified": run.verified, "release": run.release.name,
            "pr_shared": round(100 * sum(passed) / len(passed), 1) if passed else None, "passed": sum(passed)}

"""Re-score a finished run with the current metric and judge code, and record what changed.

Every DONE trajectory is scored again from what is stored (its steps, final answer, ending
and tokens) through the same function that scored it when it finished
(``benchmark.runs.scoring.trajectories.trajectory_score``), so a re-score and a first score cannot drift
apart. Scoring happens outside any transaction (judges may be slow); the new scores, the
run's aggregates and the ``RunRescore`` record are then written together, in one
transaction, under the run's row lock.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from benchmark.operations.models import RunRescore
from benchmark.runs.models import EvaluationRun, Trajectory

ACTIVE_RUN = (EvaluationRun.QUEUED, EvaluationRun.RUNNING)
VERDICT = "pass_rate"  # the metric that carries the pass verdict (Trajectory.passed)
REPO = Path(__file__).resolve().parents[2]
# Everything that turns a trajectory into scores and a run into its tables: a change here changes the version.
SCORING_CODE = ("judging", "benchmark/runs/scoring", "benchmark/runs/aggregates.py")


class RescoreFailed(ValueError):
    """A trajectory could not be scored with the current code; the run was not changed."""


@dataclass(frozen=True)
class _Rescored:
    trajectory: Trajectory
    scores: dict
    passed: bool | None
    change: dict | None


def rescorable_metrics() -> list[str]:
    """The result names a re-score may be limited to (``--metrics``)."""
    from judging.metrics.applicability import all_result_names

    return [*all_result_names(), VERDICT, "grounding"]


def run_rescore(
    *,
    run: EvaluationRun,
    reason: str,
    user=None,
    metrics: Iterable[str] | str | None = None,
    dry_run: bool = False,
    threads: int = 1,
) -> RunRescore:
    """Score every finished trajectory of ``run`` again and record what changed.

    Args:
        run: a run that is not queued or running.
        reason: why (kept on the record; required).
        user: who asked, if anyone.
        metrics: replace only these results (names of ``rescorable_metrics()``); the pass verdict
            (``passed``) changes only when ``pass_rate`` is among them; a list or "A,SC". None or empty: all.
        dry_run: compute and return the record without saving anything.
        threads: trajectories scored at once (the scores are the same whatever the number).

    Returns:
        The ``RunRescore`` (unsaved when ``dry_run``): counts, per-trajectory before/after values
        of what changed, and the run's aggregates before and after.

    Raises:
        ValueError: an empty reason, an unknown metric, or a run still in progress.
        RescoreFailed: a trajectory could not be scored (e.g. its city is not built); nothing is changed.
    """
    selected = _validated(run=run, reason=reason, metrics=metrics)
    rescored = _rescore_all(list(_finished(run)), selected, threads)
    record = RunRescore(
        run=run,
        created_by=user,
        reason=reason.strip(),
        metrics=sorted(selected or []),
        versions=scoring_versions(),
        n_trajectories=len(rescored),
        n_pass_changed=sum(1 for r in rescored if r.change and "passed" in r.change),
        n_metric_changed=sum(1 for r in rescored if r.change and r.change["metrics"]),
        changes=[r.change for r in rescored if r.change],
        aggregates_before=run.aggregates or {},
    )
    if dry_run:
        record.aggregates_after = _aggregates_after(run, rescored)
        return record
    return _save(run, rescored, record)


def _validated(*, run: EvaluationRun, reason: str, metrics: Iterable[str] | str | None) -> set[str] | None:
    if not (reason or "").strip():
        raise ValueError("a reason is required: say which metric or judge changed")
    if run.status in ACTIVE_RUN:
        raise ValueError(f"run {run.id} is {run.status}; re-score it once it has finished (or cancel it)")
    if isinstance(metrics, str):
        metrics = metrics.split(",")
    selected = {m.strip() for m in (metrics or []) if m.strip()}
    unknown = sorted(selected - set(rescorable_metrics()))
    if unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown)}; allowed: {', '.join(rescorable_metrics())}")
    return selected or None


def _finished(run: EvaluationRun):
    return (
        run.trajectories.filter(status=Trajectory.DONE)
        .select_related("entry__case")
        .prefetch_related("steps")
        .order_by("entry__position", "trial", "id")
    )


def _rescore_all(trajectories: list[Trajectory], selected: set[str] | None, threads: int) -> list[_Rescored]:
    """Every trajectory re-scored, in order; with ``threads`` > 1 from a pool (each thread its own connection)."""
    if threads < 1:
        raise ValueError(f"threads must be 1 or more, got {threads}")
    if threads == 1:
        return [_rescore_one(t, selected) for t in trajectories]
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    def one(trajectory: Trajectory) -> _Rescored:
        try:
            return _rescore_one(trajectory, selected)
        finally:
            connection.close()

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(one, trajectories))


def thread_check(run: EvaluationRun, threads: int) -> tuple[int, list[str]]:
    """Score every finished trajectory of ``run`` from a cold start at 1 thread and at ``threads`` threads;
    (trajectories, descriptions of those whose scores differ byte for byte). Saves nothing."""
    import json

    from benchmark.runs.scoring import world

    trajectories = list(_finished(run))
    outputs = []
    for count in (1, threads):
        world.forget_worlds()
        outputs.append([json.dumps(r.scores, sort_keys=True) for r in _rescore_all(trajectories, None, count)])
    differ = [f"{t.entry.case.case_id}#{t.trial}" for t, a, b in zip(trajectories, *outputs) if a != b]
    return len(trajectories), differ


def _rescore_one(trajectory: Trajectory, selected: set[str] | None) -> _Rescored:
    from benchmark.cases.document import CaseDocument
    from benchmark.runs.scoring.trajectories import trajectory_score  # the one scoring path

    document = CaseDocument.model_validate(trajectory.entry.snapshot)
    fresh, fresh_passed = trajectory_score(
        document,
        steps=list(trajectory.steps.all()),
        final_answer=trajectory.final_answer,
        ended=trajectory.ended,
        input_tokens=trajectory.input_tokens,
        output_tokens=trajectory.output_tokens,
    )
    if "error" in fresh:  # never replace scores with a failure: the run is left as it was
        raise RescoreFailed(
            f"scoring trajectory {trajectory.id} (case {document.case_id}, trial {trajectory.trial}) "
            f"failed: {fresh['error']['explanation']}; nothing was changed"
        )
    before = trajectory.scores or {}
    scores = fresh if selected is None else {**before, **{k: v for k, v in fresh.items() if k in selected}}
    if selected is not None and "error" in before and "error" not in fresh:
        scores.pop("error")  # the stored scores were a scoring failure; the selected ones now exist
    passed = fresh_passed if selected is None or VERDICT in selected else trajectory.passed
    return _Rescored(trajectory, scores, passed, _change(trajectory, before, scores, passed))


def _change(trajectory: Trajectory, before: dict, after: dict, passed: bool | None) -> dict | None:
    """What changed on one trajectory: metric values (before, after) and the verdict; None if nothing."""
    metrics = {
        name: [_value(before, name), _value(after, name)]
        for name in sorted(set(before) | set(after))
        if (name in before) != (name in after) or _value(before, name) != _value(after, name)
    }
    if not metrics and passed == trajectory.passed:
        return None
    change = {
        "trajectory": trajectory.id,
        "case_id": trajectory.entry.case.case_id,
        "trial": trajectory.trial,
        "metrics": metrics,
    }
    if passed != trajectory.passed:
        change["passed"] = [trajectory.passed, passed]
    return change


def _value(scores: dict, name: str):
    entry = scores.get(name)
    return entry.get("value") if isinstance(entry, dict) else None


def _save(run: EvaluationRun, rescored: list[_Rescored], record: RunRescore) -> RunRescore:
    from benchmark.runs.aggregates import run_aggregates

    with transaction.atomic():
        locked = EvaluationRun.objects.select_for_update().get(id=run.id)
        if locked.status in ACTIVE_RUN:
            raise ValueError(f"run {run.id} was started again while it was being re-scored; nothing was changed")
        changed = [r for r in rescored if r.change]
        for r in changed:
            r.trajectory.scores, r.trajectory.passed = r.scores, r.passed
        Trajectory.objects.bulk_update([r.trajectory for r in changed], ["scores", "passed"], batch_size=500)
        record.aggregates_before = locked.aggregates or {}
        if locked.aggregates or locked.status == EvaluationRun.COMPLETED:
            locked.aggregates = run_aggregates(run=locked)
            locked.save(update_fields=["aggregates"])
        record.aggregates_after = locked.aggregates or {}
        record.save()
    run.aggregates = locked.aggregates
    return record


def _aggregates_after(run: EvaluationRun, rescored: list[_Rescored]) -> dict:
    """The aggregates the re-score would write, computed inside a transaction that is rolled back."""
    from benchmark.runs.aggregates import run_aggregates

    if not (run.aggregates or run.status == EvaluationRun.COMPLETED):
        return run.aggregates or {}
    with transaction.atomic():
        changed = [r for r in rescored if r.change]
        Trajectory.objects.bulk_update([_copy(r) for r in changed], ["scores", "passed"], batch_size=500)
        after = run_aggregates(run=run)
        transaction.set_rollback(True)
    return after


def _copy(rescored: _Rescored) -> Trajectory:
    return Trajectory(id=rescored.trajectory.id, scores=rescored.scores, passed=rescored.passed)


def scoring_versions() -> dict:
    """What scored: the git commit (when known), a hash of the scoring code and the judges' set-up."""
    from judging.judges import configured_judges
    from judging.judges.roles import roles

    return {
        "git_commit": git_commit(),
        "scoring_code_sha256": scoring_code_hash(),
        "judges": [{"name": j.name, "model": j.model} for j in configured_judges()],
        "prompt_versions": {role.name: role.prompt_version for role in roles()},
    }


def scoring_code_hash() -> str:
    """SHA-256 over every source file of SCORING_CODE (the whole judging package, the trajectory scoring of
    ``benchmark/runs/scoring`` and the run aggregates), path and content."""
    digest = hashlib.sha256()
    for path in sorted(_scoring_files()):
        digest.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _scoring_files() -> list[Path]:
    files = []
    for name in SCORING_CODE:
        path = REPO / name
        if not path.exists():
            raise FileNotFoundError(f"SCORING_CODE names {name}, which does not exist: the code version would miss it")
        files += (
            [path]
            if path.is_file()
            else [
                p
                for p in path.rglob("*")
                if p.is_file() and p.suffix in (".py", ".txt") and "__pycache__" not in p.parts
            ]
        )
    return files


def git_commit() -> str:
    """The checked-out commit of this code, or "" when it is not a git checkout."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""

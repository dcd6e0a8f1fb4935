"""Drive a run from the command line: in-process (--sync) or through the Celery workers, with progress."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import TextIO

from django.db import close_old_connections, connection
from django.utils import timezone

from benchmark.runs.models import EvaluationRun, Trajectory

from .results import run_results_stored
from .services import run_enqueue, run_progress


def run_sync(*, run: EvaluationRun, concurrency: int, progress: TextIO | None) -> None:
    """Execute every unfinished trajectory in this process, ``concurrency`` at a time (threads).

    The run is marked started (``started_at``) as a queued run is, so that when this process is
    interrupted the housekeeping sweep sends its queued cases to the workers, if there are any.
    On Ctrl-C the cases not yet begun are left queued and the ones in flight finish; then
    KeyboardInterrupt goes on up.
    """
    from .execute import trajectory_execute

    EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.RUNNING, started_at=timezone.now())
    ids = list(run.trajectories.filter(status__in=[Trajectory.QUEUED, Trajectory.RUNNING]).values_list("id", flat=True))

    def one(trajectory_id: int) -> str:
        try:
            return trajectory_execute(trajectory_id=trajectory_id, claimant=f"sync-{trajectory_id}")
        finally:
            connection.close()

    bar = _bar(run, progress)
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        try:
            for _ in pool.map(one, ids):
                _update(bar, run)
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)  # what has not begun stays queued
            if progress is not None:
                progress.write(f"\nInterrupted: waiting for the cases of run {run.id} in flight to finish...\n")
            raise
        finally:
            close_old_connections()
            _close(bar, run)


def run_queued(*, run: EvaluationRun, progress: TextIO | None, poll_s: float = 1.0, wait: bool = True) -> None:
    """Queue the run for the workers and follow it until it ends (Ctrl-C stops following, not the run:
    KeyboardInterrupt goes on up)."""
    run_enqueue(run=run)
    if not wait:
        return
    bar = _bar(run, progress)
    try:
        while True:
            run.refresh_from_db()
            _update(bar, run)
            if run.status not in (EvaluationRun.QUEUED, EvaluationRun.RUNNING):
                break
            time.sleep(poll_s)
    finally:
        _close(bar, run)


def _bar(run: EvaluationRun, progress: TextIO | None):
    from tqdm import tqdm

    return tqdm(
        total=run.trajectories.count(),
        file=progress,
        disable=progress is None,
        unit="case",
        desc=f"run {run.id} ({run.agent})",
    )


def _update(bar, run: EvaluationRun) -> None:
    p = run_progress(run=run)
    bar.n = p["done"] + p["cancelled"]
    bar.set_postfix(passed=p["passed"], failed=p["failed"], tools=p["tool_calls"], tokens=p["tokens"], refresh=False)
    bar.refresh()


def _close(bar, run: EvaluationRun) -> None:
    _update(bar, run)
    bar.close()


def run_summary(*, run: EvaluationRun) -> str:
    """The table 2 style summary of a finished run."""
    run.refresh_from_db()
    results = run_results_stored(run=run)
    t2 = results.table2 if results else None
    lines = [
        f"Run {run.id} ({run.agent}{' ' + run.endpoint.model if run.endpoint else ''}) on "
        f"{run.release.name}: {run.status}" + (f" ({run.error})" if run.error else "")
    ]
    if not t2 or not t2.get("n"):
        return "\n".join(lines + ["no case was scored"])
    several = "pass_hat_k" in t2  # only runs with several trials per case have these columns
    lines.append(f"{'cell':<22} {'PR@0.9':>7} {'n':>4}" + (f" {'pass^k':>7}" if several else ""))
    for cell, value in t2["cells"].items():
        if value["n"]:
            lines.append(
                f"{cell:<22} {value['pr']:>6.1f}% {value['n']:>4}"
                + (f" {value['pass_hat_k']:>6.1f}%" if several else "")
            )
    o = t2["overall"]
    lines.append(
        f"{'overall':<22} {o['value']:>6.1f}% {t2['n']:>4}   95% interval [{o['low']:.1f}, {o['high']:.1f}], "
        f"cells' mean {t2['macro']:.1f}%, avg tokens {t2['avg_tokens']:.0f}"
    )
    if several:
        lines.extend(_trials_lines(t2))
    return "\n".join(lines)


def _trials_lines(t2: dict) -> list[str]:
    """The summary's lines on trials: what PR@0.9 averages, and pass^k with its interval."""
    k = f"{t2['trials_min']}-{t2['trials']}" if t2["trials_min"] != t2["trials"] else str(t2["trials"])
    p = t2["pass_hat_k"]
    return [
        f"{'pass^k (k=' + k + ')':<22} {p['value']:>6.1f}% {t2['cases']:>4}   95% interval "
        f"[{p['low']:.1f}, {p['high']:.1f}], cases whose every trial passed",
        f"PR@0.9 is the mean over trials ({t2['cases']} cases, {k} trials each); intervals resample cases",
    ]

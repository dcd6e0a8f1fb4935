"""What a user's submissions look like: each one's smoke report, the state it has reached, and what a
full run costs. Reads only; the writes are in ``services``."""

from __future__ import annotations

from benchmark.agents.config import RunConfig
from benchmark.cases.models import Release
from benchmark.runs.models import EvaluationRun
from benchmark.runs.services import run_progress

from .smoke import SmokeReport, full_run_of, smoke_report

ACTIVE = (EvaluationRun.QUEUED, EvaluationRun.RUNNING)


def submissions_of(*, user, limit: int = 20) -> list[dict]:
    """The user's latest submissions, newest first: {run (the smoke run), report, full_run}."""
    if not (user and user.is_authenticated):
        return []
    smokes = (
        EvaluationRun.objects.filter(created_by=user, purpose=EvaluationRun.SMOKE)
        .select_related("endpoint", "release")
        .order_by("-created_at", "-id")[:limit]
    )
    return [_submission(smoke, user=user) for smoke in smokes]


def _submission(smoke: EvaluationRun, *, user) -> dict:
    report = smoke_report(run=smoke).for_reader(user=user, release=smoke.release)
    full = full_run_of(smoke=smoke) if smoke.status not in ACTIVE else None
    state = submission_state(smoke=smoke, report=report, full=full)
    return {"run": smoke, "report": report, "full_run": full, "state": state}


def submission_state(*, smoke: EvaluationRun, report: SmokeReport, full: EvaluationRun | None) -> dict:
    """Where a submission stands, in one word and the run it is about: ``smoke running``, ``blocked``,
    ``stopped``, ``full run queued``, ``full run running`` (with ``done`` of ``total`` cases),
    ``finished``, or ``full run stopped`` (cancelled or failed)."""
    if full is None:
        state = {
            SmokeReport.RUNNING: "smoke running",
            SmokeReport.BLOCKED: "blocked",
            SmokeReport.STOPPED: "stopped",
            SmokeReport.PASSED: "passed",
        }[report.status]
        return {"state": state, "run": smoke, "active": smoke.status in ACTIVE}
    progress = run_progress(run=full)
    done = progress["done"]
    states: dict[str, str] = {
        EvaluationRun.QUEUED: "full run queued",
        EvaluationRun.RUNNING: "full run running" if done or progress["running"] else "full run queued",
        EvaluationRun.COMPLETED: "finished",
    }
    state = states.get(full.status, "full run stopped")
    return {"state": state, "run": full, "active": full.status in ACTIVE, "done": done, "total": progress["total"]}


def submission_full_run_cost(*, release: Release, config: RunConfig | None = None) -> dict:
    """What a full run on ``release`` costs with ``config`` (the defaults: the benchmark's settings): its
    cases, and its model calls, at least one per case and trial, at most the tool budget plus the final
    answer per case and trial."""
    config = config or RunConfig()
    cases = release.entries.count()
    runs = cases * config.trials
    return {"release": release.name, "cases": cases, "min_calls": runs, "max_calls": runs * (config.tool_budget + 1)}

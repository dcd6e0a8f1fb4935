"""External agents: a run answered over MCP by an agent that runs elsewhere, holding a run token.

An agent builder creates a run of the ``external`` agent and receives a run token (shown once;
only its SHA-256 is stored). The agent connects to the run-mode MCP server
(``benchmark.external.mcp_server``), asks ``next_case`` for a question and answers it with the
agent toolset. Every tool call runs here, through the tool gateway against the case's city, and
is recorded as a step exactly like a built-in agent's; the run's tool budget is enforced; a
successful ``submit_answer`` closes the case, which is scored like any other trajectory.

A token works on one case at a time: ``next_case`` returns the case it holds until that case is
finished. Issue more tokens (``run_token_create``) to answer a run's cases in parallel. Cancelling
the run (``run_cancel``) revokes its tokens.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from benchmark.agents.answer_format import answer_format
from benchmark.agents.config import RunConfig
from benchmark.agents.toolbox import StepRecord
from benchmark.cases.models import Release
from benchmark.runs.lifecycle import ACTIVE, trajectory_claim, trajectory_finish
from benchmark.runs.models import EvaluationRun, RunToken, Step, Trajectory
from benchmark.runs.scoring.trajectories import submitted_answer
from benchmark.runs.services import run_create
from environment.tools.gateway import call_tool
from kernel.vocabulary import Ending

TOKEN_PREFIX = "lpr_"
CLAIM_TRIES = 20


class RunTokenRefused(PermissionError):
    """The token is missing, unknown or revoked."""


class NoCaseInProgress(LookupError):
    """A tool was called while the token holds no case."""


@dataclass(frozen=True)
class ToolReply:
    """What an external tool call gives back: the observation the agent sees, and whether it closed the case."""

    observation: Any
    error_kind: str
    ok: bool
    case_finished: bool = False


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def external_lease_seconds() -> int:
    """How long a case held by a silent token stays its own before another token may take it over."""
    return settings.EXTERNAL_LEASE_SECONDS


def external_run_create(
    *,
    release: Release,
    name: str,
    limit: int | None = None,
    category: str | None = None,
    level: str | None = None,
    config: RunConfig | None = None,
    created_by=None,
    model_name: str = "",
    description: str = "",
) -> tuple[EvaluationRun, str]:
    """A running run of the ``external`` agent and its first token (returned once, never stored).

    ``model_name`` and ``description`` (which model answers, who runs the agent and how) are what its listing on
    the leaderboard needs: without them the run is scored but not listed (``listing.listing_problems``).

    ``config``: its settings (the defaults when None); an external agent is held to its
    ``tool_budget``, and ``trials`` sets how many times each case is handed out.
    """
    with transaction.atomic():
        run = run_create(
            agent="external",
            release=release,
            name=name,
            limit=limit,
            category=category,
            level=level,
            created_by=created_by,
            config=config or RunConfig(),
            model_name=model_name,
            description=description,
        )
        EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.RUNNING, started_at=timezone.now())
        run.refresh_from_db()
        return run, run_token_create(run=run)


def run_token_create(*, run: EvaluationRun) -> str:
    """Issue another token for ``run`` (e.g. for a second agent working in parallel)."""
    if run.agent != "external":
        raise ValueError(f"run {run.id} is a run of the {run.agent!r} agent; tokens are for external runs")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    RunToken.objects.create(run=run, token_hash=token_hash(token))
    return token


def run_tokens_revoke(*, run: EvaluationRun) -> int:
    """Revoke every token of ``run``; returns how many were still valid."""
    return run.tokens.filter(revoked=False).update(revoked=True)


def external_next_case(*, token: str | None) -> dict | None:
    """The case this token holds, or else the next one it claims; None when nothing is left.

    Returns ``{trajectory_id, case_id, question, answer_format, trial, remaining, tool_budget,
    tools_used}``; ``answer_format`` is the scaffold's figure 9 answer format with the fields a case
    of this category is scored on, and ``remaining`` counts the run's unfinished cases besides this one.
    """
    grant = _authorize(token)
    claimant = _claimant(grant)
    trajectory = _held(grant.run, claimant) or _claim_next(grant.run, claimant)
    if trajectory is None:
        return None
    snapshot = trajectory.entry.snapshot
    return {
        "trajectory_id": trajectory.id,
        "case_id": snapshot["case_id"],
        "question": snapshot["question"],
        "answer_format": answer_format(snapshot["category"]),
        "trial": trajectory.trial,
        "remaining": grant.run.trajectories.filter(status__in=ACTIVE).exclude(id=trajectory.id).count(),
        "tool_budget": _budget(grant.run),
        "tools_used": trajectory.steps.count(),
    }


def external_tool_call(*, token: str | None, tool: str, arguments: Any) -> ToolReply:
    """Run ``tool`` for the case the token holds and record it as the trajectory's next step.

    Past the run's tool budget the call is refused and the case is closed (``budget_exhausted``)
    and scored; an accepted ``submit_answer`` closes it as ``submitted``.
    """
    grant = _authorize(token)
    with transaction.atomic():  # the row lock orders concurrent calls of one case
        trajectory = (
            Trajectory.objects.select_for_update(of=("self",))
            .select_related("entry", "run")
            .filter(run=grant.run, status=Trajectory.RUNNING, claimed_by=_claimant(grant))
            .order_by("id")
            .first()
        )
        if trajectory is None:
            raise NoCaseInProgress("this token holds no case: call next_case to get one")
        steps = _steps(trajectory)
        budget = _budget(grant.run)
        if len(steps) >= budget:
            message = f"the tool budget of {budget} calls is spent: this case is closed; call next_case"
            trajectory_finish(
                trajectory=trajectory,
                steps=steps,
                final_answer=submitted_answer(steps),
                ended=Ending.BUDGET_EXHAUSTED,
                error=f"the tool budget of {budget} calls is spent",
            )
            kind = Ending.BUDGET_EXHAUSTED  # the refused call's kind names how the case ended
            return ToolReply({"error": {"kind": kind, "message": message}}, kind, False, True)
        call = call_tool("agent", tool, arguments, city=trajectory.entry.snapshot["city_name"])
        # The call as the gateway recorded it: arguments it refused (a NUL, NaN) are stored repaired.
        step = StepRecord(len(steps), call.tool, call.arguments, call.observation(), call.error_kind, call.latency_ms)
        Step.objects.create(trajectory=trajectory, **vars(step))
        Trajectory.objects.filter(id=trajectory.id).update(claimed_at=timezone.now())
        if tool == "submit_answer" and call.ok:
            trajectory_finish(
                trajectory=trajectory, steps=[*steps, step], final_answer=call.result["result"], ended=Ending.SUBMITTED
            )
            return ToolReply(call.observation(), call.error_kind, True, True)
    return ToolReply(call.observation(), call.error_kind, call.ok)


def _authorize(token: str | None) -> RunToken:
    if not token:
        raise RunTokenRefused("no run token: send the HTTP header 'Authorization: Bearer <run token>'")
    grant = RunToken.objects.select_related("run").filter(token_hash=token_hash(token)).first()
    if grant is None:
        raise RunTokenRefused("unknown run token: use the token printed by 'manage.py external_run'")
    if grant.revoked:
        raise RunTokenRefused(f"this run token of run {grant.run_id} was revoked")
    if grant.run.status in (EvaluationRun.CANCELLED, EvaluationRun.FAILED):
        raise RunTokenRefused(f"run {grant.run_id} was {grant.run.status}: its tokens no longer work")
    return grant


def _claimant(grant: RunToken) -> str:
    return f"external:{grant.token_hash[:16]}"


def _budget(run: EvaluationRun) -> int:
    return RunConfig.from_stored(run.config).tool_budget


def _held(run: EvaluationRun, claimant: str) -> Trajectory | None:
    return (
        run.trajectories.select_related("entry")
        .filter(status=Trajectory.RUNNING, claimed_by=claimant)
        .order_by("id")
        .first()
    )


def _claim_next(run: EvaluationRun, claimant: str) -> Trajectory | None:
    """Claim the first queued case, or else one whose token has been silent past the lease."""
    stale = timezone.now() - timedelta(seconds=external_lease_seconds())
    queued = run.trajectories.filter(status=Trajectory.QUEUED).order_by("entry__position", "trial")
    abandoned = run.trajectories.filter(status=Trajectory.RUNNING, claimed_at__lt=stale).order_by("claimed_at")
    for trajectory_id in [
        *queued.values_list("id", flat=True)[:CLAIM_TRIES],
        *abandoned.values_list("id", flat=True)[:CLAIM_TRIES],
    ]:
        if trajectory_claim(trajectory_id=trajectory_id, claimant=claimant):
            Step.objects.filter(trajectory_id=trajectory_id).delete()  # an abandoned attempt's steps
            return Trajectory.objects.select_related("entry").get(id=trajectory_id)
    return None


def _steps(trajectory: Trajectory) -> list[StepRecord]:
    return [
        StepRecord(
            s.index,
            s.tool,
            s.arguments,
            s.observation,
            s.error_kind,
            s.latency_ms,
            s.model_text,
            s.input_tokens,
            s.output_tokens,
        )
        for s in trajectory.steps.order_by("index")
    ]

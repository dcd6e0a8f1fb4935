"""The smoke report of a submission: what its 3-case smoke run showed, recomputed from the run's
trajectories and recorded model responses whenever it is read (nothing extra is stored)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, replace
from datetime import timedelta

from django.db.models import Count
from django.utils import timezone

from benchmark.agents.text_calls import looks_like_tool_call
from benchmark.board.visibility import per_case_visible
from benchmark.endpoints.redaction import REDACTED, redact
from benchmark.runs.models import EvaluationRun, ModelCall, Trajectory
from kernel.vocabulary import Ending

SNIPPET_CHARS = 200


def full_run_of(*, smoke: EvaluationRun) -> EvaluationRun | None:
    """The full (evaluation) run a smoke run led to, if any."""
    if smoke.endpoint_id is None:
        return None
    return (
        EvaluationRun.objects.filter(endpoint_id=smoke.endpoint_id, purpose=EvaluationRun.EVALUATION)
        .order_by("id")
        .first()
    )


@dataclass(frozen=True)
class SmokeProblem:
    """One thing the smoke test found; ``blocking`` ones stop the submission."""

    kind: str
    message: str
    blocking: bool
    case_id: str = ""

    def to_dict(self) -> dict:
        return {"kind": self.kind, "message": self.message, "blocking": self.blocking, "case_id": self.case_id}


@dataclass(frozen=True)
class SmokeReport:
    """What a smoke run showed: its status, per-case outcomes, problems, and the full run."""

    RUNNING, PASSED, BLOCKED, STOPPED = "running", "passed", "blocked", "stopped"

    status: str
    cases: list[dict] = field(default_factory=list)
    problems: list[SmokeProblem] = field(default_factory=list)
    full_run_id: int | None = None

    def for_reader(self, *, user, release) -> SmokeReport:
        """The report as ``user`` may read it: on a hidden release, unless a curator or staff, without each
        case's verdict (``passed`` None; ``visibility.per_case_visible``); its problems say how the endpoint did."""
        if per_case_visible(user=user, release=release):
            return self
        return replace(self, cases=[{**case, "passed": None} for case in self.cases])

    @property
    def blocking(self) -> list[SmokeProblem]:
        return [p for p in self.problems if p.blocking]

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "cases": self.cases,
            "problems": [p.to_dict() for p in self.problems],
            "full_run": self.full_run_id,
        }


ENDING_PROBLEMS: dict[str, tuple[bool, str]] = {  # trajectory ending -> (blocking, what it means)
    Ending.MODEL_ERROR: (True, "the endpoint failed"),
    Ending.TIMEOUT: (False, "the case ran out of time"),
    Ending.NO_SUBMISSION: (False, "the model stopped without calling submit_answer"),
    Ending.TOOL_CALL_AS_TEXT: (False, "the model wrote a tool call as text instead of calling the tool"),
    Ending.CONTEXT_EXCEEDED: (False, "the conversation grew past the model's context window"),
    Ending.INVALID_ANSWER: (False, "the agent could not finish the case"),
    Ending.BUDGET_EXHAUSTED: (False, "the model used its whole tool budget without submitting"),
}


def smoke_report(*, run: EvaluationRun) -> SmokeReport:
    """The smoke test's findings, recomputed from the run's trajectories and recorded model calls.

    Blocking: a model error (the message has the key redacted), tool calls written as text that
    the provider did not parse into structured calls, no structured tool call at all, or no case
    ending with submit_answer. Timeouts, no submission or an exhausted budget on some cases are
    reported without blocking (a model may fail a case and still deserve a full run).
    """
    trajectories = list(run.trajectories.select_related("entry__case").order_by("entry__position", "trial"))
    if run.status in (EvaluationRun.QUEUED, EvaluationRun.RUNNING):
        return SmokeReport(status=SmokeReport.RUNNING, cases=_cases(trajectories))
    problems = _problems(run, trajectories)
    full = full_run_of(smoke=run)
    if run.status != EvaluationRun.COMPLETED:
        problems.insert(
            0, SmokeProblem(kind="stopped", blocking=True, message=f"the smoke run was {run.status} before it finished")
        )
    status = SmokeReport.BLOCKED if any(p.blocking for p in problems) else SmokeReport.PASSED
    if status == SmokeReport.BLOCKED and run.status != EvaluationRun.COMPLETED:
        status = SmokeReport.STOPPED
    if (
        status == SmokeReport.PASSED
        and full is None
        and run.finished_at
        and timezone.now() - run.finished_at > timedelta(minutes=1)
    ):
        problems.append(
            SmokeProblem(
                kind="full_run_missing",
                blocking=False,
                message="the smoke test passed but the full run could not be queued; "
                "an administrator can see why in the worker log",
            )
        )
    return SmokeReport(
        status=status, cases=_cases(trajectories), problems=problems, full_run_id=full.id if full else None
    )


def _cases(trajectories: list[Trajectory]) -> list[dict]:
    return [
        {
            "case_id": t.entry.case.case_id,
            "category": t.entry.case.category,
            "level": t.entry.case.level,
            "status": t.status,
            "ended": t.ended,
            "passed": t.passed,
        }
        for t in trajectories
    ]


def _problems(run: EvaluationRun, trajectories: list[Trajectory]) -> list[SmokeProblem]:
    responses: dict[int, list] = {}  # the responses only: the requests (prompts, tool specs) are far larger
    for trajectory_id, response in (
        ModelCall.objects.filter(trajectory__run=run)
        .order_by("trajectory_id", "sequence")
        .values_list("trajectory_id", "response")
    ):
        responses.setdefault(trajectory_id, []).append(response)
    steps = _step_counts(run)
    problems: list[SmokeProblem] = []
    for t in trajectories:
        problems += _trajectory_problems(run, t, responses.get(t.id, []))
    done = [t for t in trajectories if t.status == Trajectory.DONE]
    if done and not any(steps.get(t.id) for t in done) and not any(p.kind == Ending.MODEL_ERROR for p in problems):
        problems.append(
            SmokeProblem(
                kind="no_tool_call",
                blocking=True,
                message=(
                    "the model made no structured tool call in any case: check that the provider supports function "
                    "calling for this model (and, for vLLM-style servers, that a tool-call parser is enabled)"
                ),
            )
        )
    if done and not any(t.ended == Ending.SUBMITTED for t in done):
        problems.append(
            SmokeProblem(kind="no_answer", blocking=True, message="no smoke case ended with a submit_answer call")
        )
    return problems


def _step_counts(run: EvaluationRun) -> dict[int, int]:
    return dict(run.trajectories.annotate(n=Count("steps")).values_list("id", "n"))


def _trajectory_problems(run: EvaluationRun, t: Trajectory, responses: list) -> list[SmokeProblem]:
    case_id = t.entry.case.case_id
    problems = []
    unparsed = next((s for s in (_unparsed_tool_call(r) for r in responses) if s), "")
    if unparsed:
        problems.append(
            SmokeProblem(
                kind="unparsed_tool_call",
                blocking=True,
                case_id=case_id,
                message=(
                    "the model wrote a tool call as text, which the provider did not turn into a structured tool call "
                    f"(enable the provider's tool-call parser, or use a model with native function calling): {unparsed}"
                ),
            )
        )
    if t.ended in ENDING_PROBLEMS:
        blocking, meaning = ENDING_PROBLEMS[t.ended]
        detail = _redacted(t.error, run)
        problems.append(
            SmokeProblem(
                kind=t.ended, blocking=blocking, case_id=case_id, message=f"{meaning}: {detail}" if detail else meaning
            )
        )
    return problems


# A tool call in text: provider-specific markers, or a JSON object naming a function and its arguments.
def _unparsed_tool_call(response) -> str:
    """A short, redacted excerpt of a model response's text when it is an unparsed tool call, else ""."""
    message = _message(response)
    if message is None or message.get("tool_calls"):
        return ""
    text = message.get("content")
    if not isinstance(text, str) or not looks_like_tool_call(text, agent_tool_names()):
        return ""
    snippet = " ".join(text.split())
    return json.dumps(redact(snippet[:SNIPPET_CHARS] + ("..." if len(snippet) > SNIPPET_CHARS else "")))


@functools.cache
def agent_tool_names() -> frozenset[str]:
    """The tools the litellm agent offers a model (the agent toolset)."""
    from environment.tools.registry import tools_for

    return frozenset(t.name for t in tools_for("agent"))


def _message(response) -> dict | None:
    try:
        message = response["choices"][0]["message"]
    except (KeyError, IndexError, TypeError):
        return None
    return message if isinstance(message, dict) else None


def _redacted(text: str, run: EvaluationRun) -> str:
    """``text`` with the endpoint's key (when it can be decrypted) and key-like strings redacted."""
    if not text:
        return ""
    from benchmark.endpoints.secrets import SecretDecryptionError
    from benchmark.endpoints.services import endpoint_api_key

    try:
        key = endpoint_api_key(run.endpoint) if run.endpoint is not None else None
    except SecretDecryptionError:
        key = None
    if key:
        text = text.replace(key, REDACTED)
    return redact(text)[:1000]

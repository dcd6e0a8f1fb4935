"""Score a finished trajectory: the one path for first scores and re-scores (``operations.rescore``).

Everything here, with ``services``, ``world``, ``cache`` and the whole ``judging`` package, is what
the re-score code version (``operations.rescore.scoring_code_hash``) covers.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from django.db import InterfaceError, OperationalError

from benchmark.cases.document import CaseDocument
from benchmark.runs.scoring.model_clients import platform_judges
from environment.tools.context import ToolContext
from judging.types import Step as JStep
from judging.types import Trajectory as JTrajectory
from kernel.vocabulary import Ending

from . import services
from .judge_cache import DatabaseJudgeCache
from .world import city_world

log = logging.getLogger(__name__)


class ScoredStep(Protocol):
    """What scoring reads of a step: a ``StepRecord`` of a run, or a stored ``Step`` row (re-score)."""

    index: int
    tool: str
    arguments: Any
    observation: Any
    error_kind: str
    model_text: str
    input_tokens: int
    output_tokens: int


def submitted_answer(steps: Sequence[ScoredStep]) -> Any:
    """The ``result`` of the last accepted ``submit_answer`` call (what the toolbox keeps as submitted)."""
    answer = None
    for step in steps:
        if step.tool == "submit_answer" and isinstance(step.observation, dict) and "error" not in step.observation:
            answer = step.observation.get("result")
    return answer


def trajectory_score(
    document: CaseDocument,
    *,
    steps: Sequence[ScoredStep],
    final_answer: Any,
    ended: str,
    input_tokens: int,
    output_tokens: int,
    city: ToolContext | None = None,
) -> tuple[dict, bool | None]:
    """(scores by metric, passed) of a finished trajectory; a failing metric gives ``{"error": ...}`` and None
    (kept for a re-score), but a lost database raises so that the task retries the case.

    ``city``: the city version the agent's tools answered from, when known (``world.city_world``).
    """
    judged = JTrajectory(
        steps=[
            JStep(
                index=s.index,
                tool=s.tool,
                arguments=s.arguments,
                observation=s.observation,
                error_kind=s.error_kind,
                input_tokens=s.input_tokens,
                output_tokens=s.output_tokens,
                text=s.model_text,
            )
            for s in steps
        ],
        final_answer=final_answer,
        ended=ended,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
    )
    try:
        answer = final_answer if ended == Ending.SUBMITTED else submitted_answer(steps)
        results = services.answer_score(
            document=document,
            answer=answer,
            trajectory=judged,
            judges=_judges(),
            cache=_cache(),
            world=city_world(document.city_name, city) if city is not None else None,
        )
    except (OperationalError, InterfaceError):
        raise  # the database went away: not a scoring error; the task retries the case once it is back
    except Exception as exc:  # scoring must not lose the trajectory; the error is kept for a re-score
        log.exception("scoring failed for case %s", document.case_id)
        return {"error": {"value": None, "explanation": f"scoring failed: {type(exc).__name__}: {exc}"}}, None
    scores = {name: r.to_dict() for name, r in results.items()}
    verdict = results["pass_rate"].value
    return scores, None if verdict is None else verdict == 1.0


def _judges():
    return platform_judges() or None


def _cache():
    return DatabaseJudgeCache()

"""Score an answer (and its trajectory) on a case: metrics, SC and RP from judges or rules."""

from __future__ import annotations

from typing import Any

from benchmark.cases.document import CaseDocument
from judging.judges import JudgeConfig
from judging.scoring import score_answer
from judging.types import CaseSpec, MetricResult, Trajectory

from .world import CityWorld, city_world


def case_spec(document: CaseDocument) -> CaseSpec:
    """What scoring needs of a case document (plain data for the judging layer)."""
    return CaseSpec(
        case_id=document.case_id,
        category=document.category,
        level=document.level,
        question=document.question,
        answer=document.answer,
        required_evidence=document.required_evidence.model_dump(),
        constraints=document.constraints,
        reference_path=[{"tool": s.tool, "arguments": s.arguments} for s in document.reference_path],
        city_name=document.city_name,
    )


def answer_score(
    *,
    document: CaseDocument,
    answer: Any,
    trajectory: Trajectory | None,
    judges: list[JudgeConfig] | None = None,
    cache=None,
    world: CityWorld | None = None,
) -> dict[str, MetricResult]:
    """``judging.scoring.score_answer`` on a case document, with the city's world (shared per process)."""
    world = world or city_world(document.city_name)
    return score_answer(
        case_spec(document),
        answer,
        trajectory,
        world=world,
        resolve_name=world.resolve_name,
        judges=judges,
        cache=cache,
        tools_city=document.city_name,
    )

"""Score an answer (and its trajectory) on a case: metrics, SC and RP from judges or rules."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from benchmark.cases.document import CaseDocument
from judging.answers import normalise_answer
from judging.constraints import semantic_constraint_rules
from judging.grounding import fetched_before_cited, reasoning_purity_grounding
from judging.judges import JudgeConfig, ensemble_score
from judging.metrics import applies
from judging.scoring import score_case
from judging.types import CaseSpec, MetricResult, Trajectory

from .world import CityWorld, city_world


def case_spec(document: CaseDocument) -> CaseSpec:
    """What scoring needs of a case document (plain data for the judging layer)."""
    return CaseSpec(
        case_id=document.case_id, category=document.category, level=document.level, question=document.question,
        answer=document.answer, required_evidence=document.required_evidence.model_dump(),
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
    """Every metric of the case's cell, the pass verdict, and the 'fetched before cited' flags.

    SC and RP come from the judge ensemble when judges are configured and at least one of
    them scores; otherwise from the rule checks (SC) and the grounding check (RP). Each
    result's ``source`` says which ("judges", "rules", "grounding"); a fallback after every
    judge failed keeps the judges' failures in its details.
    """
    world = world or city_world(document.city_name)
    spec = case_spec(document)
    predicted = normalise_answer(answer, resolve_name=world.resolve_name)
    extra = {}
    if applies("SC", spec.category, spec.level):
        extra["SC"] = _judged_or(
            "semantic_constraint", judges, spec, answer, trajectory, cache, document.city_name,
            lambda: semantic_constraint_rules(spec, predicted, world))
    if applies("RP", spec.category, spec.level):
        extra["RP"] = _judged_or(
            "reasoning_purity", judges, spec, answer, trajectory, cache, document.city_name,
            lambda: reasoning_purity_grounding(predicted, trajectory))
    results = score_case(spec, answer, trajectory, world=world, resolve_name=world.resolve_name, extra=extra)
    flags, checked = fetched_before_cited(predicted, trajectory)
    results["grounding"] = MetricResult(
        "grounding", None, f"{len(flags)} of {checked} cited items were never fetched" if flags
        else f"all {checked} cited items were fetched before being cited",
        {"flags": flags, "checked": checked, "problems": list(predicted.problems)}, source="grounding")
    return results


def _judged_or(role, judges, spec, answer, trajectory, cache, city, fallback) -> MetricResult:
    if not judges:
        return fallback()
    judged = ensemble_score(role, judges, spec, answer, trajectory, cache=cache, tools_city=city)
    if judged.value is not None:
        return judged
    rule = fallback()
    return replace(rule, explanation=f"{rule.explanation} (judges failed: {judged.explanation})",
                   details={**rule.details, "judges": judged.details})

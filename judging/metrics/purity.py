"""Reasoning Purity (RP): a judge metric, scored by the 'fetched before cited' check when no judge scores it."""

from __future__ import annotations

from judging.answers import PredictedAnswer
from judging.grounding import reasoning_purity_grounding
from judging.types import CaseSpec, MetricResult, Trajectory

from .registry import metric
from .world import World


@metric("RP", kind="process", judge="reasoning_purity")
def reasoning_purity(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None, *, world: World
) -> MetricResult:
    """Reasoning Purity (RP): the judges' score when they give one, else the share of cited items that were fetched."""
    return reasoning_purity_grounding(predicted, trajectory)

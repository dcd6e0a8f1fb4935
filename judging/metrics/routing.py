"""Routing Deviation (eq. 3), once for distance and once for time."""

from __future__ import annotations

from judging.answers import PredictedAnswer, to_float
from judging.types import CaseSpec, MetricResult, Trajectory

from .common import nothing_submitted, ratio_text, reference_of
from .places import place_iou
from .registry import metric

SAME_TOTAL = 0.5  # a total rounded to the unit the answer shows (1 m, 1 s) is at most half a unit off


def routing_deviation(case: CaseSpec, predicted: PredictedAnswer, *, field: str, name: str) -> MetricResult:
    """RD_v = PIoU · max(0, 1 − |v − v*| / v*) for the total named ``field`` of the answer.

    A missing predicted total scores 0. A total at most half a unit from v* (0.5 m, 0.5 s: v* rounded
    to the metre or second) counts as v*. When v* is 0 the ratio is undefined: RD is PIoU when v is
    within half a unit of 0, else 0. None when the reference gives no such total.
    """
    expected = to_float(case.answer.get(field)) if isinstance(case.answer, dict) else None
    actual = getattr(predicted, field)
    details = {"field": field, "predicted": actual, "reference": expected}
    if expected is None:
        return MetricResult(name, None, f"the reference answer has no {field}, so {name} does not apply", details)
    if not predicted.submitted:
        return nothing_submitted(name, predicted, **details)
    if actual is None:
        return MetricResult(name, 0.0, f"the answer gives no {field} (reference {expected:g}), so {name} = 0", details)
    iou = place_iou(predicted, reference_of(case))
    iou = 1.0 if iou is None else iou  # a route reference always names places; guard only
    if abs(actual - expected) <= SAME_TOTAL + 1e-9:
        closeness = 1.0
        reason = f"{field} {actual:g} is the reference {expected:g} rounded to the unit (1 m, 1 s)"
    elif expected == 0:
        closeness = 0.0
        reason = f"the reference {field} is 0 and the answer gives {actual:g}"
    else:
        closeness = max(0.0, 1 - abs(actual - expected) / expected)
        reason = f"{field} {actual:g} vs reference {expected:g} is off by {abs(actual - expected) / expected:.1%}"
    value = iou * closeness
    details.update(piou=iou, closeness=closeness)
    return MetricResult(
        name,
        value,
        f"{reason}; {name} = PIoU {ratio_text(iou)} × {ratio_text(closeness)} = {ratio_text(value)}",
        details,
    )


@metric("RD_distance", kind="outcome")
def routing_deviation_distance(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None = None, *, world=None
) -> MetricResult:
    """Routing Deviation (eq. 3) on total_distance_m."""
    return routing_deviation(case, predicted, field="total_distance_m", name="RD_distance")


@metric("RD_time", kind="outcome")
def routing_deviation_time(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None = None, *, world=None
) -> MetricResult:
    """Routing Deviation (eq. 3) on total_time_s."""
    return routing_deviation(case, predicted, field="total_time_s", name="RD_time")

"""'Fetched before cited': every place_id, note_id and number in an answer must come from the
trajectory's observations. Flags back Reasoning Purity (RP) when no judge scores it, and are
shown to people next to the answer.

A number counts as fetched when an observation holds it (to 0.05; a route total to 0.5, since
a total rounded to the metre or second is the same route), or, for route totals,
when it is the sum of the routing observations along the submitted order. An answer that cites
nothing gives no RP from this check (not calculable), never a free 1.0.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from typing import Any

from .answers import PredictedAnswer, to_float
from .types import MetricResult, Trajectory

TOLERANCE = 0.05
TOTAL_TOLERANCE = 0.5  # a route total rounded to the metre or second is at most half a unit off


def leaf_values(value: Any) -> Iterator[Any]:
    """Every scalar inside nested dicts and lists, in no particular order (iteratively: uploaded
    observations may nest deeply)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        else:
            yield item


def _observed(trajectory: Trajectory | None) -> tuple[set[str], list[float], dict]:
    """The texts, the numbers (sorted) and the routing legs of the trajectory's observations."""
    strings: set[str] = set()
    numbers: list[float] = []
    legs: dict[tuple, tuple[float, float]] = {}
    for step in trajectory.steps if trajectory else []:
        if step.tool == "submit_answer":
            continue
        for value in leaf_values(step.observation):
            if isinstance(value, str):
                strings.add(value)
            elif isinstance(value, int | float) and not isinstance(value, bool):
                number = to_float(value)
                if number is not None:
                    numbers.append(number)
        obs = step.observation if isinstance(step.observation, dict) else {}
        if step.tool == "routing" and "total_distance_m" in obs:
            ends = [end if isinstance(end := obs.get(side), dict) else {} for side in ("start", "end")]
            key = (ends[0].get("place_id"), ends[1].get("place_id"))
            distance, time_s = to_float(obs.get("total_distance_m")), to_float(obs.get("total_time_s"))
            if distance is not None and time_s is not None:
                legs[key] = (distance, time_s)
    numbers.sort()
    return strings, numbers, legs


def _near(value: float, numbers: list[float], tolerance: float = TOLERANCE) -> bool:
    """Whether a number of ``numbers`` (sorted) is within ``tolerance`` of ``value``. Only those in a window
    twice as wide are compared, each as ``abs(value - n) <= tolerance``: the verdict at the edge, in floating
    point, is the one comparing every number gives."""
    low, high = bisect_left(numbers, value - 2 * tolerance), bisect_right(numbers, value + 2 * tolerance)
    return any(abs(value - n) <= tolerance for n in numbers[low:high])


def fetched_before_cited(predicted: PredictedAnswer, trajectory: Trajectory | None) -> tuple[list[dict], int]:
    """(flags, number of items checked). A flag: {"kind", "value", "field"}."""
    strings, numbers, legs = _observed(trajectory)
    flags: list[dict] = []
    checked = 0
    for pid in predicted.place_ids:
        if predicted.place_from_value and pid == predicted.answer_place:
            continue  # a direct value that happens to be a place's name is not a place the answer cites
        checked += 1
        if pid not in strings:
            flags.append({"kind": "place_id", "value": pid, "field": "place"})
    for note_id in predicted.note_ids:
        checked += 1
        if note_id not in strings:
            flags.append({"kind": "note_id", "value": note_id, "field": "ref.note_id"})
    order = list(predicted.visit_order)
    sums = [legs.get((a, b)) for a, b in zip(order, order[1:])]
    for index, field in ((0, "total_distance_m"), (1, "total_time_s")):
        value = getattr(predicted, field)
        if value is None:
            continue
        checked += 1
        summed = round(sum(s[index] for s in sums if s), 1) if sums and all(sums) else None
        if not (
            _near(value, numbers, TOTAL_TOLERANCE + 1e-9)
            or (summed is not None and abs(summed - value) <= TOTAL_TOLERANCE + 1e-9)
        ):
            flags.append({"kind": "number", "value": value, "field": field})
    if isinstance(predicted.value, int | float) and not isinstance(predicted.value, bool):
        checked += 1
        if not _near(float(predicted.value), numbers):
            flags.append({"kind": "number", "value": predicted.value, "field": "answer"})
    return flags, checked


def reasoning_purity_grounding(predicted: PredictedAnswer, trajectory: Trajectory | None) -> MetricResult:
    """RP from the grounding check alone (source "grounding"): the share of cited items that were fetched."""
    if not predicted.submitted:
        why = f"The answer is invalid ({predicted.invalid})" if predicted.invalid else "No answer was submitted"
        return MetricResult("RP", None, f"{why}, so there is nothing to check.", source="grounding")
    flags, checked = fetched_before_cited(predicted, trajectory)
    if checked == 0:
        return MetricResult(
            "RP",
            None,
            "The answer cites no place, note or number, so there is nothing to check (not calculable).",
            {"flags": [], "checked": 0},
            source="grounding",
        )
    value = 1 - len(flags) / checked
    listed = ", ".join(f"{f['kind']} {f['value']}" for f in flags)
    explanation = (
        f"All {checked} cited items were in the observations."
        if not flags
        else f"{len(flags)} of {checked} cited items never appeared in an observation: {listed}."
    )
    return MetricResult("RP", value, explanation, {"flags": flags, "checked": checked}, source="grounding")

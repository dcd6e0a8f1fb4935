"""Place-set IoU (eq. 2) and Order Consistency (eq. 4)."""

from __future__ import annotations

from typing import Any

from judging.answers import PredictedAnswer
from judging.types import CaseSpec, MetricResult, Trajectory

from .common import nothing_submitted, ratio_text, reference_of
from .registry import metric


def place_iou(predicted: PredictedAnswer, reference: PredictedAnswer) -> float | None:
    """|p ∩ p*| / |p ∪ p*| over place_ids; None when the reference names no place."""
    truth = set(reference.place_ids)
    if not truth:
        return None
    mine = set(predicted.place_ids)
    return len(mine & truth) / len(mine | truth)


@metric("PIoU", kind="outcome")
def place_set_iou(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None = None, *, world=None
) -> MetricResult:
    """Place-set IoU (eq. 2): PIoU = |p ∩ p*| / |p ∪ p*|.

    p and p* are the sets of place_ids in the predicted and reference answers (the answer place,
    start, end, waypoints and optimal_order). None when the reference answer names no place.
    """
    reference = reference_of(case)
    truth, mine = set(reference.place_ids), set(predicted.place_ids)
    details: dict[str, Any] = {
        "predicted": list(predicted.place_ids),
        "reference": list(reference.place_ids),
        "shared": sorted(mine & truth),
        "missing": sorted(truth - mine),
        "extra": sorted(mine - truth),
    }
    if not truth:
        return MetricResult("PIoU", None, "the reference answer names no place, so PIoU does not apply", details)
    if not predicted.submitted:
        return nothing_submitted("PIoU", predicted, **details)
    if _asks_for_a_value(case):
        # A value question: the place it is about is the answer place; a start or a stop the answer adds
        # (the trip the question describes) is not a wrong answer. A value that is also some place's name
        # ("Coffee House" is a type and a café) is not a place the answer names.
        chosen = predicted.answer_place if predicted.answer_place and not predicted.place_from_value else None
        if chosen is None and not predicted.unresolved_names and predicted.has_value:
            return MetricResult(
                "PIoU",
                None,
                "the question asks for a value and the answer gives it alone (no "
                "place), so PIoU is not calculable; A decides",
                details,
            )
        mine = {chosen} if chosen else set()
        details.update(
            read_as="the answer place of a value question",
            predicted=sorted(mine),
            shared=sorted(mine & truth),
            missing=sorted(truth - mine),
            extra=sorted(mine - truth),
        )
    value = len(mine & truth) / len(mine | truth)
    text = f"{len(mine & truth)} shared of {len(mine | truth)} places in either answer: PIoU = {ratio_text(value)}"
    if details["missing"]:
        text += f"; missing {', '.join(details['missing'])}"
    if details["extra"]:
        text += f"; not in the reference {', '.join(details['extra'])}"
    return MetricResult("PIoU", value, text, details)


def _asks_for_a_value(case: CaseSpec) -> bool:
    """The reference gives a direct value that is not a place's name (a rating, a yes/no, an address)."""
    ref = case.answer if isinstance(case.answer, dict) else {}
    value = ref.get("answer")
    if value is None or (isinstance(value, str) and not value.strip()):
        return False
    if isinstance(value, str):
        named = {str(ref.get("place_id") or "").strip(), " ".join(str(ref.get("name") or "").casefold().split())}
        return value.strip() not in named and " ".join(value.casefold().split()) not in named
    return True


def inversions(order: list[str], rank: dict[str, int]) -> int:
    """D(s): the pairs i < j of ``order`` whose reference ranks are inverted."""
    return sum(1 for i in range(len(order)) for j in range(i + 1, len(order)) if rank[order[i]] > rank[order[j]])


@metric("OC", kind="outcome")
def order_consistency(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None = None, *, world=None
) -> MetricResult:
    """Order Consistency (eq. 4): OC = PIoU · (1 − D(s) / C(n, 2)) for n ≥ 2, else 0.

    s is the predicted visit order restricted to places in the reference order (kept in the
    predicted order), n = |s|, and D(s) counts the pairs of s whose reference ranks are inverted.
    """
    reference = reference_of(case)
    truth = list(reference.visit_order)
    if len(truth) < 2:
        return MetricResult(
            "OC", None, "the reference answer has no visit order of two or more places", {"reference_order": truth}
        )
    rank = {place_id: i for i, place_id in enumerate(truth)}
    shared = [p for p in predicted.visit_order if p in rank]
    details: dict[str, Any] = {
        "reference_order": truth,
        "predicted_order": list(predicted.visit_order),
        "shared_order": shared,
    }
    if not predicted.submitted:
        return nothing_submitted("OC", predicted, **details)
    n = len(shared)
    if n < 2:
        return MetricResult(
            "OC",
            0.0,
            f"only {n} of the reference's places appear in the predicted order; order needs at least two, so OC = 0",
            details,
        )
    iou = place_iou(predicted, reference)
    assert iou is not None  # the reference's visit order is among its place_ids
    pairs = n * (n - 1) // 2
    wrong = inversions(shared, rank)
    value = iou * (1 - wrong / pairs)
    details.update(n=n, inverted_pairs=wrong, pairs=pairs, piou=iou)
    return MetricResult(
        "OC",
        value,
        f"{wrong} of {pairs} pairs of the {n} shared places are in the wrong order; "
        f"OC = PIoU {ratio_text(iou)} × (1 − {wrong}/{pairs}) = {ratio_text(value)}",
        details,
    )

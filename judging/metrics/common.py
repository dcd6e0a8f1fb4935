"""Small helpers the metric modules share."""

from __future__ import annotations

from judging.answers import PredictedAnswer, normalise_answer
from judging.types import CaseSpec, MetricResult


def reference_of(case: CaseSpec) -> PredictedAnswer:
    """The case's reference answer read the same way as an agent's (it carries place_ids, so no resolver)."""
    return normalise_answer(case.answer)


def nothing_submitted(name: str, predicted: PredictedAnswer | None = None, /, **details) -> MetricResult:
    """The result of an outcome metric when the agent never called submit_answer, or submitted an
    answer that cannot be read at all (``predicted.invalid`` says why)."""
    if predicted is not None and predicted.invalid:
        return MetricResult(
            name,
            0.0,
            f"the answer is invalid ({predicted.invalid}), so nothing can match the reference",
            {**details, "invalid": predicted.invalid},
        )
    return MetricResult(name, 0.0, "no answer was submitted, so nothing can match the reference", details)


def ratio_text(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"

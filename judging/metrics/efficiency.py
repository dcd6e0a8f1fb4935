"""Tool Efficiency TE (eq. 6) and Token Usage."""

from __future__ import annotations

from judging.answers import PredictedAnswer
from judging.types import CaseSpec, MetricResult, Trajectory

from .common import ratio_text
from .registry import metric

SUBMIT = "submit_answer"


def tool_calls(steps) -> int:
    """Calls other than submit_answer (failed calls count: they are calls the agent spent)."""
    return sum(1 for step in steps if _tool_name(step) != SUBMIT)


def _tool_name(step) -> str:
    return step.get("tool", "") if isinstance(step, dict) else getattr(step, "tool", "")


@metric("TE", kind="process")
def tool_efficiency(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None = None, *, world=None
) -> MetricResult:
    """Tool Efficiency (eq. 6): TE = min(1, |τ*| / |τ|), submit_answer not counted on either side."""
    needed = tool_calls(case.reference_path)
    used = tool_calls(trajectory.steps) if trajectory else 0
    details = {"reference_calls": needed, "calls": used}
    if used == 0:
        if needed == 0:
            return MetricResult("TE", 1.0, "the case needs no tool call and none was made", details)
        return MetricResult("TE", 0.0, f"no tool was called; the reference path needs {needed}", details)
    value = min(1.0, needed / used)
    return MetricResult(
        "TE",
        value,
        f"{used} tool calls against {needed} in the reference path: TE = min(1, {needed}/{used}) = {ratio_text(value)}",
        details,
    )


@metric("tokens", kind="process")
def token_usage(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None = None, *, world=None
) -> MetricResult:
    """Token Usage: input and output tokens of the whole run (a count, not a score: value is None)."""
    steps = trajectory.steps if trajectory else []
    totals = {
        kind: max(sum(getattr(s, kind) for s in steps), getattr(trajectory, kind, 0) if trajectory else 0)
        for kind in ("input_tokens", "output_tokens")
    }
    totals["total_tokens"] = totals["input_tokens"] + totals["output_tokens"]
    return MetricResult(
        "tokens",
        None,
        f"{totals['input_tokens']} input and {totals['output_tokens']} output tokens ({totals['total_tokens']} in all)",
        totals,
        source="count",
    )

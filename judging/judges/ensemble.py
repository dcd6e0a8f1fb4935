"""The judge ensemble: SC and RP are the mean of the judges that gave a score (section 3.2)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from judging.types import CaseSpec, MetricResult, Trajectory

from .cache import JudgeCache
from .config import JudgeConfig
from .roles import get_role
from .scoring import judge_score


def ensemble_score(
    role: str,
    configs: Sequence[JudgeConfig],
    case: CaseSpec,
    answer: Any,
    trajectory: Trajectory | None = None,
    *,
    cache: JudgeCache | None = None,
    tools_city: str | None = None,
    max_tool_calls: int = 5,
) -> MetricResult:
    """Ask every judge of ``configs`` and average their scores.

    Returns:
        MetricResult named after the role's metric ("SC" or "RP"), source "judges". Its value
        is the mean of the non-None scores; None when no judge is configured or every judge
        failed (the caller then falls back to rules and records that). ``details["judges"]``
        holds each verdict (model, prompt version, score, explanation, raw replies, failure).
    """
    judge_role = get_role(role)
    verdicts = [judge_score(judge_role, config, case, answer, trajectory, cache=cache, tools_city=tools_city,
                            max_tool_calls=max_tool_calls) for config in configs]
    scores = [v.score for v in verdicts if v.score is not None]
    failed = [v for v in verdicts if v.score is None]
    details = {
        "role": judge_role.name, "prompt_version": judge_role.prompt_version,
        "judges": [v.to_dict() for v in verdicts],
        "scored": len(scores), "failed": [{"judge": v.judge, "failure": v.failure} for v in failed],
        "injection_detected": any(v.details.get("injection_detected") for v in verdicts),
    }
    value = sum(scores) / len(scores) if scores else None
    return MetricResult(name=judge_role.metric, value=value, explanation=_explain(value, verdicts, failed),
                        details=details, source="judges")


def _explain(value: float | None, verdicts, failed) -> str:
    if not verdicts:
        return "no judges are configured"
    if value is None:
        reasons = "; ".join(f"{v.judge}: {v.failure}" for v in failed)
        return f"every judge failed ({reasons})"
    each = ", ".join(f"{v.judge} {v.score:.2f}" if v.score is not None else f"{v.judge} failed" for v in verdicts)
    text = f"mean of {len(verdicts) - len(failed)} of {len(verdicts)} judges: {value:.2f} ({each})"
    if any(v.details.get("injection_detected") for v in verdicts):
        text += "; instructions to the grader were found and the lower of original and redacted scores kept"
    return text

"""The judge ensemble: SC and RP from the mean of the judges that gave a score (section 3.2).

Every answer is judged twice: as given, and as its neutralised copy (every free-text field
replaced by a placeholder, :mod:`.neutral`). The score is the lower of the two means, so
text in the answer, the agent's turns or the tool observations can only ever lower it,
whatever the text says and whether or not the keyword check (:mod:`.injection`) noticed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from judging.types import CaseSpec, MetricResult, Trajectory

from .cache import JudgeCache
from .config import JudgeConfig
from .injection import instructions_in, trajectory_instructions
from .neutral import neutral_copy
from .roles import get_role
from .scoring import JudgeVerdict, judge_score


@dataclass(frozen=True)
class _Run:
    """Every judge on one version of the material."""

    verdicts: list[JudgeVerdict]

    @property
    def scores(self) -> list[float]:
        return [v.score for v in self.verdicts if v.score is not None]

    @property
    def failed(self) -> list[JudgeVerdict]:
        return [v for v in self.verdicts if v.score is None]

    @property
    def value(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    def summary(self) -> str:
        each = ", ".join(
            f"{v.judge} {v.score:.2f}" if v.score is not None else f"{v.judge} failed" for v in self.verdicts
        )
        return f"mean of {len(self.scores)} of {len(self.verdicts)} judges: {self.value:.2f} ({each})"

    def failures(self) -> str:
        return "; ".join(f"{v.judge}: {v.failure}" for v in self.failed)


@dataclass(frozen=True)
class JudgePanel:
    """The judges that score judge metrics: their configs, their verdict cache and the city of their tools.

    Attributes:
        configs: the judge models (at least one).
        cache: read before asking a judge, written after a successful judgment.
        tools_city: offer the engine toolset on this city as verification tools (None: no tools).
    """

    configs: Sequence[JudgeConfig]
    cache: JudgeCache | None = None
    tools_city: str | None = None

    def score(self, role: str, case: CaseSpec, answer: Any, trajectory: Trajectory | None) -> MetricResult:
        """:func:`ensemble_score` of ``role`` by these judges."""
        return ensemble_score(
            role, self.configs, case, answer, trajectory, cache=self.cache, tools_city=self.tools_city
        )


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
    """Ask every judge of ``configs`` about the answer as given and about its neutralised copy.

    Returns:
        MetricResult named after the role's metric ("SC" or "RP"), source "judges". Its value
        is the lower of two means of the non-None scores: on the answer (and trajectory) as
        given, and on the copy with free text removed. When the copy equals the material (no
        free text), the judges are asked once. The value is None when no judge is configured
        or every judge failed on either version (the caller then falls back to rules and
        records that). ``details["judges"]`` holds each verdict on the answer as given,
        ``details["neutral"]`` the verdicts on the copy, ``details["minimum_of"]`` which
        version set the value, and ``details["injection_spans"]`` what the keyword check flagged.
    """
    judge_role = get_role(role)
    shown = trajectory if judge_role.uses_trajectory else None

    def run(version: str) -> _Run:
        return _Run(
            [
                judge_score(
                    judge_role,
                    config,
                    case,
                    answer,
                    shown,
                    cache=cache,
                    tools_city=tools_city,
                    max_tool_calls=max_tool_calls,
                    version=version,
                )
                for config in configs
            ]
        )

    given = run("given")
    nothing_removed = neutral_copy(case, answer, shown) == (answer, shown)
    neutral = given if nothing_removed or given.value is None else run("neutral")
    value = None if given.value is None or neutral.value is None else min(given.value, neutral.value)
    findings = instructions_in(answer) + (trajectory_instructions(shown) if shown is not None else [])
    details = {
        "role": judge_role.name,
        "prompt_version": judge_role.prompt_version,
        "judges": [v.to_dict() for v in given.verdicts],
        "scored": len(given.scores),
        "failed": [{"judge": v.judge, "failure": v.failure} for v in given.failed],
        "given_value": given.value,
        "neutral": _neutral_details(given, neutral, nothing_removed),
        "minimum_of": _minimum_of(given, neutral, nothing_removed),
        "injection_detected": bool(findings),
        "injection_spans": [f.to_dict() for f in findings],
    }
    return MetricResult(
        name=judge_role.metric,
        value=value,
        details=details,
        source="judges",
        explanation=_explain(value, given, neutral, nothing_removed, findings),
    )


def _neutral_details(given: _Run, neutral: _Run, nothing_removed: bool) -> dict:
    if nothing_removed:
        return {"judged": False, "reason": "the material has no free text to remove", "value": given.value}
    if given.value is None:
        return {"judged": False, "reason": "every judge failed on the answer as given", "value": None}
    return {
        "judged": True,
        "value": neutral.value,
        "judges": [v.to_dict() for v in neutral.verdicts],
        "scored": len(neutral.scores),
        "failed": [{"judge": v.judge, "failure": v.failure} for v in neutral.failed],
    }


def _minimum_of(given: _Run, neutral: _Run, nothing_removed: bool) -> str | None:
    if given.value is None or neutral.value is None:
        return None
    if nothing_removed or given.value == neutral.value:
        return "both"
    return "neutral" if neutral.value < given.value else "given"


def _explain(value: float | None, given: _Run, neutral: _Run, nothing_removed: bool, findings) -> str:
    if not given.verdicts:
        return "no judges are configured"
    if given.value is None:
        return f"every judge failed ({given.failures()})"
    if neutral.value is None:
        return (
            f"every judge failed on the copy with free text removed ({neutral.failures()}); no score, since text "
            "in the answer could then raise it"
        )
    if nothing_removed:
        text = f"{given.summary()}; the answer has no free text, so it was judged once"
    else:
        minimum = _minimum_of(given, neutral, nothing_removed)
        assert minimum is not None  # both values are known here
        lower = {"neutral": "the copy with free text removed", "given": "the answer as given", "both": "both agree"}[
            minimum
        ]
        text = (
            f"{value:.2f}, the lower of the answer as given ({given.summary()}) and the copy with free text "
            f"removed ({neutral.summary()}): {lower}"
        )
    if findings:
        paths = ", ".join(sorted({f.path for f in findings}))
        text += f"; the keyword check found instructions to the grader in {paths}"
    return text

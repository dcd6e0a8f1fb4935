"""Plain data the judging layer works on (validated on the way in; no Django models).

The benchmark layer converts its cases and trajectories into these before scoring.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kernel.vocabulary import Ending


class Step(BaseModel):
    """One tool call of a trajectory and what came back."""

    model_config = ConfigDict(extra="ignore")
    index: int
    tool: str
    arguments: Any = Field(default_factory=dict)
    observation: Any = None  # the result, or {"error": {...}}
    error_kind: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    text: str = ""  # the model's text for that turn


class Trajectory(BaseModel):
    model_config = ConfigDict(extra="ignore")
    steps: list[Step] = Field(default_factory=list)
    final_answer: Any = None
    ended: str = Ending.SUBMITTED.value
    input_tokens: int = 0  # totals (may exceed the per-step sums: the final turn has no tool call)
    output_tokens: int = 0


class CaseSpec(BaseModel):
    """What scoring needs of a case (a subset of the case document)."""

    model_config = ConfigDict(extra="ignore")
    case_id: str
    category: str
    level: str
    question: str = ""
    answer: Any  # the reference answer
    required_evidence: dict = Field(default_factory=dict)  # {attributes: [{place_id, key}], note_ids: [...]}
    constraints: dict = Field(default_factory=dict)
    reference_path: list[dict] = Field(default_factory=list)  # [{tool, arguments}] of the agent toolset
    city_name: str = ""


@dataclass(frozen=True)
class MetricResult:
    """A metric's value in [0, 1] (None when it does not apply), why, and the details behind it."""

    name: str
    value: float | None
    explanation: str
    details: dict = field(default_factory=dict)
    source: str = "rule"  # "rule", "judges", "grounding", "count"

    @property
    def applicable(self) -> bool:
        return self.value is not None

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "value": self.value,
            "applicable": self.applicable,
            "explanation": self.explanation,
            "details": self.details,
            "source": self.source,
        }

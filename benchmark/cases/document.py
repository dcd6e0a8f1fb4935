"""The case document: the one plain-data form of a case (export, import, snapshots, engine output).

An exported line holds the paper's instance fields (figure 8: ``type``, ``question``,
``answer``) and our extra fields, as canonical JSON (sorted keys), so a round trip is
byte-for-byte lossless.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kernel.vocabulary import CELLS, Category, Level

# The paper's table 4: cases per (category, level) cell, in the order of CELLS.
TABLE4: dict[tuple[str, str], int] = dict(
    zip(
        CELLS,
        (
            100,
            72,
            35,  # Place Perception L0, L1, L2
            104,
            52,
            35,  # Nearby Discovery L0, L1, L2
            100,
            50,
            31,  # Routing L0, L1, L2
            53,
            35,
        ),  # Trip Design L1, L2
        strict=True,
    )
)


def case_type(category: str, level: str) -> str:
    """A case's ``type`` as in the paper's instances: ``routing_L1``, ``trip_L2``."""
    return f"{Category(category).prefix}_{level}"


class ToolStep(BaseModel):
    """One tool call of a path, with the digest of the observation it returned."""

    model_config = ConfigDict(extra="forbid")
    tool: str
    arguments: dict[str, Any]
    observation_sha256: str = ""


class RequiredEvidence(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attributes: list[dict[str, str]] = Field(default_factory=list, description="[{place_id, key}]")
    note_ids: list[str] = Field(default_factory=list)


class CaseDocument(BaseModel):
    model_config = ConfigDict(extra="forbid", use_enum_values=True)  # category and level stay plain strings
    type: str
    question: str
    answer: Any
    case_id: str
    category: Category
    level: Level
    reference_path: list[ToolStep]
    engine_path: list[ToolStep] = Field(default_factory=list)
    required_evidence: RequiredEvidence = Field(default_factory=RequiredEvidence)
    constraints: dict[str, Any] = Field(default_factory=dict)
    uniqueness: dict[str, Any] = Field(default_factory=dict)
    status: Literal["draft", "validated", "rejected"] = "draft"
    rejection_reason: str = ""
    provenance: dict[str, Any] = Field(default_factory=dict)
    city_name: str
    city_version: str

    def to_json(self) -> str:
        """Canonical JSON (sorted keys, no spaces): one JSONL line of an export."""
        return canonical_json(self.model_dump(mode="json"))

    def content_sha256(self) -> str:
        """Digest of what the case asks and answers (not its review status)."""
        data = self.model_dump(mode="json", exclude={"status", "rejection_reason"})
        return hashlib.sha256(canonical_json(data).encode()).hexdigest()


def canonical_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def observation_digest(observation: Any) -> str:
    return hashlib.sha256(canonical_json(observation).encode()).hexdigest()


def normalise_question(text: str) -> str:
    """A question as compared for duplicates: lower case, whitespace collapsed."""
    return " ".join(text.lower().split())

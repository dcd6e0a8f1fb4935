"""Caching judge verdicts: re-scoring the same answer with the same judge and prompt is free.

The judging layer stores nothing itself: it reads and writes through a :class:`JudgeCache`
the caller passes in (the benchmark layer backs it with a table; tests use
:class:`InMemoryJudgeCache`). Only verdicts with a score are cached, so a failed judgment
is tried again next time.
"""

from __future__ import annotations

import hashlib
from typing import Any, Protocol

from judging.types import CaseSpec, Trajectory

from .prompting import RENDERING, canonical_json, content_hash


class JudgeCache(Protocol):
    def get(self, key: str) -> dict | None:
        """The verdict dict stored under ``key``, or None."""

    def put(self, key: str, verdict: dict) -> None:
        """Store a verdict dict (JSON-serialisable) under ``key``."""


class InMemoryJudgeCache:
    """A dict-backed cache for tests and one-off scripts."""

    def __init__(self) -> None:
        self.entries: dict[str, dict] = {}

    def get(self, key: str) -> dict | None:
        return self.entries.get(key)

    def put(self, key: str, verdict: dict) -> None:
        self.entries[key] = verdict


def cache_key(
    *,
    model: str,
    prompt_version: str,
    role: str,
    case: CaseSpec,
    answer: Any,
    trajectory: Trajectory | None,
    uses_trajectory: bool,
    tools_city: str | None = None,
    version: str = "given",
) -> str:
    """sha256 of (model, prompt version, role, case id, answer, trajectory if the role shows it).

    Also hashed in: the case's judged content (question, reference answer, constraints), so
    editing a case under the same id does not serve a stale verdict, and the city of the
    verification tools (None when the judge had none), which changes what it can check; how
    untrusted data is rendered (:data:`~judging.judges.prompting.RENDERING`); and ``version``,
    "given" or "neutral" (the copy with free text removed, whose prompt says so), so the two
    judgments of one answer never share a key even when nothing was removed.
    """
    parts = {
        "model": model,
        "prompt_version": prompt_version,
        "role": role,
        "case_id": case.case_id,
        "case": content_hash([case.question, case.answer, case.constraints]),
        "answer": content_hash(answer),
        "trajectory": _trajectory_hash(trajectory) if uses_trajectory else None,
        "tools_city": tools_city,
        "rendering": RENDERING,
        "version": version,
    }
    return hashlib.sha256(canonical_json(parts).encode()).hexdigest()


def _trajectory_hash(trajectory: Trajectory | None) -> str | None:
    """Hash of what a judge is shown of the trajectory (not token counts or timings)."""
    if trajectory is None:
        return None
    return content_hash([[step.tool, step.arguments, step.observation, step.text] for step in trajectory.steps])

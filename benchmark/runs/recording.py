"""A run's recording of its model calls (replays answer from it) and whether retention pruned it."""

from __future__ import annotations

from benchmark.runs.models import EvaluationRun

PRUNED_MARK = "recording_pruned_at"


def recording_pruned(run: EvaluationRun) -> str:
    """When the run's recorded model responses were pruned (ISO time), or "" if they were not."""
    return str((run.config or {}).get(PRUNED_MARK) or "")

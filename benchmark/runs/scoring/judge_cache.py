"""The judge verdict cache, backed by the JudgeRecord table (judging.judges.cache.JudgeCache)."""

from __future__ import annotations

from benchmark.runs.models import JudgeRecord


class DatabaseJudgeCache:
    """Verdicts keyed by (judge model, prompt version, role, case, answer hash): re-scoring is free."""

    def get(self, key: str) -> dict | None:
        record = JudgeRecord.objects.filter(key=key).only("verdict").first()
        return record.verdict if record else None

    def put(self, key: str, verdict: dict) -> None:
        JudgeRecord.objects.update_or_create(
            key=key,
            defaults={
                "verdict": verdict,
                "role": str(verdict.get("role", "")),
                "model": str(verdict.get("model", "")),
                "prompt_version": str(verdict.get("prompt_version", "")),
            },
        )

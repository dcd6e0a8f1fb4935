"""Operations: re-scorings of finished runs and what they changed."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from benchmark.runs.models import EvaluationRun


class RunRescore(models.Model):
    """A re-scoring of a finished run with the current metric and judge code, and what it changed."""

    run = models.ForeignKey(EvaluationRun, on_delete=models.CASCADE, related_name="rescores")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    reason = models.TextField(help_text="Why the run was re-scored (a metric fix, a new judge ...).")
    metrics = models.JSONField(default=list, blank=True, help_text="The metrics replaced; empty means all.")
    versions = models.JSONField(default=dict, help_text="Code commit, scoring code hash, judges and prompt versions.")
    n_trajectories = models.PositiveIntegerField(default=0, help_text="Trajectories re-scored.")
    n_pass_changed = models.PositiveIntegerField(default=0, help_text="Trajectories whose pass verdict changed.")
    n_metric_changed = models.PositiveIntegerField(default=0, help_text="Trajectories where any metric changed.")
    changes = models.JSONField(
        default=list, blank=True, help_text="Per changed trajectory: {trajectory, case_id, trial, passed, metrics}."
    )
    aggregates_before = models.JSONField(default=dict, blank=True)
    aggregates_after = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "benchmark_runrescore"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"rescore of run {self.run_id} at {self.created_at:%Y-%m-%d %H:%M}"

"""Cases: the case document's rows, their audit history, and frozen releases."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from kernel.vocabulary import Category, Level

# The fields' choices (value, label), from kernel.vocabulary: "Place Perception", "L0".
CATEGORIES = [(category.value, category.label) for category in Category]
LEVELS = [(level.value, level.value) for level in Level]


class Case(models.Model):
    """One benchmark case: a question, its single right answer, and the tool path that proves it."""

    DRAFT, VALIDATED, REJECTED = "draft", "validated", "rejected"
    STATUSES = [(DRAFT, "draft"), (VALIDATED, "validated"), (REJECTED, "rejected")]

    case_id = models.CharField(max_length=80, unique=True)
    type = models.CharField(max_length=20, help_text="e.g. routing_L1, trip_L2")
    category = models.CharField(max_length=20, choices=CATEGORIES)
    level = models.CharField(max_length=2, choices=LEVELS)
    question = models.TextField()
    answer = models.JSONField(help_text="The answer document (paper tables 5 and 6).")
    reference_path = models.JSONField(
        default=list, help_text="Agent-toolset calls that solve the case: [{tool, arguments, observation_sha256}]."
    )
    engine_path = models.JSONField(default=list, help_text="Data-engine-toolset calls the engine made.")
    required_evidence = models.JSONField(
        default=dict, help_text="{attributes: [{place_id, key}], note_ids: [...]} an agent must have seen."
    )
    constraints = models.JSONField(default=dict, help_text="Machine-checkable constraints.")
    uniqueness = models.JSONField(default=dict, help_text="The engine-toolset check that proves the answer unique.")
    status = models.CharField(max_length=10, choices=STATUSES, default=DRAFT)
    rejection_reason = models.TextField(blank=True)
    provenance = models.JSONField(default=dict, help_text="generator, version, seed, recipe, city name and version.")
    verification = models.JSONField(default=dict, help_text="The last verification: ok, failures, when.")
    city_name = models.CharField(max_length=50)
    city_version = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "benchmark_case"
        ordering = ["case_id"]
        indexes = [models.Index(fields=["category", "level", "status"])]
        permissions = [("curate_case", "Can validate, reject and re-verify cases")]

    def __str__(self) -> str:
        return self.case_id


class CaseEvent(models.Model):
    """The audit history of a case: who changed what, when and why."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=20)  # created, edited, validated, rejected, reverified, duplicated, imported
    changes = models.JSONField(default=dict, help_text="field -> [old, new]")
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "benchmark_caseevent"
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.case.case_id}: {self.action}"


class Release(models.Model):
    """A frozen, named set of validated cases. Scores always belong to a release."""

    PUBLIC, HIDDEN = "public", "hidden"
    SPLITS = [(PUBLIC, "public"), (HIDDEN, "hidden (answers only for curators)")]

    name = models.SlugField(unique=True)
    split = models.CharField(max_length=10, choices=SPLITS, default=PUBLIC)
    content_hash = models.CharField(max_length=64)
    city_name = models.CharField(max_length=50)
    city_version = models.CharField(max_length=64)
    description = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    cases: models.ManyToManyField[Case, ReleaseCase] = models.ManyToManyField(
        Case, through="ReleaseCase", related_name="releases"
    )

    class Meta:
        db_table = "benchmark_release"

    def __str__(self) -> str:
        return self.name


class ReleaseCase(models.Model):
    """A case as frozen in a release: later edits to the case do not change the release."""

    release = models.ForeignKey(Release, on_delete=models.CASCADE, related_name="entries")
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="release_entries")
    position = models.PositiveIntegerField()
    snapshot = models.JSONField(help_text="The case document at freezing time.")

    class Meta:
        db_table = "benchmark_releasecase"
        ordering = ["release", "position"]
        constraints = [models.UniqueConstraint(fields=["release", "case"], name="case_once_per_release")]

    def __str__(self) -> str:
        return f"{self.case_id} in release {self.release_id} (#{self.position})"

"""Benchmark persistence: cases, their audit history, and frozen releases."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

CATEGORIES = [
    ("place_perception", "Place Perception"),
    ("nearby_discovery", "Nearby Discovery"),
    ("routing", "Routing"),
    ("trip_design", "Trip Design"),
]
LEVELS = [("L0", "L0"), ("L1", "L1"), ("L2", "L2")]
# The case type prefix per category, as in the paper's instances (e.g. "routing_L1", "trip_L2").
TYPE_PREFIX = {"place_perception": "place", "nearby_discovery": "nearby", "routing": "routing", "trip_design": "trip"}


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
    cases = models.ManyToManyField(Case, through="ReleaseCase", related_name="releases")

    def __str__(self) -> str:
        return self.name


class ReleaseCase(models.Model):
    """A case as frozen in a release: later edits to the case do not change the release."""

    release = models.ForeignKey(Release, on_delete=models.CASCADE, related_name="entries")
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="release_entries")
    position = models.PositiveIntegerField()
    snapshot = models.JSONField(help_text="The case document at freezing time.")

    class Meta:
        ordering = ["release", "position"]
        constraints = [models.UniqueConstraint(fields=["release", "case"], name="case_once_per_release")]


class JudgeRecord(models.Model):
    """A cached LLM judge verdict, keyed by (judge model, prompt version, role, case, answer hash)."""

    key = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=40)
    model = models.CharField(max_length=200)
    prompt_version = models.CharField(max_length=40)
    verdict = models.JSONField(help_text="Score, explanation, raw outputs and failure, as the judge returned them.")
    created_at = models.DateTimeField(auto_now_add=True)


class HumanScore(models.Model):
    """A curator's reference score of an answer on a case, for judge calibration (appendix B.2)."""

    METRICS = [("SC", "Semantic Constraint"), ("RP", "Reasoning Purity")]

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="human_scores")
    metric = models.CharField(max_length=4, choices=METRICS)
    answer = models.JSONField(help_text="The agent answer that was scored.")
    trajectory = models.JSONField(default=dict, blank=True, help_text="Its trajectory (for RP).")
    score = models.FloatField(help_text="Between 0 and 1.")
    annotator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(score__gte=0) & models.Q(score__lte=1),
                                              name="human_score_in_unit_interval")]


class ModelEndpoint(models.Model):
    """A model behind litellm. The API key is encrypted at rest and never rendered back.

    Names are unique per owner (another user's names cannot be probed). An endpoint that runs
    still reference is deleted softly: ``deleted_at`` is set and its key wiped, so the runs keep
    their endpoint and the name is free again.
    """

    name = models.CharField(max_length=100)
    model = models.CharField(max_length=200, help_text="litellm model string, e.g. openai/gpt-4o-mini")
    api_base = models.URLField(max_length=500, blank=True)
    api_key_encrypted = models.TextField(blank=True, editable=False)
    params = models.JSONField(default=dict, blank=True, help_text="Extra litellm parameters.")
    concurrency = models.PositiveIntegerField(default=4, help_text="Requests in flight at once, across workers.")
    requests_per_minute = models.PositiveIntegerField(null=True, blank=True, help_text="Across all workers.")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True, help_text="Set when its owner deleted it.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "name"], condition=models.Q(deleted_at__isnull=True),
                                               nulls_distinct=False, name="endpoint_name_unique_per_owner")]

    def __str__(self) -> str:
        return self.name


class EvaluationRun(models.Model):
    """An agent (or a model endpoint) evaluated on a release."""

    QUEUED, RUNNING, COMPLETED, CANCELLED, FAILED = "queued", "running", "completed", "cancelled", "failed"
    STATUSES = [(s, s) for s in (QUEUED, RUNNING, COMPLETED, CANCELLED, FAILED)]

    name = models.CharField(max_length=200)
    agent = models.CharField(max_length=40, help_text="Agent registry name: litellm, reference, heuristic, ...")
    endpoint = models.ForeignKey(ModelEndpoint, null=True, blank=True, on_delete=models.PROTECT, related_name="runs")
    release = models.ForeignKey(Release, on_delete=models.PROTECT, related_name="runs")
    config = models.JSONField(default=dict, help_text="temperature, tool_budget, trials, seed, filters")
    EVALUATION, SMOKE = "evaluation", "smoke"
    PURPOSES = [(EVALUATION, "evaluation"), (SMOKE, "smoke test of a submission")]

    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED)
    purpose = models.CharField(max_length=10, choices=PURPOSES, default=EVALUATION, db_default=EVALUATION,
                               help_text="Smoke tests check a submitted endpoint on 3 cases; never on the leaderboard.")
    verified = models.BooleanField(default=True, help_text="False for self-reported (uploaded) results.")
    replay_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replays")
    aggregates = models.JSONField(default=dict, blank=True, help_text="Table 2 and table 3 of this run.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, default="", db_default="", help_text="Why a failed run failed.")

    def __str__(self) -> str:
        return f"{self.name} on {self.release_id}"


class Trajectory(models.Model):
    """One (case, trial) of a run: the agent's tool calls, its final answer and its scores."""

    QUEUED, RUNNING, DONE, CANCELLED = "queued", "running", "done", "cancelled"
    STATUSES = [(s, s) for s in (QUEUED, RUNNING, DONE, CANCELLED)]
    ENDINGS = ["submitted", "budget_exhausted", "model_error", "timeout", "invalid_answer", "no_submission"]

    run = models.ForeignKey(EvaluationRun, on_delete=models.CASCADE, related_name="trajectories")
    entry = models.ForeignKey(ReleaseCase, on_delete=models.PROTECT, related_name="trajectories")
    trial = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED)
    claimed_at = models.DateTimeField(null=True, blank=True, help_text="Lease heartbeat of the worker running it.")
    claimed_by = models.CharField(max_length=64, blank=True, help_text="The task holding the claim.")
    attempts = models.PositiveIntegerField(default=0)
    ended = models.CharField(max_length=20, blank=True, choices=[(e, e) for e in ENDINGS])
    final_answer = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    scores = models.JSONField(default=dict, blank=True, help_text="metric -> {value, explanation, details, source}")
    passed = models.BooleanField(null=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "entry", "trial"], name="one_trajectory_per_case_trial")]
        indexes = [models.Index(fields=["run", "status"])]


class Step(models.Model):
    """One tool call of a trajectory (figure 6's error kinds)."""

    trajectory = models.ForeignKey(Trajectory, on_delete=models.CASCADE, related_name="steps")
    index = models.PositiveIntegerField()
    tool = models.CharField(max_length=40)
    arguments = models.JSONField(default=dict)
    observation = models.JSONField(null=True)
    error_kind = models.CharField(max_length=20, blank=True)
    latency_ms = models.FloatField(default=0)
    model_text = models.TextField(blank=True)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["trajectory", "index"]
        constraints = [models.UniqueConstraint(fields=["trajectory", "index"], name="step_index_unique")]


class ModelCall(models.Model):
    """One model request and its response (API key redacted): the run's recording, for replay."""

    trajectory = models.ForeignKey(Trajectory, on_delete=models.CASCADE, related_name="model_calls")
    sequence = models.PositiveIntegerField()
    request = models.JSONField()
    response = models.JSONField(null=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=1)
    latency_ms = models.FloatField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["trajectory", "sequence"]
        constraints = [models.UniqueConstraint(fields=["trajectory", "sequence"], name="model_call_sequence_unique")]


class RunToken(models.Model):
    """A bearer token that lets one external agent work through a run's cases over MCP.

    Only the token's SHA-256 is kept: the token itself is shown once, when it is issued.
    """

    run = models.ForeignKey(EvaluationRun, on_delete=models.CASCADE, related_name="tokens")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"token {self.token_hash[:12]} of run {self.run_id}"


class ApiToken(models.Model):
    """A user's REST API token (``Authorization: Token <token>``), one per user.

    Only the token's SHA-256 is kept: the token itself is shown once, when it is created.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token")
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"API token {self.key_hash[:12]} of user {self.user_id}"


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
    changes = models.JSONField(default=list, blank=True,
                               help_text="Per changed trajectory: {trajectory, case_id, trial, passed, metrics}.")
    aggregates_before = models.JSONField(default=dict, blank=True)
    aggregates_after = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"rescore of run {self.run_id} at {self.created_at:%Y-%m-%d %H:%M}"

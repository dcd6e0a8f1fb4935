"""Runs: an agent evaluated on a release, its trajectories, steps and model calls, and judging records.

A package rather than a module so that it is a folder of its own, below both the run code and
``scoring/`` that reads it (no cycle between folders, tests/test_architecture.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from benchmark.cases.models import Case, Release, ReleaseCase
from benchmark.endpoints.models import ModelEndpoint
from kernel.vocabulary import Ending


class EvaluationRun(models.Model):
    """An agent (or a model endpoint) evaluated on a release."""

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        COMPLETED = "completed", "completed"
        CANCELLED = "cancelled", "cancelled"
        FAILED = "failed", "failed"

    class Purpose(models.TextChoices):
        EVALUATION = "evaluation", "evaluation"
        SMOKE = "smoke", "smoke test of a submission"

    # Short names for the members, as the code has always spelled them (EvaluationRun.RUNNING).
    QUEUED, RUNNING, COMPLETED, CANCELLED, FAILED = (
        Status.QUEUED,
        Status.RUNNING,
        Status.COMPLETED,
        Status.CANCELLED,
        Status.FAILED,
    )
    EVALUATION, SMOKE = Purpose.EVALUATION, Purpose.SMOKE

    name = models.CharField(max_length=200)
    agent = models.CharField(max_length=40, help_text="Agent registry name: litellm, reference, heuristic, ...")
    endpoint = models.ForeignKey(ModelEndpoint, null=True, blank=True, on_delete=models.PROTECT, related_name="runs")
    release = models.ForeignKey(Release, on_delete=models.PROTECT, related_name="runs")
    config = models.JSONField(default=dict, help_text="temperature, tool_budget, trials, seed, filters")
    status = models.CharField(max_length=10, choices=Status.choices, default=QUEUED)
    purpose = models.CharField(
        max_length=10,
        choices=Purpose.choices,
        default=EVALUATION,
        db_default=EVALUATION,
        help_text="Smoke tests check a submitted endpoint on 3 cases; never on the leaderboard.",
    )
    verified = models.BooleanField(default=True, help_text="False for self-reported (uploaded) results.")
    # What a leaderboard listing needs (benchmark/runs/listing.py, listing_problems): the model and who ran it how.
    model_name = models.CharField(
        max_length=200,
        blank=True,
        default="",
        db_default="",
        help_text="The model that answered, as declared by whoever ran it (uploads, external agents); a run of an "
        "endpoint shows the endpoint's model.",
    )
    description = models.TextField(
        blank=True,
        default="",
        db_default="",
        max_length=2000,
        help_text="Who ran it and how (the platform writes it for its own runs); a run without one is not listed.",
    )
    replay_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replays")
    aggregates = models.JSONField(default=dict, blank=True, help_text="Table 2 and table 3 of this run.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, default="", db_default="", help_text="Why a failed run failed.")
    # Audit of the owner's and staff's actions from the run page (benchmark/board/moderation.py).
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    unlisted_at = models.DateTimeField(null=True, blank=True, help_text="Hidden from the leaderboard since.")
    unlisted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )

    class Meta:
        db_table = "benchmark_evaluationrun"

    def __str__(self) -> str:
        return f"{self.name} on {self.release_id}"


class Trajectory(models.Model):
    """One (case, trial) of a run: the agent's tool calls, its final answer and its scores."""

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        CANCELLED = "cancelled", "cancelled"

    QUEUED, RUNNING, DONE, CANCELLED = Status.QUEUED, Status.RUNNING, Status.DONE, Status.CANCELLED

    run = models.ForeignKey(EvaluationRun, on_delete=models.CASCADE, related_name="trajectories")
    entry = models.ForeignKey(ReleaseCase, on_delete=models.PROTECT, related_name="trajectories")
    trial = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=QUEUED)
    claimed_at = models.DateTimeField(null=True, blank=True, help_text="Lease heartbeat of the worker running it.")
    claimed_by = models.CharField(max_length=64, blank=True, help_text="The task holding the claim.")
    attempts = models.PositiveIntegerField(default=0)
    ended = models.CharField(max_length=20, blank=True, choices=[(e.value, e.value) for e in Ending])
    final_answer = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    scores = models.JSONField(default=dict, blank=True, help_text="metric -> {value, explanation, details, source}")
    passed = models.BooleanField(null=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "benchmark_trajectory"
        constraints = [models.UniqueConstraint(fields=["run", "entry", "trial"], name="one_trajectory_per_case_trial")]
        indexes = [models.Index(fields=["run", "status"])]

    def __str__(self) -> str:
        return f"run {self.run_id}, entry {self.entry_id}, trial {self.trial}"


class InsertedJSONField(models.JSONField):
    """A JSONField whose rows ``bulk_create`` inserts as VALUES rather than through UNNEST.

    For a bulk insert Django 5.2 on PostgreSQL sends each column as one array (``UNNEST(%s::jsonb[])``);
    psycopg writes a jsonb array as text in Python, escaping every quote of every JSON document with a
    regular expression. For a trajectory's steps and model calls that took about 2.5 times the CPU of
    the whole VALUES insert (14 ms against 5.5 ms per trajectory, measured in docs/benchmarks.md). Django
    keeps VALUES for a model with a field that has ``get_placeholder``; the placeholder is the plain one.
    A finished trajectory's rows are now written with COPY (``lifecycle._rows_replace``); this keeps other
    bulk inserts of steps and model calls (fixtures, tests) on VALUES.
    """

    def get_placeholder(self, value, compiler, connection) -> str:
        return "%s"


class Step(models.Model):
    """One tool call of a trajectory (figure 6's error kinds)."""

    trajectory = models.ForeignKey(Trajectory, on_delete=models.CASCADE, related_name="steps")
    index = models.PositiveIntegerField()
    tool = models.CharField(max_length=40)
    arguments = InsertedJSONField(default=dict)
    observation = InsertedJSONField(null=True)
    error_kind = models.CharField(max_length=20, blank=True)
    latency_ms = models.FloatField(default=0)
    model_text = models.TextField(blank=True)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "benchmark_step"
        ordering = ["trajectory", "index"]
        constraints = [models.UniqueConstraint(fields=["trajectory", "index"], name="step_index_unique")]

    def __str__(self) -> str:
        return f"step {self.index} of trajectory {self.trajectory_id}: {self.tool}"


class ModelCall(models.Model):
    """One model request and its response (API key redacted): the run's recording, for replay."""

    trajectory = models.ForeignKey(Trajectory, on_delete=models.CASCADE, related_name="model_calls")
    sequence = models.PositiveIntegerField()
    request = InsertedJSONField()
    response = InsertedJSONField(null=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=1)
    latency_ms = models.FloatField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "benchmark_modelcall"
        ordering = ["trajectory", "sequence"]
        constraints = [models.UniqueConstraint(fields=["trajectory", "sequence"], name="model_call_sequence_unique")]

    def __str__(self) -> str:
        return f"model call {self.sequence} of trajectory {self.trajectory_id}"


class RunToken(models.Model):
    """A bearer token that lets one external agent work through a run's cases over MCP.

    Only the token's SHA-256 is kept: the token itself is shown once, when it is issued.
    """

    run = models.ForeignKey(EvaluationRun, on_delete=models.CASCADE, related_name="tokens")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked = models.BooleanField(default=False)

    class Meta:
        db_table = "benchmark_runtoken"

    def __str__(self) -> str:
        return f"token {self.token_hash[:12]} of run {self.run_id}"


class JudgeRecord(models.Model):
    """A cached LLM judge verdict, keyed by (judge model, prompt version, role, case, answer hash)."""

    key = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=40)
    model = models.CharField(max_length=200)
    prompt_version = models.CharField(max_length=40)
    verdict = models.JSONField(help_text="Score, explanation, raw outputs and failure, as the judge returned them.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "benchmark_judgerecord"

    def __str__(self) -> str:
        return f"{self.role} verdict by {self.model} ({self.key[:12]})"


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
        db_table = "benchmark_humanscore"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(score__gte=0) & models.Q(score__lte=1), name="human_score_in_unit_interval"
            )
        ]

    def __str__(self) -> str:
        return f"{self.metric} {self.score:g} on case {self.case_id}"

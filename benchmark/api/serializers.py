"""Serializers of the REST API. They only shape data: who may see what is decided in the views
through ``benchmark.board.visibility`` and passed in the serializer context (``answers``, ``user``);
what a reader without ``answers`` may not see is cut by that module's ``trajectory_shown``.

An endpoint's API key is never a field of any response; it appears only, write-only, in the
submission serializer.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from benchmark.agents.config import RunConfig
from benchmark.board.visibility import endpoint_details_visible, trajectory_shown
from benchmark.cases.models import Release, ReleaseCase
from benchmark.endpoints.redaction import redact
from benchmark.endpoints.services import MAX_API_KEY_LENGTH, MAX_CONCURRENCY, MAX_REQUESTS_PER_MINUTE
from benchmark.runs.models import EvaluationRun, Step, Trajectory
from benchmark.runs.results import run_results_stored


class ReleaseSerializer(serializers.ModelSerializer):
    n_cases = serializers.IntegerField(read_only=True, help_text="Cases frozen in the release.")

    class Meta:
        model = Release
        fields = ["name", "split", "content_hash", "city_name", "city_version", "description", "created_at", "n_cases"]


class CaseSerializer(serializers.Serializer):
    """A case as frozen in a release (its snapshot). Answer fields are null unless visible."""

    case_id = serializers.CharField()
    position = serializers.IntegerField()
    type = serializers.CharField()
    category = serializers.CharField()
    level = serializers.CharField()
    question = serializers.CharField()
    answers_visible = serializers.BooleanField(help_text="False for a hidden release unless you are a curator.")
    answer = serializers.JSONField(allow_null=True, help_text="The answer document (paper tables 5 and 6).")
    reference_path = serializers.JSONField(allow_null=True, help_text="[{tool, arguments, observation_sha256}]")
    required_evidence = serializers.JSONField(allow_null=True, help_text="{attributes: [{place_id, key}], note_ids}")
    constraints = serializers.JSONField(allow_null=True)

    def to_representation(self, entry: ReleaseCase) -> dict:
        snapshot, visible = entry.snapshot, bool(self.context.get("answers"))
        hidden = ("answer", "reference_path", "required_evidence", "constraints")
        return {
            "case_id": snapshot["case_id"],
            "position": entry.position,
            "type": snapshot["type"],
            "category": snapshot["category"],
            "level": snapshot["level"],
            "question": snapshot["question"],
            "answers_visible": visible,
            **{f: snapshot.get(f) if visible else None for f in hidden},
        }


class EndpointSerializer(serializers.Serializer):
    """A run's model endpoint. api_base and parameters only for its owner and staff; the key never."""

    name = serializers.CharField()
    model = serializers.CharField(help_text="litellm model string")
    details_visible = serializers.BooleanField()
    api_base = serializers.CharField(allow_null=True)
    params = serializers.JSONField(allow_null=True)
    concurrency = serializers.IntegerField(allow_null=True)
    requests_per_minute = serializers.IntegerField(allow_null=True)

    def to_representation(self, endpoint) -> dict:
        visible = endpoint_details_visible(user=self.context.get("user"), endpoint=endpoint)
        private = ("api_base", "params", "concurrency", "requests_per_minute")
        return {
            "name": endpoint.name,
            "model": endpoint.model,
            "details_visible": visible,
            **{f: getattr(endpoint, f) if visible else None for f in private},
        }


class OverallSerializer(serializers.Serializer):
    value = serializers.FloatField(help_text="Pass rate PR@0.9 in %")
    low = serializers.FloatField(
        allow_null=True, help_text="95% bootstrap interval, lower end; null for a partial run on the leaderboard"
    )
    high = serializers.FloatField(
        allow_null=True, help_text="95% bootstrap interval, upper end; null for a partial run on the leaderboard"
    )


class RunSerializer(serializers.ModelSerializer):
    release: serializers.SlugRelatedField[Release] = serializers.SlugRelatedField(slug_field="name", read_only=True)
    model = serializers.SerializerMethodField(help_text="The endpoint's litellm model string, or empty.")
    overall = serializers.SerializerMethodField()
    n = serializers.SerializerMethodField(help_text="Trajectories scored in the aggregates.")

    class Meta:
        model = EvaluationRun
        fields = [
            "id",
            "name",
            "agent",
            "model",
            "release",
            "purpose",
            "status",
            "error",
            "verified",
            "created_at",
            "started_at",
            "finished_at",
            "overall",
            "n",
        ]

    def get_model(self, run: EvaluationRun) -> str:
        return run.endpoint.model if run.endpoint is not None else ""

    @extend_schema_field(OverallSerializer(allow_null=True))
    def get_overall(self, run: EvaluationRun) -> dict | None:
        results = run_results_stored(run=run)
        return results.table2.get("overall") if results else None

    def get_n(self, run: EvaluationRun) -> int:
        results = run_results_stored(run=run)
        return int(results.table2.get("n") or 0) if results else 0


class ProgressSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    done = serializers.IntegerField()
    running = serializers.IntegerField()
    queued = serializers.IntegerField()
    cancelled = serializers.IntegerField()
    passed = serializers.IntegerField()
    failed = serializers.IntegerField()
    tokens = serializers.IntegerField()
    tool_calls = serializers.IntegerField()


class SmokeProblemSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="model_error, unparsed_tool_call, no_tool_call, no_answer, timeout, ...")
    message = serializers.CharField()
    blocking = serializers.BooleanField()
    case_id = serializers.CharField(allow_blank=True)


class SmokeReportSerializer(serializers.Serializer):
    status = serializers.CharField(
        help_text="running, passed (the full run is queued), blocked (by the problems "
        "listed) or stopped (the smoke run was cancelled)"
    )
    cases = serializers.ListField(child=serializers.DictField())
    problems = SmokeProblemSerializer(many=True)
    full_run = serializers.IntegerField(allow_null=True, help_text="The full run queued after a passed smoke test.")


class RunDetailSerializer(RunSerializer):
    endpoint = EndpointSerializer(allow_null=True, read_only=True)
    progress = serializers.SerializerMethodField()
    aggregates = serializers.SerializerMethodField(
        help_text="{table2, table3, categories, cost} once the run has ended; {} before."
    )
    smoke = serializers.SerializerMethodField(help_text="For a smoke test: what it found.")

    class Meta(RunSerializer.Meta):
        fields = [*RunSerializer.Meta.fields, "config", "endpoint", "progress", "aggregates", "smoke"]

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_aggregates(self, run: EvaluationRun) -> dict:
        results = run_results_stored(run=run)
        return results.as_dict() if results else {}

    @extend_schema_field(ProgressSerializer)
    def get_progress(self, run: EvaluationRun) -> dict:
        from benchmark.runs.services import run_progress

        return run_progress(run=run)

    @extend_schema_field(SmokeReportSerializer(allow_null=True))
    def get_smoke(self, run: EvaluationRun) -> dict | None:
        if run.purpose != EvaluationRun.SMOKE:
            return None
        from benchmark.submissions.smoke import smoke_report

        request = self.context.get("request")
        user = request.user if request is not None else None
        return smoke_report(run=run).for_reader(user=user, release=run.release).to_dict()


class SubmissionSerializer(serializers.Serializer):
    """A model submission: the endpoint, then a smoke test, then (if it passes) the full run.

    No run settings: every submission runs with the benchmark's (``RunConfig()``: the paper's tool budget, one
    trial, temperature 0), so that the leaderboard compares like with like."""

    name = serializers.CharField(max_length=100, help_text="Shown on the leaderboard; unique.")
    model = serializers.CharField(max_length=200, help_text="litellm model string, e.g. openai/gpt-4o-mini")
    api_base = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="http(s) URL; empty for the provider's default",
    )
    api_key = serializers.CharField(
        max_length=MAX_API_KEY_LENGTH,
        required=False,
        allow_blank=True,
        default="",
        write_only=True,
        style={"input_type": "password"},
        help_text="Stored encrypted; never returned.",
    )
    no_key = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Your server at api_base takes no API key (an empty api_key without "
        "this is refused; the site's own keys are never used).",
    )
    concurrency = serializers.IntegerField(min_value=1, max_value=MAX_CONCURRENCY, default=4)
    requests_per_minute = serializers.IntegerField(
        min_value=1, max_value=MAX_REQUESTS_PER_MINUTE, required=False, allow_null=True, default=None
    )
    params = serializers.DictField(
        required=False, allow_null=True, default=None, help_text='Extra litellm parameters, e.g. {"max_tokens": 2048}'
    )
    release = serializers.SlugRelatedField(
        slug_field="name",
        queryset=Release.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="Release name; the newest public release when omitted. A hidden "
        "release only for curators and staff, unless the site's "
        'HIDDEN_RELEASE_RUNNERS is "all".',
    )

    def to_internal_value(self, data):
        if isinstance(data, dict) and "config" in data:
            raise serializers.ValidationError(
                {
                    "config": [
                        f"submissions run with the benchmark's settings ({RunConfig().stored()}) so that the "
                        "leaderboard compares like with like; leave config out"
                    ]
                }
            )
        return super().to_internal_value(data)


class StepSerializer(serializers.ModelSerializer):
    # null on a hidden release unless you are a curator (``benchmark.board.visibility.step_shown``)
    arguments = serializers.JSONField(allow_null=True, read_only=True)
    observation = serializers.JSONField(allow_null=True, read_only=True)
    model_text = serializers.CharField(allow_null=True, read_only=True)

    class Meta:
        model = Step
        fields = [
            "index",
            "tool",
            "arguments",
            "observation",
            "error_kind",
            "latency_ms",
            "model_text",
            "input_tokens",
            "output_tokens",
        ]


class TrajectorySerializer(serializers.ModelSerializer):
    case_id = serializers.CharField(source="entry.case.case_id", read_only=True)
    category = serializers.CharField(source="entry.case.category", read_only=True)
    level = serializers.CharField(source="entry.case.level", read_only=True)
    n_steps = serializers.IntegerField(read_only=True)
    # Plain text, not an enum: an enum named "status" would clash with the run's in the schema.
    status = serializers.CharField(read_only=True, help_text="queued, running, done or cancelled")

    class Meta:
        model = Trajectory
        fields = [
            "id",
            "run",
            "case_id",
            "category",
            "level",
            "trial",
            "status",
            "ended",
            "passed",
            "input_tokens",
            "output_tokens",
            "n_steps",
            "started_at",
            "finished_at",
        ]


class TrajectoryDetailSerializer(TrajectorySerializer):
    """A trajectory with its steps, answer and scores. On a hidden release, unless you are a curator,
    ``final_answer`` and each step's ``arguments``, ``observation`` and ``model_text`` are null and
    ``scores`` carry only each metric's value, applicable and source."""

    question = serializers.CharField(source="entry.snapshot.question", read_only=True)
    answers_visible = serializers.SerializerMethodField(
        help_text="False for a hidden release unless you are a "
        "curator: then the answer, what the agent saw and "
        "the score explanations are withheld (null)."
    )
    error = serializers.SerializerMethodField()
    scores = serializers.SerializerMethodField(
        help_text="metric -> {value, applicable, source} and, where the "
        "release's answers are visible, explanation and details"
    )
    steps = StepSerializer(many=True, read_only=True)

    class Meta(TrajectorySerializer.Meta):
        fields = [
            *TrajectorySerializer.Meta.fields,
            "question",
            "answers_visible",
            "final_answer",
            "error",
            "scores",
            "steps",
        ]

    def get_answers_visible(self, trajectory: Trajectory) -> bool:
        return bool(self.context.get("answers"))

    def get_error(self, trajectory: Trajectory) -> str:
        return redact(trajectory.error or "")

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_scores(self, trajectory: Trajectory) -> dict:
        return trajectory.scores or {}

    def to_representation(self, trajectory: Trajectory) -> dict:
        return trajectory_shown(super().to_representation(trajectory), full=bool(self.context.get("answers")))


class ScoreRowSerializer(serializers.Serializer):
    trajectory = serializers.IntegerField()
    case_id = serializers.CharField()
    category = serializers.CharField()
    level = serializers.CharField()
    trial = serializers.IntegerField()
    ended = serializers.CharField(allow_blank=True)
    passed = serializers.BooleanField(allow_null=True)
    metrics = serializers.DictField(
        child=serializers.FloatField(allow_null=True), help_text="metric -> value (null where not applicable)"
    )


class RunScoresSerializer(serializers.Serializer):
    run = serializers.IntegerField()
    release = serializers.CharField()
    status = serializers.CharField()
    table2 = serializers.JSONField(allow_null=True, help_text="Pass rate per cell, overall with its interval.")
    table3 = serializers.JSONField(allow_null=True, help_text="Mean metrics per level.")
    trajectories = ScoreRowSerializer(
        many=True,
        help_text="Each trajectory's metric values; empty on a hidden release unless you are a curator or staff",
    )


class PassKSerializer(serializers.Serializer):
    k = serializers.IntegerField(help_text="Trials per case (the most any case had)")
    value = serializers.FloatField(help_text="pass^k in %: the share of cases whose every trial passed")
    low = serializers.FloatField(allow_null=True, help_text="95% bootstrap interval over cases; null for a partial run")
    high = serializers.FloatField(
        allow_null=True, help_text="95% bootstrap interval over cases; null for a partial run"
    )


class LeaderboardCategorySerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The category of the category view.")
    overall = serializers.FloatField(allow_null=True, help_text="The category's pass rate PR@0.9 in %")
    cells = serializers.DictField(
        child=serializers.FloatField(allow_null=True), help_text="PR@0.9 in % of its L0, L1, L2 cells; null: none"
    )


class LeaderboardRowSerializer(serializers.Serializer):
    run_id = serializers.IntegerField()
    name = serializers.CharField()
    agent = serializers.CharField()
    provider = serializers.CharField(
        allow_blank=True, help_text="The litellm provider prefix of the model string ('openai' in 'openai/gpt-4o'); ''"
    )
    model = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    status = serializers.CharField()
    verified = serializers.BooleanField(help_text="False for self-reported (uploaded) results.")
    cells = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="PR@0.9 in % per category/level cell; null where the run has no case",
    )
    categories = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="Each category's pass rate in %: its cells weighted by their scored trajectories",
    )
    levels = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="Each level's pass rate in %: its cells weighted by their scored trajectories",
    )
    overall = OverallSerializer(allow_null=True)
    pass_k = PassKSerializer(allow_null=True, help_text="Beside the overall PR; null with one trial per case")
    macro = serializers.FloatField(allow_null=True)
    avg_tokens = serializers.FloatField(allow_null=True)
    cost = serializers.FloatField(allow_null=True, help_text="USD, where litellm can price the model")
    rank = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        min_length=2,
        max_length=2,
        help_text="[best, worst] rank among the verified section (complete runs of models the platform ran): a range "
        "where 95% intervals overlap; null in every other section and for runs without results",
    )
    n = serializers.IntegerField(help_text="Trajectories scored.")
    expected = serializers.IntegerField(help_text="Trajectories of a complete run: the release's cases x trials.")
    complete = serializers.BooleanField(help_text="False for a partial run: unranked, no interval.")
    baseline = serializers.BooleanField(
        help_text="The reference or heuristic agent, or a scripted endpoint: listed after the models, never ranked."
    )
    section = serializers.ChoiceField(
        choices=["verified", "self_reported", "partial", "baseline"],
        help_text="The row's table: verified (ranked), self_reported (uploads, never ranked), partial (fewer "
        "cases than the release has, never ranked) or baseline.",
    )
    description = serializers.CharField(help_text="Who ran it and how.")
    submitter = serializers.CharField(allow_blank=True, help_text="The account that created the run; '' for none.")
    category = LeaderboardCategorySerializer(
        allow_null=True, help_text="With ?category=: that category's figures (and rank is the rank by them)."
    )


class LeaderboardSerializer(serializers.Serializer):
    release = serializers.CharField(allow_null=True)
    releases = serializers.ListField(child=serializers.CharField(), help_text="Releases with runs, newest first.")
    query = serializers.DictField(child=serializers.CharField(), help_text="The filters and sort applied, as given.")
    rows = LeaderboardRowSerializer(many=True)


class ApiResourceSerializer(serializers.Serializer):
    url = serializers.URLField()
    description = serializers.CharField()


class ApiIndexSerializer(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.CharField()
    resources = serializers.DictField(child=ApiResourceSerializer(), help_text="Resource name -> its URL.")
    schema = serializers.URLField(help_text="The OpenAPI schema.")
    docs = serializers.URLField(help_text="The API's docs (Swagger UI).")
    site = serializers.URLField()
    authentication = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()

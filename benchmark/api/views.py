"""Views of the REST API (/api/v1/): thin, they parse input, call a selector or service, serialize.

Every read goes through ``benchmark.board.visibility``: smoke-test runs (and their trajectories)
only for their submitter and staff; on a hidden release the case answers, and every run's final
answers, observations, model text and score details, only for curators; endpoint details only
for the owner and staff. Objects a user may not see answer 404. Submitting on a hidden release
follows the setting ``HIDDEN_RELEASE_RUNNERS``.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmark.board.leaderboard import default_release, leaderboard_releases
from benchmark.board.search import LeaderboardQuery, QueryError, leaderboard_document, leaderboard_view
from benchmark.board.visibility import can_see_answers, per_case_visible, runs_visible, trajectories_visible
from benchmark.cases.models import Release
from benchmark.runs.models import Step
from benchmark.runs.results import run_results_stored

from . import serializers as s
from .params import (
    CATEGORY_VALUES,
    ENDINGS,
    LEVEL_VALUES,
    PURPOSES,
    RUN_STATUSES,
    SLUG,
    Pagination,
    bool_param,
    choice_param,
    int_param,
    query_param,
)
from .permissions import ReadOnly, ReadOrSubmit
from .selectors import score_rows

# --- releases and their cases --------------------------------------------------------------------


@extend_schema_view(list=extend_schema(summary="Releases, newest first"), retrieve=extend_schema(summary="One release"))
class ReleaseViewSet(viewsets.ReadOnlyModelViewSet):
    """Frozen, named sets of cases. Every release is listed; a hidden one keeps its answers for curators."""

    serializer_class = s.ReleaseSerializer
    permission_classes = [ReadOnly]
    pagination_class = Pagination
    lookup_field = "name"
    lookup_value_regex = SLUG
    queryset = Release.objects.annotate(n_cases=Count("entries")).order_by("-created_at", "-id")


RELEASE_PATH = OpenApiParameter("release_name", str, OpenApiParameter.PATH, description="The release's name.")
CASE_PATH = OpenApiParameter("case_id", str, OpenApiParameter.PATH, description="The case's id.")


@extend_schema_view(
    list=extend_schema(
        summary="A release's cases",
        parameters=[
            RELEASE_PATH,
            query_param("category", "Only this category.", enum=CATEGORY_VALUES),
            query_param("level", "Only this level.", enum=LEVEL_VALUES),
        ],
    ),
    retrieve=extend_schema(summary="One case of a release", parameters=[RELEASE_PATH, CASE_PATH]),
)
class CaseViewSet(viewsets.ReadOnlyModelViewSet):
    """A release's cases as frozen. ``answer``, ``reference_path``, ``required_evidence`` and
    ``constraints`` are null for a hidden release unless you are a curator."""

    serializer_class = s.CaseSerializer
    permission_classes = [ReadOnly]
    pagination_class = Pagination
    lookup_field = "case_id"
    lookup_value_regex = r"[^/]+"

    def release(self) -> Release:
        if not hasattr(self, "_release"):
            self._release = get_object_or_404(Release, name=self.kwargs["release_name"])
        return self._release

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Release.objects.none()
        entries = self.release().entries.select_related("case").order_by("position")
        category = choice_param(self.request, "category", CATEGORY_VALUES)
        level = choice_param(self.request, "level", LEVEL_VALUES)
        if category:
            entries = entries.filter(case__category=category)
        if level:
            entries = entries.filter(case__level=level)
        return entries

    def get_object(self):
        entry = self.get_queryset().filter(case__case_id=self.kwargs["case_id"]).first()
        if entry is None:
            raise NotFound(f"release {self.release().name} has no case {self.kwargs['case_id']!r}")
        return entry

    def get_serializer_context(self) -> dict:
        context = dict(super().get_serializer_context())  # typed as a Mapping
        if not getattr(self, "swagger_fake_view", False) and "release_name" in self.kwargs:
            context["answers"] = can_see_answers(user=self.request.user, release=self.release())
        return context


# --- runs ----------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="Runs you may see, newest first",
        parameters=[
            query_param("release", "Only runs on this release (its name)."),
            query_param("purpose", "evaluation, or smoke (smoke tests: only your own).", enum=PURPOSES),
            query_param("status", "Only runs in this state.", enum=RUN_STATUSES),
            query_param("agent", "Only runs of this agent (litellm, reference, heuristic, external, upload, ...)."),
        ],
    ),
    retrieve=extend_schema(summary="One run, with its progress, aggregates and (smoke test) report"),
    create=extend_schema(
        summary="Submit a model: an endpoint, then a 3-case smoke test, then the full run",
        request=s.SubmissionSerializer,
        responses={
            201: s.RunDetailSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="Field -> list of problems"),
            401: OpenApiResponse(s.ErrorSerializer, description="Not signed in"),
            403: OpenApiResponse(s.ErrorSerializer, description="Not allowed"),
            429: OpenApiResponse(s.ErrorSerializer, description="Submission limit reached; see Retry-After"),
        },
    ),
)
class RunViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Evaluation runs (and your own smoke tests). POST submits a model endpoint."""

    permission_classes = [ReadOrSubmit]
    pagination_class = Pagination
    lookup_value_regex = "[0-9]+"  # any other id is a route that does not exist (lifeplanner_site/errors.py)

    def get_serializer_class(self):
        return {"list": s.RunSerializer, "create": s.SubmissionSerializer, "scores": s.RunScoresSerializer}.get(
            self.action, s.RunDetailSerializer
        )

    def get_queryset(self):
        runs = runs_visible(user=self.request.user).select_related("endpoint", "release").order_by("-created_at", "-id")
        if self.action != "list":
            return runs
        filters = {
            "release__name": self.request.query_params.get("release") or None,
            "purpose": choice_param(self.request, "purpose", PURPOSES),
            "status": choice_param(self.request, "status", RUN_STATUSES),
            "agent": self.request.query_params.get("agent") or None,
        }
        return runs.filter(**{k: v for k, v in filters.items() if v is not None})

    def get_serializer_context(self) -> dict:
        return {**super().get_serializer_context(), "user": self.request.user}

    def create(self, request, *args, **kwargs) -> Response:
        from benchmark.submissions.services import SubmissionLimitReached, submission_create

        serializer = s.SubmissionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            smoke = submission_create(user=request.user, **serializer.validated_data)
        except SubmissionLimitReached as exc:
            seconds = max(1, int((exc.retry_at - timezone.now()).total_seconds()))
            return Response(
                {"detail": str(exc)}, status=status.HTTP_429_TOO_MANY_REQUESTS, headers={"Retry-After": str(seconds)}
            )
        except DjangoValidationError as exc:
            raise ValidationError(
                exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
            ) from None
        smoke = self.get_queryset().get(id=smoke.id)
        return Response(
            s.RunDetailSerializer(smoke, context=self.get_serializer_context()).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(summary="A run's table 2 and 3 and each trajectory's metric values", responses=s.RunScoresSerializer)
    @action(detail=True, methods=["get"])
    def scores(self, request, pk=None) -> Response:
        run = self.get_object()
        results = run_results_stored(run=run)
        return Response(
            s.RunScoresSerializer(
                {
                    "run": run.id,
                    "release": run.release.name,
                    "status": run.status,
                    "table2": results.table2 if results else None,
                    "table3": results.table3 if results else None,
                    # Each trajectory's values: not a hidden release's unless a curator or staff (one bit of the gold).
                    "trajectories": score_rows(run=run)
                    if per_case_visible(user=request.user, release=run.release)
                    else [],
                }
            ).data
        )


# --- trajectories --------------------------------------------------------------------------------

# What the trajectory list shows (not the answer, scores or case documents).
LIST_FIELDS = (
    "id",
    "run_id",
    "trial",
    "status",
    "ended",
    "passed",
    "input_tokens",
    "output_tokens",
    "started_at",
    "finished_at",
    "entry__id",
    "entry__case__id",
    "entry__case__case_id",
    "entry__case__category",
    "entry__case__level",
)


@extend_schema_view(
    list=extend_schema(
        summary="Trajectories of the runs you may see (a hidden release's: curators and staff only)",
        parameters=[
            query_param("run", "Only this run's trajectories.", type_=int),
            query_param("category", "Only this category.", enum=CATEGORY_VALUES),
            query_param("level", "Only this level.", enum=LEVEL_VALUES),
            query_param("ended", "Only trajectories that ended this way.", enum=ENDINGS),
            query_param("passed", "Only passed (true) or failed (false) ones.", type_=bool),
        ],
    ),
    retrieve=extend_schema(summary="One trajectory with its steps, answer and scores"),
)
class TrajectoryViewSet(viewsets.ReadOnlyModelViewSet):
    """One (case, trial) of a run: its tool calls (steps), final answer and scores. A hidden release's
    trajectories are listed and shown to curators and staff only (a per-case verdict is one bit of the gold);
    ``answers_visible`` says whether the answers are shown."""

    permission_classes = [ReadOnly]
    pagination_class = Pagination
    lookup_value_regex = "[0-9]+"

    def get_serializer_class(self):
        return s.TrajectoryDetailSerializer if self.action == "retrieve" else s.TrajectorySerializer

    def get_queryset(self):
        # A subquery, not a join: counted for the page's rows only, and dropped from the paginator's count.
        steps = (
            Step.objects.filter(trajectory=OuterRef("pk"))
            .order_by()
            .values("trajectory")
            .annotate(n=Count("id"))
            .values("n")
        )
        rows = (
            trajectories_visible(user=self.request.user)  # a hidden release's: curators and staff only
            .select_related("entry__case")
            .annotate(n_steps=Coalesce(Subquery(steps), 0))
            .order_by("run_id", "entry__position", "trial")
        )
        if self.action == "retrieve":
            return rows.select_related("run__release").prefetch_related("steps")
        rows = rows.only(*LIST_FIELDS)
        filters = {
            "run_id": int_param(self.request, "run"),
            "entry__case__category": choice_param(self.request, "category", CATEGORY_VALUES),
            "entry__case__level": choice_param(self.request, "level", LEVEL_VALUES),
            "ended": choice_param(self.request, "ended", ENDINGS),
            "passed": bool_param(self.request, "passed"),
        }
        return rows.filter(**{k: v for k, v in filters.items() if v is not None})

    def retrieve(self, request, *args, **kwargs) -> Response:
        trajectory = self.get_object()
        context = {
            **self.get_serializer_context(),
            "answers": can_see_answers(user=request.user, release=trajectory.run.release),
        }
        return Response(s.TrajectoryDetailSerializer(trajectory, context=context).data)


# --- leaderboard ---------------------------------------------------------------------------------


class LeaderboardView(APIView):
    """Table 2 per evaluation run of a release, with 95% intervals and rank ranges."""

    permission_classes = [ReadOnly]

    @extend_schema(
        summary="The leaderboard of a release",
        responses={200: s.LeaderboardSerializer, 400: OpenApiTypes.OBJECT, 404: s.ErrorSerializer},
        parameters=[
            query_param("release", "The release's name; the newest public release with runs when omitted."),
            query_param(
                "sort",
                "rank (default), name, agent, model, date, verified, overall, "
                "macro, tokens, cost or a cell such as routing/L1; '-' in front "
                "reverses.",
            ),
            query_param(
                "q", "Runs whose name, agent or model string contains this text (any case; up to 200 characters)."
            ),
            query_param(
                "provider", "The litellm provider prefix of the endpoint's model (e.g. openai); 'none' for none."
            ),
            query_param("since", "Runs created on or after this day (YYYY-MM-DD)."),
            query_param("until", "Runs created on or before this day (YYYY-MM-DD)."),
            query_param("category", "A category view: rows carry the category's pass rate and cells, ranked by it."),
            query_param("verified", "1: verified runs only."),
        ],
    )
    def get(self, request) -> Response:
        releases = leaderboard_releases(user=request.user)
        name = request.query_params.get("release")
        release = get_object_or_404(Release, name=name) if name else default_release(releases)
        try:
            query = LeaderboardQuery.parse(request.query_params)
        except QueryError as exc:
            raise ValidationError({exc.field: [str(exc)]}) from None
        try:
            rows = leaderboard_view(release=release, user=request.user, query=query) if release else []
        except ValueError as exc:
            raise ValidationError({"sort": [str(exc)]}) from None
        document = leaderboard_document(release=release, releases=releases, rows=rows, query=query)
        return Response(s.LeaderboardSerializer(document).data)


# --- index ---------------------------------------------------------------------------------------

# (resource, route name, what it holds): the index lists them in this order.
INDEX = (
    ("releases", "release-list", "Frozen case sets; each release's cases under releases/<name>/cases/."),
    ("runs", "run-list", "Evaluation runs you may see; POST submits a model endpoint."),
    ("trajectories", "trajectory-list", "Each run's cases: tool calls, answers, scores."),
    ("leaderboard", "leaderboard", "Table 2 per run of a release, with intervals and rank ranges."),
    ("endpoints", "endpoint-list", "Your own model endpoints (a token or a session)."),
)


class ApiIndexView(APIView):
    """What the API holds: each resource's URL, the schema and the docs (the answer of /api/v1/)."""

    permission_classes = [ReadOnly]

    @extend_schema(summary="The API's resources, schema and docs", responses={200: s.ApiIndexSerializer})
    def get(self, request) -> Response:
        return Response(api_index(request))


def api_index(request) -> dict:
    return {
        "name": "LifePlanner API",
        "version": "v1",
        "resources": {
            name: {"url": request.build_absolute_uri(reverse(route)), "description": description}
            for name, route, description in INDEX
        },
        "schema": request.build_absolute_uri(reverse("schema")),
        "docs": request.build_absolute_uri(reverse("swagger-ui")),
        "site": request.build_absolute_uri("/"),
        "authentication": "Reading needs no account; submitting and your endpoints take a token from "
        "/accounts/token/ in the header 'Authorization: Token <token>'.",
    }


def api_root(request) -> JsonResponse:
    """/api/: the versions of the API (one so far) and its docs."""
    return JsonResponse(
        {
            "versions": {"v1": request.build_absolute_uri(reverse("api-index"))},
            "docs": request.build_absolute_uri(reverse("swagger-ui")),
        }
    )

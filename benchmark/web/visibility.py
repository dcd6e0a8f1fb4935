"""Who may see what, shared by the pages and the REST API so both apply the same rules.

- Releases, their case questions, runs on the leaderboard and their trajectories are public.
- Answers, reference paths and required evidence of a *hidden* release are for curators only
  (the ``benchmark.curate_case`` permission, the "Curators" group).
- Smoke-test runs of a submission are seen only by their submitter and staff.
- A model endpoint's api_base and parameters are seen only by its owner and staff; its API
  key by nobody.
"""
from __future__ import annotations

from django.db.models import Q, QuerySet

from benchmark.models import EvaluationRun, ModelEndpoint, Release

CURATE = "benchmark.curate_case"


def is_curator(user) -> bool:
    return bool(user and user.is_authenticated and user.has_perm(CURATE))


def answers_visible(*, user, release: Release) -> bool:
    """Whether ``user`` may see the answers (and reference paths, evidence) of ``release``'s cases."""
    return release.split == Release.PUBLIC or is_curator(user)


def runs_visible(*, user) -> QuerySet[EvaluationRun]:
    """The runs ``user`` may open: every evaluation run, plus their own smoke tests (all for staff)."""
    runs = EvaluationRun.objects.all()
    if user and user.is_authenticated and user.is_staff:
        return runs
    mine = Q(created_by=user) if user and user.is_authenticated else Q(pk__in=[])
    return runs.filter(Q(purpose=EvaluationRun.EVALUATION) | mine)


def run_visible(*, user, run: EvaluationRun) -> bool:
    return runs_visible(user=user).filter(pk=run.pk).exists()


def endpoint_details_visible(*, user, endpoint: ModelEndpoint | None) -> bool:
    """Whether ``user`` may see an endpoint's api_base and parameters (never its key)."""
    if endpoint is None or not (user and user.is_authenticated):
        return False
    return user.is_staff or endpoint.owner_id == user.pk

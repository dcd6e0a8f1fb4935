"""Who may see what, and who may run where: shared by the pages, the REST API and the services
that create runs, so every surface applies the same rules.

- Releases, their case questions, runs on the leaderboard, their trajectories' verdicts and
  metric values are public.
- A *hidden* release's per-case results (each trajectory: its verdict, metric values, steps and replay,
  and every page or list made of them) are for curators and staff too (``per_case_visible``): a verdict
  per case per run is one bit of the gold, and a user who may run there could read it run after run.
  Everyone else, the run's owner included, sees the run's aggregates (tables 2 and 3, counts, pass^k).
- A *hidden* release keeps for curators (the ``cases.curate_case`` permission, the
  "Curators" group; superusers hold every permission) and staff (the site's operators)
  everything that gives its answers away
  (``can_see_answers``): the reference answer, reference path and required evidence, the
  constraints that name answer places, and of every run on it (a passing run's answer *is* the
  gold) the final answer, each step's arguments, observation and model text, and each score's
  explanation and details. Everyone else, the run's owner included, sees how each step went
  (tool, error kind, latency, tokens), the verdict and the metric values: ``step_shown``,
  ``scores_shown`` and ``trajectory_shown`` cut a document down to that.
- Who may start a run on a hidden release is the setting ``HIDDEN_RELEASE_RUNNERS``
  (``release_run_check``): "staff" (curators and staff, the default) or "all" (any signed-in
  user).
- Smoke-test runs of a submission are seen only by their submitter and staff.
- A model endpoint's api_base and parameters are seen only by its owner and staff; its API
  key by nobody.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet

from benchmark.cases.models import Release
from benchmark.cases.permissions import is_curator
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun, Trajectory

# Said where a hidden release's per-case results are left out for a reader who is not a curator or staff.
HIDDEN_PER_CASE = (
    "release {release} is hidden: its per-case results (each case's verdict, metric values and replay) are "
    "shown to curators and staff only; the run's aggregates are on its page"
)
RUNNERS = ("staff", "all")  # the values of settings.HIDDEN_RELEASE_RUNNERS
# What anyone may see of a hidden release's runs; everything else is for curators.
SCORE_PUBLIC_FIELDS = ("value", "applicable", "source")
STEP_PUBLIC_FIELDS = ("index", "tool", "error_kind", "latency_ms", "input_tokens", "output_tokens")
TRAJECTORY_PRIVATE_FIELDS = ("final_answer", "error")  # an error may quote the model's output


def can_see_answers(*, user, release: Release) -> bool:
    """Whether ``user`` may see what reveals the answers of ``release``'s cases (see the module docstring):
    anyone on a public release; on a hidden one, curators and staff (the site's operators)."""
    return release.split == Release.PUBLIC or _reads_hidden(user)


def _reads_hidden(user) -> bool:
    """Curators and staff: they read hidden releases whole."""
    return is_curator(user) or bool(user and user.is_active and user.is_staff)


def per_case_visible(*, user, release: Release) -> bool:
    """Whether ``user`` may see each case's result of runs on ``release`` (see the module docstring): the rule of
    ``can_see_answers``, since on a hidden release a per-case verdict gives the gold away one bit at a time."""
    return can_see_answers(user=user, release=release)


def trajectories_visible(*, user) -> QuerySet[Trajectory]:
    """The trajectories whose per-case result ``user`` may see: of runs they may open, on public releases, or
    on any release for curators and staff."""
    rows = Trajectory.objects.filter(run__in=runs_visible(user=user))
    if _reads_hidden(user):
        return rows
    return rows.filter(run__release__split=Release.PUBLIC)


def scores_shown(scores: dict[str, Any], *, full: bool) -> dict:
    """A trajectory's stored scores as shown: whole, or only each metric's public fields."""
    if full:
        return scores
    return {
        name: {k: v for k, v in result.items() if k in SCORE_PUBLIC_FIELDS}
        for name, result in scores.items()
        if isinstance(result, dict)
    }


def step_shown(step: dict[str, Any], *, full: bool) -> dict:
    """A step document as shown: whole, or with its arguments, observation and model text set to None."""
    if full:
        return step
    return {k: v if k in STEP_PUBLIC_FIELDS else None for k, v in step.items()}


def trajectory_shown(document: dict[str, Any], *, full: bool) -> dict:
    """A trajectory document (``final_answer``, ``scores``, ``steps``) as shown, cut by the rules above."""
    if full:
        return document
    shown = {k: None if k in TRAJECTORY_PRIVATE_FIELDS else v for k, v in document.items()}
    if "scores" in shown:
        shown["scores"] = scores_shown(shown["scores"] or {}, full=False)
    if "steps" in shown:
        shown["steps"] = [step_shown(step, full=False) for step in shown["steps"] or []]
    return shown


def hidden_release_runners() -> str:
    value = settings.HIDDEN_RELEASE_RUNNERS
    if value not in RUNNERS:
        raise ValueError(f"HIDDEN_RELEASE_RUNNERS must be one of {', '.join(RUNNERS)}, got {value!r}")
    return value


def can_run_on(*, user, release: Release) -> bool:
    """Whether ``user`` may start a run on ``release``: any signed-in user on a public release; on a
    hidden one curators and staff, or any signed-in user where HIDDEN_RELEASE_RUNNERS is "all"."""
    if not (user and user.is_authenticated):
        return False
    if release.split == Release.PUBLIC or hidden_release_runners() == "all":
        return True
    return user.is_staff or is_curator(user)


def release_run_check(*, user, release: Release) -> None:
    """Raises ValidationError (keyed ``release``) when ``user`` may not run on ``release``."""
    if not can_run_on(user=user, release=release):
        raise ValidationError(
            {
                "release": [
                    f"release {release.name} is hidden: only curators and staff may run on it; choose a public release"
                ]
            }
        )


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

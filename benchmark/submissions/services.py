"""Model submissions (services and selectors): a user's endpoint, a smoke test on 3 cases, then the full run.

``submission_create`` stores the endpoint (owned by the user, key encrypted) and queues a
smoke run (``EvaluationRun.purpose = "smoke"``, litellm agent, one case per category where
possible). When that run finishes, ``run_maybe_finish`` calls ``submission_smoke_finished``,
which reads the smoke report and, when it holds no blocking problem, creates and queues the
full run (purpose "evaluation", every case of the release). Nothing extra is stored: the report
is always recomputed from the smoke run's trajectories and model calls, and the full run is the
evaluation run of the same endpoint.

Submissions are limited per user (``SUBMISSIONS_PER_DAY`` smoke runs in 24 hours, staff exempt),
counted from the database, so the limit holds across processes.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from benchmark.agents.config import RunConfig
from benchmark.board.moderation import run_cancel_by
from benchmark.board.visibility import release_run_check
from benchmark.cases.models import Release
from benchmark.endpoints.services import endpoint_check, endpoint_create
from benchmark.runs.models import EvaluationRun
from benchmark.runs.services import run_create, run_enqueue
from kernel.vocabulary import Category

from .smoke import SmokeReport, full_run_of, smoke_report

log = logging.getLogger(__name__)

SMOKE_CASES = 3
WINDOW = timedelta(hours=24)


class SubmissionLimitReached(Exception):
    """The user has used up their submissions for now; ``retry_at`` says when they may submit again."""

    def __init__(self, *, limit: int, retry_at: datetime):
        self.limit, self.retry_at = limit, retry_at
        super().__init__(
            f"you have made {limit} submission{'s' if limit != 1 else ''} in the last 24 hours, "
            f"the limit; you may submit again after {retry_at:%Y-%m-%d %H:%M} UTC"
        )


# --- services ------------------------------------------------------------------------------------


def submission_create(
    *,
    user,
    name: str,
    model: str,
    api_base: str,
    api_key: str | None,
    concurrency: int = 4,
    requests_per_minute: int | None = None,
    params: dict | None = None,
    release: Release | None = None,
    no_key: bool = False,
    config: RunConfig | None = None,
    card: dict | None = None,
    full_run_per_cell: int | None = None,
) -> EvaluationRun:
    """Store the user's endpoint and queue its smoke run; returns the smoke run.

    Args:
        user: a signed-in user; they own the endpoint and the runs.
        release: the release to evaluate on; None for the newest public release.
        config: the settings of the smoke run and then the full run; None for the defaults (the paper's
            scaffold: 30 tool calls, temperature 0, 1 trial).
        no_key: the user says their server (at ``api_base``) takes no API key; an empty key without
            it is refused (the evaluation workers' own keys are never used).
        card: what the user declares of the model (``benchmark.endpoints.card``).
        full_run_per_cell: the full run is a stratified sample of this many cases per cell (a partial run,
            which ``evaluate --complete`` makes whole); None for every case.

    Raises:
        SubmissionLimitReached: the user submitted ``SUBMISSIONS_PER_DAY`` times in the last 24 hours.
        ValidationError: keyed by field (name, model, api_base, api_key, params, concurrency,
            requests_per_minute, release), saying what is allowed (a hidden release: who may run on it,
            ``HIDDEN_RELEASE_RUNNERS``). Never quotes the key.
    """
    if not (user and user.is_authenticated):
        raise ValidationError({"user": ["sign in to submit a model"]})
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one submission at a time per user
        submission_limit_check(user=user)
        release = submission_check(
            user=user,
            name=name,
            model=model,
            api_base=api_base,
            api_key=api_key,
            concurrency=concurrency,
            requests_per_minute=requests_per_minute,
            params=params,
            release=release,
            no_key=no_key,
            card=card,
        )
        endpoint = endpoint_create(
            name=name,
            model=model,
            api_base=api_base,
            api_key=api_key,
            params=params,
            concurrency=concurrency,
            requests_per_minute=requests_per_minute,
            owner=user,
            no_key=no_key,
            card=card,
        )
        smoke = run_create(
            agent="litellm",
            release=release,
            endpoint=endpoint,
            config=config or RunConfig(),
            name=f"{endpoint.name} (smoke test)",
            rename_duplicate=True,
            created_by=user,
            case_ids=smoke_case_ids(release=release),
            marks={"full_run_per_cell": full_run_per_cell} if full_run_per_cell else None,
        )
        EvaluationRun.objects.filter(id=smoke.id).update(purpose=EvaluationRun.SMOKE)
        smoke.purpose = EvaluationRun.SMOKE
        run_enqueue(run=smoke)  # the tasks are sent after commit
    smoke.refresh_from_db()
    return smoke


def submission_check(
    *,
    user,
    release: Release | None,
    skip: frozenset[str] = frozenset(),
    **endpoint_fields: Any,
) -> Release:
    """Check a submission's every field in one round; returns the release it will run on.

    Args:
        release: the release asked for; None for the newest public release.
        skip: fields whose problems the caller has already reported (a form's own checks); their
            problems are left out here, so each field's list says each thing once.
        endpoint_fields: name, model, api_base, api_key, params, concurrency, requests_per_minute, no_key
            (see ``endpoint_check``).

    Raises:
        ValidationError: keyed by field, with every problem of every field (not only the first field's).
    """
    errors: dict[str, list[str]] = {}
    try:
        release = release or submission_default_release()
        release_run_check(user=user, release=release)
    except ValidationError as exc:
        errors.update(exc.message_dict if hasattr(exc, "error_dict") else {"release": exc.messages})
    try:
        endpoint_check(**endpoint_fields, owner=user)
    except ValidationError as exc:
        errors.update(exc.message_dict)
    errors = {field: messages for field, messages in errors.items() if field not in skip}
    if errors:
        raise ValidationError(errors)
    assert release is not None  # set, or an error was raised above
    return release


def submission_cancel(*, user, run: EvaluationRun) -> int:
    """Cancel the user's own smoke run or full run (staff: anyone's); returns how many cases were stopped.

    The run page's cancel (``runs.moderation.run_cancel_by``, which records who cancelled), under the
    submission page's errors.

    Raises:
        PermissionDenied: the run is not a submission of this user's (and the user is not staff).
        ValidationError: the run has already ended.
    """
    try:
        return run_cancel_by(run=run, user=user)
    except ValueError as exc:
        raise ValidationError(str(exc)) from None


def submission_limit_check(*, user) -> None:
    """Raise SubmissionLimitReached when ``user`` may not submit now (staff may always).

    Raises:
        SubmissionLimitReached: with the time the oldest counted submission leaves the 24-hour window.
    """
    if user.is_staff:
        return
    limit = submissions_per_day()
    since = timezone.now() - WINDOW
    recent = list(
        EvaluationRun.objects.filter(created_by=user, purpose=EvaluationRun.SMOKE, created_at__gte=since)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(recent) >= limit:
        raise SubmissionLimitReached(limit=limit, retry_at=recent[-1] + WINDOW)


def smoke_run_finished(sender, *, run: EvaluationRun, **_) -> None:
    """The ``runs.signals.run_finished`` receiver: a finished smoke test moves its submission on."""
    if run.purpose == EvaluationRun.SMOKE:
        submission_smoke_finished(run=run)


def submission_smoke_finished(*, run: EvaluationRun) -> EvaluationRun | None:
    """Called when a smoke run has finished: queue the full run unless the smoke test found a
    blocking problem. Returns the full run, or None when the submission stops here.

    Safe to call again: a second call returns the full run already created.
    """
    if run.purpose != EvaluationRun.SMOKE or run.endpoint_id is None:
        return None
    report = smoke_report(run=run)
    if report.status != SmokeReport.PASSED:
        return None
    try:
        return _full_run_create(smoke=run)
    except Exception:  # the smoke run is finished either way; the report says the full run is missing
        log.exception("could not queue the full run of submission %s", run.id)
        return None


def submission_full_run_force(*, user, run: EvaluationRun) -> EvaluationRun:
    """Staff: queue the full run of a finished smoke run whatever its report says (a blocked submission run
    anyway, e.g. a model too small to pass the smoke test whose real numbers are wanted as a floor).

    Raises:
        PermissionError: ``user`` is not staff.
        ValueError: ``run`` is not a finished smoke run.
    """
    if not (user and user.is_staff):
        raise PermissionError("only staff may run a submission that its smoke test stopped")
    if run.purpose != EvaluationRun.SMOKE or run.endpoint_id is None:
        raise ValueError(f"run {run.id} is not a submission's smoke run")
    if run.status in (EvaluationRun.QUEUED, EvaluationRun.RUNNING):
        raise ValueError(f"smoke run {run.id} has not finished")
    full = _full_run_create(smoke=run)
    log.info("full run %s of smoke run %s queued by %s despite the smoke report", full.id, run.id, user)
    return full


def _full_run_create(*, smoke: EvaluationRun) -> EvaluationRun:
    with transaction.atomic():
        EvaluationRun.objects.select_for_update().get(id=smoke.id)  # two finishing workers: one creates it
        existing = full_run_of(smoke=smoke)
        if existing is not None:
            return existing
        assert smoke.endpoint is not None  # a smoke run tests an endpoint
        full = run_create(
            agent=smoke.agent,
            release=smoke.release,
            endpoint=smoke.endpoint,
            config=RunConfig.from_stored(smoke.config),
            marks={"smoke_run": smoke.id},
            per_cell=smoke.config.get("full_run_per_cell"),
            name=smoke.endpoint.name,
            rename_duplicate=True,
            created_by=smoke.created_by,
        )
        run_enqueue(run=full)
    return full


# --- selectors -----------------------------------------------------------------------------------


def submissions_per_day() -> int:
    value = settings.SUBMISSIONS_PER_DAY
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"SUBMISSIONS_PER_DAY must be a whole number of at least 1, got {value!r}")
    return value


def submission_default_release() -> Release:
    """The newest public release (submissions go there unless they name another).

    Raises:
        ValidationError: keyed ``release``, when there is no public release yet.
    """
    release = Release.objects.filter(split=Release.PUBLIC).order_by("-created_at", "-id").first()
    if release is None:
        raise ValidationError({"release": ["there is no public release to evaluate on yet; ask a curator"]})
    return release


def smoke_case_ids(*, release: Release) -> list[str]:
    """The smoke test's cases: the first case of each category at its lowest level (categories in
    the paper's order), topped up with the release's first cases when it has fewer categories."""
    rows = list(release.entries.order_by("case__level", "position").values_list("case__case_id", "case__category"))
    firsts: dict[str, str] = {}
    for case_id, category in rows:
        firsts.setdefault(category, case_id)
    chosen = [firsts[c] for c in Category if c in firsts][:SMOKE_CASES]
    for case_id, _category in sorted(rows, key=lambda r: r[0]):
        if len(chosen) >= SMOKE_CASES:
            break
        if case_id not in chosen:
            chosen.append(case_id)
    return chosen

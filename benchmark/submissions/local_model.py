"""The local model on the leaderboard: SmolLM2-135M-Instruct submitted and run as a user's model is.

``local_model_evaluate`` starts the local server (``benchmark.endpoints.local_model.server``), submits its
endpoint through ``submission_create`` (the endpoint checks, the egress guard with the server's address on
``PRIVATE_ENDPOINT_ADDRESSES``, the smoke test), runs the smoke test and then the full run in this process,
through the same trajectory executor the workers use. A 135M model does not pass the smoke test (it answers
in prose); the submission is then run anyway, as staff may (``submission_full_run_force``), since its real
numbers are the point. Running it again goes on where it stopped.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import TextIO

from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured

from benchmark.cases.models import Release
from benchmark.endpoints.egress import allowed_private_addresses
from benchmark.endpoints.local_model.server import (
    CARD,
    ENDPOINT_NAME,
    LITELLM_MODEL,
    PARAMS,
    LocalServer,
    local_server_log,
    local_server_start,
    server_speed,
)
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.driver import run_sync
from benchmark.runs.models import EvaluationRun

from .services import submission_create, submission_full_run_force
from .smoke import SmokeReport, full_run_of, smoke_report

OPERATOR = "local-model"  # the staff account that owns the local model's endpoint; it cannot sign in


@dataclass(frozen=True)
class LocalEvaluation:
    server: LocalServer
    smoke: EvaluationRun
    report: SmokeReport
    full: EvaluationRun
    forced: bool
    speed: dict  # llama.cpp's timings over this evaluation, and the cases' own (``speed_report``)


def local_model_evaluate(
    *,
    release: Release | None = None,
    per_cell: int | None = 2,
    progress: TextIO | None = None,
    prefix_reuse: bool = True,
) -> LocalEvaluation:
    """Serve, submit and run the local model on ``release`` (the newest public one by default).

    Args:
        per_cell: the full run's stratified sample, cases per cell; None for the whole release.
        prefix_reuse: False serves the model without reusing the previous request's tokens (to measure it).

    Raises:
        LocalModelUnavailable: the packages are missing or the server does not start.
        ImproperlyConfigured: the server's address is not on ``PRIVATE_ENDPOINT_ADDRESSES``.
        ValidationError: the submission is refused (the message names the field).
    """
    server = local_server_start(prefix_reuse=prefix_reuse)
    if (ipaddress.ip_address("127.0.0.1"), server.port) not in allowed_private_addresses():
        raise ImproperlyConfigured(
            f"the local model listens on {server.address}: list it in PRIVATE_ENDPOINT_ADDRESSES "
            f"(e.g. PRIVATE_ENDPOINT_ADDRESSES={server.address}) so that the egress guard lets its endpoint through"
        )
    log_start = len(local_server_log(port=server.port))
    operator = _operator()
    endpoint = ModelEndpoint.objects.filter(owner=operator, name=ENDPOINT_NAME, deleted_at__isnull=True).first()
    smoke = (
        EvaluationRun.objects.filter(endpoint=endpoint, purpose=EvaluationRun.SMOKE).order_by("id").first()
        if endpoint is not None
        else None
    )
    if smoke is None:
        smoke = submission_create(
            user=operator,
            name=ENDPOINT_NAME,
            model=LITELLM_MODEL,
            api_base=server.api_base,
            api_key=None,
            no_key=True,
            concurrency=1,  # one server, one conversation at a time (server.py)
            params=PARAMS,
            release=release,
            card=CARD,
            full_run_per_cell=per_cell,
        )
    _finish(smoke, progress)
    report = smoke_report(run=smoke)
    full = full_run_of(smoke=smoke)
    forced = full is None
    if full is None:
        full = submission_full_run_force(user=operator, run=smoke)
    _finish(full, progress)
    speed = server_speed(local_server_log(port=server.port)[log_start:]) | cases_speed(runs=[smoke, full])
    return LocalEvaluation(server=server, smoke=smoke, report=report, full=full, forced=forced, speed=speed)


def cases_speed(*, runs: list[EvaluationRun]) -> dict:
    """Cases, model calls and wall-clock seconds of the runs' trajectories (each from its start to its end)."""
    from benchmark.runs.models import ModelCall, Trajectory

    done = Trajectory.objects.filter(
        run__in=runs, status=Trajectory.DONE, started_at__isnull=False, finished_at__isnull=False
    )
    spans = done.values_list("started_at", "finished_at")
    seconds = sum((end - start).total_seconds() for start, end in spans if start and end)
    cases, calls = done.count(), ModelCall.objects.filter(trajectory__in=done).count()
    return {
        "cases": cases,
        "model_calls": calls,
        "seconds_per_case": round(seconds / cases, 2) if cases else None,
        "model_calls_per_s": round(calls / seconds, 2) if seconds else None,
    }


def _finish(run: EvaluationRun, progress: TextIO | None) -> None:
    """Run ``run``'s unfinished cases here (the tasks queued for the workers then find them done)."""
    run.refresh_from_db()
    if run.status not in (EvaluationRun.COMPLETED, EvaluationRun.CANCELLED, EvaluationRun.FAILED):
        run_sync(run=run, concurrency=1, progress=progress)
        run.refresh_from_db()


def _operator():
    user, created = get_user_model().objects.get_or_create(username=OPERATOR, defaults={"is_staff": True, "email": ""})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user

"""Runs: create, fan out, cancel, fail, reopen, resume and report progress.

A run's trajectories change status only in ``lifecycle`` (claim, finish, requeue, abandon); a run
completes there too, with its last trajectory.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.db.models import Count, F, Func, Q, Sum
from django.utils import timezone

from benchmark.agents.config import RUN_FILTERS, RunConfig
from benchmark.cases.models import Release
from benchmark.runs.listing import listing_fields_clean, platform_description
from benchmark.runs.models import EvaluationRun, RunToken, Step, Trajectory

from .dispatch import trajectories_enqueue
from .lifecycle import ACTIVE, claimable

SELF_DRIVEN_AGENTS = ("external", "upload")  # their cases arrive over MCP or in a file, never from workers


def run_create(
    *,
    agent: str,
    release: Release,
    endpoint=None,
    config: RunConfig | Mapping | None = None,
    name: str = "",
    limit: int | None = None,
    category: str | None = None,
    level: str | None = None,
    created_by=None,
    replay_of: EvaluationRun | None = None,
    case_ids: list[str] | None = None,
    marks: Mapping | None = None,
    rename_duplicate: bool = False,
    per_cell: int | None = None,
    model_name: str = "",
    description: str = "",
) -> EvaluationRun:
    """A queued run with one trajectory row per (release case, trial), filtered and limited.

    Args:
        config: the run's settings; a mapping is validated as user input (``RunConfig.from_input``),
            and what is left out takes its default.
        marks: what the stored config records beside the settings and filters, e.g. ``smoke_run``.
        name: unique among the release's runs; left out, the endpoint's name or the agent's, numbered
            ("reference (2)") when taken.
        rename_duplicate: number a taken ``name`` instead of refusing it (names the platform makes up).
        model_name, description: what a leaderboard listing needs (``listing.listing_problems``); the
            platform describes the runs it drives itself (``platform_description``) when ``description`` is "".
        per_cell: only the first ``per_cell`` cases (in release order) of each category and level: a stratified
            sample, listed as a partial run until ``run_complete`` adds the rest.

    Raises:
        ValueError: an unknown agent, a deleted endpoint, a limit under 1, a setting out of range or unknown
            (``RunConfigError``, naming the field and its range), no case matching the filters, or a ``name``
            another run of the release has (``RunNameTaken``).
    """
    from benchmark.agents.catalog import get_agent

    get_agent(agent)  # unknown agents fail here, with the list of registered ones
    for field, value in (("limit", limit), ("per_cell", per_cell)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(
                f"{field} must be a whole number of cases, 1 or more (leave it out for every case), got {value!r}"
            )
    if endpoint is not None and endpoint.deleted_at is not None:
        raise ValueError(f"endpoint {endpoint.name!r} was deleted by its owner; it cannot be run again")
    run_config = config if isinstance(config, RunConfig) else RunConfig.from_input(config or {})
    marks = dict(marks or {})
    if set(marks) & {*RunConfig.model_fields, *RUN_FILTERS}:
        raise ValueError(f"marks may not stand in for settings or filters: {sorted(marks)}")
    entries = release.entries.order_by("position")
    if category:
        entries = entries.filter(case__category=category)
    if level:
        entries = entries.filter(case__level=level)
    if case_ids is not None:  # e.g. a submission's smoke test: chosen cases
        entries = entries.filter(case__case_id__in=case_ids)
    if per_cell is not None:
        entries = entries.select_related("case")
    chosen = list(entries if limit is None else entries[:limit])
    if per_cell is not None:
        chosen = _first_per_cell(chosen, per_cell)
    if not chosen:
        raise ValueError("no case of the release matches the filters")
    model_name, description = listing_fields_clean(model_name=model_name, description=description)
    filters = {key: value for key, value in zip(RUN_FILTERS, (limit, category, level, per_cell), strict=True) if value}
    with transaction.atomic():
        Release.objects.select_for_update().filter(id=release.id).first()  # one name check at a time per release
        wanted = name or (endpoint.name if endpoint else agent)
        if name and not rename_duplicate:
            run_name_check(release=release, name=name)
        else:
            wanted = run_name_free(release=release, name=wanted)
        run = EvaluationRun.objects.create(
            name=wanted,
            agent=agent,
            endpoint=endpoint,
            model_name=model_name,
            description=description or platform_description(agent=agent, endpoint=endpoint, created_by=created_by),
            release=release,
            config={**run_config.stored(), **filters, **marks},
            created_by=created_by,
            replay_of=replay_of,
        )
        Trajectory.objects.bulk_create(
            [Trajectory(run=run, entry=entry, trial=trial) for entry in chosen for trial in range(run_config.trials)]
        )
    return run


def _first_per_cell(entries: list, per_cell: int) -> list:
    taken: dict[tuple[str, str], int] = {}
    chosen = []
    for entry in entries:
        cell = (entry.case.category, entry.case.level)
        if taken.get(cell, 0) < per_cell:
            taken[cell] = taken.get(cell, 0) + 1
            chosen.append(entry)
    return chosen


def run_complete(*, run: EvaluationRun) -> int:
    """Add every case of the release the run left out (each trial), so that it covers the whole release.

    The run's filters are dropped from its stored config (its settings stay); a finished run is RUNNING again
    with the new cases queued (nothing is sent: ``run_enqueue`` or ``run_sync`` runs them). Returns how many
    trajectories were added.

    Raises:
        ValueError: a replay or smoke run (they cover chosen cases by design), or a deleted endpoint.
    """
    if run.replay_of_id or run.purpose != EvaluationRun.EVALUATION:
        raise ValueError(f"run {run.id} is a {'replay' if run.replay_of_id else run.purpose}: it is not completed")
    if run.endpoint is not None and run.endpoint.deleted_at is not None:
        raise ValueError(f"run {run.id} cannot be completed: its endpoint {run.endpoint.name!r} was deleted")
    trials = RunConfig.from_stored(run.config).trials
    with transaction.atomic():
        EvaluationRun.objects.select_for_update().filter(id=run.id).first()
        have = set(run.trajectories.values_list("entry_id", "trial"))
        missing = [
            Trajectory(run=run, entry_id=entry_id, trial=trial)
            for entry_id in run.release.entries.order_by("position").values_list("id", flat=True)
            for trial in range(trials)
            if (entry_id, trial) not in have
        ]
        Trajectory.objects.bulk_create(missing)
        config = {key: value for key, value in run.config.items() if key not in RUN_FILTERS}
        changes: dict = {"config": config}
        if missing:
            changes |= {"status": EvaluationRun.RUNNING, "finished_at": None}
        EvaluationRun.objects.filter(id=run.id).update(**changes)
    run.refresh_from_db()
    return len(missing)


class RunNameTaken(ValueError):
    """Another run of the release has this name: names tell runs apart on the leaderboard."""


def run_name_check(*, release: Release, name: str) -> None:
    """Raises RunNameTaken when a run of ``release`` is already called ``name`` (case-insensitive)."""
    if EvaluationRun.objects.filter(release=release, name__iexact=name).exists():
        raise RunNameTaken(
            f"name {name!r} is already taken by a run of release {release.name}: run names are unique per release"
        )


def run_name_free(*, release: Release, name: str) -> str:
    """``name``, or the first of "name (2)", "name (3)", ... that no run of ``release`` has."""
    taken = {
        n.lower()
        for n in EvaluationRun.objects.filter(release=release, name__istartswith=name).values_list("name", flat=True)
    }
    candidate, number = name, 1
    while candidate.lower() in taken:
        number += 1
        candidate = f"{name} ({number})"
    return candidate


def run_enqueue(*, run: EvaluationRun, only_stale: bool = False) -> int:
    """Queue a task per unfinished trajectory (after commit). Returns how many were queued."""
    if run.agent in SELF_DRIVEN_AGENTS:
        raise ValueError(f"run {run.id} belongs to the {run.agent!r} agent, which drives itself; workers cannot run it")
    pending = run.trajectories.filter(status__in=ACTIVE)
    if only_stale:
        pending = pending.filter(claimable())
    # Longest cases first (by their reference path): the end of a run does not wait on long cases that started last.
    longest = Func(F("entry__snapshot__reference_path"), function="jsonb_array_length").desc(nulls_last=True)
    ids = list(pending.order_by(longest, "id").values_list("id", flat=True))
    EvaluationRun.objects.filter(id=run.id, status__in=[EvaluationRun.QUEUED, EvaluationRun.RUNNING]).update(
        status=EvaluationRun.RUNNING, started_at=timezone.now()
    )
    trajectories_enqueue(ids)
    return len(ids)


def run_cancel(*, run: EvaluationRun) -> int:
    """Stop a run: queued trajectories are cancelled; the ones in flight on workers finish and are kept.

    The run's tokens (external agents) are revoked, and the cases those agents hold are cancelled
    too: nobody can finish them any more.
    """
    with transaction.atomic():
        EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.CANCELLED, finished_at=timezone.now())
        RunToken.objects.filter(run_id=run.id, revoked=False).update(revoked=True)
        stopped = [Trajectory.QUEUED, Trajectory.RUNNING] if run.agent in SELF_DRIVEN_AGENTS else [Trajectory.QUEUED]
        return run.trajectories.filter(status__in=stopped).update(status=Trajectory.CANCELLED)


def run_fail(*, run_id: int, error: str) -> bool:
    """End a queued or running run as FAILED with ``error`` (a cause no retry can fix, e.g. a missing API key).

    Its queued cases are cancelled; cases in flight end on their own. False when the run had already ended.
    """
    with transaction.atomic():
        changed = EvaluationRun.objects.filter(
            id=run_id, status__in=[EvaluationRun.QUEUED, EvaluationRun.RUNNING]
        ).update(status=EvaluationRun.FAILED, error=error[:5000], finished_at=timezone.now())
        if changed:
            Trajectory.objects.filter(run_id=run_id, status=Trajectory.QUEUED).update(status=Trajectory.CANCELLED)
    return changed == 1


def run_reopen(*, run: EvaluationRun) -> None:
    """Make a cancelled, failed or interrupted run RUNNING again with its cancelled cases queued (nothing is sent).

    Raises:
        ValueError: the run is completed, or its endpoint was deleted.
    """
    run.refresh_from_db(fields=["status", "endpoint"])
    if run.status == EvaluationRun.COMPLETED:
        raise ValueError(f"run {run.id} is completed: nothing is left to resume")
    if run.endpoint is not None and run.endpoint.deleted_at is not None:
        raise ValueError(f"run {run.id} cannot be resumed: its endpoint {run.endpoint.name!r} was deleted")
    with transaction.atomic():
        run.trajectories.filter(status=Trajectory.CANCELLED).update(status=Trajectory.QUEUED)
        EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.RUNNING, finished_at=None, error="")
    run.refresh_from_db()


def run_resume(*, run: EvaluationRun) -> int:
    """Start a cancelled or interrupted run again: every unfinished trajectory is queued once more.

    Rows still RUNNING under a fresh lease are left to their worker; dead workers' rows are
    reclaimed once their lease expires (the tasks re-check the claim).

    Raises:
        ValueError: see ``run_reopen``.
    """
    with transaction.atomic():
        run_reopen(run=run)
        return run_enqueue(run=run)


def run_progress(*, run: EvaluationRun) -> dict:
    counts = dict(run.trajectories.values_list("status").annotate(n=Count("id")))
    done = run.trajectories.filter(status=Trajectory.DONE)
    sums = done.aggregate(
        n_passed=Count("id", filter=Q(passed=True)),
        n_failed=Count("id", filter=Q(passed=False)),
        tokens_in=Sum("input_tokens"),
        tokens_out=Sum("output_tokens"),
    )
    return {
        "total": sum(counts.values()),
        "done": counts.get(Trajectory.DONE, 0),
        "running": counts.get(Trajectory.RUNNING, 0),
        "queued": counts.get(Trajectory.QUEUED, 0),
        "cancelled": counts.get(Trajectory.CANCELLED, 0),
        "passed": sums["n_passed"],
        "failed": sums["n_failed"],
        "tokens": (sums["tokens_in"] or 0) + (sums["tokens_out"] or 0),
        "tool_calls": Step.objects.filter(trajectory__run=run).count(),
    }

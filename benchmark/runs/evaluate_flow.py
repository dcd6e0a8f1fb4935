"""The evaluate command's flow (kept out of the command class so it can be tested and reused)."""

from __future__ import annotations

import os
from typing import TextIO

from benchmark.agents.config import RunConfig, run_config_from_options
from benchmark.cases.models import Release
from benchmark.runs.models import EvaluationRun

from .driver import run_queued, run_summary, run_sync
from .preflight import run_preflight
from .services import run_cancel, run_complete, run_create, run_enqueue, run_progress, run_reopen, run_resume


class RunInterrupted(Exception):
    """Ctrl-C while the command ran or followed a run; the message says what goes on and how to resume."""


def evaluate_command(opts: dict, *, progress: TextIO | None) -> str:
    """Run the evaluate command (see its --help); returns what it prints.

    Raises:
        ValueError, LookupError, ValidationError: a request that cannot be carried out (the message says why).
        RunInterrupted: Ctrl-C; the message says what became of the run and how to go on.
    """
    if opts.get("cancel"):
        run = _run(opts["cancel"])
        return f"Run {run.id} cancelled; {run_cancel(run=run)} queued cases will not run."
    if opts.get("complete"):
        run = _run(opts["complete"])
        added = run_complete(run=run)
        note = f"Completed run {run.id}: {added} cases added."
        if not added:
            return f"Run {run.id} already covers every case of {run.release.name}.\n" + run_summary(run=run)
        if opts.get("sync"):
            return _follow(run, opts, progress, note=note)
        run_enqueue(run=run)
        return _follow(run, opts, progress, already_queued=True, note=note)
    if opts.get("resume"):
        run = _run(opts["resume"])
        if opts.get("sync"):  # this process runs the cases: nothing is sent to the workers
            run_reopen(run=run)
            return _follow(run, opts, progress, note=f"Resumed run {run.id} in this process.")
        queued = run_resume(run=run)
        return _follow(run, opts, progress, already_queued=True, note=f"Resumed run {run.id}: {queued} cases queued.")
    if opts.get("replay"):
        run = _replay(_run(opts["replay"]))
    else:
        if opts.get("if_missing") and opts.get("agent"):
            release = _release(opts.get("release"))
            done = (
                EvaluationRun.objects.filter(
                    agent=opts["agent"], endpoint=None, release=release, status=EvaluationRun.COMPLETED
                )
                .order_by("-id")
                .first()
            )
            if done:
                return f"Agent {opts['agent']} already has completed run {done.id} on {done.release.name}."
        run = _new_run(opts)
    return _follow(run, opts, progress)


def _follow(run: EvaluationRun, opts: dict, progress, *, already_queued: bool = False, note: str = "") -> str:
    run_preflight(run=run)  # a missing API key fails the run here, not once per case after retries
    try:
        if opts.get("sync"):
            run_sync(run=run, concurrency=opts.get("concurrency") or 1, progress=progress)
        elif not already_queued:
            run_queued(run=run, progress=progress, wait=not opts.get("no_wait"))
        elif not opts.get("no_wait"):
            run_queued(run=run, progress=progress)
    except KeyboardInterrupt:
        raise RunInterrupted(interrupted_message(run=run, sync=bool(opts.get("sync")))) from None
    if opts.get("no_wait") and not opts.get("sync"):
        return (note + "\n" if note else "") + f"Run {run.id} queued ({run.trajectories.count()} cases)."
    return (note + "\n" if note else "") + run_summary(run=run)


def interrupted_message(*, run: EvaluationRun, sync: bool) -> str:
    """What Ctrl-C left of ``run``, and the commands that go on with it or stop it."""
    p = run_progress(run=run)
    left = p["queued"] + p["running"]
    state = f"{p['done']} of {p['total']} cases done, {left} left"
    stop = f"Cancel it with: manage.py evaluate --cancel {run.id}"
    if sync:
        return (
            f"Interrupted: run {run.id} stopped in this process ({state}); its unfinished cases stay queued "
            f"(where Celery workers run, the housekeeping sweep hands them to the workers).\n"
            f"Resume it here with: manage.py evaluate --resume {run.id} --sync\n"
            f"or on the workers with: manage.py evaluate --resume {run.id}\n{stop}"
        )
    return (
        f"Stopped following run {run.id}; the run goes on on the workers ({state}).\n"
        f"Follow it again with: manage.py evaluate --resume {run.id} (nothing is run twice)\n{stop}"
    )


def _run(run_id: int) -> EvaluationRun:
    run = EvaluationRun.objects.filter(id=run_id).first()
    if run is None:
        raise LookupError(f"no run {run_id}")
    return run


def _release(name: str | None) -> Release:
    release = Release.objects.filter(name=name).first() if name else Release.objects.order_by("-created_at").first()
    if release is None:
        raise LookupError(f"no release {name!r}" if name else "no release yet: run make cases (or freeze_release)")
    return release


def _new_run(opts: dict) -> EvaluationRun:
    if bool(opts.get("agent")) == bool(opts.get("model")):
        raise ValueError("give either --agent NAME or --model M (with --api-base and --api-key-env)")
    config = run_config_from_options(opts)  # before the endpoint is stored: a bad option names itself
    endpoint = None
    agent = opts.get("agent") or "litellm"  # --model runs the endpoint with the litellm agent
    if opts.get("model"):
        from benchmark.endpoints.services import endpoint_for_cli

        key = None
        if opts.get("api_key_env"):
            key = os.environ.get(opts["api_key_env"])
            if key is None:
                raise ValueError(f"--api-key-env: the variable {opts['api_key_env']} is not set")
        endpoint = endpoint_for_cli(
            model=opts["model"],
            api_base=opts.get("api_base") or "",
            api_key=key,
            concurrency=opts.get("concurrency") or 4,
        )
    return run_create(
        agent=agent,
        release=_release(opts.get("release")),
        endpoint=endpoint,
        config=config,
        name=opts.get("name") or "",
        limit=opts.get("limit"),
        per_cell=opts.get("per_cell"),
        category=opts.get("category"),
        level=opts.get("level"),
    )


def _replay(source: EvaluationRun) -> EvaluationRun:
    """A new run of the same agent, endpoint, release, configuration and cases, answered from the recording."""
    from .recording import recording_pruned

    if recording_pruned(source):
        raise ValueError(
            f"run {source.id} cannot be replayed: its recorded model responses were pruned on "
            f"{recording_pruned(source)} (MODEL_CALL_RETENTION_DAYS; see docs/operations.md)"
        )
    cases = source.trajectories.values_list("entry_id", flat=True).distinct()
    run = run_create(
        agent=source.agent,
        release=source.release,
        endpoint=source.endpoint,
        config=RunConfig.from_stored(source.config),
        name=f"replay of {source.name}",
        rename_duplicate=True,
        replay_of=source,
    )
    run.trajectories.exclude(entry_id__in=list(cases)).delete()
    return run

"""A fault drill: an endpoint run of the litellm agent on real Celery workers, a Redis broker of its own,
the scripted endpoint (a perfect agent over real HTTP) and the test database; then the checks that
nothing was lost or duplicated, and the figures of what the fault cost.

Everything a production run has is real here: litellm, the cross-worker caps in Redis, the MCP
tools on PostGIS, claims, leases, scoring, the run's aggregates. Only the model is scripted.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from django.db.models import Count, Q, Sum

from benchmark.cases.models import Release
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun, ModelCall, Step, Trajectory
from devtools.fake_endpoint import ScriptedEndpoint
from tests.fakes.redis_server import RedisServer
from tests.processes import (
    celery_broker,
    child_database_url,
    child_env,
    kill_process_group,
    start_celery_beat,
    start_celery_worker,
    wait_for,
)

FIGURES: list[DrillFigures] = []  # printed at the end of the session (conftest's terminal summary)


@dataclass(frozen=True)
class DrillFigures:
    fault: str
    trajectories: int
    seconds: float  # from queueing the run to its completion
    requests: int  # HTTP requests the endpoint answered
    recorded_calls: int  # ModelCall rows kept
    retries: int  # attempts beyond the first, within the kept calls
    discarded_requests: int  # requests made by executions that were thrown away (killed, retried)
    claimed_again: int  # trajectories claimed more than once (lease expired, or the task retried)
    model_errors: int  # trajectories that ended model_error (the model failed for good)
    note: str = ""

    def line(self) -> str:
        return (
            f"{self.fault:<26} {self.trajectories:>4} {self.seconds:>7.1f} {self.requests:>8} "
            f"{self.recorded_calls:>6} {self.retries:>7} {self.discarded_requests:>9} {self.claimed_again:>7} "
            f"{self.model_errors:>6}  {self.note}"
        )

    @staticmethod
    def header() -> str:
        return (
            f"{'fault':<26} {'traj':>4} {'seconds':>7} {'requests':>8} {'calls':>6} {'retries':>7} "
            f"{'discarded':>9} {'claimed':>7} {'failed':>6}  note"
        )


class Drill:
    """One drill: ``start()``, ``worker()`` as many as wanted, ``enqueue()``, inject the fault,
    ``wait_completed()``, ``check()``, ``figures()``; ``close()`` always."""

    def __init__(
        self,
        *,
        directory: Path,
        release: Release,
        cases: int,
        trials: int = 2,
        delay_s: float = 0.1,
        fail_rate: float = 0.0,
        lease_s: int = 25,
        sweep_s: int = 2,
    ):
        self.directory, self.release = directory, release
        self.cases, self.trials = cases, trials
        self.delay_s, self.fail_rate = delay_s, fail_rate
        self.lease_s, self.sweep_s = lease_s, sweep_s
        self.redis = RedisServer(directory / "redis")
        self.endpoint: ScriptedEndpoint | None = None
        self.model: ModelEndpoint | None = None
        self.run: EvaluationRun | None = None
        self.runs: list[EvaluationRun] = []
        self.workers: list[subprocess.Popen] = []
        self.beat: subprocess.Popen | None = None
        self._cleanup = contextlib.ExitStack()
        self._queued_at = 0.0
        self._served_before = 0

    def start(self, *, concurrency: int) -> Drill:
        """Redis, beat, the scripted endpoint and a first run. ``concurrency``: the endpoint's cap on requests in
        flight across workers; above the workers' slots, so that a slot a fault leaks does not stall the drill.

        The lease (``lease_s``) stays above the 20 s heartbeat of benchmark/runs/execute.py, as in
        production: a shorter one lets the sweep take a case from a live worker whenever a case runs long."""
        from benchmark.endpoints.services import endpoint_for_cli

        self.redis.start()
        self._cleanup.enter_context(celery_broker(self.redis.url(0)))
        self.endpoint = ScriptedEndpoint.for_release(
            self.release, delay_s=self.delay_s, fail_rate=self.fail_rate, seed=7
        ).start()
        self.model = endpoint_for_cli(
            model="openai/scripted", api_base=self.endpoint.url, api_key="sk-drill-not-secret", concurrency=concurrency
        )
        self.new_run(cases=self.cases, trials=self.trials)
        self.beat = start_celery_beat(
            self.worker_env(), schedule=self.directory / "beat-schedule", log=self.directory / "beat.log"
        )
        return self

    def new_run(self, *, cases: int, trials: int) -> EvaluationRun:
        """A run of the first ``cases`` cases of the release, ``trials`` each, on the drill's endpoint."""
        from benchmark.runs.services import run_create

        self.cases, self.trials = cases, trials
        self.run = run_create(
            agent="litellm",
            release=self.release,
            endpoint=self.model,
            limit=cases,
            config={"trials": trials},
            name=f"fault drill {self.directory.name} {uuid.uuid4().hex[:8]}",  # run names are unique per release
        )
        self.runs.append(self.run)
        return self.run

    def worker_env(self, *, database_url: str | None = None, **extra: str) -> dict[str, str]:
        return child_env(
            DATABASE_URL=database_url or child_database_url(),
            REDIS_URL=self.redis.url(0),
            EVALUATION_LEASE_SECONDS=str(self.lease_s),
            HOUSEKEEPING_SWEEP_SECONDS=str(self.sweep_s),
            ALLOW_PRIVATE_ENDPOINTS="1",
            **extra,
        )

    def worker(self, *, concurrency: int = 3, database_url: str | None = None, **env: str) -> subprocess.Popen:
        """Start a worker (threads pool), ``env`` added to its environment; its output goes to worker-N.log in the
        drill's directory."""
        log = self.directory / f"worker-{len(self.workers)}.log"
        process = start_celery_worker(
            self.worker_env(database_url=database_url, **env),
            pool="threads",
            concurrency=concurrency,
            name="drill",
            log=log,
        )
        self.workers.append(process)
        return process

    def enqueue(self) -> None:
        from benchmark.runs.services import run_enqueue

        self._queued_at = time.monotonic()
        self._served_before = self.endpoint.served
        run_enqueue(run=self.run)

    def done(self) -> int:
        return self.run.trajectories.filter(status=Trajectory.DONE).count()

    def wait_done(self, count: int, timeout: float = 120) -> None:
        wait_for(
            lambda: self._working() and self.done() >= count, timeout, f"{count} finished trajectories", interval=0.1
        )

    def wait_completed(self, timeout: float = 150) -> float:
        """Wait for the run to complete; returns the seconds since it was queued."""
        wait_for(
            lambda: self._working() and EvaluationRun.objects.get(id=self.run.id).status == EvaluationRun.COMPLETED,
            timeout,
            f"run {self.run.id} to complete",
            interval=0.2,
        )
        return time.monotonic() - self._queued_at

    def total(self) -> int:
        return self.cases * self.trials

    def check(self, *, model_may_fail: bool | None = None) -> None:
        """The run is whole: one finished trajectory per (case, trial), nothing half-written, no
        infrastructure fault recorded as the agent's doing (by default only a failing endpoint may fail a case)."""
        may_fail = self.endpoint.fail_rate > 0 if model_may_fail is None else model_may_fail
        check_run_whole(self.run, expected=self.total(), model_may_fail=may_fail)

    def figures(self, fault: str, seconds: float, note: str = "") -> DrillFigures:
        calls = ModelCall.objects.filter(trajectory__run=self.run).aggregate(n=Count("id"), attempts=Sum("attempts"))
        counts = self.run.trajectories.aggregate(
            again=Count("id", filter=Q(attempts__gt=1)), failed=Count("id", filter=Q(ended="model_error"))
        )
        requests = self.endpoint.served - self._served_before
        figures = DrillFigures(
            fault=fault,
            trajectories=self.total(),
            seconds=round(seconds, 1),
            requests=requests,
            recorded_calls=calls["n"],
            retries=(calls["attempts"] or 0) - calls["n"],
            discarded_requests=requests - (calls["attempts"] or 0),
            claimed_again=counts["again"],
            model_errors=counts["failed"],
            note=note,
        )
        FIGURES.append(figures)
        return figures

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
            for path in sorted(self.directory.glob("*.log"))
        )

    def close(self) -> None:
        for process in [*self.workers, *([self.beat] if self.beat else [])]:
            kill_process_group(process)
        if self.endpoint is not None:
            self.endpoint.stop()
        self._cleanup.close()
        self.redis.stop()
        EvaluationRun.objects.filter(id__in=[run.id for run in self.runs]).delete()
        if self.model is not None and not EvaluationRun.objects.filter(endpoint=self.model).exists():
            self.model.delete()

    def _working(self) -> bool:
        """True while a started worker lives; fails at once (with their logs) when every one has exited."""
        if self.workers and all(worker.poll() is not None for worker in self.workers):
            raise AssertionError(f"every worker exited:\n{self.logs()}")
        return True


def check_run_whole(run: EvaluationRun, *, expected: int, model_may_fail: bool) -> None:
    """Assert: completed; exactly ``expected`` trajectories, one per (case, trial), all DONE; step indices
    and model-call sequences contiguous from 0; every trajectory passed unless ``model_may_fail`` and its
    model failed for good, which is then recorded on the trajectory and on its last model call; no tool
    call hit an internal error."""
    run.refresh_from_db()
    assert run.status == EvaluationRun.COMPLETED, run.status
    trajectories = list(run.trajectories.all())
    assert len(trajectories) == expected
    assert len({(t.entry_id, t.trial) for t in trajectories}) == expected
    assert {t.status for t in trajectories} == {Trajectory.DONE}
    steps = _by_trajectory(Step.objects.filter(trajectory__run=run).values_list("trajectory_id", "index"))
    calls = _by_trajectory(ModelCall.objects.filter(trajectory__run=run).values_list("trajectory_id", "sequence"))
    for t in trajectories:
        assert steps.get(t.id, []) == list(range(len(steps.get(t.id, [])))), f"steps of trajectory {t.id}"
        assert calls.get(t.id, []) == list(range(len(calls.get(t.id, [])))), f"model calls of trajectory {t.id}"
        assert calls.get(t.id), f"trajectory {t.id} has no recorded model call"
        if t.ended == "model_error" and model_may_fail:
            last = t.model_calls.order_by("-sequence").first()
            assert t.error and last.error and last.response is None, f"trajectory {t.id}'s failure is not recorded"
        else:
            assert t.ended == "submitted" and t.passed, f"trajectory {t.id} ended {t.ended}: {t.error[:300]}"
            assert not t.model_calls.exclude(error="").exists(), f"trajectory {t.id} kept a failed call"
    internal = list(Step.objects.filter(trajectory__run=run, error_kind="other").values("tool", "observation"))
    assert not internal, f"tool calls failed inside the platform: {internal}"
    assert run.aggregates["table2"]["n"] == expected


def _by_trajectory(pairs) -> dict[int, list[int]]:
    grouped: dict[int, list[int]] = {}
    for trajectory_id, number in sorted(pairs):
        grouped.setdefault(trajectory_id, []).append(number)
    return grouped

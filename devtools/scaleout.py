"""Scale-out measurement: the same cases on 1, 2, 4 ... worker processes, and what each case costs
the shared services (PostgreSQL rows and bytes, Redis commands, judge verdicts).

Used by ``manage.py bench_scaleout``; the figures and their arithmetic are in docs/operations.md
("Scale-out, measured").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count

from benchmark.runs.models import EvaluationRun, ModelCall, Step, Trajectory
from devtools.fake_endpoint import ScriptedEndpoint

CPU_PARTS = ("workers", "endpoint", "postgres", "redis")


class JitteredEndpoint(ScriptedEndpoint):
    """The scripted endpoint, taking ``delay_s`` +/- up to ``jitter_s`` (uniform) per answer, as a provider does."""

    def __init__(self, paths: dict[str, list[dict]], *, delay_s: float = 0.0, jitter_s: float = 0.0, **kwargs):
        self._base_delay_s, self.jitter_s = delay_s, jitter_s
        super().__init__(paths, delay_s=delay_s, **kwargs)

    @property
    def delay_s(self) -> float:
        if not self.jitter_s:
            return self._base_delay_s
        return max(0.0, self._base_delay_s + random.uniform(-self.jitter_s, self.jitter_s))

    @delay_s.setter
    def delay_s(self, value: float) -> None:
        self._base_delay_s = value


@dataclass(frozen=True)
class DatabaseCounters:
    """PostgreSQL's cumulative counters for this database (every client's work: measure on a quiet server)."""

    transactions: int  # committed; a read in autocommit is one too
    sessions: int  # connections opened
    wal_bytes: int  # WAL written by the whole cluster

    def __sub__(self, other: DatabaseCounters) -> DatabaseCounters:
        return DatabaseCounters(
            self.transactions - other.transactions, self.sessions - other.sessions, self.wal_bytes - other.wal_bytes
        )


@dataclass
class ScaleoutStep:
    """One measurement: ``workers`` processes on the same cases."""

    workers: int
    run_id: int
    cases: int
    passed: int
    elapsed_s: float
    model_calls: int
    cpu_s: dict[str, float] = field(default_factory=dict)  # CPU seconds of each of CPU_PARTS
    redis_commands: int = 0
    connections: int = 0  # most PostgreSQL connections the workers held at once
    database: DatabaseCounters = DatabaseCounters(0, 0, 0)

    @property
    def cases_per_s(self) -> float:
        return self.cases / self.elapsed_s if self.elapsed_s else 0.0

    @property
    def calls_per_s(self) -> float:
        return self.model_calls / self.elapsed_s if self.elapsed_s else 0.0


@dataclass(frozen=True)
class CaseCosts:
    """What one finished (case, trial) wrote and asked for, averaged over a run."""

    cases: int
    steps: float  # Step rows per case
    step_bytes: float  # stored size of a case's steps (arguments, observation, model text)
    model_calls: float  # ModelCall rows per case
    model_call_bytes: float  # stored size of a case's recorded requests and responses
    trajectory_bytes: float  # the trajectory row (answer, scores)
    judge_verdicts: float  # SC and RP verdicts a case needs from each configured judge


def run_case_costs(*, run: EvaluationRun) -> CaseCosts:
    """Rows and stored bytes per finished case of ``run``, read from PostgreSQL (``pg_column_size``)."""
    done = run.trajectories.filter(status=Trajectory.DONE)
    cases = done.count() or 1
    step_bytes = _column_bytes("benchmark_step", "trajectory_id", ["arguments", "observation", "model_text"], run)
    call_bytes = _column_bytes("benchmark_modelcall", "trajectory_id", ["request", "response", "error"], run)
    trajectory_bytes = _column_bytes("benchmark_trajectory", "id", ["final_answer", "scores", "error"], run)
    return CaseCosts(
        cases=cases,
        steps=Step.objects.filter(trajectory__in=done).count() / cases,
        step_bytes=step_bytes / cases,
        model_calls=ModelCall.objects.filter(trajectory__in=done).count() / cases,
        model_call_bytes=call_bytes / cases,
        trajectory_bytes=trajectory_bytes / cases,
        judge_verdicts=run_judge_verdicts(run=run) / cases,
    )


def release_sample(*, release, size: int) -> list[str]:
    """``size`` case ids spread evenly over the release (by position), so every cell is represented."""
    ids = list(release.entries.order_by("position").values_list("case__case_id", flat=True))
    if size >= len(ids):
        return ids
    return [ids[i * len(ids) // size] for i in range(size)]


def run_judge_verdicts(*, run: EvaluationRun) -> int:
    """SC and RP verdicts the run's cases need from each judge (0 of them are asked when no judge is set)."""
    from judging.metrics import applies

    cells = run.trajectories.values_list("entry__case__category", "entry__case__level").annotate(n=Count("id"))
    return sum(n * (applies("SC", category, level) + applies("RP", category, level)) for category, level, n in cells)


def _column_bytes(table: str, key: str, columns: list[str], run: EvaluationRun) -> int:
    sizes = " + ".join(f"coalesce(pg_column_size(t.{column}), 0)" for column in columns)
    where = (
        "t.trajectory_id IN (SELECT id FROM benchmark_trajectory WHERE run_id = %s)"
        if key == "trajectory_id"
        else "t.run_id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT coalesce(sum({sizes}), 0) FROM {table} t WHERE {where}", [run.id])  # noqa: S608
        return int(cursor.fetchone()[0])


def redis_counters(url: str) -> tuple[int, float]:
    """(commands run, CPU seconds used) by the Redis server at ``url`` since it started: counters, read twice."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        commands = sum(int(stats["calls"]) for stats in client.info("commandstats").values())
        cpu = client.info("cpu")
        return commands, float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])
    finally:
        client.close()


def database_counters() -> DatabaseCounters:
    """The counters now; read before and after a run and subtract."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT xact_commit, sessions, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') "
            "FROM pg_stat_database WHERE datname = current_database()"
        )
        return DatabaseCounters(*(int(value) for value in cursor.fetchone()))


def speedups(steps: list[ScaleoutStep]) -> list[float]:
    """Each step's cases per second over the first step's."""
    base = steps[0].cases_per_s if steps and steps[0].cases_per_s else 1.0
    return [step.cases_per_s / base for step in steps]


def scaleout_table(steps: list[ScaleoutStep], *, concurrency: int) -> str:
    """The throughput curve and where the CPU went, one line per step."""
    lines = [
        f"{'workers':>7} {'x conc':>6} {'cases':>5} {'passed':>6} {'elapsed s':>9} {'cases/s':>7} "
        f"{'calls/s':>7} {'speed-up':>8}  CPU ms per model call (workers, endpoint, postgres, redis); "
        "per case: Redis commands, PostgreSQL transactions, connections opened, WAL KiB; most connections "
        "held at once"
    ]
    for step, speedup in zip(steps, speedups(steps), strict=True):
        per_call = [step.cpu_s.get(part, 0.0) * 1000 / max(1, step.model_calls) for part in CPU_PARTS]
        lines.append(
            f"{step.workers:>7} {concurrency:>6} {step.cases:>5} {step.passed:>6} {step.elapsed_s:>9.1f} "
            f"{step.cases_per_s:>7.2f} {step.calls_per_s:>7.1f} {speedup:>7.2f}x  "
            + " ".join(f"{ms:.1f}" for ms in per_call)
            + _per_case(step)
            + f"; {step.connections}"
        )
    return "\n".join(lines)


def _per_case(step: ScaleoutStep) -> str:
    cases, db = max(1, step.cases), step.database
    return (
        f"; {step.redis_commands / cases:.0f}, {db.transactions / cases:.0f}, {db.sessions / cases:.2f}, "
        f"{db.wal_bytes / 1024 / cases:.0f}"
    )


def costs_text(costs: CaseCosts) -> str:
    return (
        f"per case (mean of {costs.cases}): {costs.steps:.1f} steps, {costs.step_bytes / 1024:.1f} KiB; "
        f"{costs.model_calls:.1f} model calls, {costs.model_call_bytes / 1024:.1f} KiB recorded; trajectory row "
        f"{costs.trajectory_bytes / 1024:.1f} KiB; {costs.judge_verdicts:.2f} judge verdicts per judge"
    )

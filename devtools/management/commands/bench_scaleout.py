import contextlib
import os
import signal
import subprocess
import time

from django.core.management.base import BaseCommand, CommandError


def _worker_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        counts = []
    if not counts or any(n < 1 or n > 64 for n in counts):
        raise CommandError(
            f"--workers must be a comma-separated list of worker counts from 1 to 64, e.g. 1,2,4; got {text!r}"
        )
    return counts


class Command(BaseCommand):
    help = (
        "Scale-out benchmark: the same cases of a release, run by the litellm agent against the scripted "
        "endpoint (a realistic, optionally jittered latency) on 1, 2, 4 ... Celery worker processes in turn. "
        "Prints the throughput curve, where the CPU went, and what each case writes to PostgreSQL and asks "
        "of Redis. Use a Redis database of its own (REDIS_URL) so that no other worker takes its tasks."
    )

    def add_arguments(self, parser):
        parser.add_argument("--release", required=True)
        parser.add_argument(
            "--limit",
            type=int,
            default=60,
            help="Cases of the release, spread evenly over it (every cell is represented).",
        )
        parser.add_argument("--workers", default="1,2,4", help="Worker process counts to measure, in turn.")
        parser.add_argument("--pool", choices=["prefork", "threads"], default="threads")
        parser.add_argument("--concurrency", type=int, default=8, help="Tasks at once per worker process.")
        parser.add_argument("--delay", type=float, default=1.0, help="Mean seconds the endpoint takes per answer.")
        parser.add_argument("--jitter", type=float, default=0.0, help="Answer time varies by +/- this (uniform).")
        parser.add_argument(
            "--endpoint-concurrency",
            type=int,
            help="The endpoint's cap on requests in flight across workers (ModelEndpoint."
            "concurrency); default: never binding (workers x concurrency).",
        )
        parser.add_argument("--keep-runs", action="store_true", help="Keep the runs (default: delete them after).")

    def handle(self, *args, **opts):
        from django.conf import settings

        from benchmark.cases.models import Release
        from benchmark.endpoints.services import endpoint_for_cli
        from devtools.scaleout import JitteredEndpoint, costs_text, run_case_costs, scaleout_table

        counts = _worker_counts(opts["workers"])
        self._check(opts)
        release = Release.objects.filter(name=opts["release"]).first()
        if release is None:
            raise CommandError(f"no release {opts['release']!r}")
        if not settings.ALLOW_PRIVATE_ENDPOINTS:
            raise CommandError("the scripted endpoint listens on 127.0.0.1: run with ALLOW_PRIVATE_ENDPOINTS=1")
        endpoint = JitteredEndpoint.for_release(release, delay_s=opts["delay"], jitter_s=opts["jitter"]).start()
        steps, runs = [], []
        try:
            for n in counts:
                cap = opts["endpoint_concurrency"] or n * opts["concurrency"]
                model = endpoint_for_cli(
                    model="openai/scripted", api_base=endpoint.url, api_key="sk-bench-not-secret", concurrency=cap
                )
                step, run = self._measure(n, opts, release=release, model=model, redis_url=settings.REDIS_URL)
                steps.append(step)
                runs.append(run)
                self.stderr.write(f"{n} worker(s): {step.cases} cases in {step.elapsed_s:.1f} s")
            self.stdout.write(
                f"release {release.name}, {opts['limit']} cases, endpoint {opts['delay']} s "
                f"+/- {opts['jitter']} s, pool {opts['pool']}\n"
                + scaleout_table(steps, concurrency=opts["concurrency"])
                + "\n"
                + costs_text(run_case_costs(run=runs[-1]))
            )
        finally:
            endpoint.stop()
            if not opts["keep_runs"]:
                _delete(runs)

    def _check(self, opts) -> None:
        if opts["limit"] < 1:
            raise CommandError(f"--limit must be 1 or more, got {opts['limit']}")
        if not 1 <= opts["concurrency"] <= 256:
            raise CommandError(f"--concurrency must be from 1 to 256, got {opts['concurrency']}")
        if opts["delay"] < 0 or opts["jitter"] < 0 or opts["jitter"] > opts["delay"]:
            raise CommandError(
                f"--delay must be 0 or more and --jitter from 0 to --delay; got {opts['delay']} and {opts['jitter']}"
            )

    def _measure(self, n: int, opts, *, release, model, redis_url: str):
        """Start ``n`` workers, run the cases once, stop the workers; the step and its run."""
        from benchmark.runs.models import EvaluationRun, ModelCall
        from benchmark.runs.services import run_create, run_enqueue, run_progress
        from devtools.scaleout import ScaleoutStep, database_counters, redis_counters, release_sample

        from .bench_evaluation import Command as BenchEvaluation
        from .bench_evaluation import CpuMeter

        bench = BenchEvaluation()
        run = run_create(
            agent="litellm",
            release=release,
            endpoint=model,
            case_ids=release_sample(release=release, size=opts["limit"]),
            name=f"scaleout {n}x{opts['concurrency']} {opts['pool']} delay {opts['delay']}",
        )
        names = [f"scaleout-{time.monotonic_ns()}-{i}" for i in range(n)]
        workers = [bench._worker(opts, name) for name in names]
        try:
            bench._wait_ready(names, workers)  # start-up is not timed
            meter = CpuMeter(worker_pids=[w.pid for w in workers])
            redis_before, db_before = redis_counters(redis_url), database_counters()
            started = time.perf_counter()
            run_enqueue(run=run)
            held = 0
            while EvaluationRun.objects.get(id=run.id).status == EvaluationRun.RUNNING:
                time.sleep(0.5)
                meter.sample()
                held = max(held, _held(meter))
            elapsed = time.perf_counter() - started
            meter.sample()
            redis_after, db_after = redis_counters(redis_url), database_counters()
        finally:
            _stop(workers)
        progress = run_progress(run=run)
        used = {name: meter.now[name] - meter.start[name] for name in meter.start}
        cpu = {
            "workers": used["workers"],
            "endpoint": used["command (endpoint)"] - getattr(meter, "own_s", 0.0),
            "postgres": meter.postgres_s(),  # the whole cluster
            "redis": redis_after[1] - redis_before[1],
        }  # this Redis server only, from its INFO
        step = ScaleoutStep(
            workers=n,
            run_id=run.id,
            cases=progress["done"],
            passed=progress["passed"],
            elapsed_s=elapsed,
            model_calls=ModelCall.objects.filter(trajectory__run=run).count(),
            cpu_s=cpu,
            redis_commands=redis_after[0] - redis_before[0],
            connections=held,
            database=db_after - db_before,
        )
        return step, run


def _held(meter) -> int:
    """PostgreSQL connections the workers hold now: the meter's backends of theirs still alive."""
    return sum(1 for pid in meter.backends if os.path.exists(f"/proc/{pid}"))


def _stop(workers: list[subprocess.Popen], timeout_s: float = 60) -> None:
    """Warm shutdown (SIGTERM to each worker's process group), then SIGKILL for any still running."""
    for worker in workers:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    for worker in workers:
        try:
            worker.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def _delete(runs) -> None:
    """The benchmark's runs, and their endpoint once no run uses it."""
    from benchmark.endpoints.models import ModelEndpoint
    from benchmark.runs.models import EvaluationRun

    endpoints = {run.endpoint_id for run in runs}
    EvaluationRun.objects.filter(id__in=[run.id for run in runs]).delete()
    ModelEndpoint.objects.filter(id__in=endpoints, runs__isnull=True).delete()

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

REPO = Path(__file__).resolve().parents[3]


class Command(BaseCommand):
    help = ("Throughput of evaluation runs: the litellm agent against the scripted endpoint (which answers with "
            "each case's reference path), on N Celery worker processes. Prints elapsed time, cases and model calls "
            "per second, and the harness time per tool call.")

    def add_arguments(self, parser):
        parser.add_argument("--release", required=True)
        parser.add_argument("--workers", type=int, default=2, help="Celery worker processes to start.")
        parser.add_argument("--pool", choices=["prefork", "threads"], default="prefork")
        parser.add_argument("--concurrency", type=int, default=1, help="Tasks at once per worker.")
        parser.add_argument("--delay", type=float, default=0.0, help="Seconds the endpoint takes per answer.")
        parser.add_argument("--limit", type=int)

    def handle(self, *args, **opts):
        from django.conf import settings

        from benchmark.evaluation.endpoints import endpoint_for_cli
        from benchmark.evaluation.fake_endpoint import ScriptedEndpoint
        from benchmark.evaluation.runs import run_create, run_enqueue, run_progress
        from benchmark.models import EvaluationRun, ModelCall, Release, Step

        release = Release.objects.filter(name=opts["release"]).first()
        if release is None:
            raise CommandError(f"no release {opts['release']!r}")
        if not settings.ALLOW_PRIVATE_ENDPOINTS:
            raise CommandError("the scripted endpoint listens on 127.0.0.1: run with ALLOW_PRIVATE_ENDPOINTS=1")
        endpoint = ScriptedEndpoint.for_release(release, delay_s=opts["delay"]).start()
        model = endpoint_for_cli(model="openai/scripted", api_base=endpoint.url, api_key="sk-bench-not-secret",
                                 concurrency=max(1, opts["workers"] * opts["concurrency"]))
        run = run_create(agent="litellm", release=release, endpoint=model, limit=opts["limit"],
                         name=f"bench {opts['workers']}x{opts['concurrency']} {opts['pool']} delay {opts['delay']}")
        workers = [self._worker(opts) for _ in range(opts["workers"])]
        try:
            time.sleep(3)  # let the workers connect
            started = time.perf_counter()
            run_enqueue(run=run)
            while EvaluationRun.objects.get(id=run.id).status == EvaluationRun.RUNNING:
                time.sleep(0.5)
            elapsed = time.perf_counter() - started
        finally:
            for worker in workers:
                os.killpg(worker.pid, signal.SIGTERM)
            endpoint.stop()
        progress = run_progress(run=run)
        calls = ModelCall.objects.filter(trajectory__run=run).count()
        steps = Step.objects.filter(trajectory__run=run)
        harness_ms = sum(steps.values_list("latency_ms", flat=True)) / max(1, steps.count())
        run.refresh_from_db()
        self.stdout.write(
            f"run {run.id}: {progress['done']} cases ({progress['passed']} passed) on {opts['workers']} worker(s) "
            f"x {opts['concurrency']} ({opts['pool']}), endpoint delay {opts['delay']} s\n"
            f"elapsed {elapsed:.1f} s; {progress['done'] / elapsed:.1f} cases/s; {calls} model calls, "
            f"{calls / elapsed:.1f} calls/s; {steps.count()} tool calls, harness {harness_ms:.1f} ms per tool call "
            f"(MCP client, gateway, tool)")

    def _worker(self, opts) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "lifeplanner_site", "worker", f"--pool={opts['pool']}",
             f"--concurrency={opts['concurrency']}", "--without-gossip", "--without-mingle", "--loglevel=WARNING",
             "-n", f"bench-{time.monotonic_ns()}@%h"],
            cwd=REPO, env=os.environ.copy(), start_new_session=True, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)

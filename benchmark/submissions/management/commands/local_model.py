import sys

from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "The local model (SmolLM2-135M-Instruct on llama-cpp-python, 127.0.0.1:LOCAL_MODEL_PORT): start, stop or "
        "status of its server, or evaluate: submit it as a user's model and run it (docs/submitting.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["start", "stop", "status", "evaluate"])
        parser.add_argument("--release", help="evaluate: the release (default: the newest public release).")
        parser.add_argument(
            "--per-cell",
            type=int,
            default=2,
            metavar="N",
            help="evaluate: the full run's stratified sample, N cases per cell (0: the whole release).",
        )
        parser.add_argument("--keep", action="store_true", help="evaluate: leave the server running afterwards.")
        parser.add_argument(
            "--no-prefix-reuse",
            action="store_true",
            help="evaluate: serve without reusing the previous request's tokens (to measure what the reuse saves).",
        )
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, **opts):
        from benchmark.endpoints.local_model.server import (
            LocalModelUnavailable,
            local_server_start,
            local_server_status,
            local_server_stop,
        )

        action = opts["action"]
        try:
            if action == "start":
                server = local_server_start()
                self.stdout.write(f"Local model server {server.pid} on {server.api_base}")
            elif action == "stop":
                self.stdout.write("Stopped the local model server." if local_server_stop() else "It was not running.")
            elif action == "status":
                running = local_server_status()
                self.stdout.write(f"Running: {running.pid} on {running.api_base}" if running else "Not running.")
            else:
                try:
                    self._evaluate(opts)
                finally:
                    if not opts["keep"]:
                        local_server_stop()
        except (LocalModelUnavailable, ImproperlyConfigured, ValidationError, ValueError, LookupError) as exc:
            raise CommandError(str(exc)) from None

    def _evaluate(self, opts):
        from benchmark.cases.models import Release
        from benchmark.runs.driver import run_summary
        from benchmark.submissions.local_model import local_model_evaluate

        release = None
        if opts["release"]:
            release = Release.objects.filter(name=opts["release"]).first()
            if release is None:
                raise LookupError(f"no release {opts['release']!r}")
        if opts["per_cell"] < 0:
            raise ValueError("--per-cell must be 0 (the whole release) or more")
        done = local_model_evaluate(
            release=release,
            per_cell=opts["per_cell"] or None,
            prefix_reuse=not opts["no_prefix_reuse"],
            progress=None if opts["no_progress"] else sys.stderr,
        )
        problems = "; ".join(p.message for p in done.report.blocking) or "none"
        self.stdout.write(f"Smoke test (run {done.smoke.id}): {done.report.status}; blocking problems: {problems}")
        if done.forced:
            self.stdout.write("The full run was queued anyway (staff): a 135M model is not expected to pass it.")
        self.stdout.write(run_summary(run=done.full))
        self.stdout.write(
            "Speed (this evaluation: smoke test and full run): "
            + ", ".join(f"{key} {value}" for key, value in done.speed.items())
        )
        if opts["per_cell"]:
            self.stdout.write(
                f"A stratified sample ({opts['per_cell']} cases per cell), listed as partial. Run the rest with:\n"
                f"  PRIVATE_ENDPOINT_ADDRESSES={done.server.address} python manage.py local_model start\n"
                f"  PRIVATE_ENDPOINT_ADDRESSES={done.server.address} python manage.py evaluate "
                f"--complete {done.full.id} --sync --concurrency 1"
            )

import sys

from django.core.management.base import BaseCommand, CommandError

from benchmark.agents.config import add_run_config_arguments
from kernel.vocabulary import Category, Level

INTERRUPTED = 130  # the shell's exit status for a command ended by Ctrl-C (128 + SIGINT)


class Command(BaseCommand):
    help = "Evaluate an agent or a model endpoint on a release (in-process with --sync, or on Celery workers)."

    def add_arguments(self, parser):
        who = parser.add_argument_group("what to evaluate")
        who.add_argument("--agent", help="Agent registry name: reference, heuristic, litellm.")
        who.add_argument("--model", help="litellm model string of an endpoint (implies the litellm agent).")
        who.add_argument("--api-base", default="", help="Endpoint API base URL.")
        who.add_argument("--api-key-env", help="Environment variable that holds the endpoint's API key.")
        parser.add_argument("--release", help="Release name (default: the newest release).")
        parser.add_argument("--limit", type=int, help="Only the first N cases (N >= 1); every case when left out.")
        parser.add_argument(
            "--per-cell",
            type=int,
            metavar="N",
            help="A stratified sample: the first N cases of each category and level (a partial run; --complete "
            "adds the rest).",
        )
        parser.add_argument("--category", choices=[category.value for category in Category])
        parser.add_argument("--level", choices=[level.value for level in Level])
        add_run_config_arguments(parser.add_argument_group("the run's settings"))
        parser.add_argument(
            "--concurrency",
            type=int,
            default=4,
            help="--sync: cases at once in this process; endpoints: requests in flight.",
        )
        parser.add_argument("--name", default="")
        parser.add_argument("--sync", action="store_true", help="Run in this process; no broker needed.")
        parser.add_argument("--no-wait", action="store_true", help="Queue the run and return.")
        parser.add_argument("--no-progress", action="store_true")
        parser.add_argument(
            "--if-missing",
            action="store_true",
            help="Do nothing when this agent already has a completed run on the release.",
        )
        control = parser.add_argument_group("existing runs")
        control.add_argument(
            "--replay",
            type=int,
            metavar="RUN",
            help="Re-run RUN from its recorded model responses (no endpoint is called).",
        )
        control.add_argument("--resume", type=int, metavar="RUN", help="Queue RUN's unfinished cases again.")
        control.add_argument("--cancel", type=int, metavar="RUN", help="Cancel RUN.")
        control.add_argument(
            "--complete",
            type=int,
            metavar="RUN",
            help="Add the cases a sampled or filtered RUN left out, and run them (the run then covers the release).",
        )

    def handle(self, *args, **opts):
        from django.core.exceptions import ValidationError

        from benchmark.runs.evaluate_flow import RunInterrupted, evaluate_command

        try:
            output = evaluate_command(opts, progress=None if opts["no_progress"] else sys.stderr)
        except (ValueError, ValidationError, LookupError) as exc:
            raise CommandError(str(exc)) from None
        except RunInterrupted as exc:  # Ctrl-C: say what became of the run, without a traceback
            self.stderr.write(str(exc))
            raise SystemExit(INTERRUPTED) from None
        except KeyboardInterrupt:
            self.stderr.write("Interrupted before a run was started.")
            raise SystemExit(INTERRUPTED) from None
        self.stdout.write(output)

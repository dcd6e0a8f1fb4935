from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Clear the request and response bodies of recorded model calls of runs finished more than N days ago "
        "(default MODEL_CALL_RETENTION_DAYS); the rows' metadata, steps and scores stay, and those runs can no "
        "longer be replayed. See docs/operations.md."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--older-than",
            type=int,
            metavar="DAYS",
            help="Days since the run finished (default MODEL_CALL_RETENTION_DAYS; 0 prunes nothing).",
        )
        parser.add_argument("--dry-run", action="store_true", help="Report what would be cleared; change nothing.")

    def handle(self, *args, **opts):
        from benchmark.operations.retention import model_calls_prune

        try:
            report = model_calls_prune(older_than_days=opts["older_than"], dry_run=opts["dry_run"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if report.older_than_days == 0:
            self.stdout.write("Retention is 0 days (keep forever): nothing pruned.")
            return
        verb = "Would clear" if report.dry_run else "Cleared"
        for run in report.runs:
            self.stdout.write(
                f"  run {run['run']} ({run['name']}, finished {run['finished_at']}): "
                f"{run['calls']} calls, {run['bytes']} bytes"
            )
        self.stdout.write(
            f"{verb} {report.calls} model calls of {len(report.runs)} runs finished before "
            f"{report.cutoff} ({report.bytes} bytes of request and response bodies)."
        )

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Restore a backup_results file into this (migrated, empty) database and verify it against the backup. "
        "Refuses a database that already holds results, is at other migrations, or has another city version. "
        "See docs/operations.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="A file written by backup_results.")
        parser.add_argument(
            "--allow-city-mismatch",
            action="store_true",
            help="Restore even when this database's city version differs (scores may not match "
            "what the tools answer now); prints a warning.",
        )

    def handle(self, *args, **opts):
        from benchmark.operations.dbtools import DatabaseToolError
        from benchmark.operations.restore import RestoreMismatch, results_restore

        try:
            report = results_restore(path=opts["file"], allow_city_mismatch=opts["allow_city_mismatch"])
        except (ValueError, RestoreMismatch, DatabaseToolError) as exc:
            raise CommandError(str(exc)) from None
        for warning in report.warnings:
            self.stderr.write(f"WARNING: {warning}")
        self.stdout.write(
            f"Restored and verified {sum(report.tables.values())} rows of {len(report.tables)} tables "
            f"in {report.seconds} s."
        )

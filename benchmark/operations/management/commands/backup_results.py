from pathlib import Path

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Back up the results (releases, cases, runs, trajectories, scores, judge records, endpoints, users) with "
        "pg_dump into one file; the city is not included. See docs/operations.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("--out", required=True, type=Path, help="The backup file to write (mode 0600).")
        parser.add_argument("--overwrite", action="store_true", help="Replace an existing file.")

    def handle(self, *args, **opts):
        from benchmark.operations.backup import BackupError, results_backup
        from benchmark.operations.dbtools import DatabaseToolError

        try:
            manifest = results_backup(out=opts["out"], overwrite=opts["overwrite"])
        except (BackupError, DatabaseToolError) as exc:
            raise CommandError(str(exc)) from None
        rows = sum(t["rows"] for t in manifest["tables"].values())
        cities = ", ".join(f"{name} {version[:12]}" for name, version in manifest["cities"].items()) or "none"
        self.stdout.write(
            f"Backed up {rows} rows of {len(manifest['tables'])} tables to {opts['out']} "
            f"({manifest['dump']['bytes']} bytes); cities: {cities}."
        )

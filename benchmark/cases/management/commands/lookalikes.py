"""List the look-alikes of every L2 case: the places a solver without notes cannot tell apart from the gold."""

import sys

from django.core.management.base import BaseCommand, CommandError

from benchmark.cases.audit.lookalike_report import lookalike_report
from benchmark.cases.models import Case, Release
from benchmark.cases.selectors import case_documents


class Command(BaseCommand):
    help = (
        "For each L2 case, the places that meet every visible constraint of its question as well as the gold "
        "does (the look-alikes), the kind of fact that settles it, and the cases with fewer than 3 look-alikes; "
        "exit 1 when any L2 case has fewer. Writes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--release", help="report on this release's frozen snapshots")
        parser.add_argument("--status", choices=[s for s, _ in Case.STATUSES])
        parser.add_argument("--case", dest="case_ids", action="append", help="only this case (repeatable)")
        parser.add_argument("--names", action="store_true", help="name every look-alike (default: count them)")
        parser.add_argument(
            "--replay",
            action="store_true",
            help="also replay each reading path's searches through the real search_notes and report, per cell, "
            "what the tool lists and whether the rule settles the gold from it",
        )

    def handle(self, *args, release=None, status=None, case_ids=None, names=False, replay=False, **options):
        frozen = None
        if release:
            frozen = Release.objects.filter(name=release).first()
            if frozen is None:
                raise CommandError(f"no release named {release!r}")
        documents = [
            d
            for d in case_documents(release=frozen)
            if (status is None or d.status == status) and (not case_ids or d.case_id in case_ids)
        ]
        report = lookalike_report(documents=documents, replay=replay)
        for row in report.rows:
            listed = ", ".join(row.lookalike_names) if names else ""
            self.stdout.write(
                f"{row.case_id:<40} {row.need:<28} {row.fact_kind:<10} {row.gold_name} ({row.gold}): "
                f"{row.count if row.count is not None else '-'} look-alikes{': ' + listed if listed else ''}"
                + (f"  [{row.problem}]" if row.problem else "")
            )
        self.stdout.write("")
        self.stdout.write(report.table())
        self.stdout.write("")
        self.stdout.write(report.evidence_table())
        self.stdout.write("")
        self.stdout.write(report.rank_table())
        self.stdout.write("")
        if replay:
            self.stdout.write(report.replay_table())
            self.stdout.write("")
        short = report.short()
        self.stdout.write(f"L2 cases with fewer than {report.minimum} look-alikes: {len(short)}")
        for row in short:
            self.stdout.write(f"  {row.case_id}: {row.problem or f'{row.count} look-alikes'}")
        if short:
            sys.exit(1)

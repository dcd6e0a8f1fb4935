"""Verify every case (or every snapshot of a release) and report the failures."""

import sys

from django.core.management.base import BaseCommand, CommandError

from benchmark.cases.audit.verify import documents_verify
from benchmark.cases.models import Case, Release
from benchmark.cases.selectors import case_documents


class Command(BaseCommand):
    help = "Verify cases; print each failing case with its failures; exit 1 when any fails. Writes nothing."

    def add_arguments(self, parser):
        parser.add_argument("--release", help="verify this release's frozen snapshots")
        parser.add_argument("--status", choices=[s for s, _ in Case.STATUSES])

    def handle(self, *args, release=None, status=None, **options):
        frozen = None
        if release:
            frozen = Release.objects.filter(name=release).first()
            if frozen is None:
                raise CommandError(f"no release named {release!r}")
        population = case_documents(release=frozen)
        documents = [d for d in population if status is None or d.status == status]
        failed = 0
        for doc, result in documents_verify(documents=documents, population=population):
            if not result.ok:
                failed += 1
                self.stdout.write(f"FAIL {doc.case_id}: {'; '.join(result.failures)}")
        self.stdout.write(f"{len(documents)} verified, {failed} failed")
        if failed:
            sys.exit(1)

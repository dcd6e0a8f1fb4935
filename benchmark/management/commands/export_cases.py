"""Export cases (or a release's frozen snapshots) as JSONL."""
from django.core.management.base import BaseCommand, CommandError

from benchmark.cases.services import cases_export
from benchmark.models import Release


class Command(BaseCommand):
    help = "Write every case (or the snapshots of --release) to PATH, one case document per line."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--release", help="export this release's frozen snapshots")

    def handle(self, *args, path, release=None, **options):
        frozen = None
        if release:
            frozen = Release.objects.filter(name=release).first()
            if frozen is None:
                raise CommandError(f"no release named {release!r}")
        count = cases_export(path=path, release=frozen)
        self.stdout.write(f"wrote {count} cases to {path}")

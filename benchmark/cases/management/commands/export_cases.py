"""Export cases (or a release's frozen snapshots) as JSONL; a hidden release's answers only when asked."""

from django.core.management.base import BaseCommand, CommandError

from benchmark.cases.models import Release
from benchmark.cases.services import HiddenAnswersRefused, cases_export


class Command(BaseCommand):
    help = (
        "Write every case (or the snapshots of --release) to PATH, one case document per line. Cases of a hidden "
        "release (in no public one) are left out, and a hidden --release refused, unless --include-hidden."
    )

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--release", help="export this release's frozen snapshots")
        parser.add_argument(
            "--include-hidden",
            action="store_true",
            help="write the answers of hidden releases too (the file is then for curators only)",
        )

    def handle(self, *args, path, release=None, include_hidden=False, **options):
        frozen = None
        if release:
            frozen = Release.objects.filter(name=release).first()
            if frozen is None:
                raise CommandError(f"no release named {release!r}")
        try:
            result = cases_export(path=path, release=frozen, include_hidden=include_hidden)
        except HiddenAnswersRefused as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"wrote {result.written} cases to {path}")
        if result.withheld:
            self.stdout.write(
                f"left out {len(result.withheld)} case(s) of hidden releases (their answers are for "
                "curators); --include-hidden writes them"
            )
        if result.holds_hidden_answers:
            self.stderr.write(
                self.style.WARNING(f"warning: {path} holds the answers of a hidden release: keep it to curators")
            )

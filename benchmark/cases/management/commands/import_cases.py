"""Import case documents from JSONL, optionally freezing them as a release."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from benchmark.cases.models import Release
from benchmark.cases.services import CaseImportError, cases_import


class Command(BaseCommand):
    help = "Create or update cases from PATH (one case document per line); --release freezes them."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--release", help="freeze the imported cases as a release of this name")
        parser.add_argument("--split", choices=[s for s, _ in Release.SPLITS], default=Release.PUBLIC)

    def handle(self, *args, path, release=None, split, **options):
        try:
            result = cases_import(path=path, release_name=release, split=split)
        except (CaseImportError, OSError) as exc:
            raise CommandError(str(exc)) from None
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(
            f"{len(result.created)} created, {len(result.updated)} updated, {len(result.unchanged)} unchanged"
        )
        if result.release:
            self.stdout.write(f"froze release {result.release.name} ({result.release.content_hash})")

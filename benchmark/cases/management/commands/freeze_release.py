"""Freeze the validated cases matching the filters as a new release."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from benchmark.cases.models import CATEGORIES, LEVELS, Case, Release
from benchmark.cases.services import release_exposure_warning, release_freeze


class Command(BaseCommand):
    help = (
        "Freeze every validated case (optionally of one category and level) as release NAME; warns when some are "
        "also in a release of the other split (a hidden case already public, or a public one revealing a hidden "
        "release's answers)."
    )

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--split", choices=[s for s, _ in Release.SPLITS], default=Release.PUBLIC)
        parser.add_argument("--category", choices=[c for c, _ in CATEGORIES])
        parser.add_argument("--level", choices=[v for v, _ in LEVELS])
        parser.add_argument("--description", default="")

    def handle(self, *args, name, split, category=None, level=None, description, **options):
        cases = Case.objects.filter(status=Case.VALIDATED)
        if category:
            cases = cases.filter(category=category)
        if level:
            cases = cases.filter(level=level)
        try:
            release = release_freeze(name=name, split=split, cases=cases, description=description)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(f"froze release {release.name}: {release.entries.count()} cases, {release.content_hash}")
        warning = release_exposure_warning(release=release)
        if warning:  # a case in a public and a hidden release has its answer public
            self.stderr.write(self.style.WARNING(warning))

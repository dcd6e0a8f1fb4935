"""Print, per cell, how many distinct question skeletons a release (or every case) uses."""

from django.core.management.base import BaseCommand, CommandError

from benchmark.cases.document import case_type
from benchmark.cases.models import Release
from benchmark.cases.selectors import case_documents
from benchmark.cases.skeletons import case_place_ids, skeleton_stats
from environment.selectors import place_points
from judging.vocabulary import CELLS


class Command(BaseCommand):
    help = (
        "Question skeletons per cell (place names and numbers masked): cases, distinct skeletons, the share "
        "of the most used skeleton."
    )

    def add_arguments(self, parser):
        parser.add_argument("--release", help="the release's snapshots (default: every case)")
        parser.add_argument("--examples", action="store_true", help="print each cell's most used skeleton")

    def handle(self, *args, release=None, examples=False, **options):
        frozen = None
        if release:
            frozen = Release.objects.filter(name=release).first()
            if frozen is None:
                raise CommandError(f"no release named {release!r}")
        documents = case_documents(release=frozen)
        ids_by_city: dict[str, set[str]] = {}
        for doc in documents:
            ids_by_city.setdefault(doc.city_name, set()).update(case_place_ids(doc))
        names = {
            pid: point.name
            for city, ids in sorted(ids_by_city.items())
            for pid, point in place_points(city_name=city, place_ids=ids).items()
        }
        rows = {r.cell: r for r in skeleton_stats(documents, names)}
        order = [case_type(c, lv) for c, lv in CELLS]
        self.stdout.write(f"{'cell':<12} {'cases':>6} {'skeletons':>10} {'largest share':>14}")
        for cell in order + sorted(set(rows) - set(order)):
            if cell in rows:
                r = rows[cell]
                self.stdout.write(f"{cell:<12} {r.cases:>6} {r.skeletons:>10} {100 * r.top_share:>13.1f}%")
                if examples:
                    self.stdout.write(f"    most used: {r.top}")

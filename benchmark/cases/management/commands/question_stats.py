"""Print, per cell, how many distinct question skeletons a release (or every case) uses."""

from django.core.management.base import BaseCommand, CommandError

from benchmark.cases.audit.skeletons import case_place_ids, shared, skeleton_stats
from benchmark.cases.document import case_type
from benchmark.cases.models import Release
from benchmark.cases.needs import NEEDS
from benchmark.cases.phrasings import BANKS, bank_phrasings
from benchmark.cases.selectors import case_documents
from environment.selectors import place_points
from kernel.vocabulary import CELLS


class Command(BaseCommand):
    help = (
        "Question skeletons per cell (place names and numbers masked): cases, distinct skeletons, the share "
        "of the most used skeleton; with --against, what two releases share."
    )

    def add_arguments(self, parser):
        parser.add_argument("--release", help="the release's snapshots (default: every case)")
        parser.add_argument("--examples", action="store_true", help="print each cell's most used skeleton")
        parser.add_argument(
            "--against",
            metavar="RELEASE",
            help="also report what this other release shares with it (needs, need phrasings, skeletons) and the "
            "phrasings each need has in each bank",
        )

    def handle(self, *args, release=None, examples=False, against=None, **options):
        frozen = _release(release) if release else None
        other = _release(against) if against else None
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
        if other is not None:
            self._shared(release or "every case", documents, other)

    def _shared(self, name: str, documents, other) -> None:
        both = shared(documents, case_documents(release=other))
        self.stdout.write("")
        self.stdout.write(f"shared by {name} and {other.name} (goal: nothing):")
        for label, items in (("needs", both.needs), ("need phrasings", both.phrasings), ("skeletons", both.skeletons)):
            self.stdout.write(f"  {label:<15} {len(items):>3}" + (f"  {', '.join(items[:8])}" if items else ""))
        self.stdout.write("")
        self.stdout.write(
            f"{'need':<28} " + " ".join(f"{bank:>7}" for bank in BANKS) + "  (phrasings per bank; a need is in one)"
        )
        for key in sorted(NEEDS):
            counts = [len(bank_phrasings(key, bank)) if NEEDS[key].bank == bank else 0 for bank in BANKS]
            self.stdout.write(f"{key:<28} " + " ".join(f"{n:>7}" for n in counts))


def _release(name: str) -> Release:
    found = Release.objects.filter(name=name).first()
    if found is None:
        raise CommandError(f"no release named {name!r}")
    return found

"""Print the corpus report of a built city: varied text, noise by kind, the facts that hold, where questions sit."""

from collections import Counter

from django.core.management.base import BaseCommand, CommandError

from environment import selectors
from environment.build.corpus.kinds import kind_of, sub_of
from environment.build.corpus.plan import CASE_WEEK
from environment.build.corpus.report import Label, Spot, corpus_report
from environment.build.corpus.vocab import LONG_TERM, SHORT_TERM
from environment.tools.context import CityNotBuilt, city_context


class Command(BaseCommand):
    help = (
        "The corpus report of a built city (docs/corpus.md): distinct evidence sentences and comment texts, as "
        "written and with names, numbers and dates masked; note kinds and evidence stances; notes per place; the "
        "facts that hold under the evidence rule; where questions and hearsay sit. Writes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--city", default="helsinki")

    def handle(self, *args, city="helsinki", **options):
        try:
            ctx = city_context(city)
        except CityNotBuilt as exc:
            raise CommandError(str(exc)) from None
        counts = selectors.corpus_counts(city_id=ctx.city_id)
        places = selectors.place_rows(city_id=ctx.city_id)
        keys = [s for s in LONG_TERM + SHORT_TERM if s.deniable]
        spots = [
            Spot(
                p.place_id,
                p.lon,
                p.lat,
                frozenset(s.key for s in keys if s.fits(kind_of(p.place_type), sub_of(p.place_type))),
            )
            for p in places
        ]
        held = selectors.fact_keys(city_id=ctx.city_id, kinds=("long_term", "short_term"))
        holders: dict[str, set[str]] = {}
        for place_id, facts in held.items():
            for key in facts:
                holders.setdefault(key, set()).add(place_id)
        live = Counter(
            key for key, start, end in counts.dated if start and end and start <= CASE_WEEK[0] and CASE_WEEK[1] <= end
        )
        report = corpus_report(
            note_kinds=Counter(counts.note_kinds),
            notes_per_place=counts.notes_per_place,
            comment_texts=counts.comment_texts,
            labels=[Label(r.place_id, r.key, r.stance, r.text) for r in selectors.evidence_rows(city_id=ctx.city_id)],
            facts=Counter(counts.facts),
            live_in_case_week=live,
            names=[n for p in places for n in (p.name, *p.alias.split(" | ")) if n],
            spots=spots,
            holders=holders,
            placement_keys=[s.key for s in keys],
        )
        self.stdout.write(f"Corpus of {city} ({ctx.city_version[:12]})")
        for line in report.lines():
            self.stdout.write(line)

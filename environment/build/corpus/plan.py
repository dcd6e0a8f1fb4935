"""What each place's posts will say: the facts it holds, and every evidence item about them and about rivals' facts.

Three passes over the places, each place drawing from its own random stream:

1. :func:`held_facts`: the facts a place holds, weighted, among those that fit its kind.
2. :func:`evidence_plan`: the evidence items of every place. A held fact is backed by two to
   four visitors (sometimes after an old denial, sometimes with a question or a rumour beside
   it). A fact the place does NOT hold may still be talked about, the way
   people talk about a thing they saw elsewhere: more often when a place nearby that the
   fact fits holds it (so the places a question compares the gold with carry decoys). A
   decoy is one of: a thing that ended, a single report, rumours, questions,
   a comparison crediting another place, a dated state now over, a denial, an advert or spam.
3. The writer (:mod:`.writer`) turns the items into notes and comments.

Each item says who posts it, when, and whether in a note of its own or as a comment; the
writer keeps those, so the evidence rule (:mod:`environment.evidence`) gives each planned
fact the status the plan meant (tests check that it does for every one).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from environment.evidence import ASKS, CREDITS, ENDED, HEARSAY, NEGATES, PROMO, SPAM, SUPPORTS
from environment.records import PlaceRecord

from .fact_spec import FactSpec
from .kinds import kind_of, sub_of
from .text import label_day, label_span
from .vocab import LONG_TERM, SHORT_TERM, STATIC, fitting

WINDOW_START = datetime(2023, 1, 1, tzinfo=UTC)
WINDOW_END = datetime(2026, 12, 5, 23, 59, 59, tzinfo=UTC)
AS_OF = datetime(2026, 12, 6, tzinfo=UTC)  # the corpus's "now": every post is older (cases ask about the week after)
# Dated states run from 2025 into early 2027: some are over, some hold in the week the cases are set in
# (2026-12-07 to 12-13), some are announced for later.
SHORT_TERM_FROM, SHORT_TERM_TO = date(2025, 1, 1), date(2027, 3, 31)
CASE_WEEK = (date(2026, 12, 7), date(2026, 12, 13))  # the week the benchmark's cases are set in
# Dated states that change opening hours stay out of that week: the cases' hours are the posted ones.
HOURS_STATES = frozenset({"closed_renovation", "temporary_hours", "summer_break"})
IN_NOTE = 0.55  # share of evidence items written as a note of their own (the rest are comments)
NEAR_DECOY, FAR_DECOY = 0.6, 0.06  # chance of a decoy about a fact held nearby / not held nearby
_CELL_LAT, _CELL_LON = 0.004, 0.008  # about 450 m x 445 m in Helsinki: "nearby" is the 3 x 3 cells around
DECOYS = ("ended", "single", "hearsay", "asked", "credited", "dated", "denied", "promo", "spam")
_DECOY_WEIGHTS = (0.24, 0.18, 0.13, 0.1, 0.1, 0.1, 0.07, 0.05, 0.03)
OCCASIONS = (
    ("the Christmas market weeks", 12, 1, 24),
    ("the summer holidays", 6, 15, 62),
    ("Helsinki Design Week", 9, 5, 10),
    ("the Night of the Arts", 8, 21, 2),
    ("a pop-up weekend", None, 2, 3),
    ("the winter holidays", 12, 20, 18),
)


@dataclass
class HeldFact:
    spec: FactSpec
    label: str
    start: date | None = None  # short-term facts: the dates they hold
    end: date | None = None


@dataclass(frozen=True)
class Item:
    """One planned evidence item about ``spec`` at the place being planned."""

    spec: FactSpec
    label: str
    stance: str
    author: str
    time: datetime
    in_note: bool
    other: str | None = None  # the credited place's id
    dates: tuple[date, date] | None = None
    occasion: str = ""


@dataclass
class PlacePlan:
    place: PlaceRecord
    held: list[HeldFact]
    items: list[Item] = field(default_factory=list)
    meant: dict[str, bool] = field(default_factory=dict)  # fact key -> whether the rule must find it held


def _sample_weighted(rng: random.Random, specs: list[FactSpec], k: int) -> list[FactSpec]:
    """Weighted sampling without replacement (Efraimidis-Spirakis), one fact per group."""
    keyed = sorted(((rng.random() ** (1.0 / s.weight), s) for s in specs), key=lambda pair: (-pair[0], pair[1].key))
    chosen: list[FactSpec] = []
    groups: set[str] = set()
    for _, spec in keyed:
        if len(chosen) == k:
            break
        if spec.group and spec.group in groups:
            continue
        chosen.append(spec)
        groups.add(spec.group or spec.key)
    return chosen


def _event_dates(spec: FactSpec, rng: random.Random) -> tuple[date, date]:
    month, a, b = spec.dates
    if month is not None:
        years = [y for y in (2025, 2026) if date(y, month, a) + timedelta(days=b - 1) <= SHORT_TERM_TO]
        start = date(rng.choice(years), month, a)
        end = start + timedelta(days=b - 1)
    else:
        length = rng.randint(a, b)
        span = (SHORT_TERM_TO - SHORT_TERM_FROM).days - length
        start = SHORT_TERM_FROM + timedelta(days=rng.randint(0, span))
        end = start + timedelta(days=length - 1)
    if spec.key in HOURS_STATES and start <= CASE_WEEK[1] and CASE_WEEK[0] <= end:  # ends before the week instead
        start, end = CASE_WEEK[0] - timedelta(days=1 + (end - start).days), CASE_WEEK[0] - timedelta(days=1)
    return start, end


def held_facts(rng: random.Random, place: PlaceRecord) -> list[HeldFact]:
    """The facts a place holds: 1-3 static, 1-3 long-term and, for 45 % of places, one dated state (static
    facts in their spec's own wording until :func:`spread_wordings`)."""
    kind, sub = kind_of(place.place_type), sub_of(place.place_type)
    held = [
        HeldFact(s, s.label) for s in _sample_weighted(rng, fitting(STATIC, kind, sub), rng.choice((1, 1, 2, 2, 2, 3)))
    ]
    held += [
        HeldFact(s, s.label) for s in _sample_weighted(rng, fitting(LONG_TERM, kind, sub), rng.choice((1, 2, 2, 2, 3)))
    ]
    short = fitting(SHORT_TERM, kind, sub)
    if short and rng.random() < 0.45:
        spec = _sample_weighted(rng, short, 1)[0]
        start, end = _event_dates(spec, rng)
        held.append(HeldFact(spec, spec.label.format(span=label_span(start, end), until=label_day(end)), start, end))
    return held


def spread_wordings(held: dict[str, list[HeldFact]]) -> None:
    """Give each static fact's holders its wordings in turn (holders by place_id), so a fact held by three
    or more places shows in at least three wordings: the way different posters word the same thing. (A
    place's wording is the one thing that depends on which other places hold the fact.)"""
    holders: dict[str, list[HeldFact]] = {}
    for place_id in sorted(held):
        for fact in held[place_id]:
            if fact.spec.kind == "static":
                holders.setdefault(fact.spec.key, []).append(fact)
    for facts in holders.values():
        labels = facts[0].spec.labels
        for i, fact in enumerate(facts):
            fact.label = labels[i % len(labels)]


def _time(rng: random.Random, lo: datetime = WINDOW_START, hi: datetime = WINDOW_END - timedelta(days=2)) -> datetime:
    return lo + timedelta(seconds=rng.randrange(max(1, int((hi - lo).total_seconds()))))


class _Planner:
    """Plans one place's items from its own random stream and the city around it."""

    def __init__(self, plan: PlacePlan, rng: random.Random, authors: Sequence[str], near: dict[str, list[str]]):
        self.plan, self.rng, self.authors, self.near = plan, rng, authors, near
        self.used: set[str] = set()

    def author(self) -> str:
        """A voice not yet used at this place, so two items by design read as two visitors' (voices are the
        planner's own: notes and comments carry no author, and the rule counts items)."""
        while True:
            who = self.authors[self.rng.randrange(len(self.authors))]
            if who not in self.used:
                self.used.add(who)
                return who

    def add(self, held: HeldFact | FactSpec, stance: str, author: str, when: datetime, **extra) -> None:
        spec, label = (held.spec, held.label) if isinstance(held, HeldFact) else (held, held.plain_label)
        in_note = extra.pop("in_note", self.rng.random() < IN_NOTE)
        self.plan.items.append(Item(spec, label, stance, author, when, in_note, **extra))

    # -- a fact the place holds ------------------------------------------------------------
    def hold(self, held: HeldFact) -> None:
        rng, spec = self.rng, held.spec
        self.plan.meant[spec.key] = True
        if held.start is not None:  # a dated state: announced by its supporters before it starts
            day = datetime(held.start.year, held.start.month, held.start.day, tzinfo=UTC)
            for _ in range(rng.choice((2, 2, 3))):
                when = day - timedelta(days=rng.randint(1, 21), seconds=rng.randrange(7 * 3600))
                if when > WINDOW_END:  # announced for later: posted in the last weeks before the corpus's now
                    when = WINDOW_END - timedelta(days=rng.randint(1, 21), seconds=rng.randrange(7 * 3600))
                self.add(held, SUPPORTS, self.author(), max(WINDOW_START, when), dates=(held.start, held.end))
            if spec.deniable and rng.random() < 0.15:  # questions sit under holders as often as under rivals
                self.add(held, rng.choice((ASKS, ASKS, HEARSAY)), self.author(), _time(rng), in_note=False)
            return
        first = WINDOW_START
        if spec.deniable and rng.random() < 0.12 or spec.contra and rng.random() < 0.15:
            first = _time(rng, WINDOW_START, datetime(2024, 3, 1, tzinfo=UTC))  # an old denial, outvoted since
            self.add(held, NEGATES, self.author(), first)
        authors = [self.author() for _ in range(rng.choice((2, 2, 3, 3, 4)))]
        for who in authors:
            self.add(held, SUPPORTS, who, _time(rng, first + timedelta(days=1)))
        if rng.random() < 0.2:  # a regular says it again
            self.add(held, SUPPORTS, rng.choice(authors), _time(rng, first + timedelta(days=1)), in_note=False)
        if spec.deniable and rng.random() < 0.15:
            self.add(held, rng.choice((ASKS, ASKS, HEARSAY)), self.author(), _time(rng), in_note=False)

    # -- a fact the place does not hold ----------------------------------------------------------
    def decoy(self, spec: FactSpec) -> None:
        rng = self.rng
        self.plan.meant[spec.key] = False
        kind = rng.choices(DECOYS, _DECOY_WEIGHTS)[0]
        if kind == "credited" and not self.near.get(spec.key):
            kind = "hearsay"
        if kind == "dated" and spec.kind == "short_term":  # a past season of a dated state is a state that held
            kind = "ended"
        getattr(self, f"_{kind}")(spec)

    def _ended(self, spec: FactSpec) -> None:
        rng = self.rng
        last = datetime(2023, 1, 1, tzinfo=UTC)
        for _ in range(rng.choice((2, 3, 3))):
            when = _time(rng, WINDOW_START, datetime(2025, 4, 1, tzinfo=UTC))
            last = max(last, when)
            self.add(spec, SUPPORTS, self.author(), when)
        for _ in range(rng.choice((1, 1, 2))):
            self.add(spec, ENDED, self.author(), _time(rng, last + timedelta(days=30)))

    def _single(self, spec: FactSpec) -> None:
        """One first-hand report and nothing else: the rule asks for two."""
        self.add(spec, SUPPORTS, self.author(), _time(self.rng), in_note=self.rng.random() < 0.5)

    def _hearsay(self, spec: FactSpec) -> None:
        for _ in range(self.rng.choice((2, 3, 3))):
            self.add(spec, HEARSAY, self.author(), _time(self.rng))

    def _asked(self, spec: FactSpec) -> None:
        for _ in range(self.rng.choice((2, 3, 3))):
            self.add(spec, ASKS, self.author(), _time(self.rng))

    def _credited(self, spec: FactSpec) -> None:
        others = self.near[spec.key]
        for _ in range(self.rng.choice((1, 2, 2))):
            self.add(spec, CREDITS, self.author(), _time(self.rng), other=self.rng.choice(others))
        if self.rng.random() < 0.5:
            self.add(spec, ASKS, self.author(), _time(self.rng), in_note=False)

    def _dated(self, spec: FactSpec) -> None:
        rng = self.rng
        occasion, month, a, b = rng.choice(OCCASIONS)
        year = rng.choice((2024, 2025))
        if month is None:
            start = date(year, 1, 1) + timedelta(days=rng.randrange(300))
            end = start + timedelta(days=a - 1 + rng.randrange(b - a + 1))
        else:
            start = date(year, month, a)
            end = start + timedelta(days=b - 1)
        begin = datetime(start.year, start.month, start.day, tzinfo=UTC)
        for _ in range(rng.choice((2, 3, 3))):
            when = begin + timedelta(days=rng.randrange((end - start).days + 1), hours=rng.randint(9, 20))
            self.add(spec, SUPPORTS, self.author(), when, dates=(start, end), occasion=occasion)

    def _denied(self, spec: FactSpec) -> None:
        for _ in range(self.rng.choice((1, 2, 2))):
            self.add(spec, NEGATES, self.author(), _time(self.rng))

    def _promo(self, spec: FactSpec) -> None:
        account = f"{self.plan.place.place_id}:official"  # the place's own account
        when = _time(self.rng)
        self.add(spec, PROMO, account, when, in_note=True)
        if self.rng.random() < 0.6:
            self.add(spec, PROMO, account, when + timedelta(hours=self.rng.randint(2, 72)), in_note=False)

    def _spam(self, spec: FactSpec) -> None:
        for _ in range(self.rng.choice((1, 2))):
            self.add(spec, SPAM, f"spam:{self.rng.randrange(10**6)}", _time(self.rng), in_note=self.rng.random() < 0.3)


def _cell(place: PlaceRecord) -> tuple[int, int]:
    return math.floor(place.lat / _CELL_LAT), math.floor(place.lon / _CELL_LON)


def holders_nearby(places: Sequence[PlaceRecord], held: dict[str, list[HeldFact]]) -> dict[str, dict[str, list[str]]]:
    """place_id -> fact key -> the other places in the 3 x 3 cells around it that hold that (deniable) fact."""
    grid: dict[tuple[int, int], dict[str, list[str]]] = {}
    for place in places:
        for fact in held[place.place_id]:
            if fact.spec.deniable:
                grid.setdefault(_cell(place), {}).setdefault(fact.spec.key, []).append(place.place_id)
    out = {}
    for place in places:
        cy, cx = _cell(place)
        near: dict[str, list[str]] = {}
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                for key, pids in grid.get((cy + dy, cx + dx), {}).items():
                    near.setdefault(key, []).extend(p for p in pids if p != place.place_id)
        out[place.place_id] = {k: sorted(v) for k, v in near.items() if v}
    return out


def evidence_plan(
    place: PlaceRecord,
    held: list[HeldFact],
    rng: random.Random,
    authors: Sequence[str],
    near: dict[str, list[str]],
) -> PlacePlan:
    """Every evidence item of one place: its held facts backed, and decoys about facts it does not hold."""
    plan = PlacePlan(place, held)
    planner = _Planner(plan, rng, authors, near)
    for fact in held:
        planner.hold(fact)
    kind, sub = kind_of(place.place_type), sub_of(place.place_type)
    holding = {f.spec.key for f in held}
    for spec in fitting(STATIC + LONG_TERM + SHORT_TERM, kind, sub):
        if spec.deniable and spec.key not in holding and rng.random() < (NEAR_DECOY if spec.key in near else FAR_DECOY):
            planner.decoy(spec)
    return plan

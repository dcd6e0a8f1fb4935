"""Implicit needs (level L2): which hidden memories satisfy a need, and which places it can be asked of.

An L2 question hints at a hidden long-term or short-term fact ("revise for my exams somewhere
hushed for the whole afternoon" for ``quiet_for_studying``) without naming it. As in the paper,
static tags are visible on the place record (``tag``) and the memories (``long_mem``,
``short_mem``) are hidden, and here every L2 case is settled by a memory, which only the notes
reveal (docs/cases.md, "What settles an L2 case"). A :class:`Need` says

* ``satisfied_by``: the fact keys whose holders meet the need: the hinted fact first, then any
  fact a careful reader would accept for the same words (a sea view for "watch the sun go
  down"), visible static tags included. The verifier treats every holder of any of them as a
  rival of the gold.
* ``vehicles``: the trip vehicles the need does not contradict; ``trips``: whether it makes
  sense as a stop on a route.
* ``bank``: the releases that may ask for it. The needs come in two banks, like the phrasings and
  the question skeletons: public releases ask only for public needs, hidden releases only for
  hidden ones. Both kinds of release share the city, so a public gold or evidence card shows
  which places hold a public need; a hidden release never asks for one, and no fact meets a
  need of each bank (``satisfied_by`` sets are disjoint across banks).

Where a need may be asked is not written here: a place may answer it when the fact fits the
place's kind (:mod:`environment.build.corpus.kinds`; no sunset views at a pharmacy), and a
question may name a noun (:mod:`benchmark.cases.lexicon`) when one of the types the noun
accepts fits the fact. Only the needs listed here are used: memories that are vague ("friendly
staff"), that an explicit attribute would meet ("affordable") or that a complaint states are not.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from benchmark.cases.lexicon import NOUNS, Noun
from environment.build.corpus.kinds import kind_of_sub
from environment.build.corpus.vocab import ALL_SPECS, fits_place

VEHICLES = ("walking", "cycling", "driving")
PUBLIC, HIDDEN = "public", "hidden"
BANKS = (PUBLIC, HIDDEN)


@dataclass(frozen=True)
class Need:
    key: str
    satisfied_by: tuple[str, ...]
    vehicles: tuple[str, ...] = VEHICLES
    trips: bool = True
    bank: str = PUBLIC

    def fits(self, place: dict) -> bool:
        """Whether the place is one the need can be asked of (the hinted fact fits its kind)."""
        return fits_place(self.key, str(place.get("place_type") or ""))

    def nouns(self) -> tuple[Noun, ...]:
        return nouns_for_need(self.key)


def _need(key, bank, rivals=(), vehicles=VEHICLES, trips=True) -> Need:
    return Need(key, (key, *rivals), tuple(vehicles), trips, bank)


NEEDS: dict[str, Need] = {
    n.key: n
    for n in (
        # --- public: long-term impressions (long_mem) ------------------------------------------------
        _need("quiet_for_studying", PUBLIC, rivals=("quiet_room",)),
        _need("fresh_pastries", PUBLIC, rivals=("huge_cinnamon_buns",)),
        _need("huge_cinnamon_buns", PUBLIC, rivals=("fresh_pastries",)),
        _need("generous_portions", PUBLIC),
        _need("salmon_soup", PUBLIC),
        _need("phone_repair_while_you_wait", PUBLIC),
        _need("good_for_groups", PUBLIC),
        _need("knowledgeable_staff", PUBLIC),
        _need("peaceful_nature", PUBLIC),
        _need("wide_selection", PUBLIC),
        # --- public: a dated state in the week the cases are set in (short_mem) ----------------------
        _need("winter_terrace_heaters", PUBLIC),
        # --- hidden (long_mem) ------------------------------------------------------------------------
        _need("great_latte_art", HIDDEN),
        _need("great_cocktails", HIDDEN),
        _need("live_jazz_fridays", HIDDEN),
        _need("lake_sunset_spot", HIDDEN, rivals=("sea_view_seats", "great_view")),
        _need("great_view", HIDDEN, rivals=("lake_sunset_spot", "sea_view_seats", "rooftop_terrace")),
        _need("red_squirrels", HIDDEN),
        _need("english_speaking_staff", HIDDEN),
        _need("great_for_dates", HIDDEN, rivals=("cosy_lighting",)),
        _need("cosy_lighting", HIDDEN, rivals=("great_for_dates", "open_fireplace")),
        _need("good_playlist", HIDDEN, rivals=("live_jazz_fridays", "live_music_night")),
        _need("photogenic_interior", HIDDEN, rivals=("bright_airy",)),
        _need("fast_service", HIDDEN),
        _need("kid_friendly_vibe", HIDDEN, rivals=("kids_play_corner", "baby_changing_table", "kids_workshop_sundays")),
    )
}


def needs_in(bank: str) -> tuple[str, ...]:
    """The keys of the needs a release of ``bank`` may ask for."""
    if bank not in BANKS:
        raise ValueError(f"unknown need bank {bank!r}; allowed: {', '.join(BANKS)}")
    return tuple(key for key, need in NEEDS.items() if need.bank == bank)


def need_of(key: str) -> Need:
    try:
        return NEEDS[key]
    except KeyError:
        raise KeyError(f"no implicit need for fact {key!r}") from None


@cache
def nouns_for_need(key: str) -> tuple[Noun, ...]:
    """The nouns a question may name with the need: one of the types the noun accepts fits the fact."""
    spec = ALL_SPECS[key]
    return tuple(n for n in NOUNS if any(spec.fits(kind_of_sub(sub), sub) for sub in n.accept))

"""The evidence rule: whether a hidden social fact holds at a place at a given time.

Every note and comment carries hidden labels (``EvidenceLabel``): the place it speaks of,
the fact it touches, its stance, and the item's author and time. One rule over those labels
decides whether a fact holds, and the corpus distiller, the case verifier and the case page
all apply this function:

    A fact holds at a place at time T when the items about it dated at or before T that
    SUPPORT it, and are dated after the last item that NEGATES it or reports that it ENDED,
    come from at least two different authors. A support that states dates (a dated state)
    counts only on the days it names. Questions (ASKS), hearsay, comparisons that CREDIT
    another place, promoted posts and spam never count, for or against.

So the last word wins, and a claim needs two independent voices: one enthusiastic regular
who posts twice is not enough, an old "they have it" is undone by a later "they took it
out", and a lot of talk about a thing (questions, rumours, adverts) is not evidence of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

SUPPORTS, NEGATES, ENDED = "supports", "negates", "ended"
CREDITS, ASKS, HEARSAY, PROMO, SPAM = "credits", "asks", "hearsay", "promo", "spam"
STANCES = (SUPPORTS, NEGATES, ENDED, CREDITS, ASKS, HEARSAY, PROMO, SPAM)
RESETS = frozenset({NEGATES, ENDED})
MIN_AUTHORS = 2

# Why an item does not count, in words a curator reads on the case page.
NOT_COUNTED = {
    NEGATES: "says the place does not have it",
    ENDED: "reports that it ended",
    CREDITS: "credits another place with it",
    ASKS: "only asks about it",
    HEARSAY: "repeats hearsay",
    PROMO: "is a promoted post",
    SPAM: "is spam",
}


@dataclass(frozen=True)
class Item:
    """One labelled note or comment about one fact at one place."""

    time: datetime
    author: str
    stance: str
    valid_from: date | None = None
    valid_until: date | None = None
    ref: str = ""  # note_id, or note_id/comment_id: for explanations only


@dataclass(frozen=True)
class Verdict:
    holds: bool
    counted: tuple[Item, ...]  # the supports that count
    reset: Item | None  # the last negation or end report at or before the time, if any
    why: str  # one sentence


def fact_verdict(items: Iterable[Item], at: datetime) -> Verdict:
    """Apply the rule to the labelled items of one fact at one place, at time ``at``."""
    seen = sorted((i for i in items if i.time <= at), key=lambda i: (i.time, i.ref))
    resets = [i for i in seen if i.stance in RESETS]
    reset = resets[-1] if resets else None
    counted = tuple(
        i for i in seen if i.stance == SUPPORTS and (reset is None or i.time > reset.time) and _in_dates(i, at.date())
    )
    authors = sorted({i.author for i in counted})
    holds = len(authors) >= MIN_AUTHORS
    if holds:
        why = f"supported by {len(authors)} authors ({', '.join(authors)})"
        if reset is not None:
            why += f" after the last item that {NOT_COUNTED[reset.stance]} ({reset.time:%Y-%m-%d})"
    elif reset is not None and not counted:
        why = f"the last word ({reset.time:%Y-%m-%d}) {NOT_COUNTED[reset.stance]}, and no support came after it"
    elif counted:
        why = f"only {len(authors)} author supports it ({authors[0]}); the rule asks for {MIN_AUTHORS}"
    else:
        why = "no note or comment supports it"
    return Verdict(holds=holds, counted=counted, reset=reset, why=why)


def fact_holds(items: Iterable[Item], at: datetime) -> bool:
    return fact_verdict(items, at).holds


def _in_dates(item: Item, day: date) -> bool:
    if item.valid_from is None and item.valid_until is None:
        return True
    return (item.valid_from or day) <= day <= (item.valid_until or day)

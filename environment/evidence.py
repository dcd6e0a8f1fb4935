"""The evidence rule: whether a hidden social fact holds at a place at a given time.

Every note and comment carries hidden labels (``EvidenceLabel``): the place it speaks of,
the fact it touches, its stance, and the dates a dated state names. One rule over those
labels decides whether a fact holds, using only what an agent can read of each item (its
text, so its stance, and its date; no author, as the paper's table 10 shows none), and the
corpus distiller, the case generator and verifier and the grader all apply this function:

    A fact holds at a place at time T when at least two notes or comments dated at or
    before T SUPPORT it, dated after the last one that NEGATES it or reports that it ENDED.
    A support that states dates (a dated state) counts only on the days it names.
    Questions (ASKS), HEARSAY, comparisons that CREDIT another place, promoted posts (PROMO)
    and SPAM never count, for or against.

So the last word wins, and a claim needs two first-hand reports: a single mention is not
enough, an old "they have it" is undone by a later "they took it out", and a lot of talk
about a thing (questions, rumours, adverts) is not evidence of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

SUPPORTS, NEGATES, ENDED = "supports", "negates", "ended"
CREDITS, ASKS, HEARSAY, PROMO, SPAM = "credits", "asks", "hearsay", "promo", "spam"
STANCES = (SUPPORTS, NEGATES, ENDED, CREDITS, ASKS, HEARSAY, PROMO, SPAM)
RESETS = frozenset({NEGATES, ENDED})
MIN_SUPPORTS = 2

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
    holds = len(counted) >= MIN_SUPPORTS
    if holds:
        refs = ", ".join(i.ref for i in counted if i.ref) or "unnamed"
        why = f"supported by {len(counted)} notes or comments ({refs})"
        if reset is not None:
            why += f" after the last item that {NOT_COUNTED[reset.stance]} ({reset.time:%Y-%m-%d})"
    elif reset is not None and not counted:
        why = f"the last word ({reset.time:%Y-%m-%d}) {NOT_COUNTED[reset.stance]}, and no support came after it"
    elif counted:
        why = f"only one note or comment supports it ({counted[0].ref or 'unnamed'}); the rule asks for {MIN_SUPPORTS}"
    else:
        why = "no note or comment supports it"
    return Verdict(holds=holds, counted=counted, reset=reset, why=why)


def fact_holds(items: Iterable[Item], at: datetime) -> bool:
    return fact_verdict(items, at).holds


def _in_dates(item: Item, day: date) -> bool:
    if item.valid_from is None and item.valid_until is None:
        return True
    return (item.valid_from or day) <= day <= (item.valid_until or day)

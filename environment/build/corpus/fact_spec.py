"""What a fact of the vocabulary is: :class:`FactSpec`, the place types it fits, and its builders.

The data modules (:mod:`.vocab_static`, :mod:`.vocab_dynamic`) build their facts with the
builders here, and :mod:`.vocab` collects them; this module imports none of them.

A :class:`FactSpec` is one kind of hidden fact. ``label`` is the distilled text in the
paper's style ("Pets: Corgi cafe"); ``phrases`` are note sentences and ``comments`` are
comment lines that express it without ever quoting the label; every phrase contains at
least one of the lowercase ``evidence`` words, which is how tests (and curators) check
that a note supports a fact. ``weight`` sets how often a fitting place draws the fact:
``RARE`` facts end up on only a handful of places in a city, so they can single one out.
"""

from __future__ import annotations

from dataclasses import dataclass

FOOD, SHOP, STAY, SCENE, CULT = ("Food & Beverages", "Shopping", "Accommodation", "Scenery Spot", "Culture")
FUN, SPORT, BEAUTY, HEALTH, PUBLIC = (
    "Entertainment",
    "Sports & Recreation",
    "Beauty & Personal Care",
    "Healthcare",
    "Public Service",
)
MONEY, EDU, MOVE, BIZ, CRAFT = "Finance", "Education", "Transport", "Business", "Crafts"
ANY = "*"  # fits every top type, including unknown ones

# Sub-type keywords (matched against the lower-cased "Sub" part of "Top|Sub").
CAFE = ("coffee", "cafe", "café", "tea", "bakery", "ice cream", "confectionery")
BAR = ("pub", "bar", "beer", "brewery", "nightclub", "wine")
DINING = ("restaurant", "food court", "fast food", "deli")

COMMON, MID, RARE = 1.0, 0.3, 0.025


@dataclass(frozen=True)
class FactSpec:
    key: str
    kind: str  # "static", "long_term" or "short_term"
    label: str  # short-term labels hold a "{span}" or "{until}" slot
    types: tuple[str, ...]
    weight: float
    evidence: tuple[str, ...]
    phrases: tuple[str, ...]
    comments: tuple[str, ...]
    subs: tuple[str, ...] = ()
    hashtag: str = ""
    group: str = ""  # at most one fact per group per place
    contra: tuple[str, ...] = ()  # comments that contradict the fact (noise)
    dates: tuple = ()  # short-term: (month, day, days) fixed, or (None, min_days, max_days)

    def fits(self, top: str, sub: str) -> bool:
        if ANY not in self.types and top not in self.types:
            return False
        return not self.subs or any(s in sub for s in self.subs)


def static_fact(key, label, types, weight, evidence, phrases, comments, subs=(), hashtag=""):
    return FactSpec(
        key,
        "static",
        label,
        tuple(types),
        weight,
        tuple(evidence),
        tuple(phrases),
        tuple(comments),
        tuple(subs),
        hashtag,
    )


def long_term_fact(key, label, types, weight, evidence, phrases, comments, group="", contra=(), subs=()):
    return FactSpec(
        key,
        "long_term",
        label,
        tuple(types),
        weight,
        tuple(evidence),
        tuple(phrases),
        tuple(comments),
        tuple(subs),
        group=group,
        contra=tuple(contra),
    )


def short_term_fact(key, label, types, dates, evidence, phrases, comments, hashtag=""):
    return FactSpec(
        key,
        "short_term",
        label,
        tuple(types),
        COMMON,
        tuple(evidence),
        tuple(phrases),
        tuple(comments),
        hashtag=hashtag,
        dates=tuple(dates),
    )

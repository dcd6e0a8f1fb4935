"""The fact vocabulary: what a place can hide, how it is distilled, how people phrase it.

A :class:`FactSpec` is one kind of hidden fact. ``label`` is the distilled text in the
paper's style ("Pets: Corgi cafe"); ``phrases`` are note sentences and ``comments`` are
comment lines that express it without ever quoting the label; every phrase contains at
least one of the lowercase ``evidence`` words, which is how tests (and curators) check
that a note supports a fact. ``weight`` sets how often a fitting place draws the fact:
``RARE`` facts end up on only a handful of places in a city, so they can single one out.
"""
from __future__ import annotations

from dataclasses import dataclass

# One name per line: vocab_dynamic and vocab_static import these while this module is still
# loading, and a type checker only knows a name in that cycle when it is a plain literal.
FOOD = "Food & Beverages"
SHOP = "Shopping"
STAY = "Accommodation"
SCENE = "Scenery Spot"
CULT = "Culture"
FUN = "Entertainment"
SPORT = "Sports & Recreation"
BEAUTY = "Beauty & Personal Care"
HEALTH = "Healthcare"
PUBLIC = "Public Service"
MONEY = "Finance"
EDU = "Education"
MOVE = "Transport"
BIZ = "Business"
CRAFT = "Crafts"
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


def _static(key, label, types, weight, evidence, phrases, comments, subs=(), hashtag=""):
    return FactSpec(key, "static", label, tuple(types), weight, tuple(evidence),
                    tuple(phrases), tuple(comments), tuple(subs), hashtag)


def _long(key, label, types, weight, evidence, phrases, comments, group="", contra=(), subs=()):
    return FactSpec(key, "long_term", label, tuple(types), weight, tuple(evidence),
                    tuple(phrases), tuple(comments), tuple(subs), group=group,
                    contra=tuple(contra))


def _short(key, label, types, dates, evidence, phrases, comments, hashtag=""):
    return FactSpec(key, "short_term", label, tuple(types), COMMON, tuple(evidence),
                    tuple(phrases), tuple(comments), hashtag=hashtag, dates=tuple(dates))


from .vocab_dynamic import long_term_specs, short_term_specs  # noqa: E402
from .vocab_static import static_specs  # noqa: E402  (data modules use the helpers above)

STATIC: tuple[FactSpec, ...] = static_specs(_static)
LONG_TERM: tuple[FactSpec, ...] = long_term_specs(_long)
SHORT_TERM: tuple[FactSpec, ...] = short_term_specs(_short)
ALL_SPECS: dict[str, FactSpec] = {s.key: s for s in STATIC + LONG_TERM + SHORT_TERM}
KNOWN_TOP_TYPES = frozenset(t for s in ALL_SPECS.values() for t in s.types if t != ANY)


def fitting(specs: tuple[FactSpec, ...], top: str, sub: str) -> list[FactSpec]:
    """Specs that fit a place; an unknown top type gets only the generic (``ANY``) ones."""
    if top not in KNOWN_TOP_TYPES:
        return [s for s in specs if ANY in s.types and not s.subs]
    return [s for s in specs if s.fits(top, sub)]

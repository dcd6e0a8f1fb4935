"""What a fact of the vocabulary is: :class:`FactSpec`, and its builders.

The data modules (:mod:`.vocab_static`, :mod:`.vocab_dynamic`) build their facts with the
builders here, and :mod:`.vocab` collects them; this module imports none of them.

A :class:`FactSpec` is one kind of hidden fact. ``label`` is the distilled text in the
paper's style ("Pets: Corgi cafe"); ``kinds`` are the place kinds (:mod:`.kinds`) it fits,
narrowed to the sub-types in ``subs`` when given. Notes never quote the label: they are
composed (:mod:`.stances`) from the fact's parts, each holding at least one of the
lowercase ``evidence`` words (so a keyword search finds them, and tests check it):

* ``phrases``: whole first-person sentences that report it; ``comments``: short replies;
* ``things``: noun phrases ("an old upright piano anyone can play") for "they have ...";
* ``bare``: the thing without an article ("piano") for "the ... at X beats this one";
* ``absent``: clauses saying a place does not have it ("there is no piano anywhere");
* ``gone``: past clauses saying it ended, with a ``{when}`` slot ("they moved the piano out
  {when}"), worded without negation words.

Facts without ``things`` (vague impressions such as "friendly staff") are only ever
reported, never denied or ended: no case rests on them. ``weight`` sets how often a fitting
place draws the fact: ``RARE`` facts end up on a handful of places in a city.
"""

from __future__ import annotations

from dataclasses import dataclass

COMMON, MID, RARE = 1.0, 0.3, 0.025


@dataclass(frozen=True)
class FactSpec:
    key: str
    kind: str  # "static", "long_term" or "short_term"
    label: str  # short-term labels hold a "{span}" or "{until}" slot
    kinds: tuple[str, ...]
    weight: float
    evidence: tuple[str, ...]
    phrases: tuple[str, ...]
    comments: tuple[str, ...]
    subs: tuple[str, ...] = ()  # exact sub-type names ("Finnish Restaurant"); empty: every place of the kinds
    hashtag: str = ""
    group: str = ""  # at most one fact per group per place
    contra: tuple[str, ...] = ()  # comments that deny the fact (an impression someone disagrees with)
    dates: tuple = ()  # short-term: (month, day, days) fixed, or (None, min_days, max_days)
    things: tuple[str, ...] = ()
    bare: str = ""
    absent: tuple[str, ...] = ()
    gone: tuple[str, ...] = ()
    bad: bool = False  # a complaint (slow service): reported with a grumble, not with praise
    wordings: tuple[str, ...] = ()  # static tags: other labels people give the same thing (:mod:`.wordings`)

    def fits(self, kind: str, sub: str) -> bool:
        """Whether a place of this kind and sub-type may hold the fact."""
        return kind in self.kinds and (not self.subs or sub in self.subs)

    @property
    def plain_label(self) -> str:
        """The label without a dated state's slot ("Event: Winter terrace with heaters"): what a label says of
        talk about a dated state that gives it no dates."""
        return self.label.replace(" ({span})", "").replace(" until {until}", "")

    @property
    def labels(self) -> tuple[str, ...]:
        """Every label the fact may carry on a place: its own first, then the other wordings."""
        return (self.label, *self.wordings)

    @property
    def deniable(self) -> bool:
        """Whether notes can deny it, report that it ended, ask about it or credit it elsewhere."""
        return bool(self.things and self.bare and self.absent and self.gone)


def static_fact(key, label, kinds, weight, evidence, phrases, comments, **parts) -> FactSpec:
    return FactSpec(
        key, "static", label, tuple(kinds), weight, tuple(evidence), tuple(phrases), tuple(comments), **_t(parts)
    )


def long_term_fact(key, label, kinds, weight, evidence, phrases, comments, **parts) -> FactSpec:
    return FactSpec(
        key, "long_term", label, tuple(kinds), weight, tuple(evidence), tuple(phrases), tuple(comments), **_t(parts)
    )


def short_term_fact(key, label, kinds, dates, evidence, phrases, comments, weight=COMMON, **parts) -> FactSpec:
    return FactSpec(
        key,
        "short_term",
        label,
        tuple(kinds),
        weight,
        tuple(evidence),
        tuple(phrases),
        tuple(comments),
        dates=tuple(dates),
        **_t(parts),
    )


def _t(parts: dict) -> dict:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in parts.items()}

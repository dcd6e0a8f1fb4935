"""L2 checks: the gold rests on the notes, not on a visible field or on counting keyword hits.

For a case that asks for an implicit need, with the places the question allows (its pool):

* **visible**: no agent-visible field of the gold (name, alias, type, address, hours, tag with
  its static attributes) shows the need's words or its label;
* **notes-blind**: at least :data:`MIN_LOOKALIKES` look-alikes (:func:`lookalikes_of`): places
  that a solver without notes cannot tell from the gold. Each is a place the need fits (same
  noun, where named), meets every visible condition of the question, does not hold the need,
  and shows the need in its visible fields exactly when the gold does; and the gold is not the
  best of them by the visible measure the question ranks by (nearest, cheapest detour or plan,
  rating);
* **consistent**: the gold's own notes do not contradict it under the rule: no item denies or
  ends any fact that meets the need at the gold after the first support the rule counts there
  (praise for its wifi followed by "the wifi kept dropping" is not a gold);
* **decoys**: at least :data:`MIN_DECOYS` of those look-alikes have notes or comments about
  the need that the evidence rule does not count (denied, ended, credited elsewhere, asked,
  hearsay, one voice, an advert); the gold does not lead the keyword count among them (the
  best-ranked ten when the question ranks), counted plainly or with negated sentences and
  questions counted against a place; and when the question ranks, a look-alike ranked above
  the gold has a positive count (a counter that takes the best-ranked place its notes back
  would not find the gold either).

The keyword counts are this module's own reading of the notes' visible text: a note speaks of
the places whose full name its title or text holds, and each sentence of its text, and each
comment, that holds one of the need's evidence words is a hit for each of them; counted net,
a hit that holds a negation word or asks a question counts against them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from functools import cache

from benchmark.cases.needs import need_of
from environment.build.corpus.vocab import ALL_SPECS
from environment.evidence import NOT_COUNTED, RESETS
from kernel.text import fold

from .common import Reject
from .world import NOW, AuditWorld

MIN_LOOKALIKES, MIN_DECOYS = 3, 2
COUNTED_LOOKALIKES = 10  # with a ranking, the keyword count looks at the best-ranked look-alikes
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_NEGATION = re.compile(r"\b(no|not|never|none|without|nothing|nobody|neither|nor|cannot|nowhere|zero)\b|n't\b")
_WORD = re.compile(r"[a-z0-9]+")  # the runs that the name patterns below take as words (their ends are not these)


@cache
def need_words(need: str) -> tuple[str, ...]:
    """The folded evidence words of every fact that meets the need."""
    words = {fold(w) for key in need_of(need).satisfied_by for w in ALL_SPECS[key].evidence}
    return tuple(sorted(words))


@cache
def need_pattern(words: tuple[str, ...]) -> re.Pattern:
    """Whole words (a plural s allowed); words of five letters or more also as a prefix ("pastr", "engrav")."""
    parts = [re.escape(w) + (r"" if len(w) >= 5 else r"(?:s|es)?(?![a-z])") for w in words]
    return re.compile(r"(?<![a-z])(?:" + "|".join(parts) + ")")


def shows(text: str, need: str) -> bool:
    return bool(need_pattern(need_words(need)).search(fold(text)))


@cache
def need_labels(need: str) -> tuple[str, ...]:
    """The folded label values (after the colon, without a dated state's span) of every wording of every fact
    that meets the need: "terrace on the roof" as well as "rooftop terrace"."""
    labels = {
        fold(label.split(":", 1)[-1].split(" ({")[0].strip())
        for key in need_of(need).satisfied_by
        for label in ALL_SPECS[key].labels
    }
    return tuple(sorted(labels))


def visible_failure(world: AuditWorld, place_id: str, need: str) -> str | None:
    """Which visible field of the place shows the need's words or a label of a fact that meets it, or None."""
    place = world.place(place_id)
    for field in ("name", "alias", "place_type", "address", "opentime_week", "tag"):
        text = fold(str(getattr(place, field) or ""))
        if shows(text, need) or any(label in text for label in need_labels(need)):
            return field
    return None


# ------------------------------------------------------------------ keyword counts


class KeywordCounts:
    """Keyword hits per place as a solver that counts (and does not read) would get them."""

    def __init__(self, world: AuditWorld):
        self.world = world
        self.texts = [
            (fold(n.title + " " + n.desc), [*_SENTENCE.split(fold(n.desc)), *(fold(c) for c in n.comments)])
            for n in world.notes
        ]
        self._naming: dict[str, list[int]] = {}
        self._words: dict[str, list[int]] | None = None

    def notes_naming(self, place_id: str) -> list[int]:
        """The notes whose title or text names the place (its whole folded name, not inside a longer word)."""
        if place_id not in self._naming:
            name = fold(self.world.place(place_id).name).strip()
            pattern = re.compile(r"(?<![a-z0-9])" + re.escape(name) + r"(?![a-z0-9])") if len(name) >= 3 else None
            self._naming[place_id] = [
                i
                for i in self._candidates(name)
                if pattern and name in self.texts[i][0] and pattern.search(self.texts[i][0])
            ]
        return self._naming[place_id]

    def _candidates(self, name: str) -> Iterable[int]:
        """The notes that hold every word of ``name`` (an index, so a place's notes are not found by scanning them
        all): each run of letters and digits in the name is a whole word wherever the name matches, its ends
        being not letters or digits, so this keeps every note that names the place, in order."""
        words = _WORD.findall(name)
        if not words:
            return range(len(self.texts))
        if self._words is None:
            index: dict[str, list[int]] = {}
            for i, (head, _) in enumerate(self.texts):
                for word in set(_WORD.findall(head)):
                    index.setdefault(word, []).append(i)
            self._words = index
        postings = sorted((self._words.get(w, []) for w in set(words)), key=len)
        if not postings[0]:
            return []
        common = set(postings[0]).intersection(*postings[1:])
        return sorted(common)

    def hits(self, place_id: str, need: str) -> tuple[int, int]:
        """(plain hits, hits with a negated sentence counted -1) for the need's words at the place."""
        pattern = need_pattern(need_words(need))
        plain = net = 0
        for i in self.notes_naming(place_id):
            for text in self.texts[i][1]:
                if pattern.search(text):
                    plain += 1
                    net += -1 if _NEGATION.search(text) or text.rstrip().endswith("?") else 1
        return plain, net


def keyword_counts(world: AuditWorld) -> KeywordCounts:
    counts = world.__dict__.get("_keyword_counts")
    if counts is None:
        counts = world.__dict__["_keyword_counts"] = KeywordCounts(world)
    return counts


# ------------------------------------------------------------------ the checks


@dataclass(frozen=True)
class Evidence:
    """What the L2 checks found for one case (shown on the case page and counted in the release report)."""

    lookalikes: tuple[str, ...]
    decoys: tuple[str, ...]
    gold_hits: tuple[int, int]
    leader: str  # the rival with the most plain hits
    leader_hits: tuple[int, int]

    def to_dict(self) -> dict:
        return {
            "lookalikes": list(self.lookalikes),
            "decoys": list(self.decoys),
            "gold_hits": list(self.gold_hits),
            "leader": self.leader,
            "leader_hits": list(self.leader_hits),
        }


@dataclass(frozen=True)
class Lookalikes:
    """The look-alikes of one L2 gold: what :func:`check_l2` was given and what it kept."""

    gold: str
    need: str
    lookalikes: tuple[str, ...]
    visible: str | None  # the gold's visible field that shows the need, if any
    decoys: tuple[str, ...] = ()  # the look-alikes with talk about the need that does not count
    measure: tuple[tuple[str, float], ...] = ()  # the question's visible ranking (lower is better), if it has one
    measure_name: str = ""


_RECORDERS: ContextVar[tuple[list[Lookalikes], ...]] = ContextVar("lookalike_recorders", default=())


@contextmanager
def recording_lookalikes() -> Iterator[list[Lookalikes]]:
    """Collect the look-alikes every :func:`check_l2` call inside the block computes (before its checks
    can reject the case), so a report can list them for cases that fail too. Blocks nest: a call is
    recorded in every open block."""
    found: list[Lookalikes] = []
    token = _RECORDERS.set((*_RECORDERS.get(), found))
    try:
        yield found
    finally:
        _RECORDERS.reset(token)


def lookalikes_of(world: AuditWorld, gold: str, need: str, candidates: Iterable[str]) -> tuple[str, ...]:
    """The places a solver without notes cannot tell apart from the gold: of ``candidates`` (places the
    need fits that meet every visible condition of the question and do not hold the need), those whose
    visible fields show the need exactly when the gold's do. A gold whose tag shows the need (a case a
    visible tag settles) has as look-alikes only the non-holders whose tags show it too."""
    shown = visible_failure(world, gold, need) is not None
    return tuple(sorted(p for p in set(candidates) - {gold} if (visible_failure(world, p, need) is not None) == shown))


def has_talk(world: AuditWorld, place_id: str, need: str) -> bool:
    """Whether notes or comments about the place touch the need's facts (it does not hold it: none counts)."""
    return any(world.evidence.get((place_id, key)) for key in need_of(need).satisfied_by)


def contradictions(world: AuditWorld, gold: str, need: str, at: datetime | None = None) -> list[str]:
    """The items about the gold that deny or end a fact meeting the need after the first support the rule
    counts for it at ``at``, one phrase each (empty when its notes agree)."""
    verdicts = [world.verdict(gold, key, at) for key in need_of(need).satisfied_by]
    counted = [item.time for v in verdicts if v.holds for item in v.counted]
    if not counted:
        return []
    since, until = min(counted), (at or NOW).replace(tzinfo=None)
    return [
        f"{item.ref or 'an item'} ({item.time:%Y-%m-%d}) {NOT_COUNTED[item.stance]}"
        for key in need_of(need).satisfied_by
        for item in sorted(world.evidence.get((gold, key), []), key=lambda i: (i.time, i.ref))
        if item.stance in RESETS and since < item.time <= until
    ]


def check_l2(
    world: AuditWorld,
    *,
    gold: str,
    need: str,
    lookalikes: Iterable[str],
    measure: dict[str, float] | None = None,
    measure_name: str = "",
    at: datetime | None = None,
) -> Evidence:
    """Reject unless the gold rests on the notes. ``lookalikes``: the places the question allows that the
    need fits and that do not hold it; ``measure``: the question's visible ranking (lower is better) over
    the gold and the look-alikes; ``at``: the question's moment (default: now)."""
    field = visible_failure(world, gold, need)
    alike = list(lookalikes_of(world, gold, need, lookalikes))
    recorders = _RECORDERS.get()
    if recorders:
        ranked = tuple(sorted((p, v) for p, v in (measure or {}).items() if p == gold or p in alike))
        talked = tuple(p for p in alike if has_talk(world, p, need))
        for recorder in recorders:
            recorder.append(Lookalikes(gold, need, tuple(alike), field, talked, ranked, measure_name))
    if field:
        raise Reject("visible gold", f"the gold's {field} shows what the need is about: no note is needed")
    against = contradictions(world, gold, need, at)
    if against:
        raise Reject(
            "inconsistent gold",
            f"the gold's own notes contradict it after the supports the rule counts: {'; '.join(against)}",
        )
    if len(alike) < MIN_LOOKALIKES:
        raise Reject(
            "notes-blind",
            f"only {len(alike)} places look like the gold without reading notes (at least {MIN_LOOKALIKES} must)",
        )
    if measure is not None:
        beaten = [p for p in alike if p in measure and measure[p] <= measure[gold]]
        if not beaten:
            raise Reject(
                "notes-blind",
                f"the gold is the best of its look-alikes by {measure_name}: no note is needed to pick it",
            )
    decoys = [p for p in alike if has_talk(world, p, need)]
    if len(decoys) < MIN_DECOYS:
        raise Reject(
            "decoys",
            f"only {len(decoys)} look-alikes have notes about the need that do not count (at least {MIN_DECOYS})",
        )
    counts = keyword_counts(world)
    gold_hits = counts.hits(gold, need)
    counted = alike
    if measure is not None:  # the look-alikes a counter would weigh against the gold: the best-ranked ones
        counted = sorted((p for p in alike if p in measure), key=lambda p: (measure[p], p))[:COUNTED_LOOKALIKES]
    others = {p: counts.hits(p, need) for p in counted}

    def beats(p: str) -> bool:  # as many hits, and more net or (a tie) better ranked: a counter picks it
        plain, net = others[p]
        better = measure is not None and p in measure and measure[p] < measure[gold]
        return plain >= gold_hits[0] and net >= gold_hits[1] and (net > gold_hits[1] or better)

    leader = max(others, key=lambda p: (others[p][1], others[p][0], p))
    if not any(beats(p) for p in others):
        raise Reject(
            "decoys",
            f"the gold leads the keyword count ({gold_hits[0]} hits, {gold_hits[1]} net of negations and questions; "
            f"the best look-alike {others[leader][0]} and {others[leader][1]}): counting hits would find it",
        )
    if measure is not None and not any(
        measure[p] < measure[gold] and others[p][1] >= 1 for p in others if p in measure
    ):
        raise Reject(
            "decoys",
            f"no look-alike that beats the gold by {measure_name} has a positive keyword count: a counter that "
            "takes the best-ranked place its notes back would find the gold",
        )
    return Evidence(tuple(alike), tuple(decoys), gold_hits, leader, others[leader])

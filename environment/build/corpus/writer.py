"""The synthetic social-media corpus: hidden facts per place, written into noisy, labelled notes.

:func:`generate_corpus` plans every place's facts and evidence (:mod:`.plan`), writes each
place's notes and comments from its own random stream, labels every note and comment that
touches a fact (:class:`~environment.records.LabelRecord`: the place it speaks of,
the fact, its stance), and distils the facts that hold under the evidence rule
(:mod:`.memory`). Randomness comes from ``random.Random`` seeded with a SHA-256 of the seed
and a place id, so the same ``(places, seed)`` gives the same corpus byte for byte.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import environment.build.corpus.phrasing as P
from environment.evidence import ASKS, CREDITS, ENDED, HEARSAY, NEGATES, PROMO, SPAM, SUPPORTS
from environment.records import CommentRecord, Corpus, LabelRecord, NoteRecord, PlaceRecord

from . import stances
from .memory import distil
from .plan import (
    WINDOW_END,
    WINDOW_START,
    Item,
    PlacePlan,
    evidence_plan,
    held_facts,
    holders_nearby,
    spread_wordings,
)
from .reactions import chatter_comment, reaction
from .text import ambiguous_mention, partial_name, past_day

MAX_NOTES_PER_PLACE, MAX_COMMENTS_PER_NOTE = 20, 10
CHATTER_PER_PLACE = 0.7
AUTHORS_PER_PLACE = 6
_FILLER_KINDS = ("about", "multi", "duplicate", "outdated")
_FILLER_WEIGHTS = (0.80, 0.08, 0.06, 0.06)
_COMMENT_COUNTS = tuple(range(11))
_COMMENT_WEIGHTS = (1, 1, 1, 1, 1, 1, 1, 2, 10, 20, 60)


def _digest(*parts: object) -> bytes:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()


def _rng(*parts: object) -> random.Random:
    return random.Random(int.from_bytes(_digest(*parts)[:8], "big"))


def _rednote_id(when: datetime, *parts: object) -> str:
    """24 lowercase hex like RedNote: 8 hex of the unix time, 16 hex of a digest."""
    return f"{int(when.timestamp()):08x}{_digest(*parts).hex()[:16]}"


def _random_time(rng: random.Random, lo: datetime = WINDOW_START, hi: datetime = WINDOW_END - timedelta(days=2)):
    return lo + timedelta(seconds=rng.randrange(int((hi - lo).total_seconds())))


def _engagement(rng: random.Random) -> tuple[int, int, int]:
    liked = int(rng.lognormvariate(3.0, 1.7))
    collected = int(liked * rng.uniform(0.1, 0.9)) + int(rng.expovariate(0.5))
    shared = int(liked * rng.uniform(0.0, 0.15))
    return liked, collected, shared


@dataclass
class _Draft:
    """A note being written: its sentences, the evidence it carries, and its comments (time, author, text, item)."""

    kind: str
    author: str
    time: datetime
    title: str
    sentences: list[str]
    items: list[tuple[Item, str]] = field(default_factory=list)  # the evidence it carries, with its sentence
    mentioned: tuple[str, ...] = ()
    hashtags: list[str] = field(default_factory=list)
    comments: list[tuple[datetime, str, str, Item | None]] = field(default_factory=list)


class _PlaceWriter:
    """Writes one place's notes, comments and labels from its plan and its own random stream."""

    def __init__(self, plan: PlacePlan, seed: int, partners: Sequence[PlaceRecord], names: dict[str, str], authors):
        self.plan, self.place, self.seed, self.partners, self.names = plan, plan.place, seed, partners, names
        self.authors = authors
        self.rng = _rng(seed, "place", self.place.place_id)
        sub = self.place.place_type.split("|", 1)[1].lower() if "|" in self.place.place_type else ""
        self.noun = sub or "place"
        self.drafts: list[_Draft] = []

    # -- planning the notes ------------------------------------------------------------------
    def write(self) -> tuple[list[NoteRecord], list[CommentRecord], list[LabelRecord]]:
        rng = self.rng
        # The first note comes in the corpus's first days, so every comment has a note to go under.
        self.drafts.append(
            self._about(rng.choice(self.authors), WINDOW_START + timedelta(seconds=rng.randrange(259200)))
        )
        own = sorted((i for i in self.plan.items if i.in_note), key=lambda i: (i.stance not in (PROMO, SPAM), i.time))
        room = MAX_NOTES_PER_PLACE - 3  # a place has at most 20 notes: the rest of its evidence goes in comments
        for item in own[:room]:
            self.drafts.append(self._evidence_note(item))
        count = rng.randint(14, MAX_NOTES_PER_PLACE) if rng.random() < 0.72 else rng.randint(4, 13)
        for _ in range(max(1, count - len(self.drafts))):
            kind = rng.choices(_FILLER_KINDS, _FILLER_WEIGHTS)[0]
            about = [d for d in self.drafts if d.kind == "about"]
            if kind == "duplicate" and about:
                self.drafts.append(self._duplicate(rng.choice(about)))
            elif kind == "multi" and self.partners:
                self.drafts.append(self._multi(len(self.drafts)))
            elif kind == "outdated":
                self.drafts.append(self._outdated())
            else:
                self.drafts.append(self._about(rng.choice(self.authors), _random_time(rng)))
        rest = [i for i in self.plan.items if not i.in_note] + own[room:]
        for item in sorted(rest, key=lambda i: (i.time, i.author, i.spec.key)):
            self._attach(item)
        return self._emit()

    def _attach(self, item: Item) -> None:
        """A comment item goes under an older note of the place with room for it."""
        drafts = [d for d in self.drafts if len(d.comments) < MAX_COMMENTS_PER_NOTE]
        hosts = [d for d in drafts if d.kind == "about" and d.time < item.time - timedelta(hours=1)]
        if item.stance == PROMO:  # the place answers under its own advert
            hosts = [d for d in drafts if d.kind == "promo" and d.time < item.time] or hosts
        when = item.time
        if not hosts:  # older than every note but the first: it answers the first note, an hour after it
            hosts = [min(drafts, key=lambda d: d.time)]
            when = max(when, hosts[0].time + timedelta(hours=1))
        host = hosts[self.rng.randrange(len(hosts))]
        host.comments.append((when, item.author, self._say(item, comment=True), item))

    # -- note kinds -------------------------------------------------------------------------
    def _mention(self) -> str:
        place = self.place
        if self.rng.random() < 0.82:
            return place.name
        return ambiguous_mention(place.name, place.alias, self.noun, place.address, self.rng)

    def _about(self, author: str, when: datetime, evidence: Sequence[str] = ()) -> _Draft:
        rng = self.rng
        mention = self._mention()
        middle = list(evidence) + self._fillers(rng.randint(0 if evidence else 1, 2))
        rng.shuffle(middle)
        sentences = [rng.choice(P.OPENERS).format(m=mention), *middle]
        if rng.random() < 0.6:
            sentences.append(rng.choice(P.CLOSERS))
        short = partial_name(self.place.name) or self.place.name if mention == self.place.name else mention
        title = rng.choice(P.TITLES).format(
            m=short if rng.random() < 0.5 else mention, sub=self.noun, n=rng.randint(2, 12)
        )
        return _Draft("about", author, when, title, sentences[:6], mentioned=(self.place.place_id,))

    def _evidence_note(self, item: Item) -> _Draft:
        rng = self.rng
        if item.stance == PROMO:
            text = stances.promo(rng, item.spec, self.place.name)
            tags = ["ad", "sponsored", self.noun.replace(" ", "")]
            title = f"✨ {self.place.name} ✨"
            return _Draft("promo", item.author, item.time, title, [text], [(item, text)], (self.place.place_id,), tags)
        if item.stance == SPAM:
            text = stances.spam(rng, item.spec, self.place.name)
            tags = ["deals", "giveaway"]
            return _Draft(
                "spam", item.author, item.time, "🔥 BEST DEALS 🔥", [text], [(item, text)], (self.place.place_id,), tags
            )
        text = self._say(item)
        draft = self._about(item.author, item.time, [text])
        draft.items.append((item, text))
        if item.stance == CREDITS and item.other:
            draft.mentioned = (self.place.place_id, item.other)
        if item.stance == SUPPORTS and item.spec.hashtag:
            draft.hashtags.append(item.spec.hashtag)
        return draft

    def _multi(self, i: int) -> _Draft:
        rng = _rng(self.seed, "multi", self.place.place_id, i)  # partners must not shift the place stream
        others = rng.sample(list(self.partners), min(len(self.partners), rng.choice((1, 1, 2))))
        names = dict(a=self.place.name, b=others[0].name, c=others[-1].name)
        sentences = [rng.choice(P.MULTI_OPENERS).format(**names)]
        if len(others) > 1:
            sentences.append(rng.choice(P.MULTI_THIRD).format(**names))
        sentences.append(rng.choice(P.MULTI_VERDICTS).format(**names))
        sentences += self._fillers(rng.randint(0, 1), rng)
        ids = (self.place.place_id, *(o.place_id for o in others))
        return _Draft(
            "multi", rng.choice(self.authors), _random_time(rng), rng.choice(P.MULTI_TITLES), sentences, mentioned=ids
        )

    def _duplicate(self, source: _Draft) -> _Draft:
        """A repost by the same author: the opener and fillers again, the evidence left out (never copied)."""
        rng = self.rng
        kept = [source.sentences[0], *self._fillers(rng.randint(1, 2))]
        title = source.title + rng.choice((" (repost)", " - still true", " again", "!"))
        when = min(source.time + timedelta(days=rng.randint(3, 200)), WINDOW_END - timedelta(days=2))
        sentences = [rng.choice(P.REPOST_OPENERS), *kept]
        return _Draft("duplicate", source.author, when, title, sentences, mentioned=source.mentioned)

    def _outdated(self) -> _Draft:
        rng = self.rng
        when = _random_time(rng, WINDOW_START, datetime(2024, 6, 30, tzinfo=WINDOW_START.tzinfo))
        day = (when - timedelta(days=rng.randint(1, 10))).date()
        event = rng.choice(P.OUTDATED_EVENTS).format(dates=past_day(day, rng))
        sentences = [rng.choice(P.OPENERS).format(m=self.place.name), event, *self._fillers(rng.randint(0, 1))]
        title = rng.choice(P.OUTDATED_TITLES).format(m=partial_name(self.place.name) or self.place.name)
        return _Draft("outdated", rng.choice(self.authors), when, title, sentences, mentioned=(self.place.place_id,))

    # -- text -------------------------------------------------------------------------------
    def _fillers(self, k: int, rng: random.Random | None = None) -> list[str]:
        rng = rng or self.rng
        pool = P.FILLERS.get(self.place.top_type, ()) + P.GENERIC_FILLERS
        return rng.sample(pool, k)

    def _say(self, item: Item, comment: bool = False) -> str:
        rng, spec = self.rng, item.spec
        if item.stance == SUPPORTS:
            if item.dates and item.occasion:
                return stances.dated(rng, spec, *item.dates, item.occasion)
            if item.dates:  # a short-term fact: its own phrases, with the dates spoken
                return stances.announces(rng, _spoken(rng, rng.choice(spec.phrases), item.dates))
            return stances.supports_comment(rng, spec) if comment else stances.supports(rng, spec)
        if item.stance == CREDITS:
            return stances.credits(rng, spec, self.names[item.other or ""])
        if item.stance == PROMO:
            return stances.promo_reply(rng, spec) if comment else stances.promo(rng, spec, self.place.name)
        if item.stance == SPAM:
            return stances.spam(rng, spec, self.place.name)
        if item.stance == NEGATES and not spec.deniable:
            return stances.disagrees(rng, rng.choice(spec.contra))
        say = {NEGATES: stances.negates, ENDED: stances.ended, ASKS: stances.asks, HEARSAY: stances.hearsay}
        return say[item.stance](rng, spec)

    # -- records ----------------------------------------------------------------------------
    def _emit(self) -> tuple[list[NoteRecord], list[CommentRecord], list[LabelRecord]]:
        notes, comments, labels = [], [], []
        pid = self.place.place_id
        for i, draft in enumerate(self.drafts):
            rng = self.rng
            note_id = _rednote_id(draft.time, self.seed, "note", pid, i)
            if draft.kind in ("about", "multi") and not draft.comments or len(draft.comments) < 3:
                self._fill_comments(draft)
            thread = sorted(draft.comments, key=lambda c: (c[0], c[1], c[2]))
            for j, (when, _voice, text, item) in enumerate(thread):
                comment_id = _rednote_id(when, note_id, j)
                comments.append(CommentRecord(comment_id, note_id, when, text, int(rng.lognormvariate(0.2, 1.4))))
                if item is not None:
                    labels.append(_label(item, text, note_id, comment_id, pid))
            labels += [_label(item, text, note_id, None, pid) for item, text in draft.items]
            tags = ["helsinki", self.noun.replace(" ", "").replace("-", "")] + draft.hashtags
            tags += rng.sample(P.GENERIC_TAGS, rng.randint(0, 2)) if draft.kind not in ("promo", "spam") else []
            liked, collected, shared = _engagement(rng)
            notes.append(
                NoteRecord(
                    note_id=note_id,
                    place_id=pid,
                    mentioned_place_ids=draft.mentioned or (pid,),
                    kind=draft.kind,
                    title=draft.title,
                    desc=" ".join(draft.sentences),
                    time=draft.time,
                    liked_count=liked,
                    collected_count=collected,
                    comment_count=len(thread),
                    share_count=shared,
                    tag_list=",".join(dict.fromkeys(tags)),
                )
            )
        return notes, comments, labels

    def _fill_comments(self, draft: _Draft) -> None:
        rng = self.rng
        target = rng.choices(_COMMENT_COUNTS, _COMMENT_WEIGHTS)[0] if draft.kind != "duplicate" else rng.randint(0, 4)
        while len(draft.comments) < target:
            when = min(draft.time + timedelta(minutes=1 + int(rng.expovariate(1 / 4000))), WINDOW_END)
            roll = rng.random()
            text = chatter_comment(rng) if roll < 0.12 else reaction(rng)
            voice = f"spam:{rng.randrange(10**6)}" if roll > 0.985 else rng.choice(self.authors)
            draft.comments.append((when, voice, text, None))


def _spoken(rng: random.Random, phrase: str, dates) -> str:
    from .text import spoken_dates

    start, end = dates
    return phrase.format(dates=spoken_dates(start, end, rng), end=spoken_dates(end, end, rng)[3:])


def _label(item: Item, text: str, note_id: str, comment_id: str | None, place_id: str) -> LabelRecord:
    start, end = item.dates or (None, None)
    return LabelRecord(
        note_id=note_id,
        comment_id=comment_id,
        place_id=place_id,
        kind=item.spec.kind,
        key=item.spec.key,
        label=item.label,
        stance=item.stance,
        credited_place_id=item.other,
        valid_from=start,
        valid_until=end,
        text=text,
    )


def _chatter(seed: int, i: int) -> tuple[NoteRecord, list[CommentRecord]]:
    rng = _rng(seed, "chatter", i)
    when = _random_time(rng)
    note_id = _rednote_id(when, seed, "chatter", i)
    desc = " ".join(rng.sample(P.CHATTER_SENTENCES, rng.randint(2, 4)))
    n = rng.choices(_COMMENT_COUNTS, _COMMENT_WEIGHTS)[0]
    times = sorted(min(when + timedelta(minutes=1 + int(rng.expovariate(1 / 3000))), WINDOW_END) for _ in range(n))
    comments = [
        CommentRecord(
            _rednote_id(t, note_id, j),
            note_id,
            t,
            chatter_comment(rng) if rng.random() < 0.6 else reaction(rng),
            int(rng.lognormvariate(0.2, 1.4)),
        )
        for j, t in enumerate(times)
    ]
    liked, collected, shared = _engagement(rng)
    tags = ",".join(dict.fromkeys(rng.sample(P.CHATTER_TAGS, rng.randint(1, 3))))
    note = NoteRecord(
        note_id, None, (), "chatter", rng.choice(P.CHATTER_TITLES), desc, when,
        liked, collected, len(comments), shared, tags,
    )  # fmt: skip
    return note, comments


def _neighbours(places: Sequence[PlaceRecord], k: int = 6) -> dict[str, list[PlaceRecord]]:
    """The ``k`` nearest other places of each place (grid buckets of about 300 m)."""
    cell = lambda p: (math.floor(p.lat / 0.003), math.floor(p.lon / 0.006))  # noqa: E731
    grid: dict[tuple[int, int], list[PlaceRecord]] = {}
    for p in places:
        grid.setdefault(cell(p), []).append(p)
    out = {}
    for p in places:
        cy, cx = cell(p)
        near = [q for dy in (-1, 0, 1) for dx in (-1, 0, 1) for q in grid.get((cy + dy, cx + dx), ())]
        if len(near) <= 1:
            near = list(places)
        scale = math.cos(math.radians(p.lat))
        near = sorted(
            (q for q in near if q.place_id != p.place_id),
            key=lambda q: (((q.lat - p.lat) ** 2 + ((q.lon - p.lon) * scale) ** 2), q.place_id),
        )
        out[p.place_id] = near[:k]
    return out


def generate_corpus(places: Sequence[PlaceRecord], seed: int) -> Corpus:
    """Write the synthetic corpus for ``places``: hidden facts, noisy labelled notes and comments, memories.

    Args:
        places: the city's places; ``place_id`` must be unique.
        seed: the build seed; the same ``(places, seed)`` gives an identical corpus.

    Returns:
        A :class:`Corpus` whose facts are those the evidence rule finds held, each listing the notes
        whose counted items back it.
    """
    ids = [p.place_id for p in places]
    if len(set(ids)) != len(ids):
        raise ValueError("place_id values must be unique")
    # Voices: who says what, inside the writer only (two supports of a held fact come from two visitors,
    # a repost from the same one); notes and comments carry no author.
    authors = tuple(f"v{i}" for i in range(max(500, AUTHORS_PER_PLACE * len(places))))
    held = {p.place_id: held_facts(_rng(seed, "facts", p.place_id), p) for p in places}
    spread_wordings(held)
    near = holders_nearby(places, held)
    partners = _neighbours(places)
    names = {p.place_id: p.name for p in places}
    notes: list[NoteRecord] = []
    comments: list[CommentRecord] = []
    labels: list[LabelRecord] = []
    for place in places:
        plan = evidence_plan(
            place, held[place.place_id], _rng(seed, "evidence", place.place_id), authors, near[place.place_id]
        )
        place_notes, place_comments, place_labels = _PlaceWriter(
            plan, seed, partners[place.place_id], names, authors
        ).write()
        notes += place_notes
        comments += place_comments
        labels += place_labels
    for i in range(round(len(places) * CHATTER_PER_PLACE)):
        note, note_comments = _chatter(seed, i)
        notes.append(note)
        comments += note_comments
    if len({n.note_id for n in notes}) != len(notes):
        raise RuntimeError("note_id collision; change the seed")
    facts, memories = distil(places, notes, comments, labels)
    return Corpus(facts=facts, notes=notes, comments=comments, memories=memories, labels=labels)

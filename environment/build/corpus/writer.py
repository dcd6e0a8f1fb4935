"""The synthetic social-media corpus: hidden facts per place, written into noisy notes.

Every place draws its facts and notes from its own random stream, seeded by a SHA-256 of
``(seed, place_id)``, so adding or removing a place leaves every other place's notes as
they were; only multi-place posts, whose partners are the nearest places, may change.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

import environment.build.corpus.phrasing as P

from ..records import CommentRecord, Corpus, FactRecord, NoteRecord, PlaceRecord
from .memory import memories_from_facts
from .text import ambiguous_mention, label_day, label_span, partial_name, past_day, spoken_dates
from .vocab import LONG_TERM, SHORT_TERM, STATIC, FactSpec, fitting

UTC = UTC
WINDOW_START = datetime(2023, 1, 1, tzinfo=UTC)
WINDOW_END = datetime(2026, 10, 31, 23, 59, 59, tzinfo=UTC)
SHORT_TERM_FROM, SHORT_TERM_TO = date(2025, 1, 1), date(2026, 10, 31)
MAX_NOTES_PER_PLACE, MAX_COMMENTS_PER_NOTE = 20, 10
CHATTER_PER_PLACE = 0.7
_NOTE_KINDS = ("about", "multi", "duplicate", "outdated")
_NOTE_KIND_WEIGHTS = (0.80, 0.08, 0.06, 0.06)
_COMMENT_COUNTS = tuple(range(11))
_COMMENT_WEIGHTS = (1, 1, 1, 1, 1, 1, 1, 2, 10, 20, 60)


def _digest(*parts: object) -> bytes:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()


def _rng(*parts: object) -> random.Random:
    return random.Random(int.from_bytes(_digest(*parts)[:8], "big"))


def _rednote_id(when: datetime, *parts: object) -> str:
    """24 lowercase hex like RedNote: 8 hex of the unix time, 16 hex of a digest."""
    return f"{int(when.timestamp()):08x}{_digest(*parts).hex()[:16]}"


@dataclass
class _Fact:
    spec: FactSpec
    label: str
    start: date | None = None
    end: date | None = None
    note_ids: list[str] = field(default_factory=list)

    def say(self, text: str, rng: random.Random) -> str:
        if self.start is None or self.end is None:  # both are set or neither
            return text
        until = "{until}" in self.spec.label
        return text.format(
            dates=spoken_dates(self.start, self.end, rng, until=until), end=spoken_dates(self.end, self.end, rng)[3:]
        )


@dataclass
class _Note:
    record: NoteRecord
    sentences: list[tuple[str, int | None]]  # (text, index of the fact it expresses)


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
        return start, start + timedelta(days=b - 1)
    length = rng.randint(a, b)
    span = (SHORT_TERM_TO - SHORT_TERM_FROM).days - length
    start = SHORT_TERM_FROM + timedelta(days=rng.randint(0, span))
    return start, start + timedelta(days=length - 1)


def _pick_facts(rng: random.Random, top: str, sub: str) -> list[_Fact]:
    facts = [
        _Fact(s, s.label) for s in _sample_weighted(rng, fitting(STATIC, top, sub), rng.choice((1, 1, 2, 2, 2, 3)))
    ]
    facts += [
        _Fact(s, s.label) for s in _sample_weighted(rng, fitting(LONG_TERM, top, sub), rng.choice((1, 2, 2, 2, 3)))
    ]
    short = fitting(SHORT_TERM, top, sub)
    if short and rng.random() < 0.45:
        spec = short[rng.randrange(len(short))]
        start, end = _event_dates(spec, rng)
        label = spec.label.format(span=label_span(start, end), until=label_day(end))
        facts.append(_Fact(spec, label, start, end))
    return facts


def _note_count(rng: random.Random) -> int:
    if rng.random() < 0.72:
        return rng.randint(14, MAX_NOTES_PER_PLACE)
    return rng.randint(4, 13)


def _random_time(
    rng: random.Random, lo: datetime = WINDOW_START, hi: datetime = WINDOW_END - timedelta(days=2)
) -> datetime:
    return lo + timedelta(seconds=rng.randrange(int((hi - lo).total_seconds())))


def _near_event(rng: random.Random, start: date) -> datetime:
    day = datetime(start.year, start.month, start.day, tzinfo=UTC) - timedelta(days=rng.randint(1, 21))
    when = day + timedelta(seconds=rng.randrange(7 * 3600, 23 * 3600))
    return min(max(when, WINDOW_START), WINDOW_END - timedelta(days=2))


def _engagement(rng: random.Random) -> tuple[int, int, int]:
    liked = int(rng.lognormvariate(3.0, 1.7))
    collected = int(liked * rng.uniform(0.1, 0.9)) + int(rng.expovariate(0.5))
    shared = int(liked * rng.uniform(0.0, 0.15))
    return liked, collected, shared


class _PlaceWriter:
    """Writes one place's facts, notes and comments from its own random stream."""

    def __init__(self, place: PlaceRecord, seed: int, partners: Sequence[PlaceRecord]):
        self.place, self.seed, self.partners = place, seed, partners
        self.rng = _rng(seed, "place", place.place_id)
        self.top = place.top_type
        self.sub = place.place_type.split("|", 1)[1].lower() if "|" in place.place_type else ""
        self.noun = self.sub or "place"
        self.facts = _pick_facts(self.rng, self.top, self.sub)
        self.notes: list[_Note] = []
        self.comments: list[CommentRecord] = []

    # -- planning ---------------------------------------------------------------------------
    def write(self) -> None:
        rng = self.rng
        count = _note_count(rng)
        kinds = ["about", "about"] + rng.choices(_NOTE_KINDS, _NOTE_KIND_WEIGHTS, k=count - 2)
        rng.shuffle(kinds)
        if kinds[0] != "about":  # a repost needs an earlier post
            first = kinds.index("about")
            kinds[0], kinds[first] = kinds[first], kinds[0]
        about = [i for i, kind in enumerate(kinds) if kind == "about"]
        plan: dict[int, list[tuple[int, str]]] = {i: [] for i in about}
        for f_index, _fact in enumerate(self.facts):
            k = rng.choice((1, 2, 2, 3, 3, 4))
            for i in sorted(rng.sample(about, min(k, len(about)))):
                in_desc = sum(mode == "desc" for _, mode in plan[i]) < 3 and rng.random() < 0.7
                plan[i].append((f_index, "desc" if in_desc else "comment"))
        for i, kind in enumerate(kinds):
            if kind == "about":
                self._about(i, plan[i])
            elif kind == "multi":
                self._multi(i)
            elif kind == "duplicate":
                self._duplicate(i)
            else:
                self._outdated(i)

    # -- note kinds -------------------------------------------------------------------------
    def _about(self, i: int, carried: list[tuple[int, str]]) -> None:
        rng, place = self.rng, self.place
        full = rng.random() < 0.82
        mention = place.name if full else ambiguous_mention(place.name, place.alias, self.sub, place.address, rng)
        when = _random_time(rng)
        starts = [start for f, _ in carried if (start := self.facts[f].start) is not None]
        if starts:
            when = _near_event(rng, starts[0])
        middle: list[tuple[str, int | None]] = [
            (self.facts[f].say(rng.choice(self.facts[f].spec.phrases), rng), f) for f, mode in carried if mode == "desc"
        ]
        n_fill = min(rng.randint(0 if middle else 1, 2), 4 - len(middle))
        middle += [(s, None) for s in self._fillers(n_fill)]
        rng.shuffle(middle)
        sentences = [(rng.choice(P.OPENERS).format(m=mention), None)] + middle
        if rng.random() < 0.6 or len(sentences) < 2:
            sentences.append((rng.choice(P.CLOSERS), None))
        sentences = sentences[:6]
        short = mention if not full else (partial_name(place.name) or place.name)
        title = rng.choice(P.TITLES).format(
            m=short if rng.random() < 0.5 else mention, sub=self.noun, n=rng.randint(2, 12)
        )
        hashtags = [self.facts[f].spec.hashtag for f, mode in carried if mode == "desc"]
        extra = [(f, mode) for f, mode in carried if mode == "comment"]
        self._emit(i, "about", title, sentences, when, (place.place_id,), hashtags, extra)

    def _multi(self, i: int) -> None:
        rng = _rng(self.seed, "multi", self.place.place_id, i)  # partners must not shift the place stream
        if not self.partners:
            return self._outdated(i, rng)
        others = rng.sample(list(self.partners), min(len(self.partners), rng.choice((1, 1, 2))))
        names = dict(a=self.place.name, b=others[0].name, c=others[-1].name)
        sentences = [(rng.choice(P.MULTI_OPENERS).format(**names), None)]
        if len(others) > 1:
            sentences.append((rng.choice(P.MULTI_THIRD).format(**names), None))
        sentences.append((rng.choice(P.MULTI_VERDICTS).format(**names), None))
        sentences += [(s, None) for s in self._fillers(rng.randint(0, 1), rng)]
        ids = (self.place.place_id, *(o.place_id for o in others))
        self._emit(i, "multi", rng.choice(P.MULTI_TITLES), sentences, _random_time(rng), ids, [], [], rng=rng)

    def _duplicate(self, i: int) -> None:
        rng = self.rng
        source = self.notes[rng.randrange(len(self.notes))]
        while source.record.kind not in ("about",):
            source = self.notes[(self.notes.index(source) + 1) % len(self.notes)]
        kept = list(source.sentences)
        droppable = [j for j, (_, f) in enumerate(kept) if f is None and j > 0]
        if droppable and rng.random() < 0.6:
            kept.pop(rng.choice(droppable))
        sentences = [(rng.choice(P.REPOST_OPENERS), None)] + kept
        title = source.record.title + rng.choice((" (repost)", " - still true", " again", "!"))
        when = min(source.record.time + timedelta(days=rng.randint(3, 200)), WINDOW_END - timedelta(days=2))
        tags = source.record.tag_list.split(",")
        self._emit(i, "duplicate", title, sentences[:6], when, source.record.mentioned_place_ids, tags, [])

    def _outdated(self, i: int, rng: random.Random | None = None) -> None:
        rng = rng or self.rng
        when = _random_time(rng, WINDOW_START, datetime(2024, 6, 30, tzinfo=UTC))
        day = (when - timedelta(days=rng.randint(1, 10))).date()
        event = rng.choice(P.OUTDATED_EVENTS).format(dates=past_day(day, rng))
        sentences = [(rng.choice(P.OPENERS).format(m=self.place.name), None), (event, None)]
        sentences += [(s, None) for s in self._fillers(rng.randint(0, 1), rng)]
        title = rng.choice(P.OUTDATED_TITLES).format(m=partial_name(self.place.name) or self.place.name)
        self._emit(i, "outdated", title, sentences, when, (self.place.place_id,), [], [], rng=rng)

    # -- shared pieces ------------------------------------------------------------------------
    def _fillers(self, k: int, rng: random.Random | None = None) -> list[str]:
        rng = rng or self.rng
        pool = P.FILLERS.get(self.top, ()) + P.GENERIC_FILLERS
        return rng.sample(pool, k)

    def _emit(self, i, kind, title, sentences, when, mentioned, hashtags, comment_facts, rng=None):
        rng = rng or self.rng
        note_id = _rednote_id(when, self.seed, "note", self.place.place_id, i)
        n_comments = max(rng.choices(_COMMENT_COUNTS, _COMMENT_WEIGHTS)[0], len(comment_facts))
        if kind == "duplicate":
            n_comments = rng.randint(0, 4)
        contents, supported = self._comment_texts(rng, n_comments, comment_facts, kind == "about")
        supported |= {f for _, f in sentences if f is not None}
        for f in sorted(supported):
            self.facts[f].note_ids.append(note_id)
        self._write_comments(rng, note_id, when, contents)
        tags = ["helsinki", self.noun.replace(" ", "").replace("-", "")] + [h for h in hashtags if h]
        tags += rng.sample(P.GENERIC_TAGS, rng.randint(0, 2))
        liked, collected, shared = _engagement(rng)
        record = NoteRecord(
            note_id=note_id,
            place_id=self.place.place_id,
            mentioned_place_ids=tuple(mentioned),
            kind=kind,
            title=title,
            desc=" ".join(text for text, _ in sentences),
            time=when,
            liked_count=liked,
            collected_count=collected,
            comment_count=len(contents),
            share_count=shared,
            tag_list=",".join(dict.fromkeys(tags)),
        )
        self.notes.append(_Note(record, sentences))

    def _comment_texts(self, rng, n, comment_facts, may_restate) -> tuple[list[str], set[int]]:
        texts, supported = [], set()
        for f, _ in comment_facts:
            texts.append(self._restate(rng, f))
            supported.add(f)
        lasting = [j for j, fact in enumerate(self.facts) if fact.start is None]
        contra = [j for j in lasting if self.facts[j].spec.contra]
        while len(texts) < n:
            roll = rng.random()
            if contra and roll < 0.04:
                texts.append(rng.choice(self.facts[rng.choice(contra)].spec.contra))
            elif may_restate and lasting and roll < 0.08:
                f = rng.choice(lasting)
                texts.append(self._restate(rng, f))
                supported.add(f)
            elif roll < 0.15:
                texts.append(rng.choice(P.COMMENTS_CHATTER))
            else:
                texts.append(rng.choice(P.COMMENTS_GENERIC))
        rng.shuffle(texts)
        return texts, supported

    def _restate(self, rng: random.Random, f: int) -> str:
        fact = self.facts[f]
        if fact.start is None and rng.random() < 0.5:  # short comments carry no date
            text = rng.choice(fact.spec.comments)
            return text if text.endswith("?") else rng.choice(P.REPLY_PREFIXES) + text
        return fact.say(rng.choice(fact.spec.phrases), rng)

    def _write_comments(self, rng, note_id, when, contents) -> None:
        times = sorted(min(when + timedelta(minutes=1 + int(rng.expovariate(1 / 4000))), WINDOW_END) for _ in contents)
        for j, (t, text) in enumerate(zip(times, contents)):
            self.comments.append(
                CommentRecord(
                    comment_id=_rednote_id(t, note_id, j),
                    note_id=note_id,
                    time=t,
                    content=text,
                    like_count=int(rng.lognormvariate(0.2, 1.4)),
                )
            )


def _chatter(seed: int, i: int) -> tuple[NoteRecord, list[CommentRecord]]:
    rng = _rng(seed, "chatter", i)
    when = _random_time(rng)
    note_id = _rednote_id(when, seed, "chatter", i)
    desc = " ".join(rng.sample(P.CHATTER_SENTENCES, rng.randint(2, 4)))
    comments = []
    n = rng.choices(_COMMENT_COUNTS, _COMMENT_WEIGHTS)[0]
    pool = P.COMMENTS_CHATTER + P.COMMENTS_GENERIC[:12]
    times = sorted(when + timedelta(minutes=1 + int(rng.expovariate(1 / 3000))) for _ in range(n))
    for j, t in enumerate(times):
        t = min(t, WINDOW_END)
        comments.append(
            CommentRecord(_rednote_id(t, note_id, j), note_id, t, rng.choice(pool), int(rng.lognormvariate(0.2, 1.4)))
        )
    liked, collected, shared = _engagement(rng)
    tags = ",".join(dict.fromkeys(rng.sample(P.CHATTER_TAGS, rng.randint(1, 3))))
    note = NoteRecord(
        note_id,
        None,
        (),
        "chatter",
        rng.choice(P.CHATTER_TITLES),
        desc,
        when,
        liked,
        collected,
        len(comments),
        shared,
        tags,
    )
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
    """Write the synthetic corpus for ``places``: hidden facts, noisy notes, comments, memories.

    Args:
        places: the city's places; ``place_id`` must be unique.
        seed: the build seed; the same ``(places, seed)`` gives an identical corpus.

    Returns:
        A :class:`Corpus` whose facts each list the notes that express them.
    """
    ids = [p.place_id for p in places]
    if len(set(ids)) != len(ids):
        raise ValueError("place_id values must be unique")
    partners = _neighbours(places)
    notes: list[NoteRecord] = []
    comments: list[CommentRecord] = []
    facts: list[FactRecord] = []
    for place in places:
        writer = _PlaceWriter(place, seed, partners[place.place_id])
        writer.write()
        notes += [n.record for n in writer.notes]
        comments += writer.comments
        facts += [
            FactRecord(place.place_id, f.spec.kind, f.spec.key, f.label, tuple(f.note_ids), f.start, f.end)
            for f in writer.facts
        ]
    for i in range(round(len(places) * CHATTER_PER_PLACE)):
        note, note_comments = _chatter(seed, i)
        notes.append(note)
        comments += note_comments
    if len({n.note_id for n in notes}) != len(notes):
        raise RuntimeError("note_id collision; change the seed")
    facts = canonical_facts(facts, notes)
    return Corpus(facts=facts, notes=notes, comments=comments, memories=memories_from_facts(places, facts))


def canonical_facts(facts: Sequence[FactRecord], notes: Sequence[NoteRecord]) -> list[FactRecord]:
    """Facts ordered by their first supporting note, note ids in corpus order.

    This is the order the JSONL importer rebuilds, so export and import round-trip exactly.
    """
    position = {n.note_id: i for i, n in enumerate(notes)}
    ordered = [
        FactRecord(
            f.place_id,
            f.kind,
            f.key,
            f.label,
            tuple(sorted(f.note_ids, key=position.__getitem__)),
            f.valid_from,
            f.valid_until,
        )
        for f in facts
    ]
    return sorted(ordered, key=lambda f: position[f.note_ids[0]])

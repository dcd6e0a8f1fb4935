"""What the skeptic reads out of a question: its shape, the places it names, the want and its words.

Built on the heuristic agent's reading (:mod:`..heuristic.reading`: names found by searching the
question's capitalised words, the vehicle, numbers, a weekday and a clock time, a place noun).
On top of it: the *shape* of a question that asks for a place meeting an implied need (one of
several named options, the nearest to one named place, a stop on the way between two, an extra
stop on a trip through several), the *want* (the clause after "I want to", "lets me", "where I
can" ...), its content words folded and cut to a stem, the stay and dwell minutes and an order
rule about "the extra stop". Only the question is read; the words come from nowhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..heuristic.reading import Name, Reading, fold
from ..heuristic.shapes import START

# Clauses that introduce what the user wants to do; the first one that is not an errand, a visit or a
# stay of the recipe kind ("reach B", "stop at a café", "spend 30 minutes in ...") is the want.
_INTRO = re.compile(
    r"(?:\bwant to|\blike to|\blove to|\blets me|\bwhere i can|\bwhere i could|\bcan i|\bcould i|\bsomewhere i can|"
    r"\bsomewhere to|\bplace i can go to)\s+",
    re.I,
)
_CLAUSE_END = re.compile(
    r"[.?!;:]|,\s*(?:ideally|and|at|somewhere|which|keeping|leaving|plan)\b|\s+(?:on|along) the way\b|\s+somewhere\b"
    r"|\s+at a place\b|\s+where i can\b|\s+where i could\b",
    re.I,
)
_NOT_A_NEED = re.compile(
    r"^(?:reach|drop by|stop at|call at|visit|see every|spend \d+|go to|get to|walk to|cycle to|drive to|"
    r"make the extra stop|be there|arrive|stop (?:by|in)|pop into|get there|keep it)\b",
    re.I,
)
STOPWORDS = frozenset(
    (
        "people",
        "ask",
        "asking",
        "question",
        "questions",
        "answer",
        "answers",
        "truly",
        "real",
        "specific",
        "try",
        "enjoy",
        "feel",
        "need",
        "needs",
        "friend",
        "friends",
        "visiting",
        "sister",
        "brother",
        "mum",
        "dad",
        "girlfriend",
        "boyfriend",
        "colleague",
        "colleagues",
        "afternoon",
        "morning",
        "evening",
        "today",
        "tomorrow",
        "day",
        "time",
        "hour",
        "hours",
        "minutes",
        "sure",
        "decide",
        "instead",
        "kind",
        "sort",
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "so",
        "to",
        "of",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "into",
        "onto",
        "over",
        "under",
        "about",
        "above",
        "after",
        "before",
        "again",
        "all",
        "also",
        "am",
        "any",
        "are",
        "as",
        "be",
        "been",
        "being",
        "both",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "down",
        "during",
        "each",
        "few",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "i'd",
        "i'll",
        "i'm",
        "i've",
        "is",
        "it",
        "it's",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "off",
        "once",
        "only",
        "other",
        "our",
        "ours",
        "out",
        "own",
        "place",
        "places",
        "same",
        "she",
        "should",
        "some",
        "somewhere",
        "something",
        "such",
        "than",
        "that",
        "that's",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "too",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "would",
        "you",
        "your",
        "yours",
        "get",
        "got",
        "go",
        "going",
        "want",
        "like",
        "love",
        "let",
        "lets",
        "really",
        "actually",
        "maybe",
        "spot",
        "one",
        "ones",
        "way",
        "along",
        "stop",
        "find",
        "anywhere",
        "someone",
        "thing",
        "things",
        "bit",
        "lot",
        "lots",
        "little",
        "good",
        "great",
        "nice",
        "proper",
        "right",
        "whole",
        "without",
        "around",
        "able",
        "plenty",
        "much",
        "many",
        "us",
        "we're",
        "make",
        "made",
        "take",
        "taking",
        "use",
        "using",
        "still",
        "even",
    )
)
EXTRA = re.compile(r"\bextra stop\b", re.I)


def stem(word: str) -> str:
    """A crude English stem: folded, possessive and the commonest suffixes cut ("pastries" -> "pastr")."""
    word = fold(word).strip("'-")
    word = re.sub(r"'s$", "", word)
    for suffix in ("ies", "ing", "ied", "ed", "es", "ly", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> list[str]:
    """The words of ``text`` that carry meaning, in order, without repeats (hyphenated words split)."""
    out: list[str] = []
    for word in re.findall(r"[A-Za-zÀ-ÿ']+", text.replace("-", " ")):
        low = fold(word).strip("'")
        if len(low) < 3 or low in STOPWORDS or low == "place" or low.endswith("n't"):
            continue
        if low not in out:
            out.append(low)
    return out


@dataclass
class Ask:
    """A question read for its shape; ``shape`` is "" when it does not ask for a place meeting a want."""

    reading: Reading
    shape: str = ""  # "options" | "nearby" | "route" | "trip" | ""
    want: str = ""
    words: list[str] = field(default_factory=list)
    start: Name | None = None
    end: Name | None = None
    stops: list[Name] = field(default_factory=list)  # named stops of a trip, in the order named
    options: list[Name] = field(default_factory=list)
    anchor: Name | None = None
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (a, b): named stop a comes before named stop b
    whole_stay: bool = False  # each stop must be open for the whole stay, not only on arrival
    before: list[str] = field(default_factory=list)  # place ids the extra stop must come before
    after: list[str] = field(default_factory=list)  # place ids the extra stop must come after

    @property
    def names(self) -> list[Name]:
        return self.reading.names

    def stay_minutes(self) -> int:
        """The minutes spent at each stop ("about 20 minutes per stop", "for the next 45 minutes"); 0 if none."""
        m = re.search(r"(\d+) minutes", self.reading.text)
        return int(m[1]) if m else 0


_WHOLE_STAY = re.compile(r"while (?:i'm|i am) there|all while|open while|for the whole", re.I)
_TOUR = re.compile(r"\bevery\b|\ball the\b|\btour\b|\bcrawl\b", re.I)
_TRIP = re.compile(r"\border\b|\broute\b|\bitinerary\b|\bsequence\b|\bplan\b|\berrands\b|\bstops?\b", re.I)
# "Which of A, B or C ...?", "Will D still be open when I reach it?": a choice or a yes/no, not a trip to order
_CHOICE = re.compile(r"\bwhich (?:of|one)\b|open[^.?!]*\?\s*$", re.I)


def read_trip(reading: Reading) -> Ask:
    """A trip through named stops with no want ("from S to E via A and B, A before B"); ``shape`` "trip" when
    the question names a start, an end and at least one stop, else ""."""
    ask = Ask(reading)
    names = reading.names
    starts = [n for n in names if reading.role(n, START)]
    text = reading.text
    if len(names) < 3 or not starts or _TOUR.search(text) or not _TRIP.search(text) or _CHOICE.search(text):
        return ask
    ask.start = starts[0]
    rest = [n for n in names if n is not ask.start]
    ask.end = _end(reading, rest)
    ask.stops = [n for n in rest if n is not ask.end]
    ask.shape = "trip"
    ask.whole_stay = _WHOLE_STAY.search(reading.text) is not None
    _order_rule(ask)
    return ask


def read_ask(reading: Reading) -> Ask:
    """The question's shape, want and words; an Ask with ``shape == ""`` when it names no want."""
    ask = Ask(reading)
    ask.whole_stay = _WHOLE_STAY.search(reading.text) is not None
    for m in _INTRO.finditer(reading.text):  # every intro, nested ones too ("stop at a bar where I can ...")
        tail = reading.text[m.end() :]
        end = _CLAUSE_END.search(tail)
        clause = (tail[: end.start()] if end else tail).strip()
        if _NOT_A_NEED.match(clause) or "PLACE" in clause or not content_words(clause):
            continue
        ask.want = clause
        break
    if not ask.want:
        return ask
    kind = reading.type_word()
    noun_words = set(content_words(kind[0])) if kind else set()
    ask.words = [w for w in content_words(ask.want) if w not in noun_words]
    if not ask.words:
        return ask
    names = reading.names
    starts = [n for n in names if reading.role(n, START)]
    if len(names) == 1:
        ask.shape, ask.anchor = "nearby", names[0]
    elif len(names) >= 2 and not starts and len(names) >= 3:
        ask.shape, ask.options = "options", list(names)
    elif len(names) >= 2:
        ask.start = starts[0] if starts else names[0]
        rest = [n for n in names if n is not ask.start]
        ask.end = _end(reading, rest)
        ask.stops = [n for n in rest if n is not ask.end]
        ask.shape = "trip" if ask.stops else "route"
        _order_rule(ask)
    return ask


def _end(reading: Reading, rest: list[Name]) -> Name:
    for pattern in (r"end(?:ing)? at|finish(?:ing)? at|before ending at|heading to|to|for|reach|get to", ""):
        found = [n for n in rest if pattern and reading.role(n, pattern)]
        if found:
            return found[-1]
    return rest[-1]


def _pair_rule(ask: Ask, sentence: str) -> None:
    """ "I have to pick up a parcel at X before I go to Y", "I can only go to Y after I've been to X": X before Y."""
    low = fold(sentence)
    named = sorted(
        ((low.find(fold(n.record["name"])), n) for n in ask.stops if fold(n.record["name"]) in low),
        key=lambda pair: pair[0],
    )
    if len(named) != 2:
        return
    (at_p, p), (at_q, q) = named
    between = low[at_p:at_q]
    if re.search(r"\bafter\b", between, re.I):
        ask.pairs.append((q.place_id, p.place_id))
    elif re.search(r"\bbefore\b|\bfirst\b|\bthen\b", between, re.I):
        ask.pairs.append((p.place_id, q.place_id))


def _order_rule(ask: Ask) -> None:
    """Read "The extra stop has to come before Y" / "... after X" / "I want to visit X before the extra stop"."""
    question = ask.reading.question
    for sentence in re.split(r"(?<=[.!?])\s+", question):
        if not EXTRA.search(sentence):
            _pair_rule(ask, sentence)
            continue
        named = [n for n in ask.stops if fold(n.record["name"]) in fold(sentence)]
        if not named:
            continue
        place = named[0]
        at = fold(sentence).find(fold(place.record["name"]))
        extra = EXTRA.search(sentence)
        extra_at = extra.start() if extra else 0
        earlier = re.search(r"\bbefore\b|\bearlier\b", sentence, re.I) is not None
        later = re.search(r"\bafter\b|\blater\b", sentence, re.I) is not None
        if extra_at < at:  # "the extra stop ... before/after PLACE"
            if earlier:
                ask.before.append(place.place_id)
            elif later:
                ask.after.append(place.place_id)
        elif earlier:  # "visit PLACE before the extra stop"
            ask.after.append(place.place_id)
        elif later:
            ask.before.append(place.place_id)

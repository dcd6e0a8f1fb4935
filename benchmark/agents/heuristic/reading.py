"""What the heuristic agent reads out of a question, with regular expressions and name lookups.

No model and no knowledge of the benchmark's templates: place names are found by searching
the capitalised words of the question and keeping the places whose whole name appears in
it; the travel mode, optimisation target, numbers, a weekday and a clock time, and a place
noun (from the agent's own small dictionary of type words) are read with patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from kernel.text import fold

WEEK_START = datetime(2026, 12, 7)  # the Monday of the week the questions are asked about
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
VEHICLES = (
    (r"\b(?:on foot|walk\w*|stroll\w*)", "walking"),
    (r"\b(?:by bi(?:ke|cycle)|cycl\w*|pedal\w*)", "cycling"),
    (r"\b(?:by car|driv\w*|the car|my car)\b", "driving"),
)
COMMON = {  # capitalised words that start sentences rather than names
    "i",
    "i'm",
    "i'd",
    "i'll",
    "i've",
    "what",
    "what's",
    "which",
    "where",
    "where's",
    "how",
    "is",
    "are",
    "can",
    "could",
    "will",
    "would",
    "plan",
    "find",
    "from",
    "on",
    "it's",
    "near",
    "help",
    "route",
    "going",
    "heading",
    "starting",
    "setting",
    "leaving",
    "walking",
    "cycling",
    "driving",
    "between",
    "of",
    "only",
    "money's",
    "quick",
    "rank-wise",
    "closest",
    "point",
    "standing",
    "need",
    "any",
    "within",
    "errands",
    "give",
    "before",
    "counting",
    "among",
    "departing",
    "looking",
    "a",
    "an",
    "the",
    "in",
    "at",
    "to",
    "if",
    "there",
    "our",
    "am",
    "do",
    "my",
    "somewhere",
    "stops",
    "keep",
    "fastest",
    "quickest",
    "shortest",
    "open",
    "closed",
    "yes",
    "no",
    "please",
    "it",
    "that",
    "this",
    "then",
    "when",
    "while",
    "with",
    "and",
    "or",
    "but",
    "for",
    "by",
    "so",
    "be",
    "also",
    "just",
    "about",
    "around",
    "after",
    "again",
    "one",
    "two",
    "three",
    "four",
    "people",
    "best",
    "top",
    "rated",
    "tour",
    "crawl",
    "walk",
    "cycle",
    "drive",
    "make",
    "work",
    "take",
    "set",
    "let",
    "get",
    "go",
    "stop",
    "visit",
    "call",
    "december",
    "helsinki",
    "finnish",
    "eur",
    "euros",
    "should",
    "want",
    "ideally",
    "along",
    "same",
    "good",
    "great",
    "rank",
    "rating",
    "ratings",
    "price",
    "decision",
    "needed",
    "top-rated",
    "best-rated",
    "cheapest",
    "check",
    *DAYS,
}
TYPE_WORDS = {  # the agent's own dictionary: a type word -> text to look for in a place's type
    "café": "Coffee",
    "cafe": "Coffee",
    "coffee shop": "Coffee",
    "bakery": "Bakery",
    "ice-cream parlour": "Ice Cream",
    "bar": "Bar",
    "pub": "Pub",
    "nightclub": "Nightclub",
    "restaurant": "Restaurant",
    "pizzeria": "Pizzeria",
    "burger place": "Burger",
    "fast-food place": "Fast Food",
    "hotel": "Hotel",
    "hostel": "Hostel",
    "clothes shop": "Clothing",
    "shoe shop": "Shoe",
    "jewellery shop": "Jewellery",
    "optician": "Optician",
    "bookshop": "Bookstore",
    "supermarket": "Supermarket",
    "convenience store": "Convenience",
    "kiosk": "Kiosk",
    "pharmacy": "Pharmacy",
    "florist": "Florist",
    "gift shop": "Gift",
    "furniture shop": "Furniture",
    "homeware shop": "Home",
    "electronics shop": "Electronics",
    "mobile phone shop": "Mobile Phone",
    "sports shop": "Sports Store",
    "outdoor-gear shop": "Outdoor",
    "toy shop": "Toy",
    "music shop": "Music",
    "liquor store": "Liquor",
    "antique shop": "Antique",
    "cosmetics shop": "Cosmetics",
    "bike shop": "Bicycle",
    "department store": "Department",
    "shopping centre": "Mall",
    "hardware store": "Hardware",
    "hairdresser": "Hairdresser",
    "beauty salon": "Beauty Salon",
    "bank branch": "Bank",
    "cash machine": "ATM",
    "currency exchange": "Currency",
    "city-bike station": "Bike Rental",
    "car park": "Parking",
    "gym": "Fitness",
    "dentist": "Dentist",
    "medical clinic": "Clinic",
    "travel agency": "Travel",
    "post office": "Post Office",
    "art gallery": "Art Gallery",
    "museum": "Museum",
    "theatre": "Theatre",
    "cinema": "Cinema",
    "library": "Library",
    "place of worship": "Worship",
    "park": "Park",
    "memorial": "Memorial",
    "tourist information office": "Tourist",
    "asian restaurant": "Asian",
    "japanese restaurant": "Japanese",
    "sushi restaurant": "Sushi",
    "chinese restaurant": "Chinese",
    "thai restaurant": "Thai",
    "vietnamese restaurant": "Vietnamese",
    "indian restaurant": "Indian",
    "nepalese restaurant": "Nepalese",
    "italian restaurant": "Italian",
    "mexican restaurant": "Mexican",
    "finnish restaurant": "Finnish",
    "vegetarian restaurant": "Vegetarian",
}
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}


@dataclass
class Name:
    """A place named in the question: its record, where it starts in the question and the words before it."""

    record: dict
    at: int
    before: str

    @property
    def place_id(self) -> str:
        return self.record["place_id"]


@dataclass
class Reading:
    """The question's words with the places it names set aside (a "Cafe Bar No9" must not read as a café,
    a bar or a number): ``text`` is the question with every found name replaced by "PLACE"."""

    question: str
    names: list[Name] = field(default_factory=list)
    text: str = ""

    def __post_init__(self) -> None:
        text = self.question
        for name in sorted(self.names, key=lambda n: -len(n.record["name"])):
            text = re.sub(re.escape(name.record["name"]), "PLACE", text, flags=re.I)
        self.text = text

    @property
    def low(self) -> str:
        return self.text.lower()

    def has(self, pattern: str) -> bool:
        return re.search(pattern, self.text, re.I) is not None

    def vehicle(self) -> str | None:
        return next((v for p, v in VEHICLES if re.search(p, self.text, re.I)), None)

    def mode(self) -> str:
        low = self.low
        if re.search(r"least distance|shortest(?! time)|fewest|shorter|as short as|least ground", low):
            return "distance"
        return "time"

    def radius(self) -> float | None:
        m = re.search(r"\b(\d+) ?(?:m|metres|meters)\b", self.text)
        return float(m[1]) if m else None

    def min_rating(self) -> float | None:
        for pattern in (
            r"rat(?:ed|ing)(?: of)?(?: at least)? (\d(?:\.\d)?)",
            r"(\d(?:\.\d)?)(?: or (?:better|higher|"
            r"more)|\+| stars)",
            r"at least (\d(?:\.\d)?) stars",
        ):
            m = re.search(pattern, self.text)
            if m:
                return float(m[1])
        return None

    def max_cost(self) -> float | None:
        m = re.search(
            r"(?:at most|no more than|under|or less\D{0,10}|below) (\d+) ?(?:EUR|euros?)"
            r"|(\d+) ?(?:EUR|euros?) or less",
            self.text,
        )
        return float(m[1] or m[2]) if m else None

    def euros(self) -> float | None:
        m = re.search(r"(\d+) ?(?:EUR|euros?)", self.text)
        return float(m[1]) if m else None

    def people(self) -> int | None:
        m = re.search(r"\b(two|three|four|five|\d)\b(?: of us| people)", self.text, re.I)
        return (NUMBER_WORDS.get(m[1].lower()) or int(m[1])) if m else None

    def moment(self) -> datetime | None:
        day = re.search(r"\b(" + "|".join(DAYS) + r")\b", self.text, re.I)
        clock = re.search(r"\b(\d{1,2}):(\d\d)\b", self.text)
        if not (day and clock):
            return None
        return WEEK_START + timedelta(days=DAYS.index(day[1].lower()), hours=int(clock[1]), minutes=int(clock[2]))

    def minutes(self) -> int:
        m = re.search(r"(\d+) minutes", self.text)
        return int(m[1]) if m else 0

    def type_word(self) -> tuple[str, str] | None:
        """The longest type word of the dictionary in the question (singular or plural): (word, type text)."""
        low = self.low
        for word in sorted(TYPE_WORDS, key=len, reverse=True):
            if any(re.search(rf"\b{re.escape(form)}\b", low) for form in _forms(word)):
                return word, TYPE_WORDS[word]
        return None

    def role(self, name: Name, pattern: str) -> bool:
        """Whether the words just before a name match ``pattern`` (e.g. 'from|leaving')."""
        return re.search(rf"(?:{pattern})\W*$", name.before, re.I) is not None


def _forms(word: str) -> tuple[str, ...]:
    """A type word and its plurals: 'library' -> 'libraries', 'place of worship' -> 'places of worship'."""
    head, sep, tail = word.partition(" of ")
    plurals = [head + "s", head + "es", head[:-1] + "ies" if head.endswith("y") else head + "s"]
    return (word, *(p + sep + tail for p in plurals))


async def find_names(run, question: str) -> list[Name]:
    """Places whose whole name appears in the question, found by searching its capitalised words."""
    folded = fold(question)
    tokens = [t.strip(".,;:!?()'\"") for t in re.findall(r"[^\s,;:?!()]+", question)]
    candidates: list[str] = []
    for token in tokens:
        bare = token.rstrip("'s") if token.endswith("'s") else token
        if len(bare) < 3 or fold(bare) in COMMON or not any(ch.isupper() for ch in bare) or bare.isdigit():
            continue
        if fold(bare) not in [fold(c) for c in candidates]:
            candidates.append(bare)
    found: dict[str, Name] = {}
    covered: list[tuple[int, int]] = []
    for token in sorted(candidates, key=len, reverse=True)[:8]:
        position = folded.find(fold(token))
        if any(a <= position < b for a, b in covered):
            continue
        result = await run.call("place_search", query_name=token)
        hits = [r for r in (result or {}).get("results") or [] if fold(r["name"]) in folded and len(r["name"]) >= 3]
        for record in sorted(hits, key=lambda r: -len(r["name"]))[:1]:
            start = folded.find(fold(record["name"]))
            if any(a <= start < b for a, b in covered) or record["place_id"] in found:
                continue
            covered.append((start, start + len(record["name"])))
            found[record["place_id"]] = Name(record, start, question[max(0, start - 25) : start])
    return sorted(found.values(), key=lambda n: n.at)

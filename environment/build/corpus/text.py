"""Small text helpers: dates written the way labels and people write them, place mentions."""

from __future__ import annotations

import random
import re
from datetime import date

from .phrasing import LANDMARKS

_MON = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTH = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_WEEKDAY = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def label_span(start: date, end: date) -> str:
    """``Dec 20-24, 2025``, ``Jun 14, 2025`` or ``Nov 28 - Dec 1, 2025`` (label style)."""
    a = f"{_MON[start.month - 1]} {start.day}"
    if start == end:
        return f"{a}, {start.year}"
    if (start.year, start.month) == (end.year, end.month):
        return f"{a}-{end.day}, {start.year}"
    if start.year == end.year:
        return f"{a} - {_MON[end.month - 1]} {end.day}, {end.year}"
    return f"{a}, {start.year} - {_MON[end.month - 1]} {end.day}, {end.year}"


def label_day(day: date) -> str:
    return f"{_MON[day.month - 1]} {day.day}, {day.year}"


_DAY = r"(?P<{m}>[A-Z][a-z]{{2}}) (?P<{d}>\d{{1,2}})"
_LABEL_SPAN = re.compile(
    r"\((?:"
    + _DAY.format(m="m1", d="d1")
    + r"(?:, (?P<y1>\d{4}))?(?:(?: - "
    + _DAY.format(m="m2", d="d2")
    + r")|-(?P<e>\d{1,2}))?, (?P<y2>\d{4}))\)$"
)


def parse_label_span(label: str) -> tuple[date, date] | None:
    """The dates of a short-term label written by :func:`label_span` ("Event: X (Nov 20, 2026 - Mar 9, 2027)"),
    or None when the label ends with no such span."""
    m = _LABEL_SPAN.search(label)
    if m is None:
        return None
    end_year = int(m["y2"])
    start = date(int(m["y1"] or end_year), _MON.index(m["m1"]) + 1, int(m["d1"]))
    if m["m2"]:
        return start, date(end_year, _MON.index(m["m2"]) + 1, int(m["d2"]))
    return start, date(end_year, start.month, int(m["e"])) if m["e"] else start


def _spoken_day(day: date, rng: random.Random) -> str:
    style = rng.randrange(4)
    if style == 0:
        return f"{_WEEKDAY[day.weekday()]} {day.day} {_MONTH[day.month - 1]}"
    if style == 1:
        return f"{_MONTH[day.month - 1]} {day.day}"
    if style == 2:
        return f"{day.day}.{day.month}."
    return f"{day.day} {_MONTH[day.month - 1]} {day.year}"


def past_day(day: date, rng: random.Random) -> str:
    """A day in a past event, always with its year: ``14 June 2023``, ``June 14, 2023``."""
    if rng.random() < 0.5:
        return f"{day.day} {_MONTH[day.month - 1]} {day.year}"
    return f"{_MONTH[day.month - 1]} {day.day}, {day.year}"


def spoken_dates(start: date, end: date, rng: random.Random, until: bool = False) -> str:
    """How a post writes a date or range: ``from 20 to 24 December``, ``on 14.6.``, ``until March 3``."""
    if until:
        return "until " + _spoken_day(end, rng)
    if start == end:
        return "on " + _spoken_day(start, rng)
    style = rng.randrange(3)
    if style == 0 and start.month == end.month:
        return f"from {start.day} to {end.day} {_MONTH[start.month - 1]}"
    if style == 1:
        return f"{start.day}.{start.month}.-{end.day}.{end.month}."
    return f"from {_spoken_day(start, rng)} to {_spoken_day(end, rng)}"


_STOP = {
    "cafe",
    "café",
    "kahvila",
    "restaurant",
    "ravintola",
    "bar",
    "baari",
    "pub",
    "hotel",
    "hotelli",
    "oy",
    "ab",
    "ltd",
    "the",
    "and",
    "helsinki",
    "helsingin",
    "shop",
    "store",
    "kauppa",
    "&",
    "de",
    "la",
    "le",
    "of",
    "och",
    "ja",
    "museum",
    "museo",
}
_FOLD = str.maketrans("äöåéüÄÖÅÉÜ", "aoaeuAOAEU")


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[\s,/()\-–]+", name) if w]


def partial_name(name: str) -> str | None:
    words = [w for w in _words(name) if len(w) >= 4 and w.lower() not in _STOP]
    if len(_words(name)) < 2 or not words:
        return None
    return max(words, key=lambda w: (len(w), w))


def nickname(name: str, alias: str) -> str | None:
    for alt in (a.strip() for a in alias.split("|")):
        if alt and alt.lower() != name.lower() and name.lower() not in alt.lower():
            return alt
    return None


def misspelling(name: str, rng: random.Random) -> str | None:
    folded = name.translate(_FOLD)
    if folded != name:
        return folded
    words = _words(name)
    long_words = [w for w in words if len(w) >= 5]
    if not long_words:
        return None
    word = rng.choice(long_words)
    i = rng.randrange(1, len(word) - 2)
    swapped = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    typo = word[:i] + word[i + 1 :] if word[i] == word[i + 1] else swapped  # a doubled letter is dropped
    return name.replace(word, typo, 1)


def vague(sub: str, address: str, rng: random.Random) -> str:
    street = re.sub(r"\s*\d.*$", "", address.split(",")[0]).strip()
    noun = sub or "place"
    if street and rng.random() < 0.5:
        return f"that {noun} on {street}"
    return f"that {noun} near {rng.choice(LANDMARKS)}"


def ambiguous_mention(name: str, alias: str, sub: str, address: str, rng: random.Random) -> str:
    """A mention that does not contain the full name: part of it, a nickname, a typo, a description."""
    style = rng.choice(("partial", "partial", "nickname", "misspelling", "misspelling", "vague"))
    found = {
        "partial": lambda: partial_name(name),
        "nickname": lambda: nickname(name, alias) or partial_name(name),
        "misspelling": lambda: misspelling(name, rng),
        "vague": lambda: None,
    }[style]()
    if found and name.lower() not in found.lower():
        return found
    return vague(sub, address, rng)

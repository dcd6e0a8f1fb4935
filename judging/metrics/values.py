"""Comparing a predicted direct value with the reference value (Place Perception's A), as a careful
grader reads it.

The reference answer says which field of the place record the value comes from
(``ref.attribute_key``); the comparison follows that field:

- yes/no: any common English wording, negations included ("Closed.", "Not open then", "It is
  open", "No, it would cost 120 EUR"), read against the question's polarity;
- place_type: the leaf ("Bike Rental") or the full path ("Transport|Bike Rental", any of ``| > /``);
- address: street and house number must match, a postcode or town given must not contradict;
- opentime_week: both parsed with the opening-hours library and compared minute by minute over
  the benchmark's week (``;`` or ``,`` between rules both read);
- a clock time ("15:00", "3 pm", "15.00", "at 15");
- a postcode: the one five-digit group of the text;
- cuisines and other lists: the same set of items, words like "cuisine" or "food" ignored;
- numbers: within 0.05, text with units or thousands separators read (``judging.answers.to_float``).

Everything else compares as text, case- and whitespace-insensitively. The accepted and refused
forms are listed with examples in docs/metrics.md.
"""
from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from environment.opening import parse_hours
from judging.answers import to_float

NUMBER_TOLERANCE = 0.05
WEEK = datetime(2026, 12, 7)  # the Monday of the week the benchmark's time-dependent questions are about

_YES = {"yes", "yeah", "yep", "yup", "true", "y", "1", "correct", "affirmative", "sure", "certainly", "definitely",
        "indeed", "absolutely", "ja", "kyllä"}
_NO = {"no", "nope", "nah", "false", "n", "0", "incorrect", "negative", "nej", "ei"}
# States a yes/no question of the benchmark asks about, and whether each is the question's "yes".
_STATES = (
    (re.compile(r"\b(?:open|opened|opens|accessible)\b"), True),
    (re.compile(r"\b(?:closed|closes|shut|shuts)\b"), False),
    (re.compile(r"\b(?:enough|covers?|covered|sufficient|suffices?|affordable|fits?|within)\b"), True),
    (re.compile(r"\b(?:insufficient|exceeds?|exceeded|over budget|too (?:much|expensive)|short by)\b"), False),
)
_NEGATION = re.compile(r"\b(?:not|never|no longer|no|isn't|aren't|won't|wouldn't|doesn't|don't|didn't|wasn't|"
                       r"can't|cannot|isnt|wont|doesnt|dont|neither|nor)\s+(?:\w+\s+){0,2}$")
_CLOSED_QUESTION = re.compile(r"^\W*(?:is|are|will|would|was)\b[^?]*\b(?:closed|shut)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-zäöå0-9']+")


def fold(text: str) -> str:
    """Case-, accent- and whitespace-insensitive form of a text."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def same_text(a: Any, b: Any) -> bool:
    return isinstance(a, str) and isinstance(b, str) and fold(a) == fold(b)


def as_bool(value: Any, question: str = "") -> bool | None:
    """True/False from a boolean, 0/1, or an English yes/no text; None when the text says neither or both.

    A text that starts with a yes or no word is read by that word. Otherwise the states it asserts
    are read ("open", "closed", "enough", "over budget", each flipped by a negation just before it:
    "not open", "won't be closed"); they must agree. A state is the question's "yes" unless the
    question asks whether something is closed ("Will it be closed ...?").
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if not isinstance(value, str):
        return None
    text = fold(value)
    words = _WORD.findall(text)
    if not words:
        return None
    if words[0] in _YES:
        return True
    if words[0] in _NO and not (len(words) > 1 and words[1] == "longer"):
        return False
    closed_question = bool(_CLOSED_QUESTION.search(question)) and " or " not in question.casefold()
    readings = set()
    for pattern, positive in _STATES:
        for match in pattern.finditer(text):
            negated = bool(_NEGATION.search(text[:match.start()]))
            state = positive != negated
            readings.add(not state if closed_question else state)
    return readings.pop() if len(readings) == 1 else None


def values_equal(predicted: Any, expected: Any, *, field: str = "", question: str = "") -> bool:
    """Whether the predicted value equals the reference value read as ``field`` of the place record
    (``ref.attribute_key`` of the reference answer; empty when unknown)."""
    if isinstance(expected, bool):
        return as_bool(predicted, question) is expected
    if isinstance(expected, int | float):
        number = to_float(predicted)
        return number is not None and abs(number - expected) <= NUMBER_TOLERANCE
    if isinstance(expected, list):
        return _items(predicted) == _items(expected)
    if not isinstance(expected, str):
        return predicted == expected
    if isinstance(predicted, int | float) and not isinstance(predicted, bool):
        number = to_float(expected)
        if number is not None:
            return abs(number - predicted) <= NUMBER_TOLERANCE
        predicted = str(predicted)
    if not isinstance(predicted, str):
        return isinstance(predicted, list) and _items(predicted) == _items(expected)
    if same_text(predicted, expected):
        return True
    keys = {key.strip() for key in field.split(",")}
    if "place_type" in keys:
        return same_place_type(predicted, expected)
    if "opentime_week" in keys:
        return same_clock_time(predicted, expected) if _clock(expected) else same_hours(predicted, expected)
    if "address" in keys:
        return same_postcode(predicted, expected) if re.fullmatch(r"\d{5}", expected.strip()) else \
            same_address(predicted, expected)
    if any(key.startswith("tag:") for key in keys):
        return _items(predicted) == _items(expected)
    return False


def same_place_type(predicted: str, expected: str) -> bool:
    """The leaf of the reference's type path, or the whole path, in any of the usual separators."""
    mine = [fold(p) for p in re.split(r"\s*[|>/]\s*", predicted) if p.strip()]
    truth = [fold(p) for p in expected.split("|") if p.strip()]
    return bool(mine) and (mine == truth or mine == truth[-1:])


def _address_parts(text: str) -> tuple[list[list[str]], set[str], set[str]]:
    """(the comma-separated parts as word lists, without postcodes and towns; postcodes; towns) of an address."""
    parts, postcodes, towns = [], set(), set()
    for segment in fold(text).split(","):
        words = []
        for word in _WORD.findall(segment):
            if re.fullmatch(r"\d{5}", word):
                postcodes.add(word)
            elif word in _TOWNS:
                towns.add(word)
            elif word not in ("finland", "suomi"):
                words.append(word)
        if words:
            parts.append(words)
    return parts, postcodes, towns


_TOWNS = ("helsinki", "helsingfors", "espoo", "vantaa")


def same_address(predicted: str, expected: str) -> bool:
    """The reference's street and house number (its first part with a number, else its first part), nothing
    the reference does not hold, and no postcode or town other than the reference's. A further part of the
    reference (a courtyard, a floor, "c/o ...") may be left out."""
    mine, my_codes, my_towns = _address_parts(predicted)
    truth, codes, towns = _address_parts(expected)
    if not (my_codes <= codes and my_towns <= towns):
        return False
    if not truth:
        return not mine
    main = next((p for p in truth if any(ch.isdigit() for w in p for ch in w)), truth[0])
    my_words = [w for p in mine for w in p]
    their_words = {w for p in truth for w in p}
    return _contains(my_words, main) and set(my_words) <= their_words


def _contains(words: list[str], run: list[str]) -> bool:
    return any(words[i:i + len(run)] == run for i in range(len(words) - len(run) + 1))


def same_postcode(predicted: str, expected: str) -> bool:
    codes = re.findall(r"(?<!\d)\d{5}(?!\d)", predicted)
    return len(set(codes)) == 1 and codes[0] == expected.strip()


_CLOCK = re.compile(r"(?<![\d.:])(\d{1,2})(?:[:.h](\d{2}))?(?::\d{2})?\s*(a\.?m\.?|p\.?m\.?|o'?clock)?(?![\d.:])",
                    re.IGNORECASE)


def _clock(text: str) -> tuple[int, int] | None:
    """The one clock time a text gives (24-hour or am/pm), or None."""
    found = []
    for hour, minute, suffix in _CLOCK.findall(text if isinstance(text, str) else ""):
        h, m = int(hour), int(minute or 0)
        suffix = suffix.lower().replace(".", "")
        if suffix.startswith("p") and h < 12:
            h += 12
        elif suffix.startswith("a") and h == 12:
            h = 0
        if not minute and not suffix and not re.search(r"\b(?:at|by|until|till|from)\s+\d", text, re.I):
            continue  # a bare number is not a time
        if h <= 24 and m < 60:
            found.append((h % 24, m))
    return found[0] if len(set(found)) == 1 else None


def same_clock_time(predicted: Any, expected: str) -> bool:
    mine = _clock(predicted) if isinstance(predicted, str) else None
    return mine is not None and mine == _clock(expected)


def _rules(text: str) -> str:
    return fold(re.sub(r"\s*[;,]\s*", "; ", text))


@lru_cache(maxsize=4096)
def _week_states(text: str) -> tuple[bool | None, ...] | None:
    """Open state at every minute of the benchmark's week, or None when the text does not parse."""
    parsed = parse_hours(text)
    if parsed is None and "," in text:
        parsed = parse_hours(text.replace(",", ";"))
    if parsed is None:
        return None
    states = []
    for minute in range(7 * 24 * 60):
        when = WEEK + timedelta(minutes=minute)
        states.append(None if parsed.is_unknown(when) else bool(parsed.is_open(when)))
    return tuple(states)


def same_hours(predicted: Any, expected: str) -> bool:
    """Two opening-hours texts that give the same open state at every minute of the benchmark's week, or
    the same text but for ``,`` and ``;`` between rules (a person reads both as "and")."""
    if not isinstance(predicted, str) or len(predicted) > 500:
        return False
    if _rules(predicted) == _rules(expected):
        return True
    mine, truth = _week_states(predicted.strip()), _week_states(expected.strip())
    return mine is not None and mine == truth


_GENERIC = {"cuisine", "food", "kitchen", "restaurant", "style", "dishes"}


def _items(value: Any) -> frozenset[str] | None:
    """A list or a text with ``, ; / and`` between items, as a set of folded items without generic words."""
    if isinstance(value, str):
        parts = re.split(r"\s*(?:[,;/|]|\band\b|&)\s*", value)
    elif isinstance(value, list):
        parts = [str(x) for x in value]
    else:
        return None
    items = frozenset(" ".join(w for w in fold(p).split() if w not in _GENERIC) for p in parts)
    return frozenset(i for i in items if i) or None

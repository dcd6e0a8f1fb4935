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
from collections import Counter
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from judging.answers import to_float
from kernel.opening import parse_hours
from kernel.text import fold

NUMBER_TOLERANCE = 0.05
WEEK = datetime(2026, 12, 7)  # the Monday of the week the benchmark's time-dependent questions are about

_YES = {
    "yes",
    "yeah",
    "yep",
    "yup",
    "true",
    "y",
    "1",
    "correct",
    "affirmative",
    "sure",
    "certainly",
    "definitely",
    "indeed",
    "absolutely",
    "ja",
    "kyllä",
}
_NO = {"no", "nope", "nah", "false", "n", "0", "incorrect", "negative", "nej", "ei"}
# States a yes/no question of the benchmark asks about, and whether each is the question's "yes". A state
# word followed by a moment ("opens at 12:00", "closes at 18:00") tells a time, not the state then; "open
# until 18:00" and "closed until 12:00" do tell it.
_AT_A_TIME = r"(?!\s+(?:at|from|after|again|around|before|on)\b)"
_OPENING_STATES = (
    (re.compile(r"\b(?:open|opened|opens|accessible)\b" + _AT_A_TIME), True),
    (re.compile(r"\b(?:closed|closes|shut|shuts)\b" + _AT_A_TIME), False),
)
_BUDGET_STATES = (
    (
        re.compile(
            r"\b(?:enough|covers?|covered|sufficient|suffices?|affordable|afford|fits?|within|under|below|"
            r"less than)\b"
        ),
        True,
    ),
    (
        re.compile(
            r"\b(?:insufficient|exceeds?|exceeded|over budget|over the budget|too (?:much|expensive)|short by|"
            r"(?:eur|euros?|€) short|more than|above)\b"
        ),
        False,
    ),
)
_STATES = {"opentime_week": _OPENING_STATES, "cost": _BUDGET_STATES}
_CLOSE_UNTIL = re.compile(r"\b(?:doesn't|does not|won't|will not|don't|do not) (?:close|shut) (until|till|before)\b")
_NEGATION = re.compile(
    r"\b(?:not|never|no longer|no|isn't|aren't|won't|wouldn't|doesn't|don't|didn't|wasn't|"
    r"can't|cannot|isnt|wont|doesnt|dont|neither|nor)\s+(?:\w+\s+){0,2}$"
)
# An answer that hedges is no answer: a careful grader does not pick a side for it.
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|unlikely|hardly|barely|not sure|unsure|don't know|do not know|"
    r"don't think|do not think|can't tell|cannot tell|unclear|depends|might|may or may not)\b"
)
_CLOSED_QUESTION = re.compile(r"\b(?:is|are|will|would|was)\b[^?.!]*\b(?:closed|shut)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-zäöå0-9']+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'", "`": "'"})
MAX_READ = 2000  # longer texts are not read as a yes/no or a time (a careful grader would not either)


def _plain(text: str) -> str:
    """``kernel.text.fold`` (case and accents) with whitespace collapsed and typographic apostrophes plain."""
    return " ".join(fold(text.translate(_APOSTROPHES)).split())


def same_text(a: Any, b: Any) -> bool:
    return isinstance(a, str) and isinstance(b, str) and _plain(a) == _plain(b)


def as_bool(value: Any, question: str = "", field: str = "") -> bool | None:
    """True/False from a boolean, 0/1, or an English yes/no text; None when the text says neither, says
    both, or hedges ("maybe", "I don't think so", "hardly").

    A text that starts with a yes or no word is read by that word ("definitely not" is a no), unless the
    question offers two alternatives ("Can I visit it, or is it closed?"), where the states the answer
    asserts decide. The states are "open", "closed", "enough", "over budget", ..., each flipped by a
    negation just before it ("not open", "won't be closed"); a state word followed by a moment ("opens at
    12:00") tells a time, not the state. The states read must agree. A state is the question's "yes" unless
    the question asks whether something is closed ("Will it be closed when I get there?"). ``field`` (the
    reference's attribute key) picks the states: opening (``opentime_week``), budget (``cost``), else both.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if not isinstance(value, str) or len(value) > MAX_READ:
        return None
    text = _plain(value)
    words = _WORD.findall(text)
    if not words or _HEDGE.search(text):
        return None
    asked = _plain(question)
    alternatives = " or " in asked
    closed_question = not alternatives and bool(_CLOSED_QUESTION.search(asked))
    first = words[0] in _YES and not (len(words) > 1 and words[1] in ("not", "no"))
    first_no = (words[0] in _NO and not (len(words) > 1 and words[1] == "longer")) or (
        words[0] in _YES and len(words) > 1 and words[1] in ("not", "no")
    )
    if (first or first_no) and not alternatives:
        return first
    text = _CLOSE_UNTIL.sub(r"stays open \1", text)  # "doesn't close until 18:00": open until then
    readings = set()
    for pattern, positive in _STATES.get(field, _OPENING_STATES + _BUDGET_STATES):
        for match in pattern.finditer(text):
            negated = bool(_NEGATION.search(text[max(0, match.start() - 40) : match.start()]))
            state = positive != negated
            readings.add(not state if closed_question else state)
    if len(readings) == 1:
        return readings.pop()
    if not readings and (first or first_no):
        return first
    return None


def values_equal(predicted: Any, expected: Any, *, field: str = "", question: str = "") -> bool:
    """Whether the predicted value equals the reference value read as ``field`` of the place record
    (``ref.attribute_key`` of the reference answer; empty when unknown)."""
    keys = {key.strip() for key in field.split(",")}
    if isinstance(expected, bool):
        return as_bool(predicted, question, field.split(",")[0].strip()) is expected
    if isinstance(expected, int | float):
        number = to_float(predicted)
        return number is not None and abs(number - expected) <= NUMBER_TOLERANCE
    if isinstance(expected, list):
        return _items(predicted) == _items(expected)
    if not isinstance(expected, str):
        return predicted == expected
    if isinstance(predicted, int | float) and not isinstance(predicted, bool):
        number = to_float(expected)
        if number is not None and "address" not in keys:  # a postcode is text: 100 is not "00100"
            return abs(number - predicted) <= NUMBER_TOLERANCE
        predicted = str(predicted)
    if not isinstance(predicted, str):
        return isinstance(predicted, list) and _items(predicted) == _items(expected)
    if len(predicted) > MAX_READ:
        return False
    if same_text(predicted, expected):
        return True
    if "place_type" in keys:
        return same_place_type(predicted, expected)
    if "opentime_week" in keys:
        return same_clock_time(predicted, expected) if _clock(expected) else same_hours(predicted, expected)
    if "address" in keys:
        return (
            same_postcode(predicted, expected)
            if re.fullmatch(r"\d{5}", expected.strip())
            else same_address(predicted, expected)
        )
    if any(key.startswith("tag:") for key in keys):
        return _items(predicted) == _items(expected)
    return False


def _label_off(text: str) -> str:
    """The text without a leading label ("Address:", "Cuisine -"), article, or trailing full stop."""
    text = re.sub(
        r"^\s*(?:the\s+)?(?:address|street address|category|type|place type|cuisine|opening hours|hours|"
        r"open(?:ing)? times?)\s*(?:is|are)?\s*[:\-–]\s*",
        "",
        text.strip(),
        flags=re.I,
    )
    text = re.sub(r"^\s*(?:it(?:'s| is)\s+)?(?:an?|the)\s+", "", text, flags=re.I)
    return text.strip().rstrip(".!").strip()


_TYPE_SEPARATORS = re.compile(r"\s*(?:[|>/›→:»]|\s-\s|\s–\s)\s*")


def same_place_type(predicted: str, expected: str) -> bool:
    """The leaf of the reference's type path, or the whole path, with any of the usual separators
    (``| > / › →``), the top level in brackets after the leaf, "and" for "&", a leading article."""

    def parts(text: str) -> list[str]:
        text = _label_off(text)
        bracketed = re.fullmatch(r"(.+?)\s*\((.+)\)", text)
        pieces = [bracketed.group(2), bracketed.group(1)] if bracketed else _TYPE_SEPARATORS.split(text)
        return [" ".join(_plain(p).replace("&", " and ").split()) for p in pieces if p.strip()]

    mine, truth = parts(predicted), parts(expected.replace("|", " | "))
    return bool(mine) and (mine == truth or mine == truth[-1:])


def _address_parts(text: str) -> tuple[list[list[str]], set[str], set[str]]:
    """(the comma-separated parts as word lists, without postcodes and towns; postcodes; towns) of an address."""
    text = re.sub(r"\bfi-(?=\d{5}\b)", "", _plain(_label_off(text)))
    parts, postcodes, towns = [], set(), set()
    for segment in text.split(","):
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
    """The reference's street and house number (its first part with a number, else its first part), and no
    postcode or town other than the reference's. In the answer's part with the house number every word must
    be the reference's (each as often); parts without a number (the place's name, a district) are not read.
    A further part of the reference (a courtyard, a floor, "c/o ...") may be left out."""
    mine, my_codes, my_towns = _address_parts(predicted)
    truth, codes, towns = _address_parts(expected)
    if not (my_codes <= codes and my_towns <= towns):
        return False
    if not truth:
        return not mine
    numbered = [p for p in truth if any(ch.isdigit() for w in p for ch in w)]
    main = numbered[0] if numbered else truth[0]
    mine_numbered = [p for p in mine if any(ch.isdigit() for w in p for ch in w)] if numbered else mine
    my_words = [w for p in mine_numbered for w in p]
    return _contains(my_words, main) and not (Counter(my_words) - Counter(w for p in truth for w in p))


def _contains(words: list[str], run: list[str]) -> bool:
    return any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1))


def same_postcode(predicted: str, expected: str) -> bool:
    codes = re.findall(r"(?<!\d)\d{5}(?!\d)", predicted)
    return len(set(codes)) == 1 and codes[0] == expected.strip()


_CLOCK = re.compile(
    r"(?<![\d.:])(\d{1,2})(?:[:.h](\d{2}))?(?::\d{2})?\s*(a\.?m\.?|p\.?m\.?|o'?clock)?(?![\d.:])", re.IGNORECASE
)
_NAMED_TIMES = {"noon": (12, 0), "midday": (12, 0), "midnight": (0, 0)}


def _clock(text: Any) -> tuple[int, int] | None:
    """The one clock time a text gives (24-hour, am/pm, "at 15", noon, midnight), or None. A bare number
    counts only right after at/by/until/till/from ("at 15"); "Friday 11 December" holds no time."""
    if not isinstance(text, str) or len(text) > MAX_READ:
        return None
    found = [time for word, time in _NAMED_TIMES.items() if re.search(rf"\b{word}\b", text, re.I)]
    for match in _CLOCK.finditer(text):
        hour, minute, suffix = match.groups()
        h, m = int(hour), int(minute or 0)
        suffix = (suffix or "").lower().replace(".", "")
        if not minute and not suffix and not re.search(r"\b(?:at|by|until|till|from)\s+$", text[: match.start()], re.I):
            continue  # a bare number is not a time
        if suffix.startswith("p") and h < 12:
            h += 12
        elif suffix.startswith("a") and h == 12:
            h = 0
        if h <= 24 and m < 60:
            found.append((h % 24, m))
    return found[0] if len(set(found)) == 1 else None


def same_clock_time(predicted: Any, expected: str) -> bool:
    mine = _clock(predicted)
    return mine is not None and mine == _clock(expected)


_DAYS = {
    "monday": "Mo",
    "mon": "Mo",
    "tuesday": "Tu",
    "tues": "Tu",
    "tue": "Tu",
    "wednesday": "We",
    "wed": "We",
    "thursday": "Th",
    "thurs": "Th",
    "thur": "Th",
    "thu": "Th",
    "friday": "Fr",
    "fri": "Fr",
    "saturday": "Sa",
    "sat": "Sa",
    "sunday": "Su",
    "sun": "Su",
}
_ALWAYS = re.compile(
    r"^(?:open\s+)?(?:24/7|24 ?h(?:ours)?(?: a day)?(?:,? 7 days a week)?|always(?: open)?|"
    r"round the clock|around the clock)$",
    re.I,
)


def _as_hours(text: str) -> str:
    """An opening-hours text as OSM syntax where a person's spelling differs: no label, dashes made plain,
    English day names as two letters, whole hours given minutes, lines joined with ``;``, "always" as 24/7."""
    text = _label_off(text).replace("–", "-").replace("—", "-")
    text = re.sub(r"\s*\n\s*", "; ", text)
    if _ALWAYS.match(text.strip()):
        return "24/7"
    text = re.sub(
        r"\b(" + "|".join(sorted(_DAYS, key=len, reverse=True)) + r")\b\.?",
        lambda m: _DAYS[m.group(1).lower()],
        text,
        flags=re.I,
    )
    text = re.sub(r"(?<![\d:])(\d{1,2})\s*-\s*(\d{1,2})(?![\d:])", r"\1:00-\2:00", text)
    return re.sub(r"\s*-\s*", "-", text)


def _rules(text: str) -> str:
    return _plain(re.sub(r"\s*[;,]\s*", "; ", text))


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
    the same text but for ``,`` and ``;`` between rules (a person reads both as "and"). The answer may use a
    person's spelling (``_as_hours``: "Mon-Fri 11-18", en dashes, a label, one rule per line, "open 24/7")."""
    if not isinstance(predicted, str) or len(predicted) > 500:
        return False
    mine_text = _as_hours(predicted)
    if _rules(mine_text) == _rules(expected) or _rules(predicted) == _rules(expected):
        return True
    mine, truth = _week_states(mine_text.strip()), _week_states(expected.strip())
    return mine is not None and mine == truth


_GENERIC = {"cuisine", "food", "kitchen", "restaurant", "style", "dishes"}


def _items(value: Any) -> frozenset[str] | None:
    """A list or a text with ``, ; / and`` between items, as a set of folded items without generic words,
    labels, full stops, spaces and hyphens ("Steak house" is "steakhouse", "Tex-Mex" is "tex mex")."""
    if isinstance(value, str):
        parts = re.split(r"\s*(?:[,;/|]|\band\b|&)\s*", _label_off(value)) if len(value) <= MAX_READ else []
    elif isinstance(value, list):
        parts = [str(x) for x in value]
    else:
        return None
    items = frozenset(
        "".join(w for w in re.split(r"[\s\-]+", _plain(p).strip(" .")) if w not in _GENERIC) for p in parts
    )
    return frozenset(i for i in items if i) or None

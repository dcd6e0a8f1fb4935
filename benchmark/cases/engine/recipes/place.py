"""Place Perception L0: one value of a named place, read from its record."""

from __future__ import annotations

import random
import re
from datetime import timedelta

from benchmark.cases.engine.kit.common import Draft, find_by_name, sample, uniquely_named
from benchmark.cases.engine.kit.session import Discard
from benchmark.cases.moments import WEEK_START
from kernel.opening import hours_are_valid, is_open_at
from kernel.vocabulary import Category, Level

from ..wording import place as words
from .registry import recipe

FIELDS = (
    ("opentime_week", 2),
    ("closes_on", 2),
    ("opens_on", 1),
    ("open_on", 1),
    ("address", 2),
    ("postcode", 1),
    ("rating", 2),
    ("cost", 2),
    ("place_type", 2),
    ("cuisine", 2),
)
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_POSTCODE = re.compile(r"\b(\d{5})\b")
_STREET_AND_NUMBER = re.compile(r"[^\W\d_]{3,}\.?\s+\d+", re.UNICODE)
PEOPLE = {2: "two", 3: "three", 4: "four"}


def informative_value(place: dict, field: str, day: str | None = None):
    """The place's value for ``field`` (on ``day`` for the day fields) when it tells the user something, else None."""
    if field == "cuisine":
        part = next((p for p in place["tag"].split("; ") if p.startswith("Cuisine: ")), "")
        return part.split(": ", 1)[1] if part else None
    if field == "postcode":
        found = _POSTCODE.findall(place.get("address") or "")
        return found[-1] if len(found) == 1 else None
    if field in ("closes_on", "opens_on", "open_on"):
        return _day_value(place.get("opentime_week") or "", field, day)
    value = place.get(field)
    if value is None or value == "":
        return None
    if field == "address" and not _STREET_AND_NUMBER.search(value):
        return None
    if field == "place_type" and value.split("|", 1)[-1].startswith("Other"):
        return None
    if field == "opentime_week" and not hours_are_valid(value):
        return None
    return value


def _day_value(hours: str, field: str, day: str | None):
    """Opening or closing time on a weekday ("18:00"), or whether it opens that day at all; None when the day
    has more than one opening or runs past midnight (the question would be ambiguous)."""
    if not hours_are_valid(hours) or day is None:
        return None
    spans = day_spans(hours, DAYS.index(day))
    if spans is None:
        return None
    if field == "open_on":
        return bool(spans)
    if len(spans) != 1:
        return None
    opens, closes = spans[0]
    return opens if field == "opens_on" else closes


def day_spans(hours: str, weekday: int) -> list[tuple[str, str]] | None:
    """The opening spans of a weekday of the benchmark week at minute resolution, as ("HH:MM", "HH:MM");
    None when the hours are unknown that day or a span touches midnight."""
    day = WEEK_START + timedelta(days=weekday)
    states = [is_open_at(hours, day + timedelta(minutes=m)) for m in range(24 * 60)]
    if None in states or states[0] or states[-1]:
        return None
    spans, start = [], None
    for minute, state in enumerate(states):
        if state and start is None:
            start = minute
        elif not state and start is not None:
            spans.append((f"{start // 60:02d}:{start % 60:02d}", f"{minute // 60:02d}:{minute % 60:02d}"))
            start = None
    return spans


@recipe(Category.PLACE_PERCEPTION, Level.L0)
def place_l0(session, rng: random.Random) -> Draft:
    field = session.variant(rng, "place_L0", dict(FIELDS))
    day = rng.choice(DAYS) if field in ("closes_on", "opens_on", "open_on") else None
    for place in sample(session, rng, 25):
        value = informative_value(place, field, day)
        if value is None or not uniquely_named(session, place):
            continue
        find_by_name(session, place["name"])
        detail = session.agent("place_detail", place_id=place["place_id"])
        value = informative_value(detail, field, day)
        key = {"cuisine": "tag:Cuisine", "postcode": "address"}.get(field, field)
        key = "opentime_week" if day else key
        answer = {
            "answer": value,
            "name": place["name"],
            "place_id": place["place_id"],
            "reason": f"Read from {key} in the place record.",
            "ref": {"attribute_key": key, "note_id": ""},
        }
        session.agent("submit_answer", result=answer)
        return Draft(
            question=session.say(rng, f"place_L0.{field}", words.L0[field], n=place["name"], day=day),
            answer=answer,
            query={"kind": "attribute", "place": place["place_id"], "field": field, **({"day": day} if day else {})},
            attributes=[{"place_id": place["place_id"], "key": key}],
            signature=f"{place['place_id']}:{field}:{day}",
        )
    raise Discard(f"no uniquely named place with an informative {field} in the sample")

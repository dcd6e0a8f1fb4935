"""Constraint primitives (pure functions, plain data in and out): arrival times along an order,
closed-on-arrival stops, order violations, place types and cuisines.

``metrics/constraints.py`` checks a case's constraints with them for Semantic Constraint (SC); the
case lexicon and the place-type metric use the same ones, so ground truth and grading agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from environment.taxonomy import serves_meals
from kernel.opening import is_open_at
from kernel.text import fold


def arrival_times(start: datetime, leg_seconds: Sequence[float], dwell_s: float) -> list[datetime]:
    """Arrival time at each stop after the first: legs are travelled in order, with ``dwell_s``
    spent at every intermediate stop (not at the start)."""
    times, now = [], start
    for i, seconds in enumerate(leg_seconds):
        if i > 0:
            now += timedelta(seconds=dwell_s)
        now += timedelta(seconds=seconds)
        times.append(now)
    return times


def closed_on_arrival(
    order: Sequence[str], arrivals: Sequence[datetime], hours: dict[str, str], *, dwell_s: float = 0
) -> list[str]:
    """Stops (after the first) that are closed when we arrive, or close before we leave.

    ``hours`` maps place_id -> OSM opening_hours text; places without parsable hours are
    not judged (unknown is not closed). The final stop is only checked on arrival.
    """
    closed = []
    last = len(order) - 1
    for index, (place_id, when) in enumerate(zip(order[1:], arrivals), start=1):
        text = hours.get(place_id, "")
        stay = dwell_s if index < last else 0
        checks = [when] if stay == 0 else [when, when + timedelta(seconds=stay - 60)]
        if any(is_open_at(text, moment) is False for moment in checks):
            closed.append(place_id)
    return closed


def order_violations(order: Sequence[str], before: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (a, b) pairs of ``before`` ("visit a before b") that ``order`` breaks."""
    position = {place_id: i for i, place_id in enumerate(order)}
    return [(a, b) for a, b in before if a in position and b in position and position[a] > position[b]]


def cuisines_of(tag: str) -> tuple[str, ...]:
    """Folded cuisine values of a place's tag ("Cuisine: Sushi, Japanese" -> ("sushi", "japanese"))."""
    for part in str(tag or "").split(";"):
        label, _, value = part.strip().partition(":")
        if label.strip() == "Cuisine":
            return tuple(fold(v).strip().replace(" ", "_") for v in value.split(",") if v.strip())
    return ()


def type_matches(place: dict, types: Sequence[str], cuisines: Sequence[str] = ()) -> bool:
    """Whether a place is of one of the accepted sub-types, or a dining place whose cuisine is accepted.

    ``types`` are sub-types ("Pub"); an entry with a "|" is matched against the whole place_type."""
    place_type = str(place.get("place_type") or "")
    sub = place_type.split("|", 1)[-1].strip()
    if any(sub == t or (("|" in t) and t.lower() in place_type.lower()) for t in types):
        return True
    return bool(cuisines) and serves_meals(sub) and bool(set(cuisines_of(place.get("tag") or "")) & set(cuisines))

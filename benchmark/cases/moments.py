"""The week time-dependent questions are asked about, and moments in it."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta
from functools import lru_cache

from kernel.opening import is_open_at, parse_hours

WEEK_START = datetime(2026, 12, 7)  # a Monday; no public holiday that week in Finland
WEEK_END = WEEK_START + timedelta(days=6, hours=23, minutes=59)  # the Sunday's last minute
NOW = WEEK_START + timedelta(hours=12)  # a question that sets no moment asks about now: the Monday at noon
QUERY_MOMENTS = ("depart", "open_at", "at", "now")  # the query fields that hold a question's moment


def query_moment(query: dict) -> datetime:
    """The moment a question is about: the one it states, else :data:`NOW`."""
    stated = next((query[k] for k in QUERY_MOMENTS if query.get(k)), None)
    return datetime.fromisoformat(stated) if stated else NOW


def spoken_date(when: datetime) -> str:
    """'Monday 7 December 2026'."""
    return f"{when:%A} {when.day} {when:%B %Y}"


STABLE_MIN = 10  # the engine asks for the verifier's slack: a state must hold 10 minutes either side


def moment(rng: random.Random, *, hours: tuple[int, int] = (8, 22), day: int | None = None) -> datetime:
    """A moment of the week at a 5-minute mark between ``hours`` (start inclusive, end exclusive)."""
    day = rng.randrange(7) if day is None else day
    minutes = rng.randrange(hours[0] * 12, hours[1] * 12) * 5
    return WEEK_START + timedelta(days=day, minutes=minutes)


def stable_state(hours: str, when: datetime, slack: int = STABLE_MIN) -> bool | None:
    """Open or closed at ``when`` and for ``slack`` minutes either side; None when it changes or is unknown."""
    low = math.floor(((when - WEEK_START).total_seconds() - slack * 60) / 300)
    high = math.ceil(((when - WEEK_START).total_seconds() + slack * 60) / 300)
    if low >= 0 and high < SLOTS:
        # The five-minute marks covering the window (a little wider than it when ``when`` is between marks).
        states = set(week_states(hours)[low : high + 1])
    else:
        states = {is_open_at(hours, when + timedelta(minutes=m)) for m in range(-slack, slack + 1, 5)}
    return states.pop() if len(states) == 1 and None not in states else None


SLOTS = 7 * 24 * 12  # five-minute marks in the week


@lru_cache(maxsize=4096)
def week_states(hours: str) -> tuple[bool | None, ...]:
    """The opening state at every five-minute mark of the week (from the parser's intervals, in one pass)."""
    parsed = parse_hours(hours)
    if parsed is None:
        return (None,) * SLOTS
    if "||" in hours:  # fallback rules: the intervals disagree with is_open at their edges, so ask per mark
        return tuple(is_open_at(hours, WEEK_START + timedelta(minutes=5 * i)) for i in range(SLOTS))
    states: list[bool | None] = [None] * SLOTS
    end_of_week = WEEK_START + timedelta(days=7)
    for start, end, state, _ in parsed.intervals(WEEK_START, end_of_week):
        value = {"open": True, "closed": False}.get(str(state))
        first = math.ceil((start - WEEK_START).total_seconds() / 300)
        last = math.ceil(((end or end_of_week) - WEEK_START).total_seconds() / 300)
        for i in range(max(first, 0), min(last, SLOTS)):
            states[i] = value
    return tuple(states)


def moments_when(hours: str, state: bool, *, between: tuple[int, int] = (7, 22), slack: int = STABLE_MIN) -> list:
    """Five-minute marks (within ``between`` hours of each day) when the state is ``state`` for ``slack``
    minutes either side."""
    states = week_states(hours)
    reach = slack // 5
    out = []
    for i in range(SLOTS):
        minute = (i * 5) % (24 * 60)
        if between[0] * 60 <= minute < between[1] * 60 and all(
            states[j] is state for j in range(max(0, i - reach), min(SLOTS, i + reach + 1))
        ):
            out.append(WEEK_START + timedelta(minutes=5 * i))
    return out


def closings(hours: str) -> list:
    """The marks at which the place closes (open just before, closed from then on)."""
    states = week_states(hours)
    return [
        WEEK_START + timedelta(minutes=5 * i) for i in range(1, SLOTS) if states[i - 1] is True and states[i] is False
    ]


def day_place(hours: str) -> bool:
    """Open through much of the day on most days (at least 6 of the 12 hours from 09:00 on five days):
    somewhere a daytime trip can plan around, unlike a nightclub."""
    states = week_states(hours)
    days = 0
    for day in range(7):
        marks = states[day * 288 + 9 * 12 : day * 288 + 21 * 12]
        days += sum(1 for s in marks if s is True) >= 6 * 12
    return days >= 5


def openings(hours: str) -> list:
    """The marks at which the place opens (closed just before, open from then on)."""
    states = week_states(hours)
    return [
        WEEK_START + timedelta(minutes=5 * i) for i in range(1, SLOTS) if states[i - 1] is False and states[i] is True
    ]

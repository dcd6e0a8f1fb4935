"""The week time-dependent questions are asked about, and moments in it."""
from __future__ import annotations

import random
from datetime import datetime, timedelta

from environment.opening import is_open_at

WEEK_START = datetime(2026, 12, 7)  # a Monday; no public holiday that week in Finland
STABLE_MIN = 15  # the engine keeps 15 minutes of slack around a state (the verifier asks for 10)


def moment(rng: random.Random, *, hours: tuple[int, int] = (8, 22), day: int | None = None) -> datetime:
    """A moment of the week at a 5-minute mark between ``hours`` (start inclusive, end exclusive)."""
    day = rng.randrange(7) if day is None else day
    minutes = rng.randrange(hours[0] * 12, hours[1] * 12) * 5
    return WEEK_START + timedelta(days=day, minutes=minutes)


def stable_state(hours: str, when: datetime, slack: int = STABLE_MIN) -> bool | None:
    """Open or closed at ``when`` and for ``slack`` minutes either side; None when it changes or is unknown."""
    states = {is_open_at(hours, when + timedelta(minutes=m)) for m in range(-slack, slack + 1, 5)}
    return states.pop() if len(states) == 1 and None not in states else None

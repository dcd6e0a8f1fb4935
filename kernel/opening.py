"""Opening hours: OSM ``opening_hours`` text, parsed and evaluated with opening-hours-py.

Ground truth (case generation) and grading use these same functions, so they agree.
Malformed strings are kept as text, flagged invalid, and never raise here.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

import opening_hours


@lru_cache(maxsize=8192)
def parse_hours(text: str) -> opening_hours.OpeningHours | None:
    """The parsed hours, or None when ``text`` is empty or not valid OSM syntax."""
    if not text or not text.strip():
        return None
    try:
        return opening_hours.OpeningHours(text)
    except Exception:  # the parser raises its own ParserError and others on odd input
        return None


def hours_are_valid(text: str) -> bool:
    return parse_hours(text) is not None


def is_open_at(text: str, when: datetime) -> bool | None:
    """True/False when the hours say so at local time ``when``; None when unknown or unparsable."""
    parsed = parse_hours(text)
    if parsed is None:
        return None
    naive = when.replace(tzinfo=None)
    if parsed.is_unknown(naive):
        return None
    return bool(parsed.is_open(naive))

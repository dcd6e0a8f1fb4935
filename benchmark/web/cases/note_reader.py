"""The evidence-note reader: one social note exactly as an agent reads it through the ``note_detail`` tool.

The note comes from the tool itself (``environment.tools.gateway.call_tool``, agent toolset), so the
page shows what the tool returns (title, text, time, counts, tags, comments) and nothing the city
keeps for scoring: not the place the note was written about, not its noise label, not the distilled
facts it supports.
"""

from __future__ import annotations

import re

from django.conf import settings

from environment.tools.errors import NOT_FOUND
from environment.tools.gateway import call_tool

NOTE_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,39}")
CITY_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


class NoteNotFound(LookupError):
    pass


def note_params_check(*, note_id: str, city: str) -> str:
    """The city to read from (``city``, or settings.LIFEPLANNER_CITY when empty).

    Raises:
        ValueError: a note_id or city that is not an id, naming it and what is allowed.
    """
    if not NOTE_ID_PATTERN.fullmatch(note_id):
        raise ValueError(
            f"note_id must be 1 to 40 letters, digits and . _ : - (starting with a letter or digit); got {note_id!r}"
        )
    if city and not CITY_PATTERN.fullmatch(city):
        raise ValueError(f"city must be a city's name (lower-case letters, digits, - and _); got {city!r}")
    return city or settings.LIFEPLANNER_CITY


def note_read(*, note_id: str, city: str) -> dict:
    """The note ``note_id`` of ``city`` as ``note_detail`` returns it to an agent.

    Raises:
        NoteNotFound: no such note in that city, or no such city built here.
    """
    call = call_tool("agent", "note_detail", {"note_id": note_id}, city=city)
    if call.ok:
        return call.result
    error = call.error or {}
    if error.get("kind") == NOT_FOUND:
        raise NoteNotFound(f"city {city} has no note {note_id!r}")
    raise NoteNotFound(str(error.get("message") or f"note {note_id!r} cannot be read"))

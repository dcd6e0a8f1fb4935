"""One place's row by place_id, shared by the place tools and the routing tools.

Rows are cached per process and city version: the world is read-only between builds, and
:func:`forget_place_rows` empties the cache when a city is loaded.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db import connection

from .context import ToolContext
from .errors import not_found

DETAIL_FIELDS = ("place_id", "name", "place_type", "address", "opentime_week", "rating", "cost", "tag", "alias")
ROW_CACHE_SIZE = 20000

_ROWS: OrderedDict[tuple, dict] = OrderedDict()  # (city_id, city_version, place_id) -> detail row
_ROWS_LOCK = threading.Lock()


def place_row(ctx: ToolContext, place_id: str, parameter: str, fields=("place_id", "name")) -> dict:
    """One place's ``fields`` (of :data:`DETAIL_FIELDS`), or a not-found tool error naming ``parameter``."""
    key = (ctx.city_id, ctx.city_version, place_id)
    with _ROWS_LOCK:
        row = _ROWS.get(key)
        if row is not None:
            _ROWS.move_to_end(key)
    if row is None:
        cols = ", ".join(f"p.{f}" for f in DETAIL_FIELDS)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {cols} FROM environment_place p WHERE p.city_id = %s AND p.place_id = %s",
                [ctx.city_id, place_id],
            )
            found = cursor.fetchone()
        if found is None:
            raise not_found(
                parameter, f"no place with place_id {place_id!r}; use an id from place_search or nearby_search"
            )
        row = dict(zip(DETAIL_FIELDS, found))
        with _ROWS_LOCK:
            _ROWS[key] = row
            while len(_ROWS) > ROW_CACHE_SIZE:
                _ROWS.popitem(last=False)
    return {f: row[f] for f in fields}


def forget_place_rows() -> None:
    """Empty the row cache (a city was loaded)."""
    with _ROWS_LOCK:
        _ROWS.clear()

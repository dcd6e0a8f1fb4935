"""The judging layer's view of a built city (judging.metrics.ConstraintWorld)."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime
from functools import lru_cache

from environment import selectors
from environment.tools.context import ToolContext, city_context
from kernel.text import fold


class CityWorld:
    """Read-only facts about the places of one city, measured as the tools measure them."""

    def __init__(self, city_name: str, context: ToolContext | None = None):
        self.context: ToolContext = context or city_context(city_name)
        self.place = lru_cache(maxsize=4096)(self._place)
        self._names: dict[str, tuple[str, ...]] | None = None
        self._names_lock = threading.Lock()

    def _place(self, place_id: str) -> dict | None:
        return selectors.place_get(city_id=self.context.city_id, place_id=place_id)

    def distance_m(self, a: str, b: str) -> float | None:
        metres = selectors.place_distance_m(city_id=self.context.city_id, a=a, b=b)
        return None if metres is None else round(metres, 1)

    def route_distance_m(self, place_id: str, start: str, end: str, vehicle: str) -> float | None:
        route = self._route(start, end, vehicle, "time")
        if route is None:
            return None
        metres = selectors.place_line_distance_m(city_id=self.context.city_id, place_id=place_id, line=route.geometry)
        return None if metres is None else round(metres, 1)

    def leg(self, a: str, b: str, vehicle: str, mode: str) -> tuple[float, float] | None:
        route = self._route(a, b, vehicle, mode)
        return (route.total_distance_m, route.total_time_s) if route else None

    def _route(self, a: str, b: str, vehicle: str, mode: str):
        from environment.routing import RoutingError

        try:
            return self.context.network.route(a, b, vehicle=vehicle, mode=mode)
        except (RoutingError, ValueError):
            return None

    def has_fact(self, place_id: str, key: str, on: date | None = None) -> bool:
        """The evidence rule at noon (UTC) of the day the question is about; a case that states no day (written
        before cases did) asks whether the place holds the fact at all."""
        if on is None:
            return selectors.fact_exists(city_id=self.context.city_id, place_id=place_id, key=key)
        noon = datetime(on.year, on.month, on.day, 12, tzinfo=UTC)
        return selectors.fact_held(city_id=self.context.city_id, place_id=place_id, key=key, at=noon)

    def resolve_name(self, name: str) -> str | None:
        """The place_id of the one place with this name (case- and accent-insensitive), else None."""
        matches = self._name_table().get(fold(name).strip(), ())
        return matches[0] if len(matches) == 1 else None

    def _name_table(self) -> dict[str, tuple[str, ...]]:
        """Folded name -> place_ids, built once; published only when complete, so a thread scoring at the
        same time either waits for it or reads the whole table (never a half-filled one)."""
        table = self._names
        if table is not None:
            return table
        with self._names_lock:
            if self._names is None:
                names: dict[str, list[str]] = {}
                for pid, pname in selectors.place_names(city_id=self.context.city_id):
                    names.setdefault(fold(pname).strip(), []).append(pid)
                self._names = {key: tuple(ids) for key, ids in names.items()}
            return self._names


_WORLDS: dict[tuple[str, str], CityWorld] = {}
_WORLDS_LOCK = threading.Lock()


def city_world(city_name: str, context: ToolContext | None = None) -> CityWorld:
    """The world of a city, built once per process and city version (its caches are read-only facts).

    ``context``: the city version the case was answered against (its toolbox's pinned one), so that
    scoring neither looks the version up again nor scores against a newer build than the agent saw.
    """
    context = context or city_context(city_name)
    with _WORLDS_LOCK:
        world = _WORLDS.get((city_name, context.city_version))
        if world is None:
            if len(_WORLDS) >= 4:
                _WORLDS.clear()
            world = _WORLDS[(city_name, context.city_version)] = CityWorld(city_name, context)
    return world


def forget_worlds() -> None:
    """Drop every city's world (the next scoring starts cold: used to check scoring from a cold start)."""
    with _WORLDS_LOCK:
        _WORLDS.clear()

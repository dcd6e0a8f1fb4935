"""A tiny World for judging tests: facts and distances given as plain dicts."""

from __future__ import annotations


class FakeWorld:
    """Places by id, symmetric straight-line distances, and offsets from (start, end, vehicle) routes."""

    def __init__(
        self,
        places: dict[str, dict],
        distances: dict[tuple[str, str], float] | None = None,
        route_offsets: dict[tuple[str, str, str, str], float] | None = None,
    ):
        self.places = places
        self.distances = distances or {}
        self.route_offsets = route_offsets or {}

    def place(self, place_id: str) -> dict | None:
        return self.places.get(place_id)

    def distance_m(self, a: str, b: str) -> float | None:
        return self.distances.get((a, b), self.distances.get((b, a)))

    def route_distance_m(self, place_id: str, start: str, end: str, vehicle: str) -> float | None:
        return self.route_offsets.get((place_id, start, end, vehicle))


def resolver(names: dict[str, str]):
    """A resolve_name callable over an exact name -> place_id map."""
    return lambda name: names.get(name)

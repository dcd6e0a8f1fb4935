"""What the metrics need to know about the city, as a protocol the benchmark layer implements.

Keeping it a protocol keeps judging pure: tests pass a small fake, the benchmark passes one
backed by the environment's database and road network.
"""

from __future__ import annotations

from typing import Protocol


class World(Protocol):
    """Read-only facts about places, in the same units the agent's tools use."""

    def place(self, place_id: str) -> dict | None:
        """The place's record (place_type, rating, cost, opentime_week, tag, ...), or None if unknown."""

    def distance_m(self, a: str, b: str) -> float | None:
        """Straight-line distance in metres between two places (as nearby_search measures it)."""

    def route_distance_m(self, place_id: str, start: str, end: str, vehicle: str) -> float | None:
        """Distance in metres from a place to the route from start to end that nearby_search buffers."""

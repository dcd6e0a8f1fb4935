"""What one tool call of a trajectory looks like in the replay: map features, a table, notes.

Pure functions over plain data: a step's tool, arguments and observation (what the agent
saw), plus a ``Places`` lookup (place_id -> location and name, read once per trajectory) and
the extra geometry the caller computed once per trajectory (route lines and buffers for
``nearby_search`` along a route). Features are GeoJSON with a ``kind`` property the page's
script styles by:

- ``result`` (a ranked search result, ``rank``), ``center`` and ``circle`` (a nearby_search
  around a place, ``radius_m``), ``route`` and ``buffer`` (a routing result, or the buffer of
  a nearby_search along a route), ``endpoint`` (a route's start "A" and end "B"), ``turn``
  (the start of a turn step, ``number`` and ``instruction``), ``place`` (a place_detail).

Every text here is untrusted (tool output, model arguments): the page escapes it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from environment.routing.geo import haversine_m
from environment.selectors import PlacePoint

PLACE_KEYS = frozenset({"place_id", "start_place_id", "end_place_id", "start", "end", "center", "start_id", "end_id"})
ROUTE_CENTER_FIELDS = ("start", "end", "vehicle")


@dataclass
class Places:
    """Places of the trajectory's city by place_id (only those the trajectory mentions)."""

    points: dict[str, PlacePoint] = field(default_factory=dict)

    def get(self, place_id: Any) -> PlacePoint | None:
        return self.points.get(place_id) if isinstance(place_id, str) else None


def parsed(observation: Any) -> Any:
    """The observation as data (some recorders stored JSON text)."""
    if isinstance(observation, str):
        try:
            return json.loads(observation)
        except json.JSONDecodeError:
            return observation
    return observation


def mentioned_place_ids(value: Any) -> Iterator[str]:
    """Every string under a key that holds a place_id (place_id, start, end, center, ...)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in PLACE_KEYS and isinstance(item, str):
                yield item.strip()
            else:
                yield from mentioned_place_ids(item)
    elif isinstance(value, list):
        for item in value:
            yield from mentioned_place_ids(item)


def route_center(arguments: Any) -> dict | None:
    """The route object of a nearby_search along a route, or None for a place center."""
    center = arguments.get("center") if isinstance(arguments, dict) else None
    if isinstance(center, dict) and isinstance(center.get("start"), str) and isinstance(center.get("end"), str):
        return {
            "start": center["start"].strip(),
            "end": center["end"].strip(),
            "vehicle": center.get("vehicle") if isinstance(center.get("vehicle"), str) else "driving",
        }
    return None


def error_of(observation: Any) -> dict | None:
    if isinstance(observation, dict) and isinstance(observation.get("error"), dict):
        error = observation["error"]
        return {k: str(error.get(k, "")) for k in ("kind", "message", "parameter", "allowed") if error.get(k)}
    return None


# ------------------------------------------------------------------ map features


def point(p: PlacePoint, kind: str, **props) -> dict:
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [p.lon, p.lat]},
        "properties": {"kind": kind, "place_id": p.place_id, "name": p.name, **props},
    }


def line(geometry: dict, kind: str, **props) -> dict:
    return {"type": "Feature", "geometry": geometry, "properties": {"kind": kind, **props}}


def ranked_results(results: Any, places: Places) -> list[dict]:
    features = []
    for rank, item in enumerate(results if isinstance(results, list) else [], 1):
        p = places.get(item.get("place_id")) if isinstance(item, dict) else None
        if p:
            extra = {"distance_m": item["distance_m"]} if "distance_m" in item else {}
            features.append(point(p, "result", rank=rank, **extra))
    return features


def turn_points(geometry: dict, steps: Any) -> list[dict]:
    """A point where each turn step starts, found by walking its distance along the route line."""
    coords = geometry.get("coordinates") if isinstance(geometry, dict) else None
    if not isinstance(coords, list) or len(coords) < 2 or not isinstance(steps, list):
        return []
    out, walked, target, seg = [], 0.0, 0.0, 0
    for number, step in enumerate(steps, 1):
        if not isinstance(step, dict):
            continue
        while seg < len(coords) - 2:
            length = haversine_m(*coords[seg], *coords[seg + 1])
            if walked + length > target:
                break
            walked, seg = walked + length, seg + 1
        lon, lat = _along(coords[seg], coords[seg + 1], target - walked)
        out.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [lon, lat]},
                "properties": {
                    "kind": "turn",
                    "number": number,
                    "instruction": str(step.get("instruction", "")),
                    "distance_m": step.get("distance_m"),
                },
            }
        )
        distance = step.get("distance_m")
        target += distance if isinstance(distance, int | float) else 0.0
    return out


def _along(a: list, b: list, metres: float) -> tuple[float, float]:
    length = haversine_m(*a, *b)
    share = min(1.0, max(0.0, metres / length)) if length > 0 else 0.0
    return a[0] + share * (b[0] - a[0]), a[1] + share * (b[1] - a[1])


def step_features(tool: str, arguments: Any, observation: Any, places: Places, extra: dict | None) -> list[dict]:
    """The map features of one call; ``extra`` holds the route line and buffer of a route-center search."""
    if error_of(observation) or not isinstance(observation, dict):
        return []
    drawer = DRAWERS.get(tool)
    if drawer:
        return drawer(arguments if isinstance(arguments, dict) else {}, observation, places, extra or {})
    return [point(p, "place") for p in map(places.get, dict.fromkeys(mentioned_place_ids(observation))) if p]


def _draw_place_search(arguments, observation, places, extra) -> list[dict]:
    return ranked_results(observation.get("results"), places)


def _draw_nearby(arguments, observation, places, extra) -> list[dict]:
    features = []
    center = observation.get("center") if isinstance(observation.get("center"), dict) else {}
    anchor = places.get(center.get("place_id"))
    if anchor:
        radius = observation.get("radius_meters")
        features += [point(anchor, "circle", radius_m=radius), point(anchor, "center")]
    elif extra.get("route"):
        if extra.get("buffer"):
            features.append(line(extra["buffer"], "buffer", radius_m=observation.get("radius_meters")))
        features.append(line(extra["route"], "route", vehicle=center.get("vehicle", "")))
        for label, key in (("A", "start"), ("B", "end")):
            p = places.get(center.get(key))
            if p:
                features.append(point(p, "endpoint", label=label))
    return [f for f in features if f] + ranked_results(observation.get("results"), places)


def _draw_routing(arguments, observation, places, extra) -> list[dict]:
    geometry = observation.get("geometry")
    features = []
    if isinstance(geometry, dict) and geometry.get("type") == "LineString":
        features.append(
            line(
                geometry,
                "route",
                vehicle=str(observation.get("vehicle", "")),
                total_distance_m=observation.get("total_distance_m"),
                total_time_s=observation.get("total_time_s"),
            )
        )
        features += turn_points(geometry, observation.get("steps"))
    for label, key in (("A", "start"), ("B", "end")):
        p = places.get((observation.get(key) or {}).get("place_id") if isinstance(observation.get(key), dict) else None)
        if p:
            features.append(point(p, "endpoint", label=label))
    return features


def _draw_place_detail(arguments, observation, places, extra) -> list[dict]:
    p = places.get(observation.get("place_id"))
    return [point(p, "place")] if p else []


def _draw_nothing(arguments, observation, places, extra) -> list[dict]:
    return []  # notes carry no location an agent could see; the answer is drawn by the caller


DRAWERS = {
    "place_search": _draw_place_search,
    "nearby_search": _draw_nearby,
    "routing": _draw_routing,
    "place_detail": _draw_place_detail,
    "search_notes": _draw_nothing,
    "note_detail": _draw_nothing,
    "submit_answer": _draw_nothing,
}

"""Routing tools: routing (both toolsets) and multi_stop_routing (engine), tables 7 and 8.

A multi-stop total is the sum of its legs as the routing tool reports them (each leg rounded
to 0.1 m and 0.1 s), so an agent that adds up routing calls gets exactly the same number.
Orderings are sorted by the optimised quantity, then the other one, then the place_ids.
"""

from __future__ import annotations

from itertools import permutations
from typing import Annotated, Literal

from .context import ToolContext
from .errors import EMPTY_RESULT, ToolError, invalid, not_found
from .rows import place_row
from .spec import tool

Vehicle = Literal["walking", "cycling", "driving"]
Mode = Literal["time", "distance"]
MAX_STOPS = 7
MAX_AVOID = 200


def route_between(
    ctx: ToolContext,
    start: str,
    end: str,
    *,
    vehicle: str,
    mode: str,
    avoid_way_ids=(),
    start_param: str = "start_place_id",
    end_param: str = "end_place_id",
):
    """The network route between two place_ids, with tool errors naming the parameters."""
    from environment.routing import NoRoute, UnknownPlace

    start, end = start.strip(), end.strip()
    for pid, param in ((start, start_param), (end, end_param)):
        place_row(ctx, pid, param)
    if start == end:
        raise invalid(
            end_param, f"{start_param} and {end_param} are the same place ({start!r})", "two different places"
        )
    try:
        return ctx.network.route(start, end, vehicle=vehicle, mode=mode, avoid_way_ids=avoid_way_ids)
    except UnknownPlace as exc:
        raise not_found(start_param, f"place {exc} is not on the {vehicle} network") from None
    except NoRoute as exc:
        raise ToolError(EMPTY_RESULT, f"no {vehicle} route from {start} to {end}: {exc}") from None


@tool("routing", toolsets=("agent", "engine"))
def routing(
    ctx: ToolContext,
    start_place_id: Annotated[str, "Start POI place_id"],
    end_place_id: Annotated[str, "End POI place_id"],
    avoid_way_ids: Annotated[list[int] | None, "Way IDs to avoid (ways.gid)"] = None,
    mode: Annotated[Mode, "Route mode: 'time' (shortest time) or 'distance' (shortest distance)"] = "time",
    vehicle: Annotated[Vehicle, "Travel mode: 'walking', 'cycling', or 'driving'"] = "driving",
) -> dict:
    """Calculate an optimal route between two POIs and return total distance/time, geometry, and turn instructions."""
    avoid = sorted(set(avoid_way_ids or ()))
    if len(avoid) > MAX_AVOID:
        raise invalid(
            "avoid_way_ids", f"at most {MAX_AVOID} way ids can be avoided, got {len(avoid)}", f"up to {MAX_AVOID} ids"
        )
    route = route_between(ctx, start_place_id, end_place_id, vehicle=vehicle, mode=mode, avoid_way_ids=avoid)
    start = place_row(ctx, start_place_id.strip(), "start_place_id")  # cached by route_between's check
    end = place_row(ctx, end_place_id.strip(), "end_place_id")
    return {
        "start": start,
        "end": end,
        "vehicle": vehicle,
        "mode": mode,
        "avoid_way_ids": avoid,
        "total_distance_m": route.total_distance_m,
        "total_time_s": route.total_time_s,
        "geometry": route.geometry,
        "steps": route.steps,
    }


def _leg_matrix(ctx: ToolContext, stops: list[str], *, vehicle: str, mode: str):
    from environment.routing import NoRoute, UnknownPlace

    try:
        return ctx.network.leg_matrix(stops, vehicle=vehicle, mode=mode)
    except UnknownPlace as exc:
        raise not_found("stop_ids", f"place {exc} is not on the {vehicle} network") from None
    except NoRoute as exc:
        raise ToolError(EMPTY_RESULT, f"no {vehicle} route between two of the stops: {exc}") from None


def _orderings(stops: list[str], start: str | None, end: str | None):
    middle = [s for s in stops if s not in (start, end)]
    for perm in permutations(middle):
        yield ([start] if start else []) + list(perm) + ([end] if end else [])


@tool("multi_stop_routing", toolsets=("engine",))
def multi_stop_routing(
    ctx: ToolContext,
    stop_ids: Annotated[list[str], "List of POI place_ids to visit (typically 2-6 stops)"],
    start_id: Annotated[str | None, "Fixed start place_id (must be in stop_ids)"] = None,
    end_id: Annotated[str | None, "Fixed end place_id (must be in stop_ids)"] = None,
    vehicle: Annotated[Vehicle, "Travel mode: 'walking', 'cycling', 'driving'"] = "driving",
    mode: Annotated[Mode, "Optimize: 'time' or 'distance'"] = "time",
    max_orderings: Annotated[int, "How many orderings to return, best first (default 50)"] = 50,
) -> dict:
    """Enumerate and score route permutations for multi-stop trip planning. Supports open trips and fixed start/end settings."""  # noqa: E501
    stops = [s.strip() for s in stop_ids]
    if not 2 <= len(stops) <= MAX_STOPS:
        raise invalid(
            "stop_ids",
            f"stop_ids must hold 2 to {MAX_STOPS} places, got {len(stops)}",
            f"2 to {MAX_STOPS} distinct place_ids",
        )
    if len(set(stops)) != len(stops):
        dup = sorted({s for s in stops if stops.count(s) > 1})
        raise invalid("stop_ids", f"stop_ids repeats {', '.join(dup)}", "distinct place_ids")
    for param, value in (("start_id", start_id), ("end_id", end_id)):
        if value is not None and value.strip() not in stops:
            raise invalid(param, f"{param} {value!r} is not one of stop_ids", "a place_id listed in stop_ids")
    start, end = (start_id.strip() if start_id else None), (end_id.strip() if end_id else None)
    if start and start == end:
        raise invalid("end_id", "start_id and end_id are the same place", "two different places from stop_ids")
    if not 1 <= max_orderings <= 5040:
        raise invalid(
            "max_orderings",
            f"max_orderings must be between 1 and 5040, got {max_orderings}",
            "1 <= max_orderings <= 5040",
        )
    names = {s: place_row(ctx, s, "stop_ids")["name"] for s in stops}
    legs = _leg_matrix(ctx, stops, vehicle=vehicle, mode=mode)
    scored = []
    for order in _orderings(stops, start, end):
        dist = round(sum(legs[a, b].distance_m for a, b in zip(order, order[1:])), 1)
        secs = round(sum(legs[a, b].time_s for a, b in zip(order, order[1:])), 1)
        key = (secs, dist) if mode == "time" else (dist, secs)
        scored.append((key, order, dist, secs))
    scored.sort(key=lambda item: (item[0], item[1]))
    best = scored[0][1]
    return {
        "stop_ids": stops,
        "start_id": start,
        "end_id": end,
        "vehicle": vehicle,
        "mode": mode,
        "total_orderings": len(scored),
        "returned": min(len(scored), max_orderings),
        "truncated": len(scored) > max_orderings,
        "orderings": [
            {
                "rank": i + 1,
                "order": [{"place_id": p, "name": names[p]} for p in order],
                "total_distance_m": dist,
                "total_time_s": secs,
            }
            for i, (_, order, dist, secs) in enumerate(scored[:max_orderings])
        ],
        "best_legs": [
            {"from": a, "to": b, "distance_m": legs[a, b].distance_m, "time_s": legs[a, b].time_s}
            for a, b in zip(best, best[1:])
        ],
        "legs": [
            {"from": a, "to": b, "distance_m": legs[a, b].distance_m, "time_s": legs[a, b].time_s}
            for a in stops
            for b in stops
            if a != b
        ],
    }

"""Uniqueness checks: the answer is the only place or ordering that meets the criteria.

Each case stores a spec ``{"check": kind, ...}`` written by the data engine; these
functions re-run it with the Data Engine Toolset and return failures (empty when unique).
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from environment.opening import hours_are_valid, is_open_at
from environment.text import fold
from environment.tools.gateway import call_tool
from judging.rules import arrival_times, closed_on_arrival, order_violations

Tool = Callable[..., dict]


def orderings_satisfying(orderings: list[dict], constraints: dict, hours: dict[str, str]) -> list[dict]:
    """Orderings (rank order kept) meeting the visit-order and opening-hours constraints.

    Each ordering needs ``leg_times_s`` when the constraints have a ``start_time``.
    """
    keep = []
    for ordering in orderings:
        order = [p["place_id"] for p in ordering["order"]]
        if order_violations(order, [tuple(p) for p in constraints.get("before", [])]):
            continue
        if constraints.get("start_time"):
            dwell = constraints["dwell_minutes"] * 60
            arrivals = arrival_times(datetime.fromisoformat(constraints["start_time"]), ordering["leg_times_s"], dwell)
            if closed_on_arrival(order, arrivals, hours, dwell_s=dwell):
                continue
        keep.append(ordering)
    return keep


def with_leg_times(tool: Tool, orderings: list[dict], vehicle: str, mode: str) -> list[dict]:
    """Orderings with each leg's time, from routing calls (one per distinct leg)."""
    legs: dict[tuple[str, str], float] = {}
    out = []
    for ordering in orderings:
        order = [p["place_id"] for p in ordering["order"]]
        for a, b in zip(order, order[1:]):
            if (a, b) not in legs:
                legs[a, b] = tool("routing", start_place_id=a, end_place_id=b, vehicle=vehicle,
                                  mode=mode)["total_time_s"]
        out.append({**ordering, "leg_times_s": [legs[a, b] for a, b in zip(order, order[1:])]})
    return out


def metric(ordering: dict, mode: str) -> float:
    return ordering["total_time_s"] if mode == "time" else ordering["total_distance_m"]


def check_uniqueness(ctx, spec: dict, doc) -> list[str]:
    def tool(name: str, **arguments) -> dict:
        call = call_tool("engine", name, arguments, context=ctx)
        if not call.ok:
            raise LookupError(f"{name} failed: {call.error['message']}")
        return call.result

    check = CHECKS.get(spec.get("check"))
    if check is None:
        return [f"unknown uniqueness check {spec.get('check')!r}"]
    try:
        return check(tool, spec, doc)
    except LookupError as exc:
        return [f"uniqueness check {spec['check']}: {exc}"]


def _record_of(tool: Tool, name: str, place_id: str) -> dict:
    for record in tool("place_search", query_name=name)["results"]:
        if record["place_id"] == place_id:
            return record
    raise LookupError(f"place_search({name!r}) does not return {place_id}")


def _record(tool: Tool, name: str) -> dict:
    same = [r for r in tool("place_search", query_name=name)["results"] if fold(r["name"]) == fold(name)]
    if len(same) != 1:
        raise LookupError(f"{len(same)} places are named {name!r}")
    return same[0]


def _unique_name(tool, spec, doc) -> list[str]:
    record = _record(tool, spec["name"])
    return [] if record["place_id"] == spec["place_id"] else [f"{spec['name']!r} now names {record['place_id']}"]


def _compare(tool, spec, doc) -> list[str]:
    records = [_record(tool, name) for name in spec["names"]]
    values = [r[spec["key"]] for r in records]
    if None in values or abs(values[0] - values[1]) < spec["margin"]:
        return [f"{spec['key']} values {values} are missing or closer than {spec['margin']}"]
    winner = max if spec["key"] == "rating" else min
    best = records[values.index(winner(values))]["place_id"]
    return [] if best == spec["expected"] else [f"the {spec['key']} comparison now picks {best}"]


def _open_at(tool, spec, doc) -> list[str]:
    record = _record(tool, spec["name"])
    state = is_open_at(record["opentime_week"], datetime.fromisoformat(spec["at"]))
    return [] if state is spec["expected"] else [f"open at {spec['at']} is {state}, the case says {spec['expected']}"]


def _fact_choice(tool, spec, doc) -> list[str]:
    from benchmark.cases.engine.common import has_fact

    holders = [r["place_id"] for r in (_record(tool, n) for n in spec["names"]) if has_fact(r, spec["fact"])]
    return [] if holders == [spec["expected"]] else [f"{spec['fact']} is held by {holders}, not only the answer"]


def _only_places(tool, spec, doc) -> list[str]:
    result = tool(spec["tool"], **spec["arguments"])
    found = sorted(r["place_id"] for r in result["results"])
    if result["total_matched"] != len(spec["expected"]) or found != sorted(spec["expected"]):
        return [f"{spec['tool']} {spec['arguments']} matches {found} ({result['total_matched']}), "
                f"expected exactly {sorted(spec['expected'])}"]
    return []


def _nearest(tool, spec, doc) -> list[str]:
    results = tool("nearby_search", **spec["arguments"])["results"]
    if not results or results[0]["place_id"] != spec["expected"]:
        return [f"the nearest place is now {results[0]['place_id'] if results else None}"]
    if len(results) > 1 and results[1]["distance_m"] - results[0]["distance_m"] < spec["margin_m"]:
        return ["the nearest two places are closer than the margin"]
    return []


def _route(tool, spec, doc) -> list[str]:
    a, b = spec["stops"]
    route = tool("routing", start_place_id=a, end_place_id=b, vehicle=spec["vehicle"], mode=spec["mode"])
    got = (route["total_distance_m"], route["total_time_s"])
    want = (doc.answer["total_distance_m"], doc.answer["total_time_s"])
    return [] if got == want else [f"the route now measures {got}, the answer says {want}"]


def _selection(tool, spec, doc) -> list[str]:
    selection = spec.get("selection")
    return _only_places(tool, selection, doc) if selection else []


def _best_order(tool, spec, doc) -> list[str]:
    orderings = tool("multi_stop_routing", **spec["arguments"])["orderings"]
    order = [p["place_id"] for p in orderings[0]["order"]]
    failures = _selection(tool, spec, doc)
    if order != spec["expected"]:
        failures.append(f"the best ordering is now {order}")
    elif len(orderings) > 1 and metric(orderings[1], spec["arguments"]["mode"]) - metric(
            orderings[0], spec["arguments"]["mode"]) < spec["margin"]:
        failures.append("the best ordering is not clearly better than the runner-up")
    return failures


def _constrained_order(tool, spec, doc) -> list[str]:
    args = spec["arguments"]
    ranked = with_leg_times(tool, tool("multi_stop_routing", **args)["orderings"], args["vehicle"], args["mode"])
    hours = _stop_hours(tool, doc, args["stop_ids"], args["start_id"])
    kept = orderings_satisfying(ranked, doc.constraints, hours)
    failures = _selection(tool, spec, doc)
    first = [p["place_id"] for p in ranked[0]["order"]]
    if not kept:
        return failures + ["no ordering satisfies the constraints"]
    chosen = [p["place_id"] for p in kept[0]["order"]]
    if chosen != spec["expected"]:
        failures.append(f"the best ordering meeting the constraints is now {chosen}")
    if chosen == first:
        failures.append("the constraints no longer change the unconstrained best ordering")
    if len(kept) > 1 and metric(kept[1], args["mode"]) - metric(kept[0], args["mode"]) < spec["margin"]:
        failures.append("the constrained best is not clearly better than the next valid ordering")
    return failures


def _stop_hours(tool, doc, stop_ids: list[str], start_id: str) -> dict[str, str]:
    """Opening hours of the stops after the start, read from the answer's places by name."""
    names = {p["place_id"]: p["name"] for p in doc.answer.get("optimal_order", [])}
    hours = {}
    for pid in stop_ids:
        if pid != start_id and pid in names:
            text = _record_of(tool, names[pid], pid)["opentime_week"]
            if text and hours_are_valid(text):
                hours[pid] = text
    return hours


CHECKS: dict[str, Callable] = {
    "unique_name": _unique_name, "compare": _compare, "open_at": _open_at, "fact_choice": _fact_choice,
    "only_places": _only_places, "nearest": _nearest, "route": _route, "best_order": _best_order,
    "constrained_order": _constrained_order,
}

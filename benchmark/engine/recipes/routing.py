"""Routing: a route between two places, and waypoints to integrate along it."""
from __future__ import annotations

import random

from ..common import (
    Draft,
    facts_of,
    find_by_name,
    has_fact,
    label_value,
    named_places,
    read_notes,
    ref,
    sample,
    subtype,
    supporting_notes,
    type_noun,
)
from ..intents import intent_for
from ..phrasing import ask, noun_case, pick
from ..session import Discard
from . import recipe
from .nearby import fact_filter

VEHICLES = ("walking", "cycling", "driving")


def endpoints(session, rng, min_m: float = 250, max_m: float = 1800) -> tuple[dict, dict, str, str, dict]:
    """Two uniquely named places, a vehicle and a mode, and the engine's route between them."""
    a, b = named_places(session, rng, 2, pool=sample(session, rng, 20))
    vehicle, mode = rng.choice(VEHICLES), rng.choice(("time", "distance"))
    route = session.engine("routing", start_place_id=a["place_id"], end_place_id=b["place_id"], vehicle=vehicle,
                           mode=mode)
    if not min_m <= route["total_distance_m"] <= max_m:
        raise Discard("route length out of range")
    return a, b, vehicle, mode, route


def route_answer(start, end, waypoints, order, vehicle, mode, totals, reasons=None) -> dict:
    reasons = reasons or {}
    return {
        "start": ref(start, reasons.get("start", "User-specified origin.")),
        "end": ref(end, reasons.get("end", "User-specified destination.")),
        "waypoints": waypoints,
        "optimal_order": [{"name": p["name"], "place_id": p["place_id"], "visit_order": i + 1}
                          for i, p in enumerate(order)],
        "vehicle": vehicle,
        "mode": mode,
        "total_distance_m": totals["total_distance_m"],
        "total_time_s": totals["total_time_s"],
    }


def agent_legs(session, order: list[dict], vehicle: str, mode: str) -> None:
    """The agent's reference routing calls along ``order``."""
    for a, b in zip(order, order[1:]):
        session.agent("routing", start_place_id=a["place_id"], end_place_id=b["place_id"], vehicle=vehicle, mode=mode)


@recipe("routing", "L0")
def routing_l0(session, rng: random.Random) -> Draft:
    a, b, vehicle, mode, route = endpoints(session, rng)
    for place in (a, b):
        find_by_name(session, place["name"])
    agent_route = session.agent("routing", start_place_id=a["place_id"], end_place_id=b["place_id"], vehicle=vehicle,
                                mode=mode)
    answer = route_answer(a, b, [], [a, b], vehicle, mode, agent_route)
    session.agent("submit_answer", result=answer)
    question = pick(rng, "What's the {m} {vi} route from {a} to {b}?", "Plan the {m} route from {a} to {b}, {v}.",
                    "I'm going from {a} to {b} {v}. Which route is {m}, and how long is it?")
    return Draft(
        question=ask(rng, question, mode=mode, vehicle=vehicle, a=a["name"], b=b["name"]),
        answer=answer,
        constraints={"vehicle": vehicle, "mode": mode},
        uniqueness={"check": "route", "stops": [a["place_id"], b["place_id"]], "vehicle": vehicle, "mode": mode},
        signature=f"route:{a['place_id']}:{b['place_id']}:{vehicle}:{mode}",
    )


def _via(session, rng, a, b, vehicle, mode, radius, waypoint, extra_reason: str, note_ids=(), key=None) -> dict:
    """Engine totals for start -> waypoint -> end, and the agent's two routing legs."""
    multi = session.engine("multi_stop_routing", stop_ids=[a["place_id"], waypoint["place_id"], b["place_id"]],
                           start_id=a["place_id"], end_id=b["place_id"], vehicle=vehicle, mode=mode)
    best = multi["orderings"][0]
    agent_legs(session, [a, waypoint, b], vehicle, mode)
    wp = ref(waypoint, extra_reason)
    wp["ref"] = {"note_id": ",".join(note_ids), "attribute_key": f"tag:{label_value(key)}" if key and
                 "geo_tag" in fact_filter(key) else ("place_type" if key is None else "")}
    if key is not None:
        wp["implicit_logic"] = "True"
    return route_answer(a, b, [wp], [a, waypoint, b], vehicle, mode, best)


@recipe("routing", "L1")
def routing_l1(session, rng: random.Random) -> Draft:
    a, b, vehicle, mode, _ = endpoints(session, rng, 300, 1800)
    radius = rng.choice((50, 80, 100, 150))
    center = {"start": a["place_id"], "end": b["place_id"], "vehicle": vehicle}
    along = session.engine("nearby_search", center=center, radius_meters=radius)["results"]
    types = sorted({subtype(r) for r in along if type_noun(r)})
    for sub in rng.sample(types, k=len(types)):
        found = session.engine("nearby_search", center=center, radius_meters=radius, place_types=[sub])
        if found["total_matched"] != 1:
            continue
        waypoint = found["results"][0]
        for place in (a, b):
            find_by_name(session, place["name"])
        session.agent("nearby_search", center=center, radius_meters=radius, place_types=[sub])
        answer = _via(session, rng, a, b, vehicle, mode, radius, waypoint,
                      f"The only {noun_case(sub)} within {radius} m of the route.")
        session.agent("submit_answer", result=answer)
        question = pick(rng, "I'm {vi} from {a} to {b} and need to stop at a {t} on the way (at most {r} m off my "
                             "route). Plan the {m} route.",
                        "Going from {a} to {b} {v}. I have to drop by a {t} within {r} m of the route. What's the {m} "
                        "plan?",
                        "Route me from {a} to {b} {v} with a stop at a {t} no more than {r} m from the way, {m} "
                        "overall.")
        return Draft(
            question=ask(rng, question, vehicle=vehicle, a=a["name"], b=b["name"],
                         t=noun_case(sub), r=radius, mode=mode),
            answer=answer, attributes=[{"place_id": waypoint["place_id"], "key": "place_type"}],
            constraints={"vehicle": vehicle, "mode": mode, "route_buffer_m": radius, "place_type": sub},
            uniqueness={"check": "only_places", "tool": "nearby_search",
                        "arguments": {"center": center, "radius_meters": radius, "place_types": [sub]},
                        "expected": [waypoint["place_id"]]},
            signature=f"via:{a['place_id']}:{b['place_id']}:{waypoint['place_id']}",
        )
    raise Discard("no type with exactly one place along the route")


@recipe("routing", "L2")
def routing_l2(session, rng: random.Random) -> Draft:
    a, b, vehicle, mode, _ = endpoints(session, rng, 300, 2000)
    radius = rng.choice((80, 100, 150, 200))
    center = {"start": a["place_id"], "end": b["place_id"], "vehicle": vehicle}
    along = session.engine("nearby_search", center=center, radius_meters=radius)["results"]
    candidates = [(r, k) for r in along for k in facts_of(r, "static") + facts_of(r, "long_term")
                  if (i := intent_for(k)) is not None and i.polarity == "seek"]
    rng.shuffle(candidates)
    for waypoint, key in candidates:
        holders = session.engine("nearby_search", center=center, radius_meters=radius, **fact_filter(key))
        if [r["place_id"] for r in holders["results"]] != [waypoint["place_id"]] or not has_fact(waypoint, key):
            continue
        note_ids = supporting_notes(session, waypoint, key)
        for place in (a, b):
            find_by_name(session, place["name"])
        listing = session.agent("nearby_search", center=center, radius_meters=radius, place_types=[subtype(waypoint)])
        if waypoint["place_id"] not in [r["place_id"] for r in listing["results"]]:
            continue
        read_notes(session, waypoint, key, note_ids)
        answer = _via(session, rng, a, b, vehicle, mode, radius, waypoint,
                      "Social media notes show it offers what the user implicitly wants.", note_ids, key)
        session.agent("submit_answer", result=answer)
        want = rng.choice(intent_for(key).wants)
        question = pick(rng, "I'm {vi} from {a} to {b}. On the way I'd like to {w}, at most {r} m off my route. "
                             "Plan the {m} route.",
                        "Heading from {a} to {b} {v}; somewhere along the way (within {r} m) I want to {w}. What's "
                        "the {m} plan?",
                        "From {a} to {b}, {v}. On the way, no more than {r} m from the route, I want to {w}. {M} "
                        "route please.")
        return Draft(
            question=ask(rng, question, vehicle=vehicle, a=a["name"], b=b["name"], w=want, r=radius, mode=mode),
            answer=answer, note_ids=note_ids,
            attributes=([{"place_id": waypoint["place_id"], "key": f"tag:{label_value(key)}"}]
                        if "geo_tag" in fact_filter(key) else []),
            constraints={"vehicle": vehicle, "mode": mode, "route_buffer_m": radius,
                         "fact": {"place_id": waypoint["place_id"], "key": key}},
            uniqueness={"check": "only_places", "tool": "nearby_search",
                        "arguments": {"center": center, "radius_meters": radius, **fact_filter(key)},
                        "expected": [waypoint["place_id"]]},
            signature=f"viafact:{a['place_id']}:{b['place_id']}:{waypoint['place_id']}:{key}",
        )
    raise Discard("no fact held by exactly one place along the route")

"""Trip Design: multi-stop itineraries (figure 10's scenarios A and B)."""
from __future__ import annotations

import random
from datetime import datetime
from itertools import permutations

from benchmark.cases.uniqueness import orderings_satisfying, with_leg_times
from environment.opening import hours_are_valid

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
    uniquely_named,
)
from ..intents import intent_for
from ..phrasing import ask, join_names, pick, plural
from ..session import Discard
from . import recipe
from .nearby import fact_filter
from .routing import route_answer

ORDER_MARGIN = 1.0  # the best ordering must beat the runner-up by this much (seconds or metres)
TRIP_VEHICLES = ("walking", "walking", "cycling", "driving")
WEEK_DAY = datetime(2026, 12, 8)  # a Tuesday


def _metric(ordering: dict, mode: str) -> float:
    return ordering["total_time_s"] if mode == "time" else ordering["total_distance_m"]


def _ids(ordering: dict) -> list[str]:
    return [p["place_id"] for p in ordering["order"]]


def _cluster(session, rng, k: int, radius: float = 700) -> list[dict]:
    """``k`` uniquely named places around a sampled anchor (the anchor first)."""
    anchor = named_places(session, rng, 1, pool=sample(session, rng, 10))[0]
    around = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius)
    pool = [r for r in around["results"] if r["distance_m"] > 40]
    rng.shuffle(pool)
    chosen = [anchor]
    for place in pool:
        if uniquely_named(session, place):
            chosen.append(place)
            if len(chosen) == k:
                return chosen
    raise Discard("not enough uniquely named places close together")


def _all_legs(session, stops: list[dict], start: dict | None, end: dict | None, vehicle: str, mode: str) -> None:
    """The agent's reference routing calls: every leg a valid ordering can use."""
    for a, b in permutations(stops, 2):
        if (end is not None and a is end) or (start is not None and b is start):
            continue
        if start is not None and end is not None and a is start and b is end and len(stops) > 2:
            continue
        session.agent("routing", start_place_id=a["place_id"], end_place_id=b["place_id"], vehicle=vehicle, mode=mode)


def _best_unique(multi: dict, mode: str) -> dict:
    orderings = multi["orderings"]
    if len(orderings) > 1 and _metric(orderings[1], mode) - _metric(orderings[0], mode) < ORDER_MARGIN:
        raise Discard("best ordering is not clearly better than the runner-up")
    return orderings[0]


def _named_trip(session, rng) -> Draft:
    vehicle, mode = rng.choice(TRIP_VEHICLES), rng.choice(("time", "distance"))
    places = _cluster(session, rng, rng.choice((4, 5)))
    start, end, middle = places[0], places[-1], places[1:-1]
    ids = [p["place_id"] for p in places]
    multi = session.engine("multi_stop_routing", stop_ids=ids, start_id=start["place_id"], end_id=end["place_id"],
                           vehicle=vehicle, mode=mode)
    best = _best_unique(multi, mode)
    by_id = {p["place_id"]: p for p in places}
    for place in places:
        find_by_name(session, place["name"])
    _all_legs(session, places, start, end, vehicle, mode)
    waypoints = [ref(p, "User asked to visit it.", ref={"attribute_key": "", "note_id": ""}) for p in middle]
    answer = route_answer(start, end, waypoints, [by_id[i] for i in _ids(best)], vehicle, mode, best)
    session.agent("submit_answer", result=answer)
    question = pick(rng, "Starting at {s} and ending at {e}, I need to visit {w}. What's the {m} order, {v}?",
                    "I'm {vi} today: from {s} to {e}, stopping at {w}. Plan the {m} route.",
                    "Plan my errands {v}: begin at {s}, finish at {e}, and visit {w} in between. I want the {m} "
                    "itinerary.")
    return Draft(
        question=ask(rng, question, s=start["name"], e=end["name"],
                     w=join_names([p["name"] for p in middle]), mode=mode, vehicle=vehicle),
        answer=answer, constraints={"vehicle": vehicle, "mode": mode},
        uniqueness={"check": "best_order", "arguments": {"stop_ids": ids, "start_id": start["place_id"],
                                                         "end_id": end["place_id"], "vehicle": vehicle, "mode": mode},
                    "expected": _ids(best), "margin": ORDER_MARGIN},
        signature="trip:" + ":".join(sorted(ids)),
    )


def _criteria_trip(session, rng) -> Draft:
    vehicle, mode = rng.choice(TRIP_VEHICLES), rng.choice(("time", "distance"))
    seeds = [p for p in sample(session, rng, 30) if type_noun(p) and p["rating"] is not None]
    for seed in seeds:
        sub = subtype(seed)
        for min_rating in (4.6, 4.5, 4.4, 4.3, 4.2, 4.0):
            found = session.engine("place_search", query_name="", place_types=[sub], min_rating=min_rating)
            if 3 <= found["total_matched"] <= 4:
                break
        else:
            continue
        targets = found["results"]
        noun = type_noun(seed)
        start = named_places(session, rng, 1, pool=sample(session, rng, 10))[0]
        if start["place_id"] in {t["place_id"] for t in targets}:
            continue
        stops = [start, *targets]
        multi = session.engine("multi_stop_routing", stop_ids=[p["place_id"] for p in stops],
                               start_id=start["place_id"], vehicle=vehicle, mode=mode)
        best = _best_unique(multi, mode)
        if max(multi["orderings"][0]["total_distance_m"], 0) > 6000:
            continue
        by_id = {p["place_id"]: p for p in stops}
        find_by_name(session, start["name"])
        session.agent("place_search", query_name="", place_types=[sub], min_rating=min_rating)
        _all_legs(session, stops, start, None, vehicle, mode)
        order = [by_id[i] for i in _ids(best)]
        waypoints = [ref(t, f"A {noun} rated {t['rating']} (at least {min_rating}).",
                         ref={"attribute_key": "place_type,rating", "note_id": ""}) for t in targets]
        answer = route_answer(start, order[-1], waypoints, order, vehicle, mode, best,
                              {"end": "The last stop of the best order."})
        session.agent("submit_answer", result=answer)
        question = pick(rng, "Starting from {s}, I want to visit every {t} in the area rated {x} or higher. Plan the "
                             "{m} {vi} route; I can finish at any of them.",
                        "From {s}, take me to all the {ts} with a rating of at least {x}. {M} route, {v}, ending at "
                        "whichever comes last.",
                        "I'm doing a tour of the best {ts} (rating {x}+) starting at {s}. What's the {m} order "
                        "{v}?")
        return Draft(
            question=ask(rng, question, s=start["name"], t=noun,
                         ts=plural(noun), x=min_rating, mode=mode, vehicle=vehicle),
            answer=answer,
            attributes=[{"place_id": t["place_id"], "key": k} for t in targets for k in ("place_type", "rating")],
            constraints={"vehicle": vehicle, "mode": mode, "place_type": sub, "min_rating": min_rating},
            uniqueness={"check": "best_order",
                        "arguments": {"stop_ids": [p["place_id"] for p in stops], "start_id": start["place_id"],
                                      "vehicle": vehicle, "mode": mode},
                        "expected": _ids(best), "margin": ORDER_MARGIN,
                        "selection": {"tool": "place_search",
                                      "arguments": {"query_name": "", "place_types": [sub], "min_rating": min_rating},
                                      "expected": sorted(t["place_id"] for t in targets)}},
            signature=f"tour:{sub}:{min_rating}:{start['place_id']}",
        )
    raise Discard("no type with 3-4 places above a rating threshold")


@recipe("trip_design", "L1")
def trip_l1(session, rng: random.Random) -> Draft:
    return _named_trip(session, rng) if rng.random() < 0.6 else _criteria_trip(session, rng)


# ------------------------------------------------------------------ L2: scenario B

DWELL_MIN = 30
ORDER_REASONS = (
    "I have to pick up a parcel at {x} before I go to {y}",
    "I promised to meet a friend at {x} first, and only then head to {y}",
    "I need to drop my bag off at {x} before visiting {y}",
)


def _order_rule(rng, pair: list[str], by_id: dict, hidden: str) -> str:
    """The visit-order constraint in words, never naming the place the user only implies."""
    x, y = pair
    if x == hidden:
        return f"I want to do that before I go to {by_id[y]['name']}"
    if y == hidden:
        return f"I want to do that only after I've been to {by_id[x]['name']}"
    return pick(rng, *ORDER_REASONS).format(x=by_id[x]["name"], y=by_id[y]["name"])


def _fact_waypoint(session, rng, around: list[dict], exclude: set[str]) -> tuple[dict, str]:
    options = [(r, k) for r in around if r["place_id"] not in exclude and type_noun(r)
               for k in facts_of(r, "static") + facts_of(r, "long_term")
               if (i := intent_for(k)) is not None and i.polarity == "seek"]
    rng.shuffle(options)
    for place, key in options[:6]:
        holders = session.engine("place_search", query_name="", place_types=[subtype(place)], **fact_filter(key))
        if [r["place_id"] for r in holders["results"]] == [place["place_id"]] and has_fact(place, key):
            return place, key
    raise Discard("no nearby place is the only one of its type with a wanted fact")


def _constraint(rng, ranked: list[dict], middle: list[dict], hours: dict[str, str]) -> dict:
    """A constraint that rules out the unconstrained best ordering (opening hours first, else visit order)."""
    best = _ids(ranked[0])
    if any(hours.values()):
        for hour in rng.sample(range(8, 21), 13):
            start = WEEK_DAY.replace(hour=hour, minute=rng.choice((0, 15, 30, 45)))
            constraints = {"start_time": start.isoformat(timespec="minutes"), "dwell_minutes": DWELL_MIN}
            kept = orderings_satisfying(ranked, constraints, hours)
            if kept and _ids(kept[0]) != best:  # kept is in rank order: the best itself is ruled out
                return constraints
    position = {p: i for i, p in enumerate(best)}
    pairs = [(x["place_id"], y["place_id"]) for x in middle for y in middle
             if x is not y and position[x["place_id"]] > position[y["place_id"]]]
    if not pairs:
        raise Discard("no visit-order constraint conflicts with the best ordering")
    return {"before": [list(rng.choice(pairs))]}


@recipe("trip_design", "L2")
def trip_l2(session, rng: random.Random) -> Draft:
    vehicle, mode = rng.choice(TRIP_VEHICLES), rng.choice(("time", "distance"))
    cluster = _cluster(session, rng, rng.choice((3, 4)), radius=800)
    start, end, named = cluster[0], cluster[-1], cluster[1:-1]
    around = session.engine("nearby_search", center=start["place_id"], radius_meters=900)["results"]
    fact_place, key = _fact_waypoint(session, rng, around, {p["place_id"] for p in cluster})
    middle = [*named, fact_place]
    stops = [start, *middle, end]
    ids = [p["place_id"] for p in stops]
    multi = session.engine("multi_stop_routing", stop_ids=ids, start_id=start["place_id"], end_id=end["place_id"],
                           vehicle=vehicle, mode=mode, max_orderings=5040)
    ranked = with_leg_times(session.engine, multi["orderings"], vehicle, mode)
    hours = {p["place_id"]: p["opentime_week"] for p in middle + [end]
             if p["opentime_week"] and hours_are_valid(p["opentime_week"])}
    constraints = _constraint(rng, ranked, middle, hours)
    kept = orderings_satisfying(ranked, constraints, hours)
    if not kept or _ids(kept[0]) == _ids(ranked[0]):
        raise Discard("the constraint does not force a different order")
    if len(kept) > 1 and _metric(kept[1], mode) - _metric(kept[0], mode) < ORDER_MARGIN:
        raise Discard("the constrained best is not clearly better than the next valid ordering")
    chosen = kept[0]
    note_ids = supporting_notes(session, fact_place, key)
    by_id = {p["place_id"]: p for p in stops}
    for place in [start, *named, end]:
        find_by_name(session, place["name"])
    read_notes(session, fact_place, key, note_ids)
    find_by_name(session, fact_place["name"])
    timed = "start_time" in constraints
    if timed:
        for pid in sorted(hours):
            session.agent("place_detail", place_id=pid)
    _all_legs(session, stops, start, end, vehicle, mode)
    fact_ref = {"note_id": ",".join(note_ids),
                "attribute_key": ",".join(x for x in (f"tag:{label_value(key)}" if "geo_tag" in fact_filter(key)
                                                      else "", "opentime_week" if fact_place["place_id"] in hours
                                                      and timed else "") if x)}
    waypoints = [ref(p, "User asked to visit it.",
                     ref={"attribute_key": "opentime_week" if timed and p["place_id"] in hours else "",
                          "note_id": ""}) for p in named]
    waypoints.append(ref(fact_place, "Social media notes show it offers what the user implicitly wants.",
                         ref=fact_ref, implicit_logic="True"))
    answer = route_answer(start, end, waypoints, [by_id[i] for i in _ids(chosen)], vehicle, mode, chosen)
    satisfied = []
    if timed:
        satisfied.append(f"Every stop is open on arrival when leaving at {constraints['start_time'][11:]} with "
                         f"{DWELL_MIN} minutes per stop.")
    for x, y in constraints.get("before", []):
        satisfied.append(f"{by_id[x]['name']} is visited before {by_id[y]['name']}.")
    answer["constraints_satisfied"] = satisfied
    session.agent("submit_answer", result=answer)
    want = rng.choice(intent_for(key).wants)
    extra = (f" I also need to stop at {join_names([p['name'] for p in named])}." if named else "")
    if timed:
        rule = (f" It's {constraints['start_time'][11:]} on Tuesday 8 December 2026, I'll spend about {DWELL_MIN} "
                f"minutes at each stop, and every place has to be open while I'm there.")
    else:
        rule = " " + _order_rule(rng, constraints["before"][0], by_id, fact_place["place_id"]) + "."
    question = pick(rng, "I'm leaving {s} and heading to {e} {v}. On the way I want to {w}.{x}{r} Plan the {m} route.",
                    "I'm {vi} from {s} to {e}: I'd like to {w} somewhere on the way.{x}{r} What's the {m} plan?")
    return Draft(
        question=ask(rng, question, s=start["name"],
                     e=end["name"], vehicle=vehicle, w=want, x=extra, r=rule, mode=mode),
        answer=answer, note_ids=note_ids,
        attributes=([{"place_id": pid, "key": "opentime_week"} for pid in sorted(hours)] if timed else [])
        + ([{"place_id": fact_place["place_id"], "key": f"tag:{label_value(key)}"}]
           if "geo_tag" in fact_filter(key) else []),
        constraints={"vehicle": vehicle, "mode": mode, **constraints,
                     "fact": {"place_id": fact_place["place_id"], "key": key}},
        uniqueness={"check": "constrained_order",
                    "arguments": {"stop_ids": ids, "start_id": start["place_id"], "end_id": end["place_id"],
                                  "vehicle": vehicle, "mode": mode, "max_orderings": 5040},
                    "expected": _ids(chosen), "unconstrained": _ids(ranked[0]), "margin": ORDER_MARGIN,
                    "selection": {"tool": "place_search",
                                  "arguments": {"query_name": "", "place_types": [subtype(fact_place)],
                                                **fact_filter(key)},
                                  "expected": [fact_place["place_id"]]}},
        signature="tripb:" + ":".join(sorted(ids)),
    )

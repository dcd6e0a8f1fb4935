"""Routing: a route between two places, and the stop on the way that keeps the whole trip cheapest."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from benchmark.cases.audit import audit_world
from benchmark.cases.audit.common import Reject, lookalikes
from benchmark.cases.audit.evidence import check_l2
from benchmark.cases.audit.plans import detour_costs
from benchmark.cases.engine.kit.common import (
    STOP_NOUNS,
    Draft,
    accepted,
    evidence_ref,
    fact_constraint,
    find_by_name,
    has_need,
    named_places,
    need_filters,
    needs_of,
    noun_count,
    noun_types,
    nouns_fitting,
    nouns_of,
    of_noun,
    read_notes,
    ref,
    sample,
    supporting_notes,
    want_phrase,
)
from benchmark.cases.engine.kit.question_phrasing import a as with_article
from benchmark.cases.engine.kit.question_phrasing import moment_slots, travel_slots
from benchmark.cases.engine.kit.session import Discard
from benchmark.cases.lexicon import ERRANDS, errand_noun
from benchmark.cases.moments import moments_when, stable_state
from benchmark.cases.needs import need_of
from kernel.opening import hours_are_valid
from kernel.vocabulary import Category, Level

from ..wording import routing as words
from .registry import recipe

VEHICLES = ("walking", "cycling", "driving")
SLACK = 1.15  # the engine keeps more room than the verifier's margins


def endpoints(session, rng, min_m: float = 400, max_m: float = 2500) -> tuple[dict, dict, str, str, dict]:
    """Two uniquely named places, a vehicle and a mode, and the engine's route between them (up to three pairs
    from one sample are tried for a route of the wanted length)."""
    pool = sample(session, rng, 24)
    vehicle, mode = rng.choice(VEHICLES), rng.choice(("time", "distance"))
    for _ in range(3):
        a, b = named_places(session, rng, 2, pool=pool)
        route = session.engine(
            "routing", start_place_id=a["place_id"], end_place_id=b["place_id"], vehicle=vehicle, mode=mode
        )
        if min_m <= route["total_distance_m"] <= max_m:
            return a, b, vehicle, mode, route
        pool = [p for p in pool if p["place_id"] not in (a["place_id"], b["place_id"])]
    raise Discard("route length out of range")


def route_answer(start, end, waypoints, order, vehicle, mode, totals, reasons=None) -> dict:
    reasons = reasons or {}
    return {
        "start": ref(start, reasons.get("start", "User-specified origin.")),
        "end": ref(end, reasons.get("end", "User-specified destination.")),
        "waypoints": waypoints,
        "optimal_order": [
            {"name": p["name"], "place_id": p["place_id"], "visit_order": i + 1} for i, p in enumerate(order)
        ],
        "vehicle": vehicle,
        "mode": mode,
        "total_distance_m": totals["total_distance_m"],
        "total_time_s": totals["total_time_s"],
    }


def agent_legs(session, order: list[dict], vehicle: str, mode: str) -> dict:
    """The agent's routing calls along ``order``, and their summed totals (as an agent adds them up)."""
    distance = seconds = 0.0
    for x, y in zip(order, order[1:]):
        leg = session.agent(
            "routing", start_place_id=x["place_id"], end_place_id=y["place_id"], vehicle=vehicle, mode=mode
        )
        distance += leg["total_distance_m"]
        seconds += leg["total_time_s"]
    return {"total_distance_m": round(distance, 1), "total_time_s": round(seconds, 1)}


@recipe(Category.ROUTING, Level.L0)
def routing_l0(session, rng: random.Random) -> Draft:
    a, b, vehicle, mode, _ = endpoints(session, rng, 250, 2500)
    for place in (a, b):
        find_by_name(session, place["name"])
    totals = agent_legs(session, [a, b], vehicle, mode)
    answer = route_answer(a, b, [], [a, b], vehicle, mode, totals)
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(
            rng, "routing_L0", words.ROUTE, a=a["name"], b=b["name"], **travel_slots(rng, vehicle, mode)
        ),
        answer=answer,
        query={"kind": "route", "start": a["place_id"], "end": b["place_id"], "vehicle": vehicle, "mode": mode},
        constraints={"vehicle": vehicle, "mode": mode},
        signature=f"route:{a['place_id']}:{b['place_id']}:{vehicle}:{mode}",
    )


# ------------------------------------------------------------------ a stop on the way


@dataclass
class Stop:
    place: dict
    cost: float
    arrival_s: float  # seconds from the start to the stop
    open: bool | None = True  # surely open on arrival, surely closed, or unknown


def rank_stops(session, a: dict, b: dict, places: list[dict], vehicle: str, mode: str) -> list[Stop]:
    """Every candidate stop with the total cost of start -> stop -> end (engine multi_stop_routing), cheapest first."""
    stops = []
    for place in places:
        if place["place_id"] in (a["place_id"], b["place_id"]):
            continue
        multi = session.engine(
            "multi_stop_routing",
            stop_ids=[a["place_id"], place["place_id"], b["place_id"]],
            start_id=a["place_id"],
            end_id=b["place_id"],
            vehicle=vehicle,
            mode=mode,
        )
        best = multi["orderings"][0]
        first_leg = multi["best_legs"][0]
        stops.append(Stop(place, best["total_time_s" if mode == "time" else "total_distance_m"], first_leg["time_s"]))
    return sorted(stops, key=lambda s: (s.cost, s.place["place_id"]))


def clear_winner(stops: list[Stop], mode: str) -> Stop:
    """The first surely valid stop, when every stop that may be valid is clearly dearer."""
    valid = [s for s in stops if s.open is not False]
    if not valid or valid[0].open is not True:
        raise Discard("the cheapest stop that may be valid is not surely valid")
    gold = valid[0]
    if len(valid) > 1 and valid[1].cost - gold.cost < max(0.03 * gold.cost, 20 if mode == "time" else 30) * SLACK:
        raise Discard("the best two stops are too close to call")
    return gold


def with_opening(stops: list[Stop], depart: datetime) -> list[Stop]:
    for stop in stops:
        hours = stop.place["opentime_week"] or ""
        arrival = depart + timedelta(seconds=stop.arrival_s)
        stop.open = stable_state(hours, arrival) if hours_are_valid(hours) else None
    return stops


def departure_ruling_out(rng, stops: list[Stop], mode: str) -> tuple[datetime, Stop]:
    """A departure at which the cheapest stop is closed on arrival and another clearly wins."""
    first = stops[0]
    if not hours_are_valid(first.place["opentime_week"] or ""):
        raise Discard("the cheapest stop has no opening hours")
    arrivals = moments_when(first.place["opentime_week"], False, between=(8, 22))
    rng.shuffle(arrivals)
    for arrival in arrivals[:25]:
        depart = arrival - timedelta(seconds=first.arrival_s)
        depart -= timedelta(minutes=depart.minute % 5, seconds=depart.second)  # a five-minute mark
        with_opening(stops, depart)
        if stops[0].open is not False:
            continue
        try:
            return depart, clear_winner(stops, mode)
        except Discard:
            continue
    raise Discard("no departure closes the cheapest stop while another clearly wins")


def reference_detour(
    session,
    a,
    b,
    gold: Stop,
    stops: list[Stop],
    vehicle,
    mode,
    center,
    *,
    types=None,
    filters=None,
    details: bool = False,
) -> dict:
    """The agent's path: look both places up, list places along the route, route via the best few, submit."""
    for place in (a, b):
        find_by_name(session, place["name"])
    offset = gold.place["distance_m"]
    radius = min(1000, 50 * (int(offset // 50) + 2))
    session.agent(
        "nearby_search",
        center=center,
        radius_meters=radius,
        **({"place_types": types} if types else {}),
        **(filters or {}),
    )
    checked = [s for s in stops if s.open is not False][:3]
    if gold not in checked:
        checked.append(gold)
    totals = None
    for stop in checked:
        if details:
            session.agent("place_detail", place_id=stop.place["place_id"])
        legs = agent_legs(session, [a, stop.place, b], vehicle, mode)
        if stop is gold:
            totals = legs
    assert totals is not None  # the gold is among the checked stops
    return totals


@recipe(Category.ROUTING, Level.L1)
def routing_l1(session, rng: random.Random) -> Draft:
    a, b, vehicle, mode, _ = endpoints(session, rng)
    center = {"start": a["place_id"], "end": b["place_id"], "vehicle": vehicle}
    variant = session.variant(rng, "routing_L1", {"errand": 20, "plain": 20, "rated": 25, "open": 35})
    if variant == "errand":
        errand = rng.choice(sorted(ERRANDS))
        noun = errand_noun(errand)
        found = session.engine("nearby_search", center=center, radius_meters=500, place_types=noun_types(noun))
        places = of_noun(noun, found["results"])[:10]
        if len(places) < 2:
            raise Discard("too few places for the errand along the route")
        return _detour_case(session, rng, a, b, vehicle, mode, center, noun, places, "errand", errand=errand)
    along = session.engine("nearby_search", center=center, radius_meters=250)["results"]
    nouns = sorted(
        {n.key: n for place in along for n in nouns_of(place) if n.key in STOP_NOUNS}.values(), key=lambda n: n.key
    )
    rng.shuffle(nouns)
    reason = Discard("no noun with two to twelve places along the route")
    for noun in [n for n in nouns if noun_count(session, n) <= 40][:6]:  # a common noun ties on every route
        found = session.engine("nearby_search", center=center, radius_meters=400, place_types=noun_types(noun))
        places = of_noun(noun, found["results"])[:12]
        if 2 <= len(places) <= 12:
            try:
                with session.trying():
                    return _detour_case(session, rng, a, b, vehicle, mode, center, noun, places, variant)
            except Discard as exc:
                reason = exc
    raise reason


def _detour_case(
    session, rng, a, b, vehicle, mode, center, noun, places, variant: str, errand: str | None = None
) -> Draft:
    stops = rank_stops(session, a, b, places, vehicle, mode)
    query: dict[str, Any]
    constraints: dict[str, Any]
    slots: dict[str, Any]
    skeletons: tuple[str, ...]
    query, constraints, filters, slots, keys = {}, {}, {}, {}, ["place_type"]
    bank, skeletons = "routing_L1.plain", words.DETOUR
    if variant == "errand":
        bank, skeletons, slots = "routing_L1.errand", words.DETOUR_ERRAND, {"errand": errand}
    if variant == "rated":
        threshold = _threshold(stops)
        stops = [s for s in stops if (s.place["rating"] or 0) >= threshold]
        query["min_rating"] = filters["min_rating"] = threshold
        constraints["min_rating"] = threshold
        slots, keys = {"x": f"{threshold:g}"}, keys + ["rating"]
        bank, skeletons = "routing_L1.rated", words.DETOUR_RATED
    if variant == "open":
        depart, gold = departure_ruling_out(rng, stops, mode)
        iso = depart.isoformat(timespec="minutes")
        query["depart"] = iso
        constraints.update(start_time=iso, dwell_minutes=0, open_check="stops")
        slots, keys = moment_slots(depart), keys + ["opentime_week"]
        bank, skeletons = "routing_L1.open", words.DETOUR_OPEN
    else:
        gold = clear_winner(stops, mode)
    if not accepted(noun, gold.place):
        raise Discard("the best stop is only arguably of the noun")
    if variant == "rated" and gold is min(stops, key=lambda s: s.place["distance_m"]):
        raise Discard("the well-rated stop nearest the route is the best one: no choice to make")
    totals = reference_detour(
        session,
        a,
        b,
        gold,
        stops,
        vehicle,
        mode,
        center,
        types=noun.types(),
        filters=filters,
        details=variant == "open",
    )
    waypoint = ref(
        gold.place,
        f"The {noun.singular} that keeps the whole trip {mode}-cheapest.",
        ref={"attribute_key": ",".join(keys), "note_id": ""},
    )
    answer = route_answer(a, b, [waypoint], [a, gold.place, b], vehicle, mode, totals)
    session.agent("submit_answer", result=answer)
    stop_query = {
        "noun": noun.key,
        **({"errand": errand} if errand else {}),
        **({"min_rating": query["min_rating"]} if "min_rating" in query else {}),
    }
    return Draft(
        question=session.say(
            rng,
            bank,
            skeletons,
            a=a["name"],
            b=b["name"],
            noun=noun.singular,
            a_noun=with_article(noun.singular),
            **slots,
            **travel_slots(rng, vehicle, mode),
        ),
        answer=answer,
        query={
            "kind": "detour",
            "start": a["place_id"],
            "end": b["place_id"],
            "vehicle": vehicle,
            "mode": mode,
            "stop": stop_query,
            **({"depart": query["depart"]} if "depart" in query else {}),
        },
        constraints={"vehicle": vehicle, "mode": mode, **noun.constraint(), **constraints},
        attributes=[{"place_id": gold.place["place_id"], "key": k} for k in keys],
        signature=f"via:{a['place_id']}:{b['place_id']}:{noun.key}:{variant}",
        notes={"runner_up": [s.place["place_id"] for s in stops[1:3]]},
    )


def _threshold(stops: list[Stop]) -> float:
    """A minimum rating the cheapest stop fails and a later one meets."""
    first = stops[0].place["rating"] or 0
    for stop in stops[1:]:
        rating = stop.place["rating"]
        if rating is not None and rating >= first + 0.1:
            return rating
    raise Discard("no rating threshold rules out the cheapest stop")


# ------------------------------------------------------------------ L2: a stop for an implied need


@recipe(Category.ROUTING, Level.L2)
def routing_l2(session, rng: random.Random) -> Draft:
    a, b, vehicle, mode, _ = endpoints(session, rng)
    center = {"start": a["place_id"], "end": b["place_id"], "vehicle": vehicle}
    timed = session.variant(rng, "routing_L2", {"timed": 30, "untimed": 70}) == "timed"
    along = session.engine("nearby_search", center=center, radius_meters=300)["results"]
    # One holder of each need along the route, the needs in random order: a need many places hold (and
    # that rarely has a clear best stop) does not crowd out the others.
    by_need: dict[str, list[dict]] = {}
    for p in along:
        for k in needs_of(p, session.bank, trips=True, vehicle=vehicle):
            by_need.setdefault(k, []).append(p)
    keys = sorted(by_need)
    rng.shuffle(keys)
    for key in keys:
        seed = rng.choice(by_need[key])
        nouns = nouns_fitting(seed, key)
        noun = None if timed or not nouns or rng.random() < 0.4 else rng.choice(nouns)
        holders = _holders_along(session, center, noun, key)
        if len(holders) < 1:
            continue
        try:
            with session.trying():
                return _need_case(session, rng, a, b, vehicle, mode, center, noun, key, holders, timed)
        except Discard:
            continue
    raise Discard("no need along the route gives a clear best stop")


def _notes_blind_problem(session, a, b, vehicle, mode, noun, key: str, gold: str, depart) -> str | None:
    """Why the verifier's L2 checks (:func:`..audit.evidence.check_l2`) would refuse the gold among its
    look-alikes (places of the noun where the need fits and does not hold, ranked by the verifier's detour cost,
    :func:`..audit.plans.detour_costs`), or why the cell's rank quota would refuse its rank; None when neither.
    Refused here, the attempt goes on to its next need instead of ending at the verifier or the runner."""
    world = audit_world(session.context.city_name)
    memo_key = ("route lookalikes", noun.key if noun else None, key)
    if memo_key not in session.memo:
        session.memo[memo_key] = lookalikes(world, noun.key if noun else None, key)
    ends = (a["place_id"], b["place_id"])
    if any(p in world.holders(need_of(key).satisfied_by) for p in ends):
        return "a named end holds the need"
    pool = [p for p in session.memo[memo_key] if p not in ends and p != gold]
    costs = detour_costs(world, a["place_id"], b["place_id"], vehicle, mode, [gold, *pool], depart)
    if gold not in costs:
        return None  # the verifier will say why
    rivals = [p for p in costs if p != gold]
    try:  # the verifier's own L2 checks, early: a notes-blind gold, decoys, the keyword count
        check_l2(world, gold=gold, need=key, lookalikes=rivals, measure=costs, measure_name="cost", at=depart)
    except Reject as exc:
        return f"the verifier would refuse the gold ({exc.kind})"
    rank = 1 + sum(1 for p in rivals if costs[p] < costs[gold])
    quota = session.rank_quota
    if quota is not None and not quota.allows("measure", rank, places=len(costs)):
        return "the gold's rank by detour among its look-alikes is already common in the cell"
    return None


def _holders_along(session, center, noun, key: str) -> list[dict]:
    found = {}
    types = {"place_types": noun_types(noun)} if noun else {}
    for filters in need_filters(key):
        for record in session.engine("nearby_search", center=center, radius_meters=700, **types, **filters)["results"]:
            if (noun is None or noun.match(record)) and has_need(record, key):
                found[record["place_id"]] = record
    return sorted(found.values(), key=lambda r: r["distance_m"])[:10]


def _need_case(session, rng, a, b, vehicle, mode, center, noun, key, holders, timed) -> Draft:
    stops = rank_stops(session, a, b, holders, vehicle, mode)
    if timed:
        depart, gold = departure_ruling_out(rng, stops, mode)
    else:
        depart, gold = None, clear_winner(stops, mode)
    if noun is not None and not accepted(noun, gold.place):
        raise Discard("the best stop is only arguably of the noun")
    if not need_of(key).fits(gold.place):
        raise Discard("the need does not fit the best stop")
    if gold.place["distance_m"] > 300:
        raise Discard("the best stop is too far off the route to be on the way")
    problem = _notes_blind_problem(session, a, b, vehicle, mode, noun, key, gold.place["place_id"], depart)
    if problem:
        raise Discard(problem)
    # The need must change the answer: the place nearest the route (of the noun, if one is named) is not it.
    types = {"place_types": noun_types(noun)} if noun else {}
    closest = session.engine("nearby_search", center=center, radius_meters=300, **types)["results"]
    closest = [r for r in closest if noun is None or noun.match(r)]
    if not closest or closest[0]["place_id"] == gold.place["place_id"]:
        raise Discard("the stop nearest the route meets the need anyway: the need does not matter")
    want = want_phrase(session, rng, key, gold.place, timed=timed)
    note_ids = supporting_notes(session, gold.place, key)
    totals = reference_detour(
        session, a, b, gold, stops, vehicle, mode, center, types=noun.types() if noun else None, details=timed
    )
    read_notes(session, gold.place, key, note_ids)
    extra = ("opentime_week",) if timed else ()
    waypoint = ref(
        gold.place,
        "Social media notes show it offers what the user implicitly wants; it keeps the whole trip cheapest.",
        ref=evidence_ref(note_ids, extra),
        implicit_logic="True",
    )
    answer = route_answer(a, b, [waypoint], [a, gold.place, b], vehicle, mode, totals)
    session.agent("submit_answer", result=answer)
    constraints = {"vehicle": vehicle, "mode": mode, "fact": fact_constraint(gold.place, key)}
    if noun is not None:
        constraints.update(noun.constraint())
    query = {
        "kind": "detour",
        "start": a["place_id"],
        "end": b["place_id"],
        "vehicle": vehicle,
        "mode": mode,
        "stop": {"noun": noun.key if noun else None, "need": key, "phrase": want},
    }
    skeletons: tuple[str, ...]
    if depart is not None:  # timed
        bank, skeletons, slots = "routing_L2.open", words.NEED_OPEN, moment_slots(depart)
        iso = depart.isoformat(timespec="minutes")
        query["depart"] = iso
        constraints.update(start_time=iso, dwell_minutes=0, open_check="stops")
    elif noun is not None:
        bank, skeletons = "routing_L2.noun", words.NEED_NOUN
        slots = {"noun": noun.singular, "a_noun": with_article(noun.singular)}
    else:
        bank, skeletons, slots = "routing_L2.any", words.NEED_ANY, {}
    return Draft(
        question=session.say(
            rng, bank, skeletons, a=a["name"], b=b["name"], want=want, **slots, **travel_slots(rng, vehicle, mode)
        ),
        answer=answer,
        query=query,
        note_ids=note_ids,
        constraints=constraints,
        attributes=[{"place_id": gold.place["place_id"], "key": k} for k in extra],
        signature=f"vianeed:{a['place_id']}:{b['place_id']}:{key}",
        notes={"runner_up": [s.place["place_id"] for s in stops[1:3]]},
    )

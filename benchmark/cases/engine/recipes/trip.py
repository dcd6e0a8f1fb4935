"""Trip Design L1: the best order of several stops (figure 10's scenarios A and B), with stated rules."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import permutations
from typing import Any

from benchmark.cases.engine.kit.common import (
    TOUR_NOUNS,
    Draft,
    accepted,
    find_by_name,
    named_places,
    noun_types,
    of_noun,
    pick_noun,
    ref,
    sample,
    visitable,
)
from benchmark.cases.engine.kit.question_phrasing import join_names, moment_slots, split_choice, travel_slots
from benchmark.cases.engine.kit.session import Discard
from benchmark.cases.moments import day_place, moments_when, openings, stable_state
from kernel.opening import hours_are_valid
from kernel.vocabulary import Category, Level

from ..wording import trip as words
from .registry import recipe
from .routing import route_answer

TRIP_VEHICLES = ("walking", "walking", "cycling", "driving")
SLACK = 1.3
DWELLS = (20, 30, 45)


def order_margin(cost: float, mode: str) -> float:
    return max(0.02 * cost, 15 if mode == "time" else 20) * SLACK


class LegBook:
    """Engine routing legs, each asked once: (distance_m, time_s) as the routing tool rounds them."""

    def __init__(self, session, vehicle: str, mode: str):
        self.session, self.vehicle, self.mode = session, vehicle, mode
        self.legs: dict[tuple[str, str], tuple[float, float]] = {}

    def fill(self, place_ids: list[str]) -> None:
        """Every leg among up to seven places, from one engine multi_stop_routing call."""
        missing = [(a, b) for a in place_ids for b in place_ids if a != b and (a, b) not in self.legs]
        if not missing:
            return
        multi = self.session.engine(
            "multi_stop_routing", stop_ids=place_ids, vehicle=self.vehicle, mode=self.mode, max_orderings=1
        )
        for leg in multi["legs"]:
            self.legs[leg["from"], leg["to"]] = (leg["distance_m"], leg["time_s"])

    def get(self, a: str, b: str) -> tuple[float, float]:
        if (a, b) not in self.legs:
            self.legs[a, b] = engine_leg(self.session, a, b, self.vehicle, self.mode)
        return self.legs[a, b]


def engine_leg(session, a: str, b: str, vehicle: str, mode: str) -> tuple[float, float]:
    """(distance_m, time_s) of the route a -> b, from the engine's multi_stop_routing (totals without geometry)."""
    multi = session.engine("multi_stop_routing", stop_ids=[a, b], start_id=a, end_id=b, vehicle=vehicle, mode=mode)
    best = multi["orderings"][0]
    return best["total_distance_m"], best["total_time_s"]


@dataclass
class Plan:
    order: list[dict]
    cost: float
    leg_times: list[float]
    valid: bool | None = True  # under the stated rule: surely met, surely broken, or unsure
    holder: dict | None = None
    notes: dict = field(default_factory=dict)

    @property
    def ids(self) -> list[str]:
        return [p["place_id"] for p in self.order]


def plans_for(book: LegBook, start: dict, middle: list[dict], end: dict | None, holder: dict | None = None):
    book.fill([p["place_id"] for p in [start, *middle, *([end] if end else [])]])
    out = []
    for perm in permutations(middle):
        order = [start, *perm, *([end] if end else [])]
        legs = [book.get(x["place_id"], y["place_id"]) for x, y in zip(order, order[1:])]
        distance, seconds = round(sum(d for d, _ in legs), 1), round(sum(t for _, t in legs), 1)
        out.append(Plan(order, seconds if book.mode == "time" else distance, [t for _, t in legs], holder=holder))
    return sorted(out, key=lambda p: (p.cost, p.ids))


def judge_order(plans: list[Plan], rule: tuple[str, str]) -> None:
    for plan in plans:
        ids = plan.ids
        plan.valid = not (rule[0] in ids and rule[1] in ids and ids.index(rule[0]) > ids.index(rule[1]))


def judge_timed(plans: list[Plan], depart: datetime, dwell_min: int) -> None:
    """Every stop after the start open on arrival and (before the last) until leaving."""
    for plan in plans:
        now = depart
        states: list[bool | None] = []
        for index, (place, seconds) in enumerate(zip(plan.order[1:], plan.leg_times), start=1):
            now += timedelta(seconds=seconds) + (timedelta(minutes=dwell_min) if index > 1 else timedelta())
            hours = place["opentime_week"] or ""
            if not hours_are_valid(hours):
                states.append(None)
                continue
            states.append(stable_state(hours, now))
            if index < len(plan.order) - 1:
                states.append(stable_state(hours, now + timedelta(minutes=dwell_min - 1)))
        plan.valid = False if False in states else None if None in states else True


def binding_gold(plans: list[Plan], mode: str, *, rule: bool) -> Plan:
    """The cheapest plan that surely meets the rule, clearly ahead of every plan that may meet it; with a
    rule, the plan that ignores it must be clearly cheaper (the rule binds)."""
    ranked = sorted(plans, key=lambda p: (p.cost, p.ids))
    possible = [p for p in ranked if p.valid is not False]
    if not possible:
        raise Discard("no plan meets the rule")
    if possible[0].valid is not True:
        raise Discard("the cheapest plan that may meet the rule is not surely valid")
    gold = possible[0]
    margin = order_margin(gold.cost, mode)
    if len(possible) > 1 and possible[1].cost - gold.cost < margin:
        raise Discard("the best ordering is not clearly better than the next valid one")
    if rule and (ranked[0] is gold or gold.cost - ranked[0].cost < margin):
        raise Discard("the rule does not bind by the margin")
    return gold


def cluster(session, rng, k: int, radius: float = 700, *, hours: bool = False) -> list[dict]:
    """``k`` uniquely named places around a sampled anchor (the anchor first); with ``hours``, every place
    but the anchor has opening hours (a timed trip checks them)."""
    (anchor,) = named_places(session, rng, 1, pool=[p for p in sample(session, rng, 15) if visitable(p)])
    found: dict[str, dict] = {}
    for tops in (["Food & Beverages"], ["Shopping"], ["Culture", "Scenery Spot", "Entertainment", "Accommodation"]):
        around = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=tops)
        found.update(
            {
                r["place_id"]: r
                for r in around["results"]
                if r["distance_m"] > 60
                and visitable(r)
                and (not hours or (hours_are_valid(r["opentime_week"] or "") and day_place(r["opentime_week"])))
            }
        )
    pool = sorted(found.values(), key=lambda r: r["place_id"])
    rng.shuffle(pool)
    return [anchor, *named_places(session, rng, k - 1, pool=pool)]


def all_legs(session, places: list[dict], start: dict, end: dict | None, vehicle: str, mode: str) -> dict:
    """The agent's reference routing calls: every leg a valid ordering can use; returns their totals."""
    legs = {}
    for x, y in permutations(places, 2):
        if (end is not None and x is end) or y is start or (x is start and y is end and len(places) > 2):
            continue
        leg = session.agent(
            "routing", start_place_id=x["place_id"], end_place_id=y["place_id"], vehicle=vehicle, mode=mode
        )
        legs[x["place_id"], y["place_id"]] = (leg["total_distance_m"], leg["total_time_s"])
    return legs


def totals_along(legs: dict, ids: list[str]) -> dict:
    pieces = [legs[x, y] for x, y in zip(ids, ids[1:])]
    return {
        "total_distance_m": round(sum(d for d, _ in pieces), 1),
        "total_time_s": round(sum(t for _, t in pieces), 1),
    }


def rule_words(rng, x: dict, y: dict, bank: str) -> str:
    return split_choice(rng, words.ORDER_RULES, bank).format(x=x["name"], y=y["name"], X=x["name"])


def _named_trip(session, rng) -> Draft:
    vehicle, mode = rng.choice(TRIP_VEHICLES), rng.choice(("time", "distance"))
    variant = session.variant(rng, "trip_L1.named", {"plain": 40, "order": 30, "timed": 30})
    places = cluster(session, rng, 5, hours=variant == "timed")
    start, end, middle = places[0], places[-1], places[1:-1]
    book = LegBook(session, vehicle, mode)
    plans = plans_for(book, start, middle, end)
    query: dict[str, Any]
    constraints: dict[str, Any]
    slots: dict[str, Any]
    query, constraints, rule, slots = {}, {}, "", {}
    if variant == "order":
        best = plans[0].ids
        pairs = [(x, y) for x in middle for y in middle if best.index(x["place_id"]) > best.index(y["place_id"])]
        x, y = rng.choice(pairs)
        judge_order(plans, (x["place_id"], y["place_id"]))
        query["before"] = constraints["before"] = [[x["place_id"], y["place_id"]]]
        rule = rule_words(rng, x, y, session.bank)
    elif variant == "timed":
        if not all(hours_are_valid(p["opentime_week"] or "") for p in places[1:]):
            raise Discard("a stop has no opening hours to plan a timed trip with")
        dwell = rng.choice(DWELLS)
        depart = ruling_departure(rng, plans, dwell, mode)
        iso = depart.isoformat(timespec="minutes")
        query.update(depart=iso, dwell_min=dwell)
        constraints.update(start_time=iso, dwell_minutes=dwell)
        slots = {"dwell": dwell, **moment_slots(depart)}
    gold = binding_gold(plans, mode, rule=variant != "plain")
    mentioned = list(middle)
    rng.shuffle(mentioned)
    if [p["place_id"] for p in mentioned] == gold.ids[1:-1]:
        mentioned = mentioned[1:] + mentioned[:1]  # a question that lists the stops in the best order gives it away
    for place in [start, *mentioned, end]:
        find_by_name(session, place["name"])
    if variant == "timed":
        for place in places[1:]:
            session.agent("place_detail", place_id=place["place_id"])
    legs = all_legs(session, places, start, end, vehicle, mode)
    waypoints = [
        ref(
            p,
            "User asked to visit it.",
            ref={"attribute_key": "opentime_week" if variant == "timed" else "", "note_id": ""},
        )
        for p in mentioned
    ]
    answer = route_answer(start, end, waypoints, gold.order, vehicle, mode, totals_along(legs, gold.ids))
    answer["constraints_satisfied"] = _satisfied(variant, query, {p["place_id"]: p for p in places})
    session.agent("submit_answer", result=answer)
    bank, skeletons = {
        "plain": ("trip_L1.named", words.NAMED),
        "order": ("trip_L1.rule", words.NAMED_RULE),
        "timed": ("trip_L1.timed", words.NAMED_TIMED),
    }[variant]
    return Draft(
        question=session.say(
            rng,
            bank,
            skeletons,
            s=start["name"],
            e=end["name"],
            w=join_names([p["name"] for p in mentioned]),
            Rule=rule,
            **slots,
            **travel_slots(rng, vehicle, mode),
        ),
        answer=answer,
        query={
            "kind": "trip",
            "start": start["place_id"],
            "end": end["place_id"],
            "stops": [p["place_id"] for p in mentioned],
            "vehicle": vehicle,
            "mode": mode,
            **query,
        },
        constraints={"vehicle": vehicle, "mode": mode, **constraints},
        attributes=[{"place_id": p["place_id"], "key": "opentime_week"} for p in places[1:]]
        if variant == "timed"
        else [],
        signature="trip:" + ":".join(sorted(p["place_id"] for p in places)),
        notes={"unconstrained_best": plans[0].ids} if variant != "plain" else {},
    )


def ruling_departure(rng, plans: list[Plan], dwell: int, mode: str) -> datetime:
    """A departure at which the cheapest plan finds a stop closed and another plan clearly wins.

    Departures are aimed at the cheapest plan: it reaches one of its stops while that stop is closed."""
    free = min(plans, key=lambda p: (p.cost, p.ids))
    offsets, now = [], 0.0
    for index, (place, seconds) in enumerate(zip(free.order[1:], free.leg_times), start=1):
        now += seconds + (dwell * 60 if index > 1 else 0)
        if hours_are_valid(place["opentime_week"] or ""):
            offsets.append((place, now))
    # Aim the cheapest plan at a stop shortly before it opens (the paper's "visit it last, after it opens")
    # or after it has closed; other orderings may then reach it in time.
    aims = [
        (opening - timedelta(minutes=rng.choice((20, 30, 40))), offset)
        for place, offset in offsets
        for opening in openings(place["opentime_week"])
        if 8 <= opening.hour <= 21
    ]
    aims += [
        (arrival, offset)
        for place, offset in offsets
        for arrival in moments_when(place["opentime_week"], False, between=(8, 22))
        if rng.random() < 0.1
    ]
    rng.shuffle(aims)
    for arrival, offset in aims[:40]:
        depart = arrival - timedelta(seconds=offset)
        depart -= timedelta(minutes=depart.minute % 5, seconds=depart.second)
        if not 7 <= depart.hour <= 20:
            continue
        judge_timed(plans, depart, dwell)
        try:
            binding_gold(plans, mode, rule=True)
            return depart
        except Discard:
            continue
    raise Discard("no departure time makes the opening hours change the best plan")


def _satisfied(variant: str, query: dict, by_id: dict) -> list[str]:
    if variant == "order":
        x, y = query["before"][0]
        return [f"{by_id[x]['name']} is visited before {by_id[y]['name']}."]
    if variant == "timed":
        return [
            f"Every stop is open on arrival when leaving at {query['depart'][11:]} with {query['dwell_min']} "
            "minutes per stop."
        ]
    return []


def _tour(session, rng) -> Draft:
    vehicle, mode = rng.choice(TRIP_VEHICLES), rng.choice(("time", "distance"))
    (start,) = named_places(session, rng, 1, pool=sample(session, rng, 10))
    radius = rng.choice((400, 500, 700, 1000))
    around = session.engine("nearby_search", center=start["place_id"], radius_meters=radius)["results"]
    rng.shuffle(around)
    for seed in around[:8]:
        noun = pick_noun(rng, seed, allowed=tuple(TOUR_NOUNS))
        if noun is None:
            continue
        found = session.engine(
            "nearby_search", center=start["place_id"], radius_meters=radius * 1.1, place_types=noun_types(noun)
        )["results"]
        places = of_noun(noun, found)
        if any(abs(p["distance_m"] - radius) <= max(5, 0.02 * radius) * 1.5 for p in places):
            continue
        inside = [p for p in places if p["distance_m"] < radius]
        for threshold in sorted({p["rating"] for p in inside if p["rating"] is not None}, reverse=True):
            chosen = [p for p in inside if (p["rating"] or 0) >= threshold]
            if len(chosen) > 4:
                break
            if len(chosen) >= 3 and all(accepted(noun, p) for p in chosen):
                return _tour_case(session, rng, start, noun, radius, threshold, chosen, vehicle, mode)
    raise Discard("no noun with three or four well-rated places around the start")


def _tour_case(session, rng, start, noun, radius, threshold, chosen, vehicle, mode) -> Draft:
    book = LegBook(session, vehicle, mode)
    plans = plans_for(book, start, chosen, None)
    gold = binding_gold(plans, mode, rule=False)
    if gold.ids[1:] == [p["place_id"] for p in sorted(chosen, key=lambda p: p["distance_m"])]:
        raise Discard("visiting the places nearest-first is already the best order: nothing to plan")
    find_by_name(session, start["name"])
    session.agent(
        "nearby_search", center=start["place_id"], radius_meters=radius, place_types=noun.types(), min_rating=threshold
    )
    legs = all_legs(session, [start, *chosen], start, None, vehicle, mode)
    waypoints = [
        ref(
            p,
            f"{noun.article().capitalize()} within {radius} m rated {p['rating']} (at least {threshold:g}).",
            ref={"attribute_key": "place_type,rating", "note_id": ""},
        )
        for p in chosen
    ]
    answer = route_answer(
        start,
        gold.order[-1],
        waypoints,
        gold.order,
        vehicle,
        mode,
        totals_along(legs, gold.ids),
        {"end": "The last stop of the best order."},
    )
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(
            rng,
            "trip_L1.tour",
            words.TOUR,
            s=start["name"],
            noun=noun.singular,
            nouns=noun.plural,
            R=radius,
            x=f"{threshold:g}",
            **travel_slots(rng, vehicle, mode),
        ),
        answer=answer,
        query={
            "kind": "trip",
            "start": start["place_id"],
            "end": None,
            "stops": [],
            "vehicle": vehicle,
            "mode": mode,
            "selection": {"noun": noun.key, "min_rating": threshold, "center": start["place_id"], "radius_m": radius},
        },
        constraints={
            "vehicle": vehicle,
            "mode": mode,
            **noun.constraint(),
            "min_rating": threshold,
            "center": start["place_id"],
            "radius_m": radius,
        },
        attributes=[{"place_id": p["place_id"], "key": k} for p in chosen for k in ("place_type", "rating")],
        signature=f"tour:{noun.key}:{threshold}:{start['place_id']}",
    )


@recipe(Category.TRIP_DESIGN, Level.L1)
def trip_l1(session, rng: random.Random) -> Draft:
    variant = session.variant(rng, "trip_L1", {"named": 70, "tour": 30})
    return _named_trip(session, rng) if variant == "named" else _tour(session, rng)

"""Place Perception L0 and L1: one value of a named place; comparisons and checks that need several lookups."""
from __future__ import annotations

import random
import re
from datetime import timedelta

from benchmark.cases.lexicon import nouns_for
from environment.opening import hours_are_valid, is_open_at

from ..common import Draft, accepted, find_by_name, named_places, noun_types, pick_noun, sample, uniquely_named
from ..moments import WEEK_START, moment, stable_state
from ..phrasing import join_names, moment_slots, travel_slots
from ..session import Discard
from ..wording import place as words
from . import recipe

FIELDS = (("opentime_week", 3), ("address", 3), ("rating", 2), ("cost", 2), ("place_type", 2), ("cuisine", 2))
_STREET_AND_NUMBER = re.compile(r"[^\W\d_]{3,}\.?\s+\d+", re.UNICODE)
PEOPLE = {2: "two", 3: "three", 4: "four"}


def informative_value(place: dict, field: str):
    """The place's value for ``field`` when it tells the user something, else None."""
    if field == "cuisine":
        part = next((p for p in place["tag"].split("; ") if p.startswith("Cuisine: ")), "")
        return part.split(": ", 1)[1] if part else None
    value = place.get(field)
    if value in (None, ""):
        return None
    if field == "address" and not _STREET_AND_NUMBER.search(value):
        return None
    if field == "place_type" and value.split("|", 1)[-1].startswith("Other"):
        return None
    if field == "opentime_week" and not hours_are_valid(value):
        return None
    return value


@recipe("place_perception", "L0")
def place_l0(session, rng: random.Random) -> Draft:
    field = rng.choices([f for f, _ in FIELDS], weights=[w for _, w in FIELDS])[0]
    for place in sample(session, rng, 25):
        value = informative_value(place, field)
        if value is None or not uniquely_named(session, place):
            continue
        find_by_name(session, place["name"])
        detail = session.agent("place_detail", place_id=place["place_id"])
        value = informative_value(detail, field)
        key = "tag:Cuisine" if field == "cuisine" else field
        answer = {"answer": value, "name": place["name"], "place_id": place["place_id"],
                  "reason": f"Direct retrieval of {key} from the place record.",
                  "ref": {"attribute_key": key, "note_id": ""}}
        session.agent("submit_answer", result=answer)
        return Draft(
            question=session.say(rng, f"place_L0.{field}", words.L0[field], n=place["name"]), answer=answer,
            query={"kind": "attribute", "place": place["place_id"], "field": field},
            attributes=[{"place_id": place["place_id"], "key": key}], signature=f"{place['place_id']}:{field}",
        )
    raise Discard(f"no uniquely named place with an informative {field} in the sample")


# ------------------------------------------------------------------ L1

def _noun_pool(session, rng, *, need=lambda r: True, size: int = 3) -> tuple:
    """A noun and ``size`` uniquely named places it accepts (from a sampled seed place)."""
    for seed in sample(session, rng, 20):
        noun = pick_noun(rng, seed)
        if noun is None:
            continue
        found = session.engine("place_search", query_name="", place_types=noun_types(noun))["results"]
        pool = [r for r in found if accepted(noun, r) and need(r)]
        rng.shuffle(pool)
        chosen = [r for r in pool if uniquely_named(session, r)][:size]
        if len(chosen) == size:
            return noun, chosen
    raise Discard("no noun with enough uniquely named places")


def _compare(session, rng) -> Draft:
    field = rng.choice(("rating", "cost"))
    noun, places = _noun_pool(session, rng, need=lambda r: r[field] is not None)
    ranked = sorted(places, key=lambda p: -p[field] if field == "rating" else p[field])
    gap = abs(ranked[0][field] - ranked[1][field])
    if gap < (0.2 if field == "rating" else 3) - 1e-9:
        raise Discard(f"{field} too close to compare")
    for place in places:
        find_by_name(session, place["name"])
    best = ranked[0]
    unit = "" if field == "rating" else " EUR per person"
    answer = {"answer": best["name"], "name": best["name"], "place_id": best["place_id"],
              "reason": "; ".join(f"{p['name']}: {p[field]}{unit}" for p in places),
              "ref": {"attribute_key": field, "note_id": ""}}
    session.agent("submit_answer", result=answer)
    names = [p["name"] for p in places]
    return Draft(
        question=session.say(rng, f"place_L1.compare.{field}", words.COMPARE[field], nouns=noun.plural,
                             options=join_names(names, "or"), all=join_names(names)),
        answer=answer, query={"kind": "compare", "places": [p["place_id"] for p in places], "field": field},
        attributes=[{"place_id": p["place_id"], "key": field} for p in places],
        signature="compare:" + field + ":" + ":".join(sorted(p["place_id"] for p in places)),
    )


def _open_arrival(session, rng) -> Draft:
    places = [p for p in sample(session, rng, 40) if hours_are_valid(p["opentime_week"] or "")]
    (dest,) = named_places(session, rng, 1, pool=places)
    around = session.engine("nearby_search", center=dest["place_id"], radius_meters=2000)["results"]
    origins = [r for r in around if r["distance_m"] >= 350]
    rng.shuffle(origins)
    (origin,) = named_places(session, rng, 1, pool=origins[:8])
    vehicle = rng.choices(("walking", "cycling", "driving"), weights=(6, 3, 2))[0]
    route = session.engine("routing", start_place_id=origin["place_id"], end_place_id=dest["place_id"],
                           vehicle=vehicle, mode="time")
    seconds = route["total_time_s"]
    if seconds < 240:
        raise Discard("the trip is too short for the travel time to matter")
    want_open, want_change = rng.random() < 0.5, rng.random() < 0.6
    options = []
    for day in range(7):
        for minutes in range(7 * 60, 23 * 60, 5):
            depart = WEEK_START + timedelta(days=day, minutes=minutes)
            state = stable_state(dest["opentime_week"], depart + timedelta(seconds=seconds))
            before = is_open_at(dest["opentime_week"], depart)
            if state is want_open and before is not None and (before != state) == want_change:
                options.append(depart)
    if not options:
        raise Discard("no departure gives the wanted opening state on arrival")
    depart = rng.choice(options)
    arrival = depart + timedelta(seconds=seconds)
    find_by_name(session, origin["name"])
    find_by_name(session, dest["name"])
    session.agent("routing", start_place_id=origin["place_id"], end_place_id=dest["place_id"], vehicle=vehicle,
                  mode="time")
    session.agent("place_detail", place_id=dest["place_id"])
    answer = {"answer": want_open, "name": dest["name"], "place_id": dest["place_id"],
              "reason": f"The {vehicle} route takes {seconds / 60:.0f} min, so arrival is at {arrival:%H:%M}; the "
                        f"hours {dest['opentime_week']!r} say it is {'open' if want_open else 'closed'} then.",
              "ref": {"attribute_key": "opentime_week", "note_id": ""}}
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(rng, "place_L1.open_arrival", words.OPEN_ARRIVAL, o=origin["name"], d=dest["name"],
                             **moment_slots(depart), **travel_slots(rng, vehicle)),
        answer=answer,
        query={"kind": "open_on_arrival", "origin": origin["place_id"], "place": dest["place_id"],
               "vehicle": vehicle, "depart": depart.isoformat(timespec="minutes")},
        attributes=[{"place_id": dest["place_id"], "key": "opentime_week"}],
        signature=f"arrive:{origin['place_id']}:{dest['place_id']}",
    )


def _open_choice(session, rng) -> Draft:
    noun, places = _noun_pool(session, rng, need=lambda r: hours_are_valid(r.get("opentime_week") or ""), size=3)
    picks = []
    for _ in range(60):
        when = moment(rng, hours=(7, 23))
        states = [stable_state(p["opentime_week"], when) for p in places]
        if states.count(True) == 1 and states.count(False) == len(places) - 1:
            picks.append((when, places[states.index(True)]))
            break
    if not picks:
        raise Discard("no moment when exactly one of the places is open")
    when, winner = picks[0]
    for place in places:
        find_by_name(session, place["name"])
        session.agent("place_detail", place_id=place["place_id"])
    answer = {"answer": winner["name"], "name": winner["name"], "place_id": winner["place_id"],
              "reason": "; ".join(f"{p['name']}: {p['opentime_week']}" for p in places),
              "ref": {"attribute_key": "opentime_week", "note_id": ""}}
    session.agent("submit_answer", result=answer)
    names = [p["name"] for p in places]
    return Draft(
        question=session.say(rng, "place_L1.open_choice", words.OPEN_CHOICE, options=join_names(names, "or"),
                             nouns=noun.plural, **moment_slots(when)),
        answer=answer,
        query={"kind": "open_choice", "places": [p["place_id"] for p in places],
               "at": when.isoformat(timespec="minutes")},
        attributes=[{"place_id": p["place_id"], "key": "opentime_week"} for p in places],
        signature="openchoice:" + ":".join(sorted(p["place_id"] for p in places)) + f":{when:%a%H}",
    )


def _closer(session, rng) -> Draft:
    (origin,) = named_places(session, rng, 1, pool=sample(session, rng, 15))
    vehicle = rng.choices(("walking", "cycling", "driving"), weights=(5, 3, 2))[0]
    mode = "distance" if vehicle == "walking" else "time"
    around = session.engine("nearby_search", center=origin["place_id"], radius_meters=1500)["results"]
    for seed in rng.sample(around, k=min(len(around), 8)):
        noun = pick_noun(rng, seed)
        if noun is None:
            continue
        found = session.engine("nearby_search", center=origin["place_id"], radius_meters=1500,
                               place_types=noun_types(noun))["results"]
        pool = [r for r in found if accepted(noun, r) and r["distance_m"] >= 150 and uniquely_named(session, r)]
        if len(pool) < 2:
            continue
        costs = {}
        for place in pool[:5]:
            leg = session.engine("routing", start_place_id=origin["place_id"], end_place_id=place["place_id"],
                                 vehicle=vehicle, mode=mode)
            costs[place["place_id"]] = leg["total_distance_m" if mode == "distance" else "total_time_s"]
        pairs = [(x, y) for x in pool[:5] for y in pool[:5] if x["place_id"] < y["place_id"]]
        rng.shuffle(pairs)
        # Prefer a pair whose straight-line order disagrees with the route: the route has to be checked.
        pairs.sort(key=lambda xy: _route_agrees(xy, costs))
        for x, y in pairs:
            best, other = sorted((x, y), key=lambda p: costs[p["place_id"]])
            gap = costs[other["place_id"]] - costs[best["place_id"]]
            if gap >= max(0.03 * costs[best["place_id"]], 20 if mode == "time" else 30) * 1.5:
                return _closer_case(session, rng, origin, [x, y], best, vehicle, mode)
    raise Discard("no pair of places clearly apart by route")


def _route_agrees(pair, costs) -> bool:
    x, y = pair
    return (costs[x["place_id"]] <= costs[y["place_id"]]) == (x["distance_m"] <= y["distance_m"])


def _closer_case(session, rng, origin, pair, best, vehicle, mode) -> Draft:
    rng.shuffle(pair)
    for place in (origin, *pair):
        find_by_name(session, place["name"])
    for place in pair:
        session.agent("routing", start_place_id=origin["place_id"], end_place_id=place["place_id"], vehicle=vehicle,
                      mode=mode)
    answer = {"answer": best["name"], "name": best["name"], "place_id": best["place_id"],
              "reason": f"By the {vehicle} route it is the {'shorter' if mode == 'distance' else 'quicker'} of the two.",
              "ref": {"attribute_key": "", "note_id": ""}}
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(rng, f"place_L1.closer.{mode}", words.CLOSER[mode], o=origin["name"],
                             x=pair[0]["name"], y=pair[1]["name"], **travel_slots(rng, vehicle)),
        answer=answer,
        query={"kind": "closer", "origin": origin["place_id"], "places": [p["place_id"] for p in pair],
               "vehicle": vehicle, "mode": mode},
        signature="closer:" + origin["place_id"] + ":" + ":".join(sorted(p["place_id"] for p in pair)),
    )


PLANS = {"meal": (("lunch", "dinner", "a meal"), "restaurant"),
         "coffee": (("coffee", "coffee and cake"), "cafe"),
         "drinks": (("drinks", "a round of drinks"), "bar")}


def _budget_place(session, rng, kind: str, taken: set[str]) -> dict:
    noun = PLANS[kind][1]
    for seed in sample(session, rng, 25):
        if seed["cost"] is None or seed["place_id"] in taken or noun not in {n.key for n in nouns_for(seed)}:
            continue
        if uniquely_named(session, seed):
            return seed
    raise Discard(f"no uniquely named place for {kind}")


def _budget(session, rng) -> Draft:
    kinds = rng.choice([("meal", "coffee"), ("meal", "drinks"), ("coffee", "meal"), ("drinks", "meal")])
    picked = []
    for kind in kinds:
        place = _budget_place(session, rng, kind, {p["place_id"] for p, _ in picked})
        picked.append((place, rng.choice(PLANS[kind][0])))
    people = rng.choice((2, 3, 4))
    total = people * sum(p["cost"] for p, _ in picked)
    fits = rng.random() < 0.5
    budget = 5 * round(total * (1 + (0.15 if fits else -0.15) * rng.uniform(0.6, 1.4)) / 5)
    if abs(total - budget) < 3 or (total <= budget) != fits:
        raise Discard("the budget is too close to the total")
    for place, _ in picked:
        find_by_name(session, place["name"])
    (a_place, plan_a), (b_place, plan_b) = picked
    answer = {"answer": fits, "reason": f"{a_place['cost']} + {b_place['cost']} EUR per person for {people} people "
                                        f"is {total} EUR, {'within' if fits else 'over'} {budget} EUR.",
              "ref": {"attribute_key": "cost", "note_id": ""}}
    session.agent("submit_answer", result=answer)
    count = PEOPLE[people]
    return Draft(
        question=session.say(rng, "place_L1.budget", words.BUDGET, people=count, People=count.capitalize(),
                             a=a_place["name"], b=b_place["name"], plan_a=plan_a, Plan_a=plan_a.capitalize(),
                             plan_b=plan_b, budget=budget),
        answer=answer,
        query={"kind": "budget", "items": [[a_place["place_id"], people], [b_place["place_id"], people]],
               "budget": budget},
        attributes=[{"place_id": p["place_id"], "key": "cost"} for p, _ in picked],
        signature=f"budget:{a_place['place_id']}:{b_place['place_id']}",
    )


L1_VARIANTS = ((_compare, 25), (_open_arrival, 30), (_open_choice, 20), (_closer, 15), (_budget, 10))


@recipe("place_perception", "L1")
def place_l1(session, rng: random.Random) -> Draft:
    make = rng.choices([v for v, _ in L1_VARIANTS], weights=[w for _, w in L1_VARIANTS])[0]
    return make(session, rng)


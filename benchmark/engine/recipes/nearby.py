"""Nearby Discovery: the right place around a named place, among every place the question allows."""
from __future__ import annotations

import random

from environment.opening import hours_are_valid

from ..common import (
    Draft,
    accepted,
    find_by_name,
    named_places,
    noun_types,
    of_noun,
    pick_noun,
    sample,
)
from ..moments import moment, stable_state
from ..phrasing import a, moment_slots
from ..session import Discard
from ..wording import nearby as words
from . import recipe

RADII = (200, 300, 400, 500, 700, 1000)
SEARCH_M = 1500
NEAREST_SLACK = 1.3  # the engine keeps more room than the verifier's margin, so few drafts are refused


def anchor_and_noun(session, rng, *, radius: float = 600) -> tuple[dict, object]:
    """A uniquely named anchor and a noun of a place around it."""
    (anchor,) = named_places(session, rng, 1, pool=sample(session, rng, 15))
    around = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius)["results"]
    rng.shuffle(around)
    for place in around:
        noun = pick_noun(rng, place)
        if noun is not None:
            return anchor, noun
    raise Discard("nothing around the anchor has a noun")


def noun_around(session, anchor: dict, noun, radius: float = SEARCH_M, **filters) -> list[dict]:
    """Places around the anchor a reader could take for the noun, nearest first (engine records)."""
    found = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius,
                           place_types=noun_types(noun), **filters)["results"]
    return of_noun(noun, found)


def nearest_margin(d: float) -> float:
    return max(15.0, 0.1 * d) * NEAREST_SLACK


def walk_costs(session, anchor: dict, places: list[dict]) -> dict[str, float]:
    return {p["place_id"]: session.engine("routing", start_place_id=anchor["place_id"], end_place_id=p["place_id"],
                                          vehicle="walking", mode="distance")["total_distance_m"] for p in places}


def _nearest_by_both(session, anchor, places: list[dict]) -> dict:
    """The first place, when it is nearest by a clear margin both in a straight line and on foot."""
    if not places or places[0]["distance_m"] < 20:
        raise Discard("no candidate, or one on top of the anchor")
    gold = places[0]
    if len(places) > 1 and places[1]["distance_m"] - gold["distance_m"] < nearest_margin(gold["distance_m"]):
        raise Discard("the nearest two are too close to call")
    walks = walk_costs(session, anchor, places[:4])
    rest = [w for pid, w in walks.items() if pid != gold["place_id"]]
    if rest and min(rest) - walks[gold["place_id"]] < max(30.0, 0.03 * walks[gold["place_id"]]) * NEAREST_SLACK:
        raise Discard("on foot the nearest is not clearly nearest")
    return gold


def radius_for(distance: float) -> int:
    return next((r for r in RADII if r >= distance * 1.15 + 10), 1500)


def _answer(place: dict, reason: str, keys: str) -> dict:
    return {"name": place["name"], "place_id": place["place_id"], "reason": reason,
            "ref": {"attribute_key": keys, "note_id": ""}}


@recipe("nearby_discovery", "L0")
def nearby_l0(session, rng: random.Random) -> Draft:
    anchor, noun = anchor_and_noun(session, rng)
    places = noun_around(session, anchor, noun)
    variant = rng.choices(("plain", "within", "rated", "cheap"), weights=(4, 3, 2, 1))[0]
    filters, query, slots, bank, skeletons = {}, {}, {}, "nearby_L0.nearest", words.NEAREST
    if variant in ("rated", "cheap"):
        key = "rating" if variant == "rated" else "cost"
        values = sorted({p[key] for p in places[:6] if p[key] is not None})
        if len(values) < 2:
            raise Discard(f"not enough {key} values around to filter on")
        # A threshold that a nearer place fails, so the filter changes the answer.
        threshold = values[-2] if variant == "rated" else values[1]
        filters = {"min_rating": threshold} if variant == "rated" else {"max_cost": threshold}
        kept = noun_around(session, anchor, noun, **filters)
        if not kept or kept[0]["place_id"] == places[0]["place_id"]:
            raise Discard("the filter does not change the nearest place")
        places = kept
        bank, skeletons = (("nearby_L0.rated", words.NEAREST_RATED) if variant == "rated"
                           else ("nearby_L0.cheap", words.NEAREST_CHEAP))
        slots = {"x": f"{threshold:g}", "y": f"{threshold:g}"}
        query = dict(filters)
    if not places or not accepted(noun, places[0]):
        raise Discard("the nearest candidate is only arguably of the noun")
    gold = _nearest_by_both(session, anchor, places)
    radius = radius_for(gold["distance_m"])
    if variant == "within":
        bank, skeletons, slots, query = "nearby_L0.within", words.NEAREST_WITHIN, {"R": radius}, {"radius_m": radius}
    find_by_name(session, anchor["name"])
    session.agent("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=noun.types(),
                  **filters)
    keys = ",".join(["place_type", *(("rating",) if "min_rating" in filters else ()),
                     *(("cost",) if "max_cost" in filters else ())])
    answer = _answer(gold, f"The nearest {noun.singular} to {anchor['name']}, {gold['distance_m']} m away.", keys)
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(rng, bank, skeletons, noun=noun.singular, a_noun=a(noun.singular), a=anchor["name"],
                             **slots),
        answer=answer,
        query={"kind": "find", "center": anchor["place_id"], "noun": noun.key, "rank": "nearest", "by": "either",
               **query},
        constraints={"center": anchor["place_id"], **noun.constraint(), **query},
        attributes=[{"place_id": gold["place_id"], "key": k} for k in keys.split(",")],
        signature=f"nearest:{anchor['place_id']}:{noun.key}:{variant}",
    )


# ------------------------------------------------------------------ L1

def _nearest_open(session, rng) -> Draft:
    anchor, noun = anchor_and_noun(session, rng)
    places = noun_around(session, anchor, noun)[:8]
    for _ in range(40):
        when = moment(rng, hours=(7, 23))
        states = [stable_state(p["opentime_week"] or "", when) if hours_are_valid(p["opentime_week"] or "") else None
                  for p in places]
        first_open = next((i for i, s in enumerate(states) if s is not False), None)
        if first_open is None or first_open == 0 or states[first_open] is not True \
                or not accepted(noun, places[first_open]):
            continue
        gold = places[first_open]
        later = [p for p, s in zip(places[first_open + 1:], states[first_open + 1:]) if s is not False]
        if later and later[0]["distance_m"] - gold["distance_m"] < nearest_margin(gold["distance_m"]):
            continue
        walks = walk_costs(session, anchor, [gold, *later[:3]])
        if any(w - walks[gold["place_id"]] < max(30.0, 0.03 * walks[gold["place_id"]]) * NEAREST_SLACK
               for pid, w in walks.items() if pid != gold["place_id"]):
            continue
        break
    else:
        raise Discard("no moment when a nearer place is closed and the next one is open")
    radius = radius_for(gold["distance_m"])
    find_by_name(session, anchor["name"])
    session.agent("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=noun.types())
    for place in places[:first_open + 1]:
        session.agent("place_detail", place_id=place["place_id"])
    iso = when.isoformat(timespec="minutes")
    answer = _answer(gold, f"Nearer {noun.plural} are closed at {when:%H:%M}; it is open ({gold['opentime_week']}).",
                     "place_type,opentime_week")
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(rng, "nearby_L1.open", words.NEAREST_OPEN, noun=noun.singular, a_noun=a(noun.singular),
                             a=anchor["name"], **moment_slots(when)),
        answer=answer,
        query={"kind": "find", "center": anchor["place_id"], "noun": noun.key, "rank": "nearest", "by": "either",
               "open_at": iso},
        constraints={"center": anchor["place_id"], **noun.constraint(), "open_at": iso},
        attributes=[{"place_id": gold["place_id"], "key": "opentime_week"}],
        signature=f"nearopen:{anchor['place_id']}:{noun.key}",
    )


def _best_rated(session, rng) -> Draft:
    anchor, noun = anchor_and_noun(session, rng)
    radius = rng.choice(RADII[1:])
    places = noun_around(session, anchor, noun, radius=radius * 1.1)
    if any(abs(p["distance_m"] - radius) <= max(5, 0.02 * radius) * 1.5 for p in places):
        raise Discard("a candidate sits on the radius")
    inside = [p for p in places if p["distance_m"] < radius]
    rated = sorted((p for p in inside if p["rating"] is not None), key=lambda p: -p["rating"])
    if len([p for p in inside if accepted(noun, p)]) < 3 or not rated or not accepted(noun, rated[0]):
        raise Discard("fewer than three candidates within the radius")
    gold = rated[0]
    if len(rated) > 1 and gold["rating"] - rated[1]["rating"] < 0.2 - 1e-9:
        raise Discard("the two best ratings are too close")
    find_by_name(session, anchor["name"])
    session.agent("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=noun.types())
    answer = _answer(gold, f"Rated {gold['rating']}, the best of the {noun.plural} within {radius} m.",
                     "place_type,rating")
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(rng, "nearby_L1.rated", words.BEST_RATED, noun=noun.singular, nouns=noun.plural,
                             a=anchor["name"], R=radius),
        answer=answer,
        query={"kind": "find", "center": anchor["place_id"], "noun": noun.key, "rank": "rating", "radius_m": radius},
        constraints={"center": anchor["place_id"], **noun.constraint(), "radius_m": radius},
        attributes=[{"place_id": gold["place_id"], "key": "rating"}],
        signature=f"bestrated:{anchor['place_id']}:{noun.key}:{radius}",
    )


def _shortest_walk(session, rng) -> Draft:
    anchor, noun = anchor_and_noun(session, rng)
    places = [p for p in noun_around(session, anchor, noun, radius=1200) if p["distance_m"] >= 20][:6]
    if len(places) < 2:
        raise Discard("fewer than two candidates")
    walks = walk_costs(session, anchor, places)
    ranked = sorted(places, key=lambda p: walks[p["place_id"]])
    gold = ranked[0]
    if gold["place_id"] == places[0]["place_id"] or not accepted(noun, gold):
        raise Discard("the straight-line nearest is also the shortest walk")
    second = walks[ranked[1]["place_id"]]
    if second - walks[gold["place_id"]] < max(30.0, 0.03 * walks[gold["place_id"]]) * NEAREST_SLACK:
        raise Discard("the two shortest walks are too close")
    find_by_name(session, anchor["name"])
    session.agent("nearby_search", center=anchor["place_id"], radius_meters=radius_for(gold["distance_m"]),
                  place_types=noun.types())
    for place in places[:places.index(gold) + 2]:
        session.agent("routing", start_place_id=anchor["place_id"], end_place_id=place["place_id"], vehicle="walking",
                      mode="distance")
    answer = _answer(gold, f"A {walks[gold['place_id']]:.0f} m walk, shorter than to any nearer-looking "
                           f"{noun.singular}.", "place_type")
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(rng, "nearby_L1.walk", words.SHORTEST_WALK, noun=noun.singular, a=anchor["name"]),
        answer=answer,
        query={"kind": "find", "center": anchor["place_id"], "noun": noun.key, "rank": "nearest", "by": "route",
               "vehicle": "walking", "mode": "distance"},
        constraints={"center": anchor["place_id"], "place_types": noun.types()},
        signature=f"walk:{anchor['place_id']}:{noun.key}",
    )


L1_VARIANTS = ((_nearest_open, 40), (_best_rated, 30), (_shortest_walk, 30))


@recipe("nearby_discovery", "L1")
def nearby_l1(session, rng: random.Random) -> Draft:
    make = rng.choices([v for v, _ in L1_VARIANTS], weights=[w for _, w in L1_VARIANTS])[0]
    return make(session, rng)

"""Nearby Discovery: the right place around a named place, among every place the question allows."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from benchmark.cases.engine.kit.common import (
    Draft,
    accepted,
    find_by_name,
    named_places,
    noun_types,
    of_noun,
    pick_noun,
    sample,
)
from benchmark.cases.engine.kit.question_phrasing import a, moment_slots
from benchmark.cases.engine.kit.session import Discard
from benchmark.cases.lexicon import ERRANDS, Noun, errand_noun
from benchmark.cases.moments import closings, moments_when, stable_state
from kernel.opening import hours_are_valid
from kernel.vocabulary import Category, Level

from ..wording import nearby as words
from .registry import recipe
from .trip import engine_leg

RADII = (200, 300, 400, 500, 700, 1000)
SEARCH_M = 800
NEAREST_SLACK = 1.3  # the engine keeps more room than the verifier's margin, so few drafts are refused


def anchor_and_noun(session, rng, *, radius: float = 600) -> tuple[dict, Noun]:
    """A uniquely named anchor and a noun of a place around it."""
    anchor, nouns = anchor_and_nouns(session, rng, radius=radius)
    return anchor, nouns[0]


def anchor_and_nouns(
    session, rng, *, radius: float = 600, limit: int = 3, allowed: frozenset[str] | None = None
) -> tuple[dict, list[Noun]]:
    """A uniquely named anchor and up to ``limit`` different nouns (among ``allowed``) of places around it."""
    (anchor,) = named_places(session, rng, 1, pool=sample(session, rng, 15))
    around = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius)["results"]
    rng.shuffle(around)
    nouns: list[Noun] = []
    for place in around:
        noun = pick_noun(rng, place, allowed=tuple(allowed) if allowed else None)
        if noun is not None and noun.key not in {n.key for n in nouns}:
            nouns.append(noun)
            if len(nouns) == limit:
                break
    if not nouns:
        raise Discard("nothing around the anchor has a noun")
    return anchor, nouns


def each_noun(session, rng, make, allowed: frozenset[str] | None = None):
    """``make(anchor, noun)`` for up to four nouns around one anchor; the first that makes a case wins."""
    anchor, nouns = anchor_and_nouns(session, rng, limit=4, allowed=allowed)
    reason = Discard("no noun around the anchor makes a case")  # replaced by the last noun's reason
    for noun in nouns:
        try:
            with session.trying():
                return make(anchor, noun)
        except Discard as exc:
            reason = exc
    raise reason


def noun_around(
    session, anchor: dict, noun, radius: float = SEARCH_M, *, complete: bool = False, **filters
) -> list[dict]:
    """Places around the anchor a reader could take for the noun, nearest first (engine records): those of its
    types, and those whose name says it ("Espresso Bar" for a bar), found with a geo_tag search. Searches list
    at most 20 places; with ``complete``, a truncated list discards the attempt (a ranking needs them all)."""
    searches = [
        session.engine(
            "nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=noun_types(noun), **filters
        )
    ]
    if noun.name_words:
        searches.append(
            session.engine(
                "nearby_search",
                center=anchor["place_id"],
                radius_meters=radius,
                geo_tag=list(noun.name_words),
                **filters,
            )
        )
    if complete and any(found["truncated"] for found in searches):
        raise Discard("too many candidates to rank within the radius")
    found = {r["place_id"]: r for search in searches for r in search["results"]}
    return of_noun(noun, sorted(found.values(), key=lambda r: (r["distance_m"], r["place_id"])))


def nearest_margin(d: float) -> float:
    return max(15.0, 0.1 * d) * NEAREST_SLACK


def walk_costs(session, anchor: dict, places: list[dict]) -> dict[str, float]:
    """Walking route distance from the anchor to each place (engine multi_stop_routing, one pair per call)."""
    return {
        p["place_id"]: engine_leg(session, anchor["place_id"], p["place_id"], "walking", "distance")[0] for p in places
    }


def _nearest_by_both(session, anchor, places: list[dict]) -> dict:
    """The first place, when it is nearest by a clear margin both in a straight line and on foot."""
    if not places or places[0]["distance_m"] < 5:
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
    return {
        "name": place["name"],
        "place_id": place["place_id"],
        "reason": reason,
        "ref": {"attribute_key": keys, "note_id": ""},
    }


def _errand_nearest(session, rng) -> Draft:
    """The nearest place for an errand the user names instead of a kind of place ("withdraw cash")."""
    errand = rng.choice(sorted(ERRANDS))
    noun = errand_noun(errand)
    (anchor,) = named_places(session, rng, 1, pool=sample(session, rng, 15))
    places = noun_around(session, anchor, noun)
    if not places or not accepted(noun, places[0]):
        raise Discard("the nearest place for the errand is only arguably right")
    gold = _nearest_by_both(session, anchor, places)
    find_by_name(session, anchor["name"])
    session.agent(
        "nearby_search",
        center=anchor["place_id"],
        radius_meters=radius_for(gold["distance_m"]),
        place_types=noun.types(),
    )
    answer = _answer(
        gold, f"The nearest {noun.singular} to {anchor['name']}, {gold['distance_m']} m away.", "place_type"
    )
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(rng, "nearby_L0.errand", words.ERRAND_NEAREST, errand=errand, a=anchor["name"]),
        answer=answer,
        query={
            "kind": "find",
            "center": anchor["place_id"],
            "noun": noun.key,
            "errand": errand,
            "rank": "nearest",
            "by": "either",
        },
        constraints={"center": anchor["place_id"], **noun.constraint()},
        attributes=[{"place_id": gold["place_id"], "key": "place_type"}],
        signature=f"errand:{anchor['place_id']}:{noun.key}",
    )


L0_WEIGHTS = {"errand": 30, "plain": 28, "within": 22, "rated": 12, "cheap": 8}


@recipe(Category.NEARBY_DISCOVERY, Level.L0)
def nearby_l0(session, rng: random.Random) -> Draft:
    variant = session.variant(rng, "nearby_L0", L0_WEIGHTS)
    if variant == "errand":
        return _errand_nearest(session, rng)
    anchor, noun = anchor_and_noun(session, rng)
    places = noun_around(session, anchor, noun)
    query: dict[str, Any]
    slots: dict[str, Any]
    skeletons: tuple[str, ...]
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
        bank, skeletons = (
            ("nearby_L0.rated", words.NEAREST_RATED) if variant == "rated" else ("nearby_L0.cheap", words.NEAREST_CHEAP)
        )
        slots = {"x": f"{threshold:g}", "y": f"{threshold:g}"}
        query = dict(filters)
    if not places or not accepted(noun, places[0]):
        raise Discard("the nearest candidate is only arguably of the noun")
    gold = _nearest_by_both(session, anchor, places)
    radius = radius_for(gold["distance_m"])
    if variant == "within":
        bank, skeletons, slots, query = "nearby_L0.within", words.NEAREST_WITHIN, {"R": radius}, {"radius_m": radius}
    find_by_name(session, anchor["name"])
    session.agent("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=noun.types(), **filters)
    keys = ",".join(
        ["place_type", *(("rating",) if "min_rating" in filters else ()), *(("cost",) if "max_cost" in filters else ())]
    )
    answer = _answer(gold, f"The nearest {noun.singular} to {anchor['name']}, {gold['distance_m']} m away.", keys)
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(
            rng, bank, skeletons, noun=noun.singular, a_noun=a(noun.singular), a=anchor["name"], **slots
        ),
        answer=answer,
        query={
            "kind": "find",
            "center": anchor["place_id"],
            "noun": noun.key,
            "rank": "nearest",
            "by": "either",
            **query,
        },
        constraints={"center": anchor["place_id"], **noun.constraint(), **query},
        attributes=[{"place_id": gold["place_id"], "key": k} for k in keys.split(",")],
        signature=f"nearest:{anchor['place_id']}:{noun.key}:{variant}",
    )


# ------------------------------------------------------------------ L1


def _states(places: list[dict], when, minutes: int = 0) -> list[bool | None]:
    """Per place: surely open from ``when`` for ``minutes`` (True), surely closed at some point (False), or unsure."""
    out: list[bool | None] = []
    for place in places:
        hours = place["opentime_week"] or ""
        if not hours_are_valid(hours):
            out.append(None)
            continue
        marks = [stable_state(hours, when + timedelta(minutes=m)) for m in range(0, max(minutes, 1), 5)]
        if minutes:
            marks.append(stable_state(hours, when + timedelta(minutes=minutes - 1)))
        out.append(False if False in marks else None if None in marks else True)
    return out


def _open_for(session, rng) -> Draft:
    """The nearest place open for the whole stay, when a nearer one is open now but closes during it."""
    return each_noun(session, rng, lambda anchor, noun: _open_for_case(session, rng, anchor, noun), allowed=STAY_NOUNS)


# Places one stays in for a while (an hour in a homeware shop is not a plan).
STAY_NOUNS = frozenset(
    {
        "cafe",
        "bakery",
        "bar",
        "pub",
        "restaurant",
        "asian_restaurant",
        "japanese_restaurant",
        "sushi_restaurant",
        "chinese_restaurant",
        "thai_restaurant",
        "vietnamese_restaurant",
        "indian_restaurant",
        "nepalese_restaurant",
        "italian_restaurant",
        "pizzeria",
        "mexican_restaurant",
        "finnish_restaurant",
        "vegetarian_restaurant",
        "library",
        "museum",
        "art_gallery",
        "gym",
        "nightclub",
    }
)


def _open_for_case(session, rng, anchor, noun) -> Draft:
    places = noun_around(session, anchor, noun)[:8]
    minutes = rng.choice((45, 60, 90, 120))
    # Moments shortly before a nearby place closes: it is open then but shuts during the stay.
    starts = [
        c - timedelta(minutes=rng.randrange(15, minutes - 9, 5))
        for p in places[:4]
        if hours_are_valid(p["opentime_week"] or "")
        for c in closings(p["opentime_week"])
        if 8 <= c.hour <= 23
    ]
    rng.shuffle(starts)
    for when in starts[:25]:
        whole = _states(places, when, minutes)
        now = _states(places, when)
        first = next((i for i, s in enumerate(whole) if s is not False), None)
        if first is None or whole[first] is not True or not accepted(noun, places[first]):
            continue
        if not any(now[i] is True and accepted(noun, places[i]) for i in range(first)):
            continue  # a nearer place of the noun itself is open now but closes too soon
        gold = places[first]
        later = [p for p, s in zip(places[first + 1 :], whole[first + 1 :]) if s is not False]
        if later and later[0]["distance_m"] - gold["distance_m"] < nearest_margin(gold["distance_m"]):
            continue
        walks = walk_costs(session, anchor, [gold, *later[:3]])
        if all(
            w - walks[gold["place_id"]] >= max(30.0, 0.03 * walks[gold["place_id"]]) * NEAREST_SLACK
            for pid, w in walks.items()
            if pid != gold["place_id"]
        ):
            break
    else:
        raise Discard("no moment when a nearer place closes during the stay and the next one stays open")
    find_by_name(session, anchor["name"])
    session.agent(
        "nearby_search",
        center=anchor["place_id"],
        radius_meters=radius_for(gold["distance_m"]),
        place_types=noun.types(),
    )
    for place in places[: first + 1]:
        session.agent("place_detail", place_id=place["place_id"])
    iso = when.isoformat(timespec="minutes")
    answer = _answer(
        gold,
        f"Nearer {noun.plural} close within {minutes} minutes of {when:%H:%M}; it stays open "
        f"({gold['opentime_week']}).",
        "place_type,opentime_week",
    )
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(
            rng,
            "nearby_L1.open_for",
            words.OPEN_FOR,
            noun=noun.singular,
            a_noun=a(noun.singular),
            a=anchor["name"],
            D=minutes,
            **moment_slots(when),
        ),
        answer=answer,
        query={
            "kind": "find",
            "center": anchor["place_id"],
            "noun": noun.key,
            "rank": "nearest",
            "by": "either",
            "open_at": iso,
            "open_for_min": minutes,
        },
        constraints={"center": anchor["place_id"], **noun.constraint(), "open_at": iso, "open_for_min": minutes},
        attributes=[{"place_id": gold["place_id"], "key": "opentime_week"}],
        signature=f"openfor:{anchor['place_id']}:{noun.key}",
    )


def _best_rated_open(session, rng) -> Draft:
    """The best-rated place within the radius among those open now; the best-rated overall is closed and the
    nearest open one is not the answer."""
    return each_noun(session, rng, lambda anchor, noun: _best_rated_open_case(session, rng, anchor, noun))


def _best_rated_open_case(session, rng, anchor, noun) -> Draft:
    radius, gold, when, by_rating = _rated_open_search(session, rng, anchor, noun)
    find_by_name(session, anchor["name"])
    session.agent("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=noun.types())
    for place in by_rating[: by_rating.index(gold) + 1]:
        session.agent("place_detail", place_id=place["place_id"])
    iso = when.isoformat(timespec="minutes")
    answer = _answer(
        gold,
        f"Rated {gold['rating']}, the best of the {noun.plural} within {radius} m that are open at {when:%H:%M}.",
        "place_type,rating,opentime_week",
    )
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(
            rng,
            "nearby_L1.rated_open",
            words.RATED_OPEN,
            noun=noun.singular,
            nouns=noun.plural,
            a=anchor["name"],
            R=radius,
            **moment_slots(when),
        ),
        answer=answer,
        query={
            "kind": "find",
            "center": anchor["place_id"],
            "noun": noun.key,
            "rank": "rating",
            "radius_m": radius,
            "open_at": iso,
        },
        constraints={"center": anchor["place_id"], **noun.constraint(), "radius_m": radius, "open_at": iso},
        attributes=[{"place_id": gold["place_id"], "key": k} for k in ("rating", "opentime_week")],
        signature=f"ratedopen:{anchor['place_id']}:{noun.key}:{radius}",
    )


def _rated_open_gold(rng, noun, inside: list[dict], floor: float):
    """(gold, moment, candidates by rating) when at some moment the best-rated place is surely closed and the
    best of those that may be open is surely open, clearly ahead of the next, above the floor; else None."""
    by_rating = sorted(inside, key=lambda p: -p["rating"])
    top = by_rating[0]
    if not hours_are_valid(top["opentime_week"] or ""):
        return None
    closed = moments_when(top["opentime_week"], False)
    rng.shuffle(closed)
    for when in closed[:25]:
        states = dict(zip([p["place_id"] for p in inside], _states(inside, when)))
        maybe = [p for p in by_rating if states[p["place_id"]] is not False]
        if not maybe or states[maybe[0]["place_id"]] is not True:
            continue
        gold = maybe[0]
        nearest_open = next((p for p in inside if states[p["place_id"]] is not False and accepted(noun, p)), gold)
        if gold is nearest_open or not accepted(noun, gold) or gold["rating"] < floor + 0.2 - 1e-9:
            continue
        if len(maybe) > 1 and gold["rating"] - maybe[1]["rating"] < 0.2 - 1e-9:
            continue
        return gold, when, by_rating
    return None


def _rated_open_search(session, rng, anchor, noun):
    """(radius, gold, moment, candidates by rating). Every place rated at least a floor within the radius must be
    listed (a search shows 20): the gold leads the floor by 0.2, so no place below it comes within the margin."""
    for radius in (300, 500):
        for floor in (4.2, 4.5):
            try:
                places = noun_around(session, anchor, noun, radius=radius * 1.1, complete=True, min_rating=floor)
            except Discard:
                continue  # too many to list: raise the floor
            if any(abs(p["distance_m"] - radius) <= max(5, 0.02 * radius) * 1.5 for p in places):
                break  # a candidate on the edge: try a wider radius
            inside = [p for p in places if p["distance_m"] < radius]
            found = _rated_open_gold(rng, noun, inside, floor) if len(inside) >= 2 else None
            if found:
                return (radius, *found)
            break  # a higher floor lists fewer of the same places
    raise Discard("no radius and rating floor give a best-rated open place that clearly leads")


def _shortest_walk(session, rng) -> Draft:
    return each_noun(session, rng, lambda anchor, noun: _shortest_walk_case(session, rng, anchor, noun))


def _shortest_walk_case(session, rng, anchor, noun) -> Draft:
    places = [p for p in noun_around(session, anchor, noun, radius=1200) if p["distance_m"] >= 20][:6]
    if len(places) < 2:
        raise Discard("fewer than two candidates")
    walks = walk_costs(session, anchor, places)
    ranked = sorted(places, key=lambda p: walks[p["place_id"]])
    gold = ranked[0]
    straight = next((p for p in places if accepted(noun, p)), None)
    if gold is straight or not accepted(noun, gold):
        raise Discard("the straight-line nearest is also the shortest walk")
    second = walks[ranked[1]["place_id"]]
    if second - walks[gold["place_id"]] < max(30.0, 0.03 * walks[gold["place_id"]]) * NEAREST_SLACK:
        raise Discard("the two shortest walks are too close")
    find_by_name(session, anchor["name"])
    session.agent(
        "nearby_search",
        center=anchor["place_id"],
        radius_meters=radius_for(gold["distance_m"]),
        place_types=noun.types(),
    )
    for place in places[: places.index(gold) + 2]:
        session.agent(
            "routing",
            start_place_id=anchor["place_id"],
            end_place_id=place["place_id"],
            vehicle="walking",
            mode="distance",
        )
    answer = _answer(
        gold,
        f"A {walks[gold['place_id']]:.0f} m walk, shorter than to any nearer-looking {noun.singular}.",
        "place_type",
    )
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(rng, "nearby_L1.walk", words.SHORTEST_WALK, noun=noun.singular, a=anchor["name"]),
        answer=answer,
        query={
            "kind": "find",
            "center": anchor["place_id"],
            "noun": noun.key,
            "rank": "nearest",
            "by": "route",
            "vehicle": "walking",
            "mode": "distance",
        },
        constraints={"center": anchor["place_id"], "place_types": noun.types()},
        signature=f"walk:{anchor['place_id']}:{noun.key}",
    )


L1_VARIANTS = {"open_for": (_open_for, 40), "rated_open": (_best_rated_open, 20), "walk": (_shortest_walk, 40)}


@recipe(Category.NEARBY_DISCOVERY, Level.L1)
def nearby_l1(session, rng: random.Random) -> Draft:
    variant = session.variant(rng, "nearby_L1", {k: w for k, (_, w) in L1_VARIANTS.items()})
    return L1_VARIANTS[variant][0](session, rng)

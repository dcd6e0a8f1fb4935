"""Place Perception L1: checks that need several dependent lookups and a computation.

Every stated condition must matter: the best value under a budget differs from the best
overall, an opening check depends on the travel (and the wait or the stop before it), a
budget covers different party sizes per stop.
"""

from __future__ import annotations

import random
from datetime import timedelta

from benchmark.cases.engine.kit.common import (
    Draft,
    accepted,
    find_by_name,
    named_places,
    noun_types,
    pick_noun,
    sample,
    uniquely_named,
)
from benchmark.cases.engine.kit.question_phrasing import join_names, moment_slots, travel_slots
from benchmark.cases.engine.kit.session import Discard
from benchmark.cases.lexicon import nouns_for
from benchmark.cases.moments import WEEK_START, moments_when, openings, stable_state
from kernel.opening import hours_are_valid, is_open_at
from kernel.vocabulary import Category, Level

from ..wording import place as words
from .registry import recipe
from .trip import engine_leg

PEOPLE = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def noun_pool(session, rng, *, need=lambda r: True, size: int = 3) -> tuple:
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


# ------------------------------------------------------------------ the best value under a condition


def _value_pick(session, rng) -> Draft:
    noun, places = noun_pool(
        session, rng, need=lambda r: r["rating"] is not None and r["cost"] is not None, size=rng.choice((4, 5))
    )
    condition = rng.choice(("max_cost", "min_rating"))
    field = "rating" if condition == "max_cost" else "cost"
    winner, limit = _binding_limit(places, condition)
    for place in places:
        find_by_name(session, place["name"])
    answer = {
        "answer": winner["name"],
        "name": winner["name"],
        "place_id": winner["place_id"],
        "reason": "; ".join(f"{p['name']}: rated {p['rating']}, {p['cost']} EUR" for p in places),
        "ref": {"attribute_key": "rating,cost", "note_id": ""},
    }
    session.agent("submit_answer", result=answer)
    names = [p["name"] for p in places]
    return Draft(
        question=session.say(
            rng,
            f"place_L1.value.{condition}",
            words.VALUE_PICK[condition],
            nouns=noun.plural,
            options=join_names(names, "or"),
            all=join_names(names),
            x=f"{limit:g}",
            y=f"{limit:g}",
        ),
        answer=answer,
        query={"kind": "compare", "places": [p["place_id"] for p in places], "field": field, condition: limit},
        attributes=[{"place_id": p["place_id"], "key": k} for p in places for k in ("rating", "cost")],
        signature="value:" + condition + ":" + ":".join(sorted(p["place_id"] for p in places)),
    )


def _binding_limit(places: list[dict], condition: str) -> tuple[dict, float]:
    """A limit (max cost, or min rating) that rules out the best place overall and leaves a clear winner."""
    field = "rating" if condition == "max_cost" else "cost"
    better = (lambda p: -p["rating"]) if field == "rating" else (lambda p: p["cost"])
    overall = min(places, key=better)
    margin = 0.2 if field == "rating" else 3
    for limit in sorted({p["cost" if condition == "max_cost" else "rating"] for p in places}):
        kept = [p for p in places if (p["cost"] <= limit if condition == "max_cost" else p["rating"] >= limit)]
        if overall in kept or len(kept) < 2:
            continue
        ranked = sorted(kept, key=better)
        other = (lambda p: p["cost"]) if field == "rating" else (lambda p: -p["rating"])
        # Both conditions must matter: the answer is neither the best overall nor the best on the limit's field.
        if abs(ranked[0][field] - ranked[1][field]) >= margin - 1e-9 and ranked[0] is not min(places, key=other):
            return ranked[0], limit
    raise Discard("no limit rules out the best place and leaves a clear winner")


# ------------------------------------------------------------------ open on arrival


def _trip_pair(session, rng, dest_need=lambda p: True) -> tuple[dict, dict, str]:
    places = [p for p in sample(session, rng, 40) if hours_are_valid(p["opentime_week"] or "") and dest_need(p)]
    (dest,) = named_places(session, rng, 1, pool=places)
    (origin,) = named_places(session, rng, 1, pool=sample(session, rng, 12), exclude={dest["place_id"]})
    vehicle = rng.choices(("walking", "cycling", "driving"), weights=(6, 3, 2))[0]
    return origin, dest, vehicle


def _departures(hours: str, travel_s: float, *, want_open: bool, lead_s: float = 0.0) -> list:
    """Departures (5-minute marks, 07:00-23:00) after which arrival surely finds the wanted state, and where the
    state at the clock time the user states (``lead_s`` before leaving) is surely the other one."""
    found = []
    for day in range(7):
        for minutes in range(7 * 60, 23 * 60, 5):
            depart = WEEK_START + timedelta(days=day, minutes=minutes)
            arrival = depart + timedelta(seconds=travel_s)
            said = stable_state(hours, depart - timedelta(seconds=lead_s))
            if stable_state(hours, arrival) is want_open and said is (not want_open):
                found.append(depart)
    return found


def _open_arrival(session, rng) -> Draft:
    variant = session.variant(rng, "place_L1.arrival", {"plain": 1, "delayed": 1, "via": 1})
    origin, dest, vehicle = _trip_pair(session, rng)
    legs, via, dwell, delay = [(origin, dest)], None, 0, 0
    if variant == "via":
        (via,) = named_places(
            session, rng, 1, pool=sample(session, rng, 12), exclude={origin["place_id"], dest["place_id"]}
        )
        legs, dwell = [(origin, via), (via, dest)], rng.choice((20, 30, 45))
    if variant == "delayed":
        delay = rng.choice((20, 30, 45, 60, 90))
    travel = (
        sum(
            session.engine(
                "routing", start_place_id=x["place_id"], end_place_id=y["place_id"], vehicle=vehicle, mode="time"
            )["total_time_s"]
            for x, y in legs
        )
        + dwell * 60
    )
    if not 240 <= travel <= 3600:
        raise Discard("the trip is too short for the travel time to matter, or too long")
    # The travel must decide the answer: the state at the time the question states is the other one.
    want_open = rng.random() < 0.5
    options = _departures(dest["opentime_week"], travel, want_open=want_open, lead_s=delay * 60)
    if not options:
        raise Discard("no departure gives the wanted opening state on arrival")
    depart = rng.choice(options)
    arrival = depart + timedelta(seconds=travel)
    for place in (origin, *([via] if via else []), dest):
        find_by_name(session, place["name"])
    for x, y in legs:
        session.agent("routing", start_place_id=x["place_id"], end_place_id=y["place_id"], vehicle=vehicle, mode="time")
    session.agent("place_detail", place_id=dest["place_id"])
    answer = {
        "answer": want_open,
        "name": dest["name"],
        "place_id": dest["place_id"],
        "reason": f"Leaving at {depart:%H:%M}, arrival is at {arrival:%H:%M}; the hours "
        f"{dest['opentime_week']!r} say it is {'open' if want_open else 'closed'} then.",
        "ref": {"attribute_key": "opentime_week", "note_id": ""},
    }
    session.agent("submit_answer", result=answer)
    query = {"kind": "open_on_arrival", "origin": origin["place_id"], "place": dest["place_id"], "vehicle": vehicle}
    slots = {"o": origin["name"], "d": dest["name"], **travel_slots(rng, vehicle)}
    if variant == "delayed":
        said = depart - timedelta(minutes=delay)
        query.update(now=said.isoformat(timespec="minutes"), delay_min=delay)
        slots.update(delay=delay, **moment_slots(said))
    else:
        query["depart"] = depart.isoformat(timespec="minutes")
        slots.update(moment_slots(depart))
    if via:
        query.update(via=via["place_id"], dwell_min=dwell)
        slots.update(b=via["name"], dwell=dwell)
    bank, skeletons = {
        "plain": ("place_L1.arrive", words.OPEN_ARRIVAL),
        "delayed": ("place_L1.delayed", words.OPEN_DELAYED),
        "via": ("place_L1.via", words.OPEN_VIA),
    }[variant]
    return Draft(
        question=session.say(rng, bank, skeletons, **slots),
        answer=answer,
        query=query,
        attributes=[{"place_id": dest["place_id"], "key": "opentime_week"}],
        signature=f"arrive:{origin['place_id']}:{dest['place_id']}",
    )


def _open_choice(session, rng) -> Draft:
    noun, pool = noun_pool(
        session,
        rng,
        need=lambda r: hours_are_valid(r.get("opentime_week") or "") and "24/7" not in r["opentime_week"],
        size=6,
    )
    places = list({p["opentime_week"]: p for p in pool}.values())[:3]  # different hours, or nothing to choose
    if len(places) < 3:
        raise Discard("the places keep the same hours")
    vehicle = "walking"  # long enough on the way for the hours to change
    origin: dict | None = None
    travel: dict[str, float] = {}
    for candidate in named_places(
        session, rng, 3, pool=sample(session, rng, 15), exclude={p["place_id"] for p in places}
    ):
        times = {
            p["place_id"]: engine_leg(session, candidate["place_id"], p["place_id"], vehicle, "time")[1] for p in places
        }
        if sum(times.values()) > sum(travel.values()):  # the origin farthest from the three
            origin, travel = candidate, times
    if max(travel.values()) < 11 * 60:  # the state must hold 10 minutes either side of the arrival
        raise Discard("the places are too close to the origin for the travel to matter")
    assert origin is not None  # chosen with travel
    # Arrivals shortly after one place opens or before another closes: the travel decides the answer.
    aims = [
        (p, change + timedelta(minutes=rng.choice((10, 15, 20))))
        for p in places
        for change in openings(p["opentime_week"])
        if 8 <= change.hour <= 21
    ]
    aims += [
        (p, moment_)
        for p in places
        for moment_ in moments_when(p["opentime_week"], True, between=(8, 22))
        if rng.random() < 0.05
    ]
    rng.shuffle(aims)
    for place, arrival in aims[:60]:
        depart = arrival - timedelta(seconds=travel[place["place_id"]])
        depart -= timedelta(minutes=depart.minute % 5, seconds=depart.second)
        states = [stable_state(p["opentime_week"], depart + timedelta(seconds=travel[p["place_id"]])) for p in places]
        naive = [is_open_at(p["opentime_week"], depart) for p in places]
        if states.count(True) == 1 and states.count(False) == len(places) - 1 and naive != states:
            break
    else:
        raise Discard("no departure when exactly one place is open on arrival and the travel matters")
    winner = places[states.index(True)]
    for place in (origin, *places):
        find_by_name(session, place["name"])
    for place in places:
        session.agent(
            "routing", start_place_id=origin["place_id"], end_place_id=place["place_id"], vehicle=vehicle, mode="time"
        )
        session.agent("place_detail", place_id=place["place_id"])
    answer = {
        "answer": winner["name"],
        "name": winner["name"],
        "place_id": winner["place_id"],
        "reason": "; ".join(f"{p['name']}: {p['opentime_week']}" for p in places),
        "ref": {"attribute_key": "opentime_week", "note_id": ""},
    }
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(
            rng,
            "place_L1.choice",
            words.OPEN_CHOICE,
            o=origin["name"],
            nouns=noun.plural,
            options=join_names([p["name"] for p in places], "or"),
            **moment_slots(depart),
            **travel_slots(rng, vehicle),
        ),
        answer=answer,
        query={
            "kind": "open_choice",
            "places": [p["place_id"] for p in places],
            "origin": origin["place_id"],
            "vehicle": vehicle,
            "at": depart.isoformat(timespec="minutes"),
        },
        attributes=[{"place_id": p["place_id"], "key": "opentime_week"} for p in places],
        signature="openchoice:" + ":".join(sorted(p["place_id"] for p in places)),
    )


# ------------------------------------------------------------------ a budget over two stops

PLANS = {
    "meal": (("lunch", "dinner", "a meal"), "restaurant"),
    "coffee": (("coffee", "coffee and cake"), "cafe"),
    "drinks": (("drinks", "a round of drinks"), "bar"),
}


def _budget_place(session, rng, kind: str, taken: set[str]) -> dict:
    noun = PLANS[kind][1]
    for seed in sample(session, rng, 25):
        if seed["cost"] is None or seed["place_id"] in taken or noun not in {n.key for n in nouns_for(seed)}:
            continue
        if uniquely_named(session, seed):
            return seed
    raise Discard(f"no uniquely named place for {kind}")


def _budget(session, rng) -> Draft:
    kinds = rng.choice([("meal", "coffee"), ("meal", "drinks"), ("coffee", "meal")])
    picked: list[tuple[dict, str]] = []
    for kind in kinds:
        place = _budget_place(session, rng, kind, {p["place_id"] for p, _ in picked})
        picked.append((place, rng.choice(PLANS[kind][0])))
    first_n = rng.choice((3, 4, 5))
    second_n = rng.randrange(1, first_n)
    (a, plan_a), (b, plan_b) = picked
    total = first_n * a["cost"] + second_n * b["cost"]
    naive = first_n * (a["cost"] + b["cost"])
    fits = rng.random() < 0.5
    budget = 5 * round(total * (1 + (0.12 if fits else -0.12) * rng.uniform(0.6, 1.4)) / 5)
    # The budget must fall where counting everyone at both stops gives the wrong verdict.
    if abs(total - budget) < 3 or (total <= budget) != fits or (naive <= budget) == fits:
        raise Discard("the budget does not separate the right count from the naive one")
    for place, _ in picked:
        find_by_name(session, place["name"])
    answer = {
        "answer": fits,
        "reason": f"{first_n} x {a['cost']} + {second_n} x {b['cost']} EUR = {total} EUR, "
        f"{'within' if fits else 'over'} {budget} EUR.",
        "ref": {"attribute_key": "cost", "note_id": ""},
    }
    session.agent("submit_answer", result=answer)
    return Draft(
        question=session.say(
            rng,
            "place_L1.budget",
            words.BUDGET,
            people_a=PEOPLE[first_n],
            people_b=PEOPLE[second_n],
            a=a["name"],
            b=b["name"],
            plan_a=plan_a,
            Plan_a=plan_a.capitalize(),
            plan_b=plan_b,
            budget=budget,
        ),
        answer=answer,
        query={"kind": "budget", "items": [[a["place_id"], first_n], [b["place_id"], second_n]], "budget": budget},
        attributes=[{"place_id": p["place_id"], "key": "cost"} for p, _ in picked],
        signature=f"budget:{a['place_id']}:{b['place_id']}",
    )


L1_VARIANTS = {
    "value": (_value_pick, 30),
    "arrival": (_open_arrival, 40),
    "choice": (_open_choice, 15),
    "budget": (_budget, 15),
}


@recipe(Category.PLACE_PERCEPTION, Level.L1)
def place_l1(session, rng: random.Random) -> Draft:
    variant = session.variant(rng, "place_L1", {k: w for k, (_, w) in L1_VARIANTS.items()})
    return L1_VARIANTS[variant][0](session, rng)

"""Trip Design L2 (figure 8): named stops plus a stop for an implied need, under a rule that binds.

The implied stop may be any place in the city that holds the need; the gold plan is the
cheapest over every such place and every ordering that surely keeps the rule (opening hours
on arrival from a start time, or a visit order), clearly ahead of the rest, and the plan that
ignores the rule must be clearly cheaper (so the rule matters).
"""

from __future__ import annotations

import random
from typing import Any

from benchmark.cases.engine.kit.common import (
    Draft,
    evidence_ref,
    fact_constraint,
    find_by_name,
    has_need,
    need_filters,
    needs_of,
    noun_types,
    nouns_fitting,
    read_notes,
    ref,
    supporting_notes,
    want_phrase,
)
from benchmark.cases.engine.kit.question_phrasing import a as with_article
from benchmark.cases.engine.kit.question_phrasing import join_names, moment_slots, split_choice, travel_slots
from benchmark.cases.engine.kit.session import Discard
from environment.build.corpus.vocab import ALL_SPECS
from kernel.opening import hours_are_valid
from kernel.vocabulary import Category, Level

from ..wording import trip as words
from .registry import recipe
from .routing import route_answer
from .trip import (
    DWELLS,
    TRIP_VEHICLES,
    LegBook,
    Plan,
    all_legs,
    binding_gold,
    cluster,
    judge_order,
    plans_for,
    rule_words,
    ruling_departure,
    totals_along,
)

MAX_HOLDERS = 10


@recipe(Category.TRIP_DESIGN, Level.L2)
def trip_l2(session, rng: random.Random) -> Draft:
    vehicle, mode = rng.choice(TRIP_VEHICLES), rng.choice(("time", "distance"))
    timed = session.variant(rng, "trip_L2", {"timed": 50, "order": 50}) == "timed"
    places = cluster(session, rng, rng.choice((3, 4)), radius=800, hours=timed)
    start, end, named = places[0], places[-1], places[1:-1]
    around = session.engine("nearby_search", center=start["place_id"], radius_meters=900)["results"]
    taken = {p["place_id"] for p in places}
    pairs = [
        (p, k)
        for p in around
        if p["place_id"] not in taken
        for k in needs_of(p, session.bank, trips=True, vehicle=vehicle)
    ]
    rng.shuffle(pairs)
    pairs.sort(key=lambda pk: ALL_SPECS[pk[1]].weight)  # rarer facts first: fewer holders, clearer winners
    for seed, key in pairs[:3]:
        if any(has_need(p, key) for p in places):  # a named stop that holds it makes the extra stop needless
            continue
        nouns = nouns_fitting(seed, key)
        noun = rng.choice(nouns) if nouns and rng.random() < 0.3 else None
        holders = _holders(session, start, end, noun, key, taken, named)
        if not holders:
            continue
        try:
            with session.trying():
                return _case(session, rng, vehicle, mode, start, end, named, noun, key, holders, timed)
        except Discard:
            continue
    raise Discard("no implied stop gives a plan that clearly wins under a binding rule")


def _holders(session, start, end, noun, key, taken, named=()) -> list[dict]:
    found = {}
    types = {"place_types": noun_types(noun)} if noun else {}
    for center in (start, end, *named):
        for filters in need_filters(key):
            for record in session.engine(
                "nearby_search", center=center["place_id"], radius_meters=1200, **types, **filters
            )["results"]:
                if record["place_id"] not in taken and (noun is None or noun.match(record)) and has_need(record, key):
                    found[record["place_id"]] = record
    return sorted(found.values(), key=lambda r: r["distance_m"])[:MAX_HOLDERS]


def _case(session, rng, vehicle, mode, start, end, named, noun, key, holders, timed) -> Draft:
    book = LegBook(session, vehicle, mode)
    plans: list[Plan] = []
    for holder in holders:
        plans += plans_for(book, start, [*named, holder], end, holder=holder)
    query: dict[str, Any]
    constraints: dict[str, Any]
    query, constraints, slots, rule = {}, {}, {}, ""
    if timed:
        if not all(hours_are_valid(p["opentime_week"] or "") for p in [*named, end]):
            raise Discard("a named stop has no opening hours to plan a timed trip with")
        dwell = rng.choice(DWELLS)
        depart = ruling_departure(rng, plans, dwell, mode)
        gold = binding_gold(plans, mode, rule=True)
        iso = depart.isoformat(timespec="minutes")
        query.update(depart=iso, dwell_min=dwell)
        constraints.update(start_time=iso, dwell_minutes=dwell)
        slots = {"dwell": dwell, **moment_slots(depart)}
    else:
        gold, query["before"], rule = _ruling_order(rng, plans, named, mode, session.bank)
    holder = _holder(gold)
    if noun is not None and not noun.match(holder) == "accept":
        raise Discard("the best holder is only arguably of the noun")
    if not timed:
        constraints["before"] = [
            [holder["place_id"] if x == "@0" else x, holder["place_id"] if y == "@0" else y] for x, y in query["before"]
        ]
    want = want_phrase(session, rng, key, holder, timed=timed)
    note_ids = supporting_notes(session, holder, key)
    for place in [start, *named, end]:
        find_by_name(session, place["name"])
    read_notes(session, holder, key, note_ids)
    find_by_name(session, holder["name"])
    stops = [start, *named, holder, end]
    if timed:
        for place in stops[1:]:
            session.agent("place_detail", place_id=place["place_id"])
    legs = all_legs(session, stops, start, end, vehicle, mode)
    extra = ("opentime_week",) if timed else ()
    waypoints = [
        ref(p, "User asked to visit it.", ref={"attribute_key": ",".join(extra), "note_id": ""}) for p in named
    ]
    waypoints.append(
        ref(
            holder,
            "Social media notes show it offers what the user implicitly wants.",
            ref=evidence_ref(note_ids, extra),
            implicit_logic="True",
        )
    )
    answer = route_answer(start, end, waypoints, gold.order, vehicle, mode, totals_along(legs, gold.ids))
    answer["constraints_satisfied"] = (
        [
            f"Every stop is open on arrival when leaving at {query['depart'][11:]} with "
            f"{query['dwell_min']} minutes per stop."
        ]
        if timed
        else [rule]
    )
    session.agent("submit_answer", result=answer)
    want_slot = want if noun is None else f"{want} (at {with_article(noun.singular)})"
    bank, skeletons = ("trip_L2.timed", words.NEED_TIMED) if timed else ("trip_L2.rule", words.NEED_RULE)
    implied = {"noun": noun.key if noun else None, "need": key, "phrase": want}
    return Draft(
        question=session.say(
            rng,
            bank,
            skeletons,
            s=start["name"],
            e=end["name"],
            w=join_names([p["name"] for p in named]),
            want=want_slot,
            Rule=rule,
            **slots,
            **travel_slots(rng, vehicle, mode),
        ),
        answer=answer,
        query={
            "kind": "trip",
            "start": start["place_id"],
            "end": end["place_id"],
            "stops": [p["place_id"] for p in named],
            "implied": [implied],
            "vehicle": vehicle,
            "mode": mode,
            **query,
        },
        note_ids=note_ids,
        constraints={"vehicle": vehicle, "mode": mode, "fact": fact_constraint(holder, key), **constraints},
        attributes=[{"place_id": p["place_id"], "key": "opentime_week"} for p in stops[1:]] if timed else [],
        signature="tripneed:" + ":".join(sorted(p["place_id"] for p in [start, *named, end])) + f":{key}",
        notes={"unconstrained_best": min(plans, key=lambda p: (p.cost, p.ids)).ids, "holders_considered": len(holders)},
    )


def _holder(plan: Plan) -> dict:
    assert plan.holder is not None  # every plan of an implied-need trip has one
    return plan.holder


def _ruling_order(rng, plans: list[Plan], named: list[dict], mode: str, bank: str):
    """A visit-order rule (about the implied stop, "@0", or between named stops) that the plan ignoring it
    breaks, with a clear winner among the plans that keep it."""
    free = min(plans, key=lambda p: (p.cost, p.ids))
    holder_id = _holder(free)["place_id"]
    ids = free.ids
    options = []
    for place in named:
        pid = place["place_id"]
        if ids.index(holder_id) > ids.index(pid):
            options.append((("@0", pid), split_choice(rng, words.IMPLIED_BEFORE, bank).format(y=place["name"])))
        else:
            options.append(((pid, "@0"), split_choice(rng, words.IMPLIED_AFTER, bank).format(x=place["name"])))
    for first in named:
        for second in named:
            if first is not second and ids.index(first["place_id"]) > ids.index(second["place_id"]):
                options.append(((first["place_id"], second["place_id"]), rule_words(rng, first, second, bank)))
    rng.shuffle(options)
    for (x, y), words_ in options:
        for plan in plans:
            hid = _holder(plan)["place_id"]
            judge_order([plan], (hid if x == "@0" else x, hid if y == "@0" else y))
        try:
            return binding_gold(plans, mode, rule=True), [[x, y]], words_
        except Discard:
            continue
    raise Discard("no visit-order rule binds with a clear winner")

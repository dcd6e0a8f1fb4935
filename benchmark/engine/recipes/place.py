"""Place Perception: identify, verify or compare properties of specific places."""
from __future__ import annotations

import random
from datetime import datetime, timedelta

from environment.opening import hours_are_valid, is_open_at

from ..common import (
    Draft,
    facts_of,
    find_by_name,
    named_places,
    read_notes,
    sample,
    subtype,
    supporting_notes,
    tag_citation,
    type_noun,
    uniquely_named,
)
from ..intents import intent_for
from ..phrasing import ask, join_or, pick
from ..session import Discard
from . import recipe

# The week the time-dependent questions are asked about (no public holiday in it).
WEEK_START = datetime(2026, 12, 7)
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _l0_question(rng: random.Random, key: str, name: str) -> str:
    templates = {
        "opentime_week": ("What are the opening hours of {n}?", "When is {n} open during the week?",
                          "Can you tell me the opening times for {n}?"),
        "rating": ("What rating does {n} have?", "How well is {n} rated?", "What's the rating of {n}?"),
        "cost": ("How much does a visit to {n} cost per person on average?",
                 "What's the average spend per person at {n}?", "Roughly how much per person at {n}?"),
        "address": ("What is the address of {n}?", "Where exactly is {n}? I need the street address.",
                    "Which street address is {n} at?"),
        "place_type": ("What kind of place is {n}?", "What type of business is {n}?",
                       "Is {n} a shop, a cafe or something else? What category is it?"),
        "tag:Cuisine": ("What cuisine does {n} serve?", "What kind of food can I get at {n}?",
                        "Which cuisine is {n} known for?"),
    }
    return ask(rng, rng.choice(templates[key]), n=name)


def _l0_options(place: dict) -> list[str]:
    options = [k for k in ("rating", "cost", "address", "place_type") if place.get(k) not in (None, "")]
    if place["opentime_week"] and hours_are_valid(place["opentime_week"]):
        options.append("opentime_week")
    if "Cuisine: " in place["tag"]:
        options.append("tag:Cuisine")
    return options


def _attribute_value(detail: dict, key: str):
    if key == "tag:Cuisine":
        part = next(p for p in detail["tag"].split("; ") if p.startswith("Cuisine: "))
        return part.split(": ", 1)[1]
    return detail[key]


@recipe("place_perception", "L0")
def place_l0(session, rng: random.Random) -> Draft:
    for place in sample(session, rng, 12):
        options = _l0_options(place)
        if not options or not uniquely_named(session, place):
            continue
        key = rng.choice(sorted(options))
        find_by_name(session, place["name"])
        detail = session.agent("place_detail", place_id=place["place_id"])
        value = _attribute_value(detail, key)
        answer = {"answer": value, "name": place["name"], "place_id": place["place_id"],
                  "reason": f"Direct retrieval of {key} from the place record.",
                  "ref": {"attribute_key": key, "note_id": ""}}
        session.agent("submit_answer", result=answer)
        return Draft(
            question=_l0_question(rng, key, place["name"]), answer=answer,
            attributes=[{"place_id": place["place_id"], "key": key}],
            uniqueness={"check": "unique_name", "name": place["name"], "place_id": place["place_id"]},
            signature=f"{place['place_id']}:{key}",
        )
    raise Discard("no uniquely named place with a known attribute in the sample")


# ------------------------------------------------------------------ L1: comparisons and checks

def _compare(session, rng, key: str, margin: float) -> Draft:
    places = [p for p in sample(session, rng, 30) if p.get(key) is not None]
    rng.shuffle(places)
    a, b = named_places(session, rng, 2, pool=places)
    if abs(a[key] - b[key]) < margin:
        raise Discard(f"{key} too close to compare")
    for place in (a, b):
        find_by_name(session, place["name"])
        session.agent("place_detail", place_id=place["place_id"])
    if key == "rating":
        winner = a if a[key] > b[key] else b
        question = pick(rng, "Which is rated higher, {a} or {b}?",
                        "Between {a} and {b}, which one has the better rating?",
                        "I can only go to one: {a} or {b}. Which has the higher rating?")
        reason = f"{winner['name']} is rated {winner[key]}, the other {min(a[key], b[key])}."
    else:
        winner = a if a[key] < b[key] else b
        question = pick(rng, "Which is cheaper per person, {a} or {b}?", "Is {a} or {b} the more affordable choice?",
                        "On a budget: {a} or {b}, which costs less per person?")
        reason = f"{winner['name']} costs {winner[key]} EUR per person, the other {max(a[key], b[key])} EUR."
    answer = {"answer": winner["name"], "name": winner["name"], "place_id": winner["place_id"], "reason": reason,
              "ref": {"attribute_key": key, "note_id": ""}}
    session.agent("submit_answer", result=answer)
    return Draft(
        question=ask(rng, question, a=a["name"], b=b["name"]), answer=answer,
        attributes=[{"place_id": p["place_id"], "key": key} for p in (a, b)],
        uniqueness={"check": "compare", "key": key, "place_ids": [a["place_id"], b["place_id"]],
                    "names": [a["name"], b["name"]], "expected": winner["place_id"], "margin": margin},
        signature="compare:" + key + ":" + ":".join(sorted([a["place_id"], b["place_id"]])),
    )


def _open_at(session, rng) -> Draft:
    places = [p for p in sample(session, rng, 40) if p["opentime_week"] and hours_are_valid(p["opentime_week"])]
    (place,) = named_places(session, rng, 1, pool=places)
    want_open = rng.random() < 0.5
    moments = [WEEK_START + timedelta(days=d, minutes=30 * m) for d in range(7) for m in range(14, 48)]
    rng.shuffle(moments)
    when = next((m for m in moments if is_open_at(place["opentime_week"], m) is want_open), None)
    if when is None:
        raise Discard("no moment with the wanted opening state")
    find_by_name(session, place["name"])
    session.agent("place_detail", place_id=place["place_id"])
    day = f"{DAYS[when.weekday()]} {when.day} December {when.year}"
    question = pick(rng, "Will {n} be open on {d} at {t}?", "Can I drop by {n} on {d} at {t}, or will it be closed?",
                    "Is {n} open at {t} on {d}?")
    answer = {"answer": want_open, "name": place["name"], "place_id": place["place_id"],
              "reason": f"Opening hours {place['opentime_week']!r} {'include' if want_open else 'exclude'} "
                        f"{day} {when:%H:%M}.",
              "ref": {"attribute_key": "opentime_week", "note_id": ""}}
    session.agent("submit_answer", result=answer)
    return Draft(
        question=ask(rng, question, n=place["name"], d=day, t=when.strftime("%H:%M")),
        answer=answer, attributes=[{"place_id": place["place_id"], "key": "opentime_week"}],
        constraints={"at": when.isoformat(timespec="minutes")},
        uniqueness={"check": "open_at", "name": place["name"], "place_id": place["place_id"],
                    "at": when.isoformat(timespec="minutes"), "expected": want_open},
        signature=f"open:{place['place_id']}:{when:%a%H%M}",
    )


@recipe("place_perception", "L1")
def place_l1(session, rng: random.Random) -> Draft:
    kind = rng.choice(["rating", "cost", "open_at", "open_at"])
    if kind == "open_at":
        return _open_at(session, rng)
    return _compare(session, rng, kind, margin=0.2 if kind == "rating" else 3)


# ------------------------------------------------------------------ L2: implicit social criteria

@recipe("place_perception", "L2")
def place_l2(session, rng: random.Random) -> Draft:
    for place in sample(session, rng, 30):
        keys = [k for k in facts_of(place, "static") + facts_of(place, "long_term")
                if (i := intent_for(k)) is not None and i.polarity == "seek"]
        if not keys or not type_noun(place) or not uniquely_named(session, place):
            continue
        key = rng.choice(keys)
        around = session.engine("nearby_search", center=place["place_id"], radius_meters=1000,
                                place_types=[subtype(place)])["results"]
        rivals = [r for r in around if key not in facts_of(r, "static") + facts_of(r, "long_term")]
        rivals = [r for r in rivals if uniquely_named(session, r)][: rng.choice([1, 2])]
        if not rivals:
            continue
        note_ids = supporting_notes(session, place, key)
        options = [place, *rivals]
        rng.shuffle(options)
        for option in options:
            find_by_name(session, option["name"])
        read_notes(session, place, key, note_ids)
        need = rng.choice(intent_for(key).needs)
        question = pick(rng, "Which of {o} is the better pick if I {need}?",
                        "I {need}. Should I go to {o}?", "Help me choose between {o}: I {need}.")
        answer = {"answer": place["name"], "name": place["name"], "place_id": place["place_id"],
                  "reason": "Social media notes about it support what the user needs; the other options lack it.",
                  "ref": {"attribute_key": tag_citation(key), "note_id": ",".join(note_ids)},
                  "implicit_logic": "True"}
        session.agent("submit_answer", result=answer)
        return Draft(
            question=ask(rng, question, o=join_or([o["name"] for o in options]), need=need),
            answer=answer, note_ids=note_ids, constraints={"fact": {"place_id": place["place_id"], "key": key}},
            attributes=[{"place_id": place["place_id"], "key": tag_citation(key)}] if tag_citation(key) else [],
            uniqueness={"check": "fact_choice", "fact": key, "names": [o["name"] for o in options],
                        "place_ids": [o["place_id"] for o in options], "expected": place["place_id"]},
            signature=f"fact:{place['place_id']}:{key}",
        )
    raise Discard("no place with a fact that its neighbours lack")

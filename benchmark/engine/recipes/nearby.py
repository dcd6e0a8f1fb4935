"""Nearby Discovery: find suitable candidates around a place."""
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
    sample,
    subtype,
    supporting_notes,
    type_noun,
    uniquely_named,
)
from ..intents import intent_for
from ..phrasing import ask, noun_case, pick
from ..session import Discard
from . import recipe

RADII = (200, 300, 400, 500, 700)
NEAREST_MARGIN_M = 15.0


def _anchor(session, rng) -> dict:
    return named_places(session, rng, 1, pool=sample(session, rng, 15))[0]


def _types_around(results: list[dict]) -> list[str]:
    return sorted({subtype(r) for r in results if type_noun(r)})


@recipe("nearby_discovery", "L0")
def nearby_l0(session, rng: random.Random) -> Draft:
    anchor = _anchor(session, rng)
    radius = rng.choice(RADII)
    around = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius)["results"]
    types = _types_around(around)
    if not types:
        raise Discard("nothing typed around the anchor")
    sub = rng.choice(types)
    found = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=[sub])
    results = found["results"]
    if len(results) > 1 and results[1]["distance_m"] - results[0]["distance_m"] < NEAREST_MARGIN_M:
        raise Discard("nearest two are too close to call")
    target = results[0]
    find_by_name(session, anchor["name"])
    session.agent("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=[sub])
    noun = noun_case(sub)
    question = pick(rng, "What's the nearest {t} to {a}? Look within {r} m.",
                    "I'm at {a}. Which {t} is closest, within {r} metres?",
                    "Find me the closest {t} within {r} m of {a}.")
    answer = {"name": target["name"], "place_id": target["place_id"],
              "reason": f"The nearest {noun} to {anchor['name']}, {target['distance_m']} m away.",
              "ref": {"attribute_key": "place_type", "note_id": ""}}
    session.agent("submit_answer", result=answer)
    return Draft(
        question=ask(rng, question, t=noun, a=anchor["name"], r=radius), answer=answer,
        attributes=[{"place_id": target["place_id"], "key": "place_type"}],
        constraints={"center": anchor["place_id"], "radius_m": radius, "place_type": sub},
        uniqueness={"check": "nearest", "arguments": {"center": anchor["place_id"], "radius_meters": radius,
                                                      "place_types": [sub]},
                    "expected": target["place_id"], "margin_m": NEAREST_MARGIN_M},
        signature=f"nearest:{anchor['place_id']}:{sub}",
    )


def _threshold_options(results: list[dict]) -> list[tuple[float | None, float | None, str]]:
    """(min_rating, max_cost, winner) combinations that leave exactly one place, each filter mattering."""
    options = []
    for min_rating in (None, 3.5, 3.8, 4.0, 4.2, 4.5):
        for max_cost in (None, 10, 15, 20, 25, 30, 40, 60):
            if min_rating is None and max_cost is None:
                continue
            kept = [r for r in results if (min_rating is None or (r["rating"] or 0) >= min_rating)
                    and (max_cost is None or (r["cost"] is not None and r["cost"] <= max_cost))]
            if len(kept) != 1:
                continue
            by_rating = [r for r in results if max_cost is None or (r["cost"] is not None and r["cost"] <= max_cost)]
            by_cost = [r for r in results if min_rating is None or (r["rating"] or 0) >= min_rating]
            if min_rating is not None and max_cost is not None and (len(by_rating) == 1 or len(by_cost) == 1):
                continue  # one filter alone would do: keep only combinations where both matter
            options.append((min_rating, max_cost, kept[0]["place_id"]))
    return options


@recipe("nearby_discovery", "L1")
def nearby_l1(session, rng: random.Random) -> Draft:
    anchor = _anchor(session, rng)
    radius = rng.choice((300, 500, 700, 1000))
    around = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius)["results"]
    for sub in rng.sample(_types_around(around), k=len(_types_around(around))):
        found = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=[sub])
        if not 3 <= found["total_matched"] <= 20:
            continue
        options = _threshold_options(found["results"])
        if not options:
            continue
        min_rating, max_cost, winner_id = rng.choice(options)
        target = next(r for r in found["results"] if r["place_id"] == winner_id)
        filters = {k: v for k, v in (("min_rating", min_rating), ("max_cost", max_cost)) if v is not None}
        check = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius,
                               place_types=[sub], **filters)
        if [r["place_id"] for r in check["results"]] != [winner_id]:
            raise Discard("filtered search does not single out the winner")
        find_by_name(session, anchor["name"])
        session.agent("nearby_search", center=anchor["place_id"], radius_meters=radius, place_types=[sub], **filters)
        wants = []
        if min_rating is not None:
            wants.append(f"a rating of at least {min_rating}")
        if max_cost is not None:
            wants.append(f"at most {max_cost} EUR per person")
        question = pick(rng, "Find a {t} within {r} m of {a} with {w}.",
                        "I'm near {a}. Is there a {t} within {r} metres with {w}?",
                        "Which {t} within {r} m of {a} has {w}?")
        keys = ",".join(k for k, v in (("rating", min_rating), ("cost", max_cost)) if v is not None)
        answer = {"name": target["name"], "place_id": target["place_id"],
                  "reason": f"{target['distance_m']} m away, rating {target['rating']}, cost {target['cost']} EUR.",
                  "ref": {"attribute_key": keys, "note_id": ""}}
        session.agent("submit_answer", result=answer)
        return Draft(
            question=ask(rng, question, t=noun_case(sub), r=radius, a=anchor["name"], w=" and ".join(wants)),
            answer=answer,
            attributes=[{"place_id": target["place_id"], "key": k} for k in keys.split(",")],
            constraints={"center": anchor["place_id"], "radius_m": radius, "place_type": sub, **filters},
            uniqueness={"check": "only_places", "tool": "nearby_search",
                        "arguments": {"center": anchor["place_id"], "radius_meters": radius, "place_types": [sub],
                                      **filters},
                        "expected": [winner_id]},
            signature=f"filter:{anchor['place_id']}:{sub}:{winner_id}",
        )
    raise Discard("no type with thresholds that single out one place")


def fact_filter(key: str) -> dict:
    """The engine filter that finds places holding a fact: geo_tag for static tags, social_mem otherwise."""
    from environment.build.corpus.vocab import ALL_SPECS

    return {"geo_tag": [label_value(key)]} if ALL_SPECS[key].kind == "static" else {"social_mem": [label_value(key)]}


@recipe("nearby_discovery", "L2")
def nearby_l2(session, rng: random.Random) -> Draft:
    for target in sample(session, rng, 25):
        keys = [k for k in facts_of(target, "static") + facts_of(target, "long_term")
                if (i := intent_for(k)) is not None and i.polarity == "seek"]
        if not keys:
            continue
        key = rng.choice(keys)
        radius = rng.choice((200, 300, 400))
        around = session.engine("nearby_search", center=target["place_id"], radius_meters=radius * 0.8)["results"]
        anchors = [a for a in around if a["distance_m"] >= 30 and uniquely_named(session, a)]
        if not anchors:
            continue
        anchor = anchors[0]
        holders = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius, **fact_filter(key))
        found = [r for r in holders["results"] if has_fact(r, key)]
        if [r["place_id"] for r in holders["results"]] != [target["place_id"]] or len(found) != 1:
            continue
        note_ids = supporting_notes(session, target, key)
        find_by_name(session, anchor["name"])
        listing = session.agent("nearby_search", center=anchor["place_id"], radius_meters=radius,
                                place_types=[subtype(target)])
        if target["place_id"] not in [r["place_id"] for r in listing["results"]]:
            continue
        read_notes(session, target, key, note_ids)
        want = rng.choice(intent_for(key).wants)
        question = pick(rng, "I'm at {a} and I want to {w}. Where can I go within {r} m?",
                        "Somewhere within {r} metres of {a} where I can {w}?",
                        "Near {a} (at most {r} m away), where could I {w}?")
        spec_static = "geo_tag" in fact_filter(key)
        answer = {"name": target["name"], "place_id": target["place_id"],
                  "reason": "Social media notes confirm it offers what the user implicitly needs.",
                  "ref": {"attribute_key": f"tag:{label_value(key)}" if spec_static else "",
                          "note_id": ",".join(note_ids)},
                  "implicit_logic": "True"}
        session.agent("submit_answer", result=answer)
        return Draft(
            question=ask(rng, question, a=anchor["name"], w=want, r=radius), answer=answer,
            note_ids=note_ids,
            attributes=[{"place_id": target["place_id"], "key": f"tag:{label_value(key)}"}] if spec_static else [],
            constraints={"center": anchor["place_id"], "radius_m": radius,
                         "fact": {"place_id": target["place_id"], "key": key}},
            uniqueness={"check": "only_places", "tool": "nearby_search",
                        "arguments": {"center": anchor["place_id"], "radius_meters": radius, **fact_filter(key)},
                        "expected": [target["place_id"]]},
            signature=f"nearfact:{target['place_id']}:{key}",
        )
    raise Discard("no fact that only one place near an anchor holds")

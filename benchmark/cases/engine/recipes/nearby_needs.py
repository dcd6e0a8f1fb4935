"""Nearby Discovery L2: a place around a named place that meets a need the user only implies."""

from __future__ import annotations

import random

from environment.opening import hours_are_valid
from judging.vocabulary import Category, Level

from ..common import (
    Draft,
    evidence_ref,
    fact_constraint,
    find_by_name,
    has_need,
    named_places,
    need_filters,
    needs_of,
    noun_types,
    nouns_fitting,
    read_notes,
    sample,
    supporting_notes,
    want_phrase,
)
from ..moments import moments_when, stable_state
from ..question_phrasing import a, moment_slots
from ..session import Discard
from ..wording import nearby as words
from .nearby import nearest_margin, radius_for, walk_costs
from .registry import recipe

MIN_DISTRACTORS = 4  # other places a reader would consider within the radius, so guessing rarely works


def _holders_around(session, anchor: dict, radius: float, noun, key: str) -> list[dict]:
    found = {}
    types = {"place_types": noun_types(noun)} if noun else {}
    for filters in need_filters(key):
        for record in session.engine(
            "nearby_search", center=anchor["place_id"], radius_meters=radius, **types, **filters
        )["results"]:
            if (noun is None or noun.match(record)) and has_need(record, key):
                found[record["place_id"]] = record
    return sorted(found.values(), key=lambda r: r["distance_m"])


@recipe(Category.NEARBY_DISCOVERY, Level.L2)
def nearby_l2(session, rng: random.Random) -> Draft:
    timed = session.variant(rng, "nearby_L2", {"timed": 30, "untimed": 70}) == "timed"
    for gold in sample(session, rng, 30):
        keys = needs_of(gold)
        if not keys or (timed and not hours_are_valid(gold["opentime_week"] or "")):
            continue
        key = rng.choice(keys)
        nouns = nouns_fitting(gold, key)
        noun = None if timed or not nouns or rng.random() < 0.35 else rng.choice(nouns)
        around = session.engine("nearby_search", center=gold["place_id"], radius_meters=350)["results"]
        anchors = [r for r in around if r["distance_m"] >= 40]
        rng.shuffle(anchors)
        if not anchors:
            continue
        (anchor,) = named_places(session, rng, 1, pool=anchors[:6])
        distance = next(r["distance_m"] for r in around if r["place_id"] == anchor["place_id"])
        return _case(session, rng, anchor, gold, key, noun, radius_for(distance), timed)
    raise Discard("no sampled place holds a need that fits it")


def _case(session, rng, anchor, gold, key, noun, radius, timed) -> Draft:
    holders = _holders_around(session, anchor, radius * 1.1, noun, key)
    if gold["place_id"] not in {h["place_id"] for h in holders}:
        raise Discard("the engine's filters do not find the gold near the anchor")
    gold = next(h for h in holders if h["place_id"] == gold["place_id"])  # with its distance from the anchor
    rivals = [h for h in holders if h["place_id"] != gold["place_id"]]
    when, nearest = None, False
    if timed:
        when = _moment_for(rng, gold, rivals)
    elif rivals:
        nearest = True
        if holders[0]["place_id"] != gold["place_id"] or rivals[0]["distance_m"] - gold["distance_m"] < nearest_margin(
            gold["distance_m"]
        ):
            raise Discard("the gold is not clearly the nearest place that holds the need")
        walks = walk_costs(session, anchor, [gold, *rivals[:3]])
        if any(
            w - walks[gold["place_id"]] < max(30.0, 0.03 * walks[gold["place_id"]]) * 1.3
            for pid, w in walks.items()
            if pid != gold["place_id"]
        ):
            raise Discard("on foot the gold is not clearly the nearest holder")
    types = {"place_types": noun_types(noun)} if noun else {}
    nearby = session.engine("nearby_search", center=anchor["place_id"], radius_meters=radius, **types)
    if nearby["total_matched"] - 1 < MIN_DISTRACTORS:
        raise Discard("too few other places around to choose from")
    # The need must change the answer: without it, the nearest place would do.
    if nearby["results"] and nearby["results"][0]["place_id"] == gold["place_id"]:
        raise Discard("the gold is the nearest place anyway: the need does not matter")
    want = want_phrase(session, rng, key, gold, timed=timed)
    note_ids = supporting_notes(session, gold, key)
    find_by_name(session, anchor["name"])
    session.agent(
        "nearby_search",
        center=anchor["place_id"],
        radius_meters=radius,
        **({"place_types": noun.types()} if noun else {}),
    )
    read_notes(session, gold, key, note_ids)
    extra: tuple[str, ...]
    extra, query = (), {"radius_m": radius, "rank": "only"}
    if when is not None:
        session.agent("place_detail", place_id=gold["place_id"])
        extra, query = ("opentime_week",), {**query, "open_at": when.isoformat(timespec="minutes")}
    if nearest:
        query = {"rank": "nearest", "by": "either"}
    answer = {
        "name": gold["name"],
        "place_id": gold["place_id"],
        "reason": "Social media notes confirm it offers what the user implicitly needs"
        + (", and it is open then." if when else "."),
        "ref": evidence_ref(note_ids, extra),
        "implicit_logic": "True",
    }
    session.agent("submit_answer", result=answer)
    noun_slots = {"noun": noun.singular, "a_noun": a(noun.singular)} if noun else {}
    if when is not None:
        bank, skeletons, slots = "nearby_L2.open", words.NEED_OPEN, moment_slots(when)
    elif nearest:
        bank, skeletons = (
            ("nearby_L2.nearest_noun", words.NEED_NEAREST_NOUN)
            if noun
            else ("nearby_L2.nearest_any", words.NEED_NEAREST_ANY)
        )
        slots = {}
    else:
        bank, skeletons = ("nearby_L2.noun", words.NEED_NOUN) if noun else ("nearby_L2.any", words.NEED_ANY)
        slots = {}
    constraints = {
        "center": anchor["place_id"],
        "fact": fact_constraint(gold, key),
        **(noun.constraint() if noun else {}),
        **{k: v for k, v in query.items() if k in ("radius_m", "open_at")},
    }
    return Draft(
        question=session.say(rng, bank, skeletons, a=anchor["name"], want=want, R=radius, **noun_slots, **slots),
        answer=answer,
        query={
            "kind": "find",
            "center": anchor["place_id"],
            "noun": noun.key if noun else None,
            "need": key,
            "phrase": want,
            **query,
        },
        note_ids=note_ids,
        constraints=constraints,
        attributes=[{"place_id": gold["place_id"], "key": k} for k in extra],
        signature=f"nearneed:{gold['place_id']}:{key}",
    )


def _moment_for(rng, gold: dict, rivals: list[dict]):
    """A moment when the gold is open and every rival holder is surely closed."""
    if not hours_are_valid(gold["opentime_week"] or "") or any(
        not hours_are_valid(r["opentime_week"] or "") for r in rivals
    ):
        raise Discard("opening hours are missing for the gold or a rival")
    opens = moments_when(gold["opentime_week"], True, between=(8, 22))
    rng.shuffle(opens)
    for when in opens[:40]:
        if all(stable_state(r["opentime_week"], when) is False for r in rivals):
            return when
    raise Discard("no moment when only the gold is open")

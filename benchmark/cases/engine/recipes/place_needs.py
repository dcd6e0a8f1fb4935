"""Place Perception L2: which place fits a need the user only implies (social evidence decides)."""

from __future__ import annotations

import random
from typing import Any

from environment.opening import hours_are_valid
from judging.vocabulary import Category, Level

from ..common import (
    Draft,
    accepted,
    evidence_ref,
    fact_constraint,
    find_by_name,
    has_need,
    need_filters,
    needs_of,
    noun_types,
    nouns_fitting,
    read_notes,
    sample,
    supporting_notes,
    tag_citation,
    uniquely_named,
    want_phrase,
)
from ..moments import moments_when, stable_state
from ..question_phrasing import a, join_names, moment_slots
from ..session import Discard
from ..wording import place as words
from .registry import recipe


def holders_of_noun(session, noun, key: str) -> list[dict]:
    """Places the noun accepts or might accept that hold the need, found with the engine's filters."""
    found = {}
    for filters in need_filters(key):
        for record in session.engine("place_search", query_name="", place_types=noun_types(noun), **filters)["results"]:
            if noun.match(record) and has_need(record, key):
                found[record["place_id"]] = record
    return sorted(found.values(), key=lambda r: r["place_id"])


def _gold_and_need(session, rng, *, timed: bool = False):
    """A sampled place, one of its needs that names a fitting noun, and that noun."""
    for place in sample(session, rng, 40):
        keys = [k for k in needs_of(place) if nouns_fitting(place, k)]
        if not keys:
            continue
        key = rng.choice(keys)
        noun = rng.choice(nouns_fitting(place, key))
        try:
            want_phrase(rng, key, place, timed=timed)
        except Discard:
            continue
        return place, key, noun
    raise Discard("no sampled place holds a need that fits it")


def _single_out(rng, place: dict, rivals: list[dict]):
    """A condition that only the gold meets among the need's holders: ("open_at", moment) or ("min_rating", x)."""
    options = []
    if hours_are_valid(place["opentime_week"] or "") and all(hours_are_valid(r["opentime_week"] or "") for r in rivals):
        opens = moments_when(place["opentime_week"], True, between=(8, 22))
        rng.shuffle(opens)
        for when in opens[:40]:
            if all(stable_state(r["opentime_week"], when) is False for r in rivals):
                options.append(("open_at", when))
                break
    best_rival = max((r["rating"] or 0 for r in rivals), default=0)
    if place["rating"] is not None and place["rating"] - best_rival >= 0.2:
        options.append(("min_rating", round(place["rating"] - 0.1, 1)))
    if not options:
        raise Discard("no stated condition singles the gold out among the need's holders")
    return rng.choice(options)


def _need_find(session, rng) -> Draft:
    place, key, noun = _gold_and_need(session, rng)
    holders = holders_of_noun(session, noun, key)
    if place["place_id"] not in {h["place_id"] for h in holders}:
        raise Discard("the engine's filters do not find the gold")
    rivals = [h for h in holders if h["place_id"] != place["place_id"]]
    if len(rivals) > 4:
        raise Discard("too many places hold the need")
    condition: tuple[str | None, Any] = _single_out(rng, place, rivals) if rivals else (None, None)
    if not uniquely_named(session, place):
        raise Discard("the gold's name is not unique")
    # The need must matter: without it, the best-rated place of the noun (meeting the condition) would do.
    rating = {"min_rating": condition[1]} if condition[0] == "min_rating" else {}
    top = session.engine("place_search", query_name="", place_types=noun_types(noun), **rating)["results"]
    top = [r for r in top if accepted(noun, r)]
    if top and top[0]["place_id"] == place["place_id"]:
        raise Discard("the gold is the best-rated place of its kind anyway: the need does not matter")
    timed = condition[0] == "open_at"
    want = want_phrase(rng, key, place, timed=timed)
    note_ids = supporting_notes(session, place, key)
    session.agent("place_search", query_name="", place_types=noun_types(noun))
    read_notes(session, place, key, note_ids)
    extra: tuple[str, ...]
    extra, query, constraints = (), {}, {}
    if condition[0] == "open_at":
        session.agent("place_detail", place_id=place["place_id"])
        iso = condition[1].isoformat(timespec="minutes")
        extra, query, constraints = ("opentime_week",), {"open_at": iso}, {"open_at": iso}
    elif condition[0] == "min_rating":
        extra, query, constraints = ("rating",), {"min_rating": condition[1]}, {"min_rating": condition[1]}
    answer = {
        "answer": place["name"],
        "name": place["name"],
        "place_id": place["place_id"],
        "reason": "Social media notes show it offers what the user is after"
        + (" and it meets the stated condition." if condition[0] else "."),
        "ref": evidence_ref(key, note_ids, extra),
        "implicit_logic": "True",
    }
    session.agent("submit_answer", result=answer)
    skeletons: tuple[str, ...]
    slots: dict[str, str]
    bank, skeletons, slots = "place_L2.find", words.NEED_FIND, {}
    if condition[0] == "open_at":
        bank, skeletons, slots = "place_L2.find_open", words.NEED_FIND_OPEN, moment_slots(condition[1])
    elif condition[0] == "min_rating":
        bank, skeletons, slots = "place_L2.find_rated", words.NEED_FIND_RATED, {"x": f"{condition[1]:g}"}
    return Draft(
        question=session.say(rng, bank, skeletons, noun=noun.singular, a_noun=a(noun.singular), want=want, **slots),
        answer=answer,
        query={"kind": "find", "noun": noun.key, "need": key, "phrase": want, "rank": "only", **query},
        note_ids=note_ids,
        constraints={**noun.constraint(), "fact": fact_constraint(place, key), **constraints},
        attributes=_attributes(place, key, extra),
        signature=f"needfind:{place['place_id']}:{key}",
    )


def _need_choice(session, rng) -> Draft:
    place, key, noun = _gold_and_need(session, rng)
    if not uniquely_named(session, place):
        raise Discard("the gold's name is not unique")
    found = session.engine("place_search", query_name="", place_types=noun_types(noun))["results"]
    others = [r for r in found if accepted(noun, r) and r["place_id"] != place["place_id"] and not has_need(r, key)]
    rng.shuffle(others)
    others = [r for r in others if uniquely_named(session, r)][:4]
    if len(others) < 4:
        raise Discard("not enough other places of the noun without the need")
    options = [place, *others]
    rng.shuffle(options)
    need = want_phrase(rng, key, place, kind="needs")
    note_ids = supporting_notes(session, place, key)
    for option in options:
        find_by_name(session, option["name"])
    read_notes(session, place, key, note_ids)
    answer = {
        "answer": place["name"],
        "name": place["name"],
        "place_id": place["place_id"],
        "reason": "Social media notes about it support what the user needs; the other options lack it.",
        "ref": evidence_ref(key, note_ids),
        "implicit_logic": "True",
    }
    session.agent("submit_answer", result=answer)
    names = [o["name"] for o in options]
    return Draft(
        question=session.say(
            rng, "place_L2.choice", words.NEED_CHOICE, need=need, nouns=noun.plural, options=join_names(names, "or")
        ),
        answer=answer,
        query={"kind": "need_choice", "places": [o["place_id"] for o in options], "need": key, "phrase": need},
        note_ids=note_ids,
        constraints={"fact": fact_constraint(place, key)},
        attributes=_attributes(place, key, ()),
        signature=f"needchoice:{place['place_id']}:{key}",
    )


def _attributes(place: dict, key: str, extra: tuple[str, ...]) -> list[dict]:
    keys = [k for k in (tag_citation(key), *extra) if k]
    return [{"place_id": place["place_id"], "key": k} for k in keys]


@recipe(Category.PLACE_PERCEPTION, Level.L2)
def place_l2(session, rng: random.Random) -> Draft:
    variant = session.variant(rng, "place_L2", {"find": 60, "choice": 40})
    return _need_find(session, rng) if variant == "find" else _need_choice(session, rng)

"""Place Perception L2: which of six named places meets a need the user only implies (social evidence decides).

Every named place is of the same noun, the need fits each, and no record shows it: the five that do not
hold it are the gold's look-alikes, and the notes (read under the evidence rule) tell them apart."""

from __future__ import annotations

import itertools
import random

from benchmark.cases.audit import audit_world
from benchmark.cases.audit.evidence import MIN_DECOYS, has_talk, keyword_counts
from benchmark.cases.engine.kit.common import (
    Draft,
    accepted,
    evidence_ref,
    fact_constraint,
    find_by_name,
    has_need,
    needs_of,
    noun_types,
    nouns_fitting,
    read_notes,
    sample,
    shows_need,
    supporting_notes,
    talked_about,
    uniquely_named,
    want_phrase,
)
from benchmark.cases.engine.kit.question_phrasing import join_names
from benchmark.cases.engine.kit.session import Discard
from benchmark.cases.needs import need_of
from benchmark.cases.rank_rules import CaseSignals
from kernel.vocabulary import Category, Level

from ..wording import place as words
from .registry import recipe


def _gold_and_need(session, rng):
    """A sampled place, one of its needs that names a fitting noun, and that noun."""
    for place in sample(session, rng, 40):
        keys = [k for k in needs_of(place, session.bank) if nouns_fitting(place, k)]
        if not keys:
            continue
        key = rng.choice(keys)
        noun = rng.choice(nouns_fitting(place, key))
        try:
            want_phrase(session, rng, key, place)
        except Discard:
            continue
        return place, key, noun
    raise Discard("no sampled place holds a need that fits it")


CHOICE_OTHERS = 5  # the named options besides the gold: its look-alikes, each without the need but where it fits
CHOICE_POOL = 14  # the hardest candidates the options are chosen from, to aim the gold's rank by rating


def _need_choice(session, rng) -> Draft:
    """Which of six named places of a noun meets the need: the gold holds it, the five others (where it would
    fit, and whose records do not show it) do not, and notes talk about it at the nearest of them."""
    place, key, noun = _gold_and_need(session, rng)
    if not uniquely_named(session, place):
        raise Discard("the gold's name is not unique")
    # The other options are places of the same noun where the need could hold (a reader cannot tell
    # them from the gold by their record) but does not: the nearest, where the talk about it is.
    found = session.engine("nearby_search", center=place["place_id"], radius_meters=2000, place_types=noun_types(noun))[
        "results"
    ]
    others = [
        r
        for r in found
        if accepted(noun, r) and not has_need(r, key) and need_of(key).fits(r) and not shows_need(r, key)
    ]
    others = [r for r in others[:16] if uniquely_named(session, r)]
    # Hard options first: places whose notes talk about the need too (read from their visible notes).
    others.sort(key=lambda r: -talked_about(session, r, key))
    others = options_at_allowed_rank(session, place, key, others)
    if len(others) < CHOICE_OTHERS:
        raise Discard("not enough other places of the noun without the need")
    # The gold's place among the options is balanced over the cell (a variant), so naming the first, or any
    # fixed, option finds it no more often than chance.
    rng.shuffle(others)
    at = int(session.variant(rng, "place_L2.gold_at", {str(i): 1.0 for i in range(CHOICE_OTHERS + 1)}))
    options = [*others[:at], place, *others[at:]]
    want = want_phrase(session, rng, key, place)
    note_ids = supporting_notes(session, place, key)
    for option in options:
        find_by_name(session, option["name"])
    read_notes(session, place, key, note_ids)
    answer = {
        "answer": place["name"],
        "name": place["name"],
        "place_id": place["place_id"],
        "reason": "Social media notes about it support what the user needs; the other options lack it.",
        "ref": evidence_ref(note_ids),
        "implicit_logic": "True",
    }
    session.agent("submit_answer", result=answer)
    names = [o["name"] for o in options]
    return Draft(
        question=session.say(
            rng, "place_L2.choice", words.NEED_CHOICE, want=want, nouns=noun.plural, options=join_names(names, "or")
        ),
        answer=answer,
        query={
            "kind": "need_choice",
            "places": [o["place_id"] for o in options],
            "need": key,
            "phrase": want,
        },
        note_ids=note_ids,
        constraints={"fact": fact_constraint(place, key)},
        attributes=[],
        signature=f"needchoice:{place['place_id']}:{key}",
    )


def _attributes(place: dict, key: str, extra: tuple[str, ...]) -> list[dict]:
    return [{"place_id": place["place_id"], "key": k} for k in extra]


def options_at_allowed_rank(session, gold: dict, key: str, others: list[dict]) -> list[dict]:
    """The first :data:`CHOICE_OTHERS` of ``others`` (hard ones first); while the cell's rank quota is filling,
    the first set of them, in combination order among the first :data:`CHOICE_POOL`, that the quota still
    admits (the gold's rank by rating and by keyword hits, as the verifier counts them,
    :func:`..audit.evidence.keyword_counts`, and what the best-rated, worst-rated, cheapest, dearest, most- and
    fewest-hits rules would pick), with at least two options whose notes talk about the need. With six options
    a solver could otherwise learn "the second-most keyword hits" or "the worst-rated" from the public cases:
    the runner refuses a draft whose rank or pick is already common, and these options aim at one that is not,
    so the cell fills before the quota gives way."""
    quota = session.rank_quota
    if quota is None:
        return others[:CHOICE_OTHERS]
    world = audit_world(session.context.city_name)
    counts = keyword_counts(world)
    pool = [gold, *others[:CHOICE_POOL]]
    signals = {
        "rating": {p["place_id"]: r for p in pool if (r := world.place(p["place_id"]).rating) is not None},
        "cost": {p["place_id"]: float(c) for p in pool if (c := world.place(p["place_id"]).cost) is not None},
        "hits": {p["place_id"]: float(counts.hits(p["place_id"], key)[0]) for p in pool},
    }
    for chosen in itertools.combinations(others[:CHOICE_POOL], CHOICE_OTHERS):
        talk = sum(1 for o in chosen if has_talk(world, o["place_id"], key))
        case = CaseSignals(gold["place_id"], tuple(p["place_id"] for p in (gold, *chosen)), signals)
        if talk >= MIN_DECOYS and quota.refusal([case]) is None:
            return list(chosen)
    return others[:CHOICE_OTHERS]


@recipe(Category.PLACE_PERCEPTION, Level.L2)
def place_l2(session, rng: random.Random) -> Draft:
    session.variant(rng, "place_L2", {"choice": 100})
    return _need_choice(session, rng)

"""Nearby Discovery L2: a place around a named place that meets a need the user only implies."""

from __future__ import annotations

import random

import numpy as np

from benchmark.cases.audit import audit_world
from benchmark.cases.audit.common import lookalikes, noun_candidates
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
    sample,
    supporting_notes,
    uniquely_named,
    want_phrase,
)
from benchmark.cases.engine.kit.question_phrasing import a, moment_slots
from benchmark.cases.engine.kit.session import Discard
from benchmark.cases.moments import moments_when, stable_state
from benchmark.cases.needs import need_of
from kernel.opening import hours_are_valid
from kernel.vocabulary import Category, Level

from ..wording import nearby as words
from .nearby import NEAREST_SLACK, nearest_margin, radius_for, walk_costs
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


# The gold's rank by distance from the named place among its look-alikes (places of the noun where the need
# fits and does not hold): a variant balanced over the cell, so that no rank ("the third nearest") finds the
# gold much more often than chance. The nearest is never the gold (the verifier refuses it: no note needed).
RANKS = tuple(range(2, 10))
ANCHOR_RADIUS_M = (40.0, 900.0)
CLEAR_SAFETY = 1.2  # the planar aim keeps this much more than the nearest-margin, which the engine checks on foot
QUOTA_PLACES = 100  # nearby golds have tens of look-alikes: the quota's share is its floor (RANK_SHARE)


@recipe(Category.NEARBY_DISCOVERY, Level.L2)
def nearby_l2(session, rng: random.Random) -> Draft:
    timed = session.variant(rng, "nearby_L2", {"timed": 30, "untimed": 70}) == "timed"
    rank = int(session.variant(rng, "nearby_L2.rank", _rank_weights(session)))
    for gold in sample(session, rng, 30):
        keys = needs_of(gold, session.bank)
        if not keys or (timed and not hours_are_valid(gold["opentime_week"] or "")):
            continue
        key = rng.choice(keys)
        nouns = nouns_fitting(gold, key)
        noun = None if timed or not nouns or rng.random() < 0.35 else rng.choice(nouns)
        anchors = anchors_at_rank(session, gold["place_id"], noun.key if noun else None, key, rank, clear=not timed)
        rng.shuffle(anchors)
        for anchor_id, distance in anchors[:6]:
            anchor = session.engine("place_search", query_name=session_name(session, anchor_id))["results"]
            record = next((r for r in anchor if r["place_id"] == anchor_id), None)
            if record is not None and uniquely_named(session, record):
                return _case(session, rng, record, gold, key, noun, radius_for(distance), timed)
    raise Discard("no named place puts the gold at the wanted rank among the places that look like it")


def _rank_weights(session) -> dict[str, float]:
    """The ranks to aim at, equally: those the cell's rank quota still allows (every one once all are full)."""
    quota = session.rank_quota
    allowed = [r for r in RANKS if quota is None or quota.allows("measure", r, places=QUOTA_PLACES)]
    return {str(r): 1.0 if r in (allowed or RANKS) else 0.0 for r in RANKS}


def session_name(session, place_id: str) -> str:
    return audit_world(session.context.city_name).place(place_id).name


def anchors_at_rank(
    session, gold: str, noun: str | None, key: str, rank: int, clear: bool = False
) -> list[tuple[str, float]]:
    """(place_id, distance to the gold) of every place 40-900 m from the gold from which the gold is the
    ``rank``-th nearest of itself and its look-alikes (the verifier's, :func:`..audit.common.lookalikes`),
    in place_id order; with ``clear``, only those from which every other holder of the need (of the noun) is
    farther than the gold by the nearest-margin, so an untimed question's gold is clearly the nearest holder.
    Distances are planar over the city's small extent: enough to aim at a rank, which the verifier then
    measures on the ellipsoid."""
    world = audit_world(session.context.city_name)
    memo_key = ("lookalikes", noun, key)
    if memo_key not in session.memo:
        session.memo[memo_key] = lookalikes(world, noun, key), _holders_of(world, noun, key)
    alike = [p for p in session.memo[memo_key][0] if p != gold]
    ids, xy = _planar(world)
    index = {pid: i for i, pid in enumerate(ids)}
    to_gold = np.hypot(*(xy - xy[index[gold]]).T)
    near = np.flatnonzero((to_gold >= ANCHOR_RADIUS_M[0]) & (to_gold <= ANCHOR_RADIUS_M[1]))
    if not alike or not len(near):
        return []
    rivals = xy[[index[p] for p in alike]]
    to_rivals = np.hypot(*(xy[near][:, None, :] - rivals[None, :, :]).transpose(2, 0, 1))
    ranks = 1 + (to_rivals < to_gold[near][:, None]).sum(axis=1)
    keep = ranks == rank
    holders = [index[p] for p in session.memo[memo_key][1] if p != gold]
    if clear and holders:
        to_holders = np.hypot(*(xy[near][:, None, :] - xy[holders][None, :, :]).transpose(2, 0, 1)).min(axis=1)
        margin = np.maximum(15.0, 0.1 * to_gold[near]) * NEAREST_SLACK * CLEAR_SAFETY
        keep &= to_holders - to_gold[near] >= margin
    return [(ids[i], float(to_gold[i])) for i, k in zip(near, keep) if k and ids[i] != gold]


def _holders_of(world, noun: str | None, key: str) -> list[str]:
    """Places that hold the need under the evidence rule, of the noun if one is named (any verdict)."""
    held = world.holders(need_of(key).satisfied_by)
    return sorted(held if noun is None else held & set(noun_candidates(world, noun)))


def _planar(world) -> tuple[list[str], np.ndarray]:
    """The city's place ids and their coordinates in metres (equirectangular about the city's centre)."""
    cached = world.__dict__.get("_planar")
    if cached is None:
        ids = sorted(world.places)
        lon = np.array([world.places[p].lon for p in ids])
        lat = np.array([world.places[p].lat for p in ids])
        lat0 = np.radians(lat.mean())
        xy = np.column_stack((np.radians(lon) * np.cos(lat0), np.radians(lat))) * 6_371_008.8
        cached = world.__dict__["_planar"] = (ids, xy)
    return cached


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

"""Helpers shared by the case recipes: sampling, names, nouns, needs, evidence notes, answer pieces."""

from __future__ import annotations

import random
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from benchmark.cases.lexicon import ACCEPT, Noun, nouns_for, top_of
from benchmark.cases.moments import WEEK_END, WEEK_START, query_moment, spoken_date
from benchmark.cases.needs import NEEDS, need_of, needs_in, nouns_for_need
from benchmark.cases.phrasings import fitting_phrases
from environment.build.corpus.kinds import kind_of
from environment.build.corpus.text import parse_label_span
from environment.build.corpus.vocab import ALL_SPECS, STATIC_KEY_OF_LABEL
from environment.selectors import fact_note_ids
from kernel.text import fold

from .session import Discard, EngineSession

SAMPLE_SIZE = 50
SHOP_TOPS = ("Shopping", "Crafts")


@dataclass
class Draft:
    """What a recipe returns: the case content; the runner adds ids, paths and provenance.

    ``query`` states what the question asks in its own terms (place nouns, needs, conditions,
    named places); the independent verifier solves it against the whole city.
    """

    question: str
    answer: dict[str, Any]
    query: dict[str, Any]
    attributes: list[dict[str, str]] = field(default_factory=list)  # required evidence [{place_id, key}]
    note_ids: list[str] = field(default_factory=list)
    constraints: dict[str, Any] = field(default_factory=dict)
    signature: str = ""  # what makes two drafts the same case (deduplication)
    notes: dict[str, Any] = field(default_factory=dict)  # what the engine found (runner-up, margins), for curators


def sample(session: EngineSession, rng: random.Random, n: int = SAMPLE_SIZE) -> list[dict]:
    """Full records of ``n`` places drawn with the engine's sample_place tool."""
    return session.engine("sample_place", num_samples=n, seed=rng.randrange(10**9))["pois"]


def uniquely_named(session: EngineSession, place: dict) -> bool:
    """True when no other place in the city has this name or uses it as an alias (engine place_search).

    The answer never changes for a city version, so the run keeps it (``session.memo``)."""
    if len(place["name"]) < 3:
        return False
    key = ("unique", place["place_id"])
    if key not in session.memo:
        found = session.engine("place_search", query_name=place["name"])
        name = fold(place["name"]).strip()
        same = [
            r
            for r in found["results"]
            if fold(r["name"]).strip() == name or name in {fold(a).strip() for a in r["alias"].split("|")}
        ]
        session.memo[key] = [r["place_id"] for r in same] == [place["place_id"]]
    return session.memo[key]


def named_places(
    session: EngineSession,
    rng: random.Random,
    k: int,
    pool: list[dict] | None = None,
    exclude: Collection[str] = frozenset(),
) -> list[dict]:
    """``k`` uniquely named places from a fresh sample (or ``pool``), in sample order."""
    chosen = []
    for place in pool if pool is not None else sample(session, rng):
        if place["place_id"] not in exclude and uniquely_named(session, place):
            chosen.append(place)
            if len(chosen) == k:
                return chosen
    raise Discard("not enough uniquely named places in the sample")


def ref(place: dict, reason: str = "", **extra: Any) -> dict:
    out = {"name": place["name"], "place_id": place["place_id"]}
    if reason:
        out["reason"] = reason
    out.update(extra)
    return out


def find_by_name(session: EngineSession, name: str) -> dict:
    """The agent's reference lookup of a named place: place_search, then the exact-name hit."""
    found = session.agent("place_search", query_name=name)
    for record in found["results"]:
        if fold(record["name"]) == fold(name):
            return record
    raise Discard(f"agent place_search does not surface {name!r}")


# ------------------------------------------------------------------ nouns

# Nouns that make sense as a stop on the way somewhere, and as the theme of a tour.
STOP_NOUNS = frozenset(
    {
        "cafe",
        "bakery",
        "ice_cream",
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
        "burger_place",
        "fast_food",
        "vegetarian_restaurant",
        "supermarket",
        "convenience_store",
        "kiosk",
        "pharmacy",
        "florist",
        "bookshop",
        "gift_shop",
        "clothes_shop",
        "shoe_shop",
        "jewellery_shop",
        "phone_shop",
        "electronics_shop",
        "sports_shop",
        "outdoor_shop",
        "toy_shop",
        "liquor_store",
        "cash_machine",
        "bank",
        "post_office",
        "bike_shop",
        "hardware_store",
        "department_store",
        "shopping_centre",
        "cosmetics_shop",
        "music_shop",
        "antique_shop",
        "homeware_shop",
        "museum",
        "art_gallery",
        "library",
        "park",
        "optician",
    }
)
TOUR_NOUNS = frozenset(
    {
        "cafe",
        "bakery",
        "bar",
        "pub",
        "restaurant",
        "asian_restaurant",
        "japanese_restaurant",
        "sushi_restaurant",
        "italian_restaurant",
        "pizzeria",
        "burger_place",
        "museum",
        "art_gallery",
        "bookshop",
        "antique_shop",
        "clothes_shop",
        "gift_shop",
        "park",
        "memorial",
        "church",
        "library",
        "ice_cream",
        "jewellery_shop",
    }
)
_NOT_VISITED = (
    "School",
    "Kindergarten",
    "Embassy",
    "Police",
    "Fire Station",
    "Courthouse",
    "Recycling",
    "Toilets",
    "Parking",
    "Government Office",
    "Social Facility",
    "Driving School",
    "Taxi Stand",
    "Fuel Station",
    "Town Hall",
    "Public Building",
    "Financial Services",
    "Insurance",
    "Car Rental",
)


def visitable(place: dict) -> bool:
    """Somewhere a person would go as a stop of a trip (not an office, a school or a car park)."""
    sub = place["place_type"].split("|", 1)[-1]
    return top_of(place) != "Business" and sub not in _NOT_VISITED and not sub.startswith("Other")


def nouns_of(place: dict) -> list[Noun]:
    """The nouns that accept a place, most specific first."""
    return nouns_for(place)


def pick_noun(rng: random.Random, place: dict, allowed: tuple[str, ...] | None = None) -> Noun | None:
    """A noun that accepts the place (among ``allowed`` keys when given): half the time the broadest one
    (a pub is asked for as "a bar", a sushi bar as "an Asian restaurant"), else any at random."""
    options = [n for n in nouns_for(place) if allowed is None or n.key in allowed]
    if not options:
        return None
    return options[-1] if rng.random() < 0.5 else rng.choice(options)


def noun_count(session: EngineSession, noun: Noun) -> int:
    """How many places in the city the noun's type filter matches (engine place_search; kept for the run)."""
    key = ("count", noun.key)
    if key not in session.memo:
        found = session.engine("place_search", query_name="", place_types=noun_types(noun))
        session.memo[key] = found["total_matched"]
    return session.memo[key]


def noun_types(noun: Noun) -> list[str]:
    """The place_types filter that finds a noun's places and the arguable ones (engine and agent)."""
    return sorted(noun.accept | noun.might)


def of_noun(noun: Noun, records: list[dict]) -> list[dict]:
    """The records a reader could take for the noun (accepted or arguable), in their order."""
    return [r for r in records if noun.match(r)]


def accepted(noun: Noun, record: dict) -> bool:
    return noun.match(record) == ACCEPT


# ------------------------------------------------------------------ social facts and needs

_LABEL_SPLIT = re.compile(r";\s*")


def facts_of(place: dict) -> set[str]:
    """The fact keys a place holds as its engine record shows them: static tags (in any of their wordings)
    in ``tag``, impressions in ``long_mem``, and the dated states of ``short_mem`` that hold through the
    whole week the cases are set in."""
    keys = {STATIC_KEY_OF_LABEL[t] for t in _LABEL_SPLIT.split(place.get("tag") or "") if t in STATIC_KEY_OF_LABEL}
    keys |= {_LONG_KEY_OF_LABEL[t] for t in _LABEL_SPLIT.split(place.get("long_mem") or "") if t in _LONG_KEY_OF_LABEL}
    for label in _LABEL_SPLIT.split(place.get("short_mem") or ""):
        span = parse_label_span(label)
        if span is None:
            continue
        key = _SHORT_KEY_OF_HEAD.get(label[: label.rfind(" (")])
        if key and span[0] <= WEEK_START.date() and WEEK_END.date() <= span[1]:
            keys.add(key)
    return keys


_LONG_KEY_OF_LABEL = {s.label: s.key for s in ALL_SPECS.values() if s.kind == "long_term"}
_SHORT_KEY_OF_HEAD = {s.label.split(" ({span})")[0]: s.key for s in ALL_SPECS.values() if "({span})" in s.label}


def has_need(place: dict, key: str) -> bool:
    """Whether a place holds any fact that satisfies the need ``key``."""
    return bool(facts_of(place) & set(need_of(key).satisfied_by))


def needs_of(place: dict, bank: str, *, trips: bool = False, vehicle: str | None = None) -> list[str]:
    """The needs of ``bank`` (a public release's or a hidden one's) whose own fact the place holds (so it fits
    the place's kind) and that its record does not show (a gold a visible field gives away needs no note)."""
    out = []
    for key in sorted(facts_of(place) & set(needs_in(bank))):
        need = NEEDS[key]
        if (trips and not need.trips) or (vehicle and vehicle not in need.vehicles):
            continue
        if need.fits(place) and not shows_need(place, key):
            out.append(key)
    return out


def shows_need(place: dict, key: str) -> bool:
    """Whether the place's visible record (name, alias, tag) shows a fact that meets the need: its label or one
    of its evidence words (then a reader could tell it from the others without a note)."""
    text = fold(" ".join(str(place.get(f) or "") for f in ("name", "alias", "tag")))
    for fact in need_of(key).satisfied_by:
        spec = ALL_SPECS[fact]
        values = [label.split(":", 1)[-1].split(" ({")[0].strip() for label in spec.labels]
        if any(fold(w) in text for w in (*spec.evidence, *values)):
            return True
    return False


def nouns_fitting(place: dict, key: str) -> list[Noun]:
    """The nouns that accept the place and that a question may name with the need."""
    allowed = {n.key for n in nouns_for_need(key)}
    return [n for n in nouns_for(place) if n.key in allowed]


def want_phrase(session: EngineSession, rng: random.Random, key: str, place: dict, *, timed: bool = False) -> str:
    """A phrasing of the need from the session's bank that fits the place (no food words for a shop) and the
    question's moment (no time of day, no stay, when the question sets one)."""
    serves_food = top_of(place) in ("Food & Beverages", "Accommodation")
    kind = kind_of(str(place.get("place_type") or ""))
    is_shop = top_of(place) in SHOP_TOPS
    options = fitting_phrases(key, session.bank, kind=kind, serves_food=serves_food, is_shop=is_shop, timed=timed)
    if not options:
        raise Discard(f"no phrasing of {key} fits {place['place_type']}")
    return rng.choice(options)


def dated_question(question: str, query: dict) -> str:
    """The question, saying which day it is when a dated state (a short-term fact) decides it: notes
    announce such states for a season, so a reader must know which season the question is in."""
    if not any(ALL_SPECS[need].kind == "short_term" for need in query_needs(query)):
        return question
    return f"It's {spoken_date(query_moment(query))}. {question}"


def query_needs(query: dict) -> list[str]:
    """The implicit needs a query asks for (its own, its stop's, its implied stops')."""
    parts = [query, query.get("stop") or {}, *(query.get("implied") or [])]
    return [part["need"] for part in parts if isinstance(part, dict) and part.get("need")]


def label_value(key: str) -> str:
    """The part of a fact's label after the colon, without a dated state's span ("Winter terrace with
    heaters"), used as a social_mem keyword."""
    return ALL_SPECS[key].label.split(":", 1)[-1].split(" ({span})")[0].strip()


def need_filters(key: str) -> list[dict]:
    """Engine filters that find the holders of a need's facts: social_mem over the hidden memories, and geo_tag
    with every wording of a static tag that meets the need too (a rooftop terrace for a view)."""
    facts = [ALL_SPECS[k] for k in need_of(key).satisfied_by]
    memories = [label_value(spec.key) for spec in facts if spec.kind != "static"]
    tags = [label.split(":", 1)[-1].strip() for spec in facts if spec.kind == "static" for label in spec.labels]
    return [{"social_mem": memories}] + ([{"geo_tag": tags}] if tags else [])


def fact_constraint(place: dict, key: str) -> dict:
    """The constraint the grader checks for an implicit need: the place holds one of the need's facts."""
    return {"place_id": place["place_id"], "key": key, "keys": list(need_of(key).satisfied_by)}


def _name_words(name: str) -> list[str]:
    words = [w for w in re.findall(r"[\w'-]+", name) if len(w) > 2]
    return words[:3] or [name]


def evidence_keyword(place: dict, key: str) -> str:
    """A search_notes keyword: the place's name words AND any of the fact's evidence words."""
    spec = ALL_SPECS[key]
    names = " AND ".join(_quote(w) for w in _name_words(place["name"]))
    evidence = " OR ".join(_quote(e) for e in spec.evidence)
    return f"{names} AND ({evidence})"


def _quote(text: str) -> str:
    text = text.replace('"', "")
    return f'"{text}"' if " " in text or "-" in text else text


def talked_about(session: EngineSession, place: dict, key: str) -> int:
    """How many notes naming the place also hold the fact's words (engine search_notes: visible text only)."""
    return session.engine("search_notes", keyword=evidence_keyword(place, key))["total_matched"]


def supporting_notes(session: EngineSession, place: dict, key: str, limit: int = 4) -> list[str]:
    """The notes whose items back the fact under the evidence rule (what it was distilled from) and that the
    agent's search for the place's name and the fact's words lists: at least two when the rule counted two."""
    counted = sorted(fact_note_ids(city_id=session.context.city_id, place_id=place["place_id"], key=key))
    if not counted:
        raise Discard(f"no note backs {key} at {place['name']!r} under the evidence rule")
    listed = {n["note_id"] for n in session.engine("search_notes", keyword=evidence_keyword(place, key))["results"]}
    found = [n for n in counted if n in listed]
    if len(found) < min(2, len(counted)):
        raise Discard(f"the notes backing {key} at {place['name']!r} do not come up in a search for it")
    return found[:limit]


def read_notes(session: EngineSession, place: dict, key: str, note_ids: list[str]) -> None:
    """The agent's reference reading: search_notes with the place's name and the fact's words, then
    note_detail of each cited note."""
    found = session.agent("search_notes", keyword=evidence_keyword(place, key))
    listed = {n["note_id"] for n in found["results"]}
    if not set(note_ids) <= listed:
        raise Discard("agent search_notes does not list the cited notes")
    for note_id in note_ids:
        session.agent("note_detail", note_id=note_id)


def evidence_ref(note_ids: list[str], extra_keys: tuple[str, ...] = ()) -> dict:
    return {"attribute_key": ",".join(extra_keys), "note_id": ",".join(note_ids)}

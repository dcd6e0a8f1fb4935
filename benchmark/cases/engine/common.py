"""Helpers shared by the case recipes: sampling, names, nouns, needs, evidence notes, answer pieces."""

from __future__ import annotations

import random
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from benchmark.cases.lexicon import ACCEPT, Noun, nouns_for, top_of
from benchmark.cases.needs import NEEDS, need_of, visited_indoors
from environment.build.corpus.vocab import ALL_SPECS
from environment.text import fold

from .intents import fitting_phrases
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
    """Static and long-term fact keys of a place, read from its distilled fields (engine records)."""
    labels = set(_LABEL_SPLIT.split(place.get("tag") or "")) | set(_LABEL_SPLIT.split(place.get("long_mem") or ""))
    return {spec.key for spec in ALL_SPECS.values() if spec.kind != "short_term" and spec.label in labels}


def has_need(place: dict, key: str) -> bool:
    """Whether a place holds any fact that satisfies the need ``key``."""
    return bool(facts_of(place) & set(need_of(key).satisfied_by))


def needs_of(place: dict, *, trips: bool = False, vehicle: str | None = None) -> list[str]:
    """The needs whose own fact the place holds and whose phrasing fits the place's kind."""
    out = []
    for key in sorted(facts_of(place) & set(NEEDS)):
        need = NEEDS[key]
        if (trips and not need.trips) or (vehicle and vehicle not in need.vehicles):
            continue
        if nouns_fitting(place, key) or ("*" in need.fits and visited_indoors(place)):
            out.append(key)
    return out


def nouns_fitting(place: dict, key: str) -> list[Noun]:
    """The nouns that accept the place and that the need's phrasing fits."""
    fits = need_of(key).fits
    return [n for n in nouns_for(place) if n.key in fits]


def want_phrase(rng: random.Random, key: str, place: dict, *, kind: str = "wants", timed: bool = False) -> str:
    """A phrasing of the need that fits the place (no food words for a shop) and the question's moment."""
    serves_food = top_of(place) in ("Food & Beverages", "Accommodation")
    options = fitting_phrases(key, kind, serves_food=serves_food, is_shop=top_of(place) in SHOP_TOPS, timed=timed)
    if not options:
        raise Discard(f"no phrasing of {key} fits {place['place_type']}")
    return rng.choice(options)


def label_value(key: str) -> str:
    """The part of a fact's label after the colon ("Corgi cafe"), used as a geo_tag / social_mem keyword."""
    return ALL_SPECS[key].label.split(":", 1)[-1].strip()


def need_filters(key: str) -> list[dict]:
    """Engine filters that find the holders of a need's facts: geo_tag for static tags, social_mem otherwise."""
    static = [label_value(k) for k in need_of(key).satisfied_by if ALL_SPECS[k].kind == "static"]
    dynamic = [label_value(k) for k in need_of(key).satisfied_by if ALL_SPECS[k].kind != "static"]
    return ([{"geo_tag": static}] if static else []) + ([{"social_mem": dynamic}] if dynamic else [])


def tag_citation(key: str) -> str:
    """The attribute key an answer cites for a fact: "tag:<label>" for static tags, "" otherwise."""
    return f"tag:{label_value(key)}" if ALL_SPECS[key].kind == "static" else ""


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


def supporting_notes(session: EngineSession, place: dict, key: str, limit: int = 3) -> list[str]:
    """Note ids (engine search_notes, full text) that name the place and state the fact."""
    spec = ALL_SPECS[key]
    found = session.engine("search_notes", keyword=evidence_keyword(place, key))
    name = fold(place["name"])
    note_ids = []
    for note in found["results"]:
        text = fold(" ".join([note["title"], note["desc"], *(c["content"] for c in note["comments"])]))
        # An evidence word alone can come from unrelated chatter; a note supports the fact when it
        # carries one of the ways people phrase it.
        if name in text and any(fold(p) in text for p in spec.phrases + spec.comments):
            note_ids.append(note["note_id"])
    if not note_ids:
        raise Discard(f"no note names {place['name']!r} with evidence of {key}")
    return sorted(note_ids)[:limit]


def read_notes(session: EngineSession, place: dict, key: str, note_ids: list[str]) -> None:
    """The agent's reference reading: search_notes with the same keyword, note_detail of each cited note,
    and for a static tag the place's record (place_detail), where the tag is visible."""
    found = session.agent("search_notes", keyword=evidence_keyword(place, key))
    listed = {n["note_id"] for n in found["results"]}
    if not set(note_ids) <= listed:
        raise Discard("agent search_notes does not list the cited notes")
    for note_id in note_ids:
        session.agent("note_detail", note_id=note_id)
    if ALL_SPECS[key].kind == "static":  # static tags are on the place record too: the agent confirms it there
        session.agent("place_detail", place_id=place["place_id"])


def evidence_ref(key: str, note_ids: list[str], extra_keys: tuple[str, ...] = ()) -> dict:
    keys = [k for k in (tag_citation(key), *extra_keys) if k]
    return {"attribute_key": ",".join(keys), "note_id": ",".join(note_ids)}

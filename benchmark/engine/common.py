"""Helpers shared by the case recipes: sampling, uniqueness, evidence notes, answer pieces."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from environment.build.corpus.vocab import ALL_SPECS
from environment.text import fold

from .phrasing import noun_case
from .session import Discard, EngineSession

SAMPLE_SIZE = 50
BAD_SUBTYPES = ("other ", "yes")
# Offices and the like are not places people look for "nearby" or stop at on a trip.
NON_VISIT_TOP_TYPES = ("Business",)


@dataclass
class Draft:
    """What a recipe returns: the case content; the runner adds ids, paths and provenance."""

    question: str
    answer: dict[str, Any]
    attributes: list[dict[str, str]] = field(default_factory=list)  # required evidence [{place_id, key}]
    note_ids: list[str] = field(default_factory=list)
    constraints: dict[str, Any] = field(default_factory=dict)
    uniqueness: dict[str, Any] = field(default_factory=dict)
    signature: str = ""  # what makes two drafts the same case (deduplication)


def sample(session: EngineSession, rng: random.Random, n: int = SAMPLE_SIZE) -> list[dict]:
    """Full records of ``n`` places drawn with the engine's sample_place tool."""
    return session.engine("sample_place", num_samples=n, seed=rng.randrange(10**9))["pois"]


def subtype(place: dict) -> str:
    return place["place_type"].split("|", 1)[-1]


def type_noun(place: dict) -> str | None:
    """A natural noun for the place's sub-type ("coffee house"), or None when it is vague."""
    sub = subtype(place).strip()
    if not sub or sub.lower().startswith(BAD_SUBTYPES) or place["place_type"].startswith(NON_VISIT_TOP_TYPES):
        return None
    return noun_case(sub)


def uniquely_named(session: EngineSession, place: dict) -> bool:
    """True when no other place in the city has exactly this name (engine place_search)."""
    found = session.engine("place_search", query_name=place["name"])
    same = [r for r in found["results"] if fold(r["name"]) == fold(place["name"])]
    return len(same) == 1 and same[0]["place_id"] == place["place_id"]


def named_places(session: EngineSession, rng: random.Random, k: int, pool: list[dict] | None = None) -> list[dict]:
    """``k`` uniquely named places from a fresh sample (or ``pool``), in sample order."""
    chosen = []
    for place in pool if pool is not None else sample(session, rng):
        if len(place["name"]) >= 3 and uniquely_named(session, place):
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


# ------------------------------------------------------------------ social facts

_LABEL_SPLIT = re.compile(r";\s*")


def facts_of(place: dict, kind: str) -> list[str]:
    """Fact keys of a place from its distilled fields (tag for static, long_mem for long-term)."""
    text = place["tag"] if kind == "static" else place["long_mem"]
    labels = set(_LABEL_SPLIT.split(text)) if text else set()
    return sorted(spec.key for spec in ALL_SPECS.values() if spec.kind == kind and spec.label in labels)


def has_fact(place: dict, key: str) -> bool:
    spec = ALL_SPECS[key]
    text = place["tag"] if spec.kind == "static" else place["long_mem"]
    return spec.label in _LABEL_SPLIT.split(text or "")


def tag_citation(key: str) -> str:
    """The attribute key an answer cites for a fact: "tag:<label>" for static tags, "" otherwise."""
    return f"tag:{label_value(key)}" if ALL_SPECS[key].kind == "static" else ""


def label_value(key: str) -> str:
    """The part of a fact's label after the colon ("Corgi cafe"), used as a geo_tag / social_mem keyword."""
    return ALL_SPECS[key].label.split(":", 1)[-1].strip()


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

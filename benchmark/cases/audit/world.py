"""The city as the independent verifier reads it: every row of it, and its own distances.

Nothing here calls a tool or the data engine. Places are every row of the city, read through
``environment.selectors`` (no search, no ranking, no filter). Which facts a place holds is
decided here, from the hidden evidence labels of every note and comment, by the evidence rule
(``environment.evidence``) at the case's moment: not from the distilled memory the engine
filters by. The notes' visible texts are read too, for the keyword counts a solver that does
not read would make. Straight-line distances use the WGS84 ellipsoid (what PostGIS geography
measures) through a local approximation that is exact to well under a centimetre at city
scale; opening hours use the one opening-hours parser the benchmark grades with.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Set
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from environment.evidence import Item, fact_verdict
from environment.selectors import NoteText, evidence_rows, note_texts, place_rows
from environment.tools.context import city_context
from kernel.opening import is_open_at
from kernel.text import fold

if TYPE_CHECKING:
    from .roads import Roads

_A = 6378137.0  # WGS84 semi-major axis (m)
_F = 1 / 298.257223563
_E2 = _F * (2 - _F)


def ellipsoid_distance_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Distance in metres on the WGS84 ellipsoid, from the radii of curvature at the mid-latitude."""
    phi = math.radians((lat1 + lat2) / 2)
    w = 1 - _E2 * math.sin(phi) ** 2
    meridian = _A * (1 - _E2) / w**1.5
    normal = _A / math.sqrt(w)
    dy = meridian * math.radians(lat2 - lat1)
    dx = normal * math.cos(phi) * math.radians(lon2 - lon1)
    return math.hypot(dx, dy)


@dataclass(frozen=True)
class Place:
    place_id: str
    name: str
    alias: str
    place_type: str
    address: str
    opentime_week: str
    rating: float | None
    cost: int | None
    tag: str
    lon: float
    lat: float

    def record(self) -> dict:
        """The fields the lexicon and the needs table read."""
        return {
            "place_id": self.place_id,
            "name": self.name,
            "place_type": self.place_type,
            "tag": self.tag,
            "rating": self.rating,
            "cost": self.cost,
        }


NOW = datetime(2026, 12, 7, 12, 0)  # the benchmark's "today" (after every post): a case without a moment asks now


class AuditWorld:
    """Every place of one city version, the evidence about its facts, the notes' texts and its road network.

    ``evidence`` maps (place_id, fact key) to its labelled items; the facts a place holds at a moment
    are what the evidence rule finds there. Hand-built worlds may give ``facts`` (place_id -> keys held
    at any moment) instead."""

    def __init__(
        self,
        *,
        city_name: str,
        city_version: str,
        places: list[Place],
        network,
        facts: Mapping[str, Set[str]] | None = None,
        evidence: Mapping[tuple[str, str], list[Item]] | None = None,
        notes: tuple[NoteText, ...] = (),
    ):
        self.city_name, self.city_version = city_name, city_version
        self.places = {p.place_id: p for p in places}
        self.evidence = dict(evidence or {})
        self.notes = notes
        self._given = facts
        self._facts: dict[datetime, dict[str, frozenset[str]]] = {}
        self.network = network
        self.by_name: dict[str, list[str]] = {}
        for place in self.places.values():
            for text in {place.name, *[a for a in place.alias.split("|") if a.strip()]}:
                self.by_name.setdefault(fold(text).strip(), []).append(place.place_id)
        self._roads: Roads | None = None
        self._lock = threading.Lock()

    @classmethod
    def load(cls, city_name: str) -> AuditWorld:
        """The world of a built city: every place, every evidence label with its item's time, and
        every note's text."""
        ctx = city_context(city_name)
        places = [Place(*record) for record in place_rows(city_id=ctx.city_id)]
        evidence: dict[tuple[str, str], list[Item]] = {}
        for row in evidence_rows(city_id=ctx.city_id):
            item = replace(row.item(), time=_naive(row.time))
            evidence.setdefault((row.place_id, row.key), []).append(item)
        notes = tuple(note_texts(city_id=ctx.city_id))
        return cls(
            city_name=city_name,
            city_version=ctx.city_version,
            places=places,
            network=ctx.network,
            evidence=evidence,
            notes=notes,
        )

    # -- facts --------------------------------------------------------------------------------
    def facts_at(self, at: datetime | None = None) -> dict[str, frozenset[str]]:
        """place_id -> the fact keys the evidence rule finds held at ``at`` (default: now)."""
        if self._given is not None:
            return {pid: frozenset(keys) for pid, keys in self._given.items()}
        at = _naive(at or NOW)
        with self._lock:
            if at not in self._facts:
                found: dict[str, set[str]] = {}
                for (pid, key), items in self.evidence.items():
                    if fact_verdict(items, at).holds:
                        found.setdefault(pid, set()).add(key)
                self._facts[at] = {pid: frozenset(keys) for pid, keys in found.items()}
            return self._facts[at]

    @property
    def facts(self) -> dict[str, frozenset[str]]:
        return self.facts_at(None)

    def verdict(self, place_id: str, key: str, at: datetime | None = None):
        """The evidence rule's verdict on one fact at one place (its counted items, its last reset, why)."""
        return fact_verdict(self.evidence.get((place_id, key), []), _naive(at or NOW))

    # -- lookups ---------------------------------------------------------------------------
    def place(self, place_id: str) -> Place:
        try:
            return self.places[place_id]
        except KeyError:
            raise LookupError(f"place {place_id} does not exist in {self.city_name}") from None

    def note(self, note_id: str) -> NoteText | None:
        """The note with this note_id, if the world has it."""
        index = self.__dict__.get("_note_index")
        if index is None:
            index = self.__dict__["_note_index"] = {n.note_id: n for n in self.notes}
        return index.get(note_id)

    def holders(self, keys: tuple[str, ...], at: datetime | None = None) -> set[str]:
        """Places holding any of the fact keys at ``at`` under the evidence rule (not the engine's text filters)."""
        wanted = set(keys)
        return {pid for pid, facts in self.facts_at(at).items() if facts & wanted}

    def named(self, name: str) -> list[str]:
        """Every place whose name or an alias is ``name`` (folded)."""
        return sorted(set(self.by_name.get(fold(name).strip(), [])))

    def distance_m(self, a: str, b: str) -> float:
        pa, pb = self.place(a), self.place(b)
        return ellipsoid_distance_m(pa.lon, pa.lat, pb.lon, pb.lat)

    @property
    def roads(self) -> Roads:
        with self._lock:
            if self._roads is None:
                from .roads import Roads

                self._roads = Roads(self.network)
            return self._roads


def _naive(when: datetime) -> datetime:
    """Moments compare as UTC wall clock: the case's moments are naive, the notes' times are UTC."""
    return when.replace(tzinfo=None) if when.tzinfo else when


def open_state(hours: str, when: datetime, margin_min: int) -> bool | None:
    """Open (True) or closed (False) at ``when`` and through +/- ``margin_min`` minutes; None if it
    changes in that window or the hours cannot say."""
    states = {is_open_at(hours, when + timedelta(minutes=m)) for m in range(-margin_min, margin_min + 1, 5)}
    states.add(is_open_at(hours, when))
    return states.pop() if len(states) == 1 and None not in states else None


_WORLDS: dict[tuple[str, str], AuditWorld] = {}
_WORLDS_LOCK = threading.Lock()


def audit_world(city_name: str) -> AuditWorld:
    """The verifier's world of a city, built once per process and city version."""
    version = city_context(city_name).city_version
    with _WORLDS_LOCK:
        world = _WORLDS.get((city_name, version))
        if world is None:
            if len(_WORLDS) >= 3:
                _WORLDS.clear()
            world = _WORLDS[(city_name, version)] = AuditWorld.load(city_name)
        return world

"""Plain records passed between the build stages (OSM reader, corpus writer, loader, router).

They hold no Django objects so each stage can be tested alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime


@dataclass(frozen=True)
class PlaceRecord:
    """A named POI read from OSM, before enrichment.

    ``place_id`` is ``N``/``W``/``R`` plus the OSM id (``N2395731``); tiled copies of a city
    prefix the tile (``T3N2395731``).
    """

    place_id: str
    osm_type: str  # "node", "way" or "relation"
    osm_id: int
    name: str
    place_type: str  # "Top|Sub", e.g. "Food & Beverages|Coffee House"
    lon: float
    lat: float
    address: str = ""
    opentime_week: str = ""
    tag: str = ""  # OSM-derived static attributes, "Cuisine: Pizza; Facility: Outdoor seating"
    alias: str = ""  # "alt | short | name:en ..." joined with " | "
    osm_tags: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def top_type(self) -> str:
        return self.place_type.split("|", 1)[0]


@dataclass(frozen=True)
class RoadRecord:
    """One OSM highway way with per-mode access. Coordinates are (lon, lat) per node."""

    gid: int
    name: str
    highway: str
    node_ids: tuple[int, ...]
    coords: tuple[tuple[float, float], ...]
    walk: bool
    cycle_forward: bool
    cycle_backward: bool
    drive_forward: bool
    drive_backward: bool
    drive_speed_mps: float
    tunnel: bool = False  # underground (tunnel=* or a negative layer): places never snap to it


@dataclass(frozen=True)
class FactRecord:
    """A hidden social fact about a place, and the notes that support it."""

    place_id: str
    kind: str  # "static", "long_term" or "short_term"
    key: str  # vocabulary key, e.g. "corgi_cafe"
    label: str  # distilled text, e.g. "Pets: Corgi cafe"
    note_ids: tuple[str, ...]
    valid_from: date | None = None
    valid_until: date | None = None


@dataclass(frozen=True)
class NoteRecord:
    note_id: str
    place_id: str | None  # the place the note was written about (hidden); None for chatter
    mentioned_place_ids: tuple[str, ...]
    kind: str  # hidden noise label: "about", "multi", "chatter", "duplicate", "outdated", "promo", "spam"
    title: str
    desc: str
    time: datetime
    liked_count: int
    collected_count: int
    comment_count: int
    share_count: int
    tag_list: str


@dataclass(frozen=True)
class CommentRecord:
    comment_id: str
    note_id: str
    time: datetime
    content: str
    like_count: int


@dataclass(frozen=True)
class LabelRecord:
    """A hidden label: what one note (``comment_id`` None) or comment says about one fact at one place.

    ``stance`` is one of :data:`environment.evidence.STANCES`; ``credited_place_id`` names the place a
    ``credits`` item gives the fact to; ``valid_from``/``valid_until`` are the dates a dated state names;
    ``text`` is the sentence that says it. The item's time is the note's or comment's own.
    """

    note_id: str
    comment_id: str | None
    place_id: str
    kind: str  # the fact's kind: "static", "long_term" or "short_term"
    key: str
    label: str
    stance: str
    credited_place_id: str | None = None
    valid_from: date | None = None
    valid_until: date | None = None
    text: str = ""  # the sentence that says it (the whole comment, or the sentence of the note's text)


@dataclass(frozen=True)
class PlaceMemory:
    """What attribute distillation writes back onto a place: the static tags join the visible ``tag``; the
    memories are hidden from agents."""

    social_tags: str  # appended to Place.tag, e.g. "Pets: Corgi cafe; Family: Toy corner"
    long_mem: str
    short_mem: str


@dataclass
class Corpus:
    facts: list[FactRecord]  # distilled: the facts that hold under the evidence rule
    notes: list[NoteRecord]
    comments: list[CommentRecord]
    memories: dict[str, PlaceMemory]
    labels: list[LabelRecord] = field(default_factory=list)

"""Reads over the world's tables for the other apps: plain values in, plain values out.

The one way code outside ``environment`` reads a city's rows (docs/architecture.md; the
``.importlinter`` contract forbids importing ``environment.models`` elsewhere, and
tests/test_architecture.py forbids SQL naming an ``environment_`` table there). Cities are
named by ``name`` where the caller holds only a name, else by ``city_id`` (the id a
``ToolContext`` carries). Distances are PostGIS geography metres, exactly what the tools
measure, unrounded: callers round as their output requires.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import NamedTuple

from django.db import connection
from django.db.models import Q

from environment.evidence import Item, fact_holds
from environment.models import City, Note, Place, SocialFact

PLACE_FIELDS = ("place_id", "name", "place_type", "address", "opentime_week", "rating", "cost", "tag", "alias")


@dataclass(frozen=True)
class CityRow:
    name: str
    version: str
    seed: int
    scale: int
    built_at: datetime
    report: dict


@dataclass(frozen=True)
class PlacePoint:
    place_id: str
    name: str
    lon: float
    lat: float


class PlaceRow(NamedTuple):
    """A place's visible fields and its position (WGS84 degrees)."""

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


# ------------------------------------------------------------------ cities


def city_version_get(*, name: str) -> str | None:
    """The version of the built city ``name``, or None when no such city is built."""
    return City.objects.filter(name=name).values_list("version", flat=True).first()


def city_versions(*, names: Iterable[str]) -> dict[str, str]:
    """City name -> version, for those of ``names`` that are built."""
    return dict(City.objects.filter(name__in=list(names)).values_list("name", "version"))


def city_rows() -> list[CityRow]:
    """Every built city with its build report, newest build first."""
    fields = ("name", "version", "seed", "scale", "built_at", "report")
    return [CityRow(*row) for row in City.objects.order_by("-built_at").values_list(*fields)]


# ------------------------------------------------------------------ places


def place_get(*, city_id: int, place_id: str) -> dict | None:
    """The visible fields (``PLACE_FIELDS``) of one place, or None when the city has no such place."""
    row = Place.objects.filter(city_id=city_id, place_id=place_id).values(*PLACE_FIELDS).first()
    return dict(row) if row else None


def place_rows(*, city_id: int) -> list[PlaceRow]:
    """Every place of the city with its visible fields and position, by place_id."""
    # SQL rather than the ORM: no GEOS point per place (a whole city's places read 6x faster).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT place_id, name, alias, place_type, address, opentime_week, rating, cost, tag, "
            "ST_X(location::geometry), ST_Y(location::geometry) FROM environment_place "
            "WHERE city_id = %s ORDER BY place_id",
            [city_id],
        )
        return [PlaceRow(*row) for row in cursor.fetchall()]


def place_points(*, city_name: str, place_ids: Iterable[str]) -> dict[str, PlacePoint]:
    """place_id -> name and position, for those of ``place_ids`` the city holds (by place_id)."""
    rows = Place.objects.filter(city__name=city_name, place_id__in=sorted(set(place_ids))).order_by("place_id")
    return {
        pid: PlacePoint(pid, name, loc.x, loc.y) for pid, name, loc in rows.values_list("place_id", "name", "location")
    }


def place_names(*, city_id: int) -> list[tuple[str, str]]:
    """(place_id, name) of every place of the city, by place_id."""
    return list(Place.objects.filter(city_id=city_id).order_by("place_id").values_list("place_id", "name"))


def note_titles(*, city_id: int, limit: int) -> list[tuple[str, str]]:
    """(note_id, title) of the city's first ``limit`` notes, by note_id."""
    return list(Note.objects.filter(city_id=city_id).order_by("note_id").values_list("note_id", "title")[:limit])


def visible_tag_labels(*, city_name: str) -> list[str]:
    """Every distinct label of the visible ``tag`` field over the city's places ("Facility: Power outlets"),
    sorted: the tag vocabulary anyone who calls place_detail on every place sees."""
    labels: set[str] = set()
    for tag in Place.objects.filter(city__name=city_name).exclude(tag="").values_list("tag", flat=True):
        labels.update(part.strip() for part in tag.split(";") if part.strip())
    return sorted(labels)


def place_distance_m(*, city_id: int, a: str, b: str) -> float | None:
    """Metres between places ``a`` and ``b`` of the city (None when either is missing)."""
    return _one(
        "SELECT ST_Distance(pa.location, pb.location) FROM environment_place pa, environment_place pb "
        "WHERE pa.city_id = %s AND pb.city_id = %s AND pa.place_id = %s AND pb.place_id = %s",
        [city_id, city_id, a, b],
    )


def place_line_distance_m(*, city_id: int, place_id: str, line: Mapping) -> float | None:
    """Metres from a place to a GeoJSON geometry (a route line), or None when the place is missing."""
    return _one(
        "SELECT ST_Distance(location, ST_GeomFromGeoJSON(%s)::geography) FROM environment_place "
        "WHERE city_id = %s AND place_id = %s",
        [json.dumps(line), city_id, place_id],
    )


def _one(sql: str, params: list) -> float | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None


# ------------------------------------------------------------------ hidden facts and notes


def fact_keys(*, city_id: int, kinds: Iterable[str]) -> dict[str, frozenset[str]]:
    """place_id -> the keys of its hidden facts of ``kinds`` (SocialFact kinds: static, long_term,
    short_term), for the places of the city that hold any."""
    found: dict[str, set[str]] = {}
    rows = SocialFact.objects.filter(place__city_id=city_id, kind__in=list(kinds)).values_list("place__place_id", "key")
    for place_id, key in rows:
        found.setdefault(place_id, set()).add(key)
    return {place_id: frozenset(keys) for place_id, keys in found.items()}


def fact_exists(*, city_id: int, place_id: str, key: str, on: date | None = None) -> bool:
    """Whether the place holds a hidden fact with ``key`` (of any kind); with ``on``, a dated state only when
    its dates include that day (last winter's terrace does not meet this winter's need)."""
    rows = SocialFact.objects.filter(place__city_id=city_id, place__place_id=place_id, key=key)
    if on is not None:
        rows = rows.filter(
            Q(valid_from__isnull=True) | Q(valid_from__lte=on), Q(valid_until__isnull=True) | Q(valid_until__gte=on)
        )
    return rows.exists()


def fact_note_ids(*, city_id: int, place_id: str, key: str) -> frozenset[str]:
    """The ids of the notes that support the place's facts with ``key``."""
    rows = SocialFact.objects.filter(place__city_id=city_id, place__place_id=place_id, key=key)
    return frozenset(note_id for note_ids in rows.values_list("note_ids", flat=True) for note_id in note_ids)


@dataclass(frozen=True)
class EvidenceRow:
    """One hidden evidence label with its item's time (``comment_id`` empty: the note's text)."""

    place_id: str
    kind: str
    key: str
    label: str
    stance: str
    note_id: str
    comment_id: str
    time: datetime
    credited_place_id: str
    valid_from: date | None
    valid_until: date | None
    text: str

    def item(self) -> Item:
        """The row as the evidence rule reads it, its ref note_id[/comment_id]."""
        ref = f"{self.note_id}/{self.comment_id}" if self.comment_id else self.note_id
        return Item(self.time, self.stance, self.valid_from, self.valid_until, ref)


_EVIDENCE_SQL = """
SELECT p.place_id, e.kind, e.key, e.label, e.stance, n.note_id, coalesce(c.comment_id, ''),
       coalesce(c.time, n.time), coalesce(cp.place_id, ''),
       e.valid_from, e.valid_until, e.text
FROM environment_evidencelabel e
JOIN environment_place p ON p.id = e.place_id
JOIN environment_note n ON n.id = e.note_id
LEFT JOIN environment_comment c ON c.id = e.comment_id
LEFT JOIN environment_place cp ON cp.id = e.credited_place_id
WHERE p.city_id = %s {where}
ORDER BY p.place_id, e.key, coalesce(c.time, n.time), n.note_id, coalesce(c.comment_id, '')
"""


def evidence_rows(
    *, city_id: int, place_ids: Iterable[str] | None = None, keys: Iterable[str] | None = None
) -> list[EvidenceRow]:
    """The hidden evidence labels of the city (of ``place_ids`` and ``keys`` when given), with each
    item's time, by place, fact and time. Labels of a credits item belong to the place
    the item speaks of; ``credited_place_id`` names the place it credits."""
    where = ""
    params: list = [city_id]
    if place_ids is not None:
        where += " AND p.place_id = ANY(%s)"
        params.append(sorted(set(place_ids)))
    if keys is not None:
        where += " AND e.key = ANY(%s)"
        params.append(sorted(set(keys)))
    with connection.cursor() as cursor:
        cursor.execute(_EVIDENCE_SQL.format(where=where), params)
        return [EvidenceRow(*row) for row in cursor.fetchall()]


def city_evidence_rows(*, city_name: str, place_ids: Iterable[str], keys: Iterable[str]) -> list[EvidenceRow]:
    """:func:`evidence_rows` of the city named ``city_name`` (none when no such city is built)."""
    city_id = City.objects.filter(name=city_name).values_list("id", flat=True).first()
    return [] if city_id is None else evidence_rows(city_id=city_id, place_ids=place_ids, keys=keys)


def fact_held(*, city_id: int, place_id: str, key: str, at: datetime) -> bool:
    """Whether the evidence rule (``environment.evidence``) finds the fact ``key`` held at the place at ``at``
    (an aware datetime), from the hidden labels of every note and comment about it."""
    rows = evidence_rows(city_id=city_id, place_ids=[place_id], keys=[key])
    return fact_holds([row.item() for row in rows], at)


@dataclass(frozen=True)
class NoteText:
    """What anyone can read of a note: its title, text and comments (no hidden label)."""

    note_id: str
    title: str
    desc: str
    comments: tuple[str, ...]
    time: datetime | None = None  # when it was posted (search_notes lists it)


def note_texts(*, city_id: int) -> list[NoteText]:
    """Every note of the city with its comments' texts (in time order), by note_id."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n.note_id, n.title, n.desc, coalesce(array_agg(c.content ORDER BY c.time, c.comment_id) "
            "FILTER (WHERE c.id IS NOT NULL), '{}'), n.time FROM environment_note n "
            "LEFT JOIN environment_comment c ON c.note_id = n.id WHERE n.city_id = %s "
            "GROUP BY n.id ORDER BY n.note_id",
            [city_id],
        )
        return [NoteText(nid, title, desc, tuple(comments), time) for nid, title, desc, comments, time in cursor]


@dataclass(frozen=True)
class CorpusCounts:
    """What the corpus report reads of a built city besides its labels and places."""

    note_kinds: dict[str, int]
    notes_per_place: list[int]  # for each place with notes
    comment_texts: list[str]
    facts: dict[str, int]  # by kind
    dated: list[tuple[str, date | None, date | None]]  # (key, valid_from, valid_until) of every dated state


def corpus_counts(*, city_id: int) -> CorpusCounts:
    """Note kinds, notes per place, every comment's text, facts by kind and the dated states of the city."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT kind, count(*) FROM environment_note WHERE city_id = %s GROUP BY kind", [city_id])
        kinds = dict(cursor.fetchall())
        cursor.execute(
            "SELECT count(*) FROM environment_note WHERE city_id = %s AND place_id IS NOT NULL GROUP BY place_id",
            [city_id],
        )
        per_place = [n for (n,) in cursor.fetchall()]
        cursor.execute(
            "SELECT c.content FROM environment_comment c JOIN environment_note n ON n.id = c.note_id "
            "WHERE n.city_id = %s ORDER BY c.id",
            [city_id],
        )
        comments = [text for (text,) in cursor.fetchall()]
    facts = SocialFact.objects.filter(place__city_id=city_id)
    by_kind: dict[str, int] = {}
    for kind in facts.values_list("kind", flat=True):
        by_kind[kind] = by_kind.get(kind, 0) + 1
    dated = list(facts.filter(kind=SocialFact.SHORT_TERM).values_list("key", "valid_from", "valid_until"))
    return CorpusCounts(kinds, per_place, comments, by_kind, dated)


def note_ids_existing(*, city_id: int, note_ids: Iterable[str]) -> frozenset[str]:
    """Those of ``note_ids`` that are notes of the city."""
    return frozenset(Note.objects.filter(city_id=city_id, note_id__in=list(note_ids)).values_list("note_id", flat=True))


# ------------------------------------------------------------------ roads


def road_geometries_by_class(
    *, city_name: str, classes: Mapping[str, Sequence[str]], rest: str, tolerance_deg: float
) -> list[tuple[str, str]]:
    """The city's road segments merged per class, each class one GeoJSON geometry text.

    Args:
        city_name: the city's name.
        classes: class name -> the OSM ``highway`` values it holds (the first class that lists a
            value takes it).
        rest: the class of every other segment.
        tolerance_deg: each segment is simplified (Douglas-Peucker) by this many degrees first.

    Returns:
        (class, geometry) ordered by class; coordinates have 6 decimals; classes without a
        segment are left out.
    """
    when = " ".join("WHEN highway = ANY(%s) THEN %s" for _ in classes)
    label = f"CASE {when} ELSE %s END" if classes else "%s::text"  # a CASE needs at least one WHEN
    sql = (
        f"SELECT {label} AS class, ST_AsGeoJSON(ST_Collect(ST_Simplify(geometry, %s)), 6) "
        "FROM environment_roadsegment WHERE city_id = (SELECT id FROM environment_city WHERE name = %s) "
        "GROUP BY 1 ORDER BY 1"
    )
    params = [value for name, highways in classes.items() for value in (list(highways), name)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, rest, tolerance_deg, city_name])
        return [tuple(row) for row in cursor.fetchall()]

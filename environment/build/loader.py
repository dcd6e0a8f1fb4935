"""Write a built city into PostGIS in one transaction, with COPY for the large tables.

The old rows of the same city are deleted in the same transaction, so readers see either
the old city or the new one, never a mix.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection, transaction

from environment.build.bulk import copy_rows
from environment.models import City
from environment.records import Corpus, PlaceRecord, RoadRecord
from kernel.text import fold

_DELETE_CITY_SQL = [
    "DELETE FROM environment_evidencelabel e USING environment_place p"
    " WHERE e.place_id = p.id AND p.city_id = %(city)s",
    "DELETE FROM environment_comment c USING environment_note n WHERE c.note_id = n.id AND n.city_id = %(city)s",
    "DELETE FROM environment_note_mentioned_places m USING environment_note n"
    " WHERE m.note_id = n.id AND n.city_id = %(city)s",
    "DELETE FROM environment_note WHERE city_id = %(city)s",
    "DELETE FROM environment_socialfact f USING environment_place p WHERE f.place_id = p.id AND p.city_id = %(city)s",
    "DELETE FROM environment_place WHERE city_id = %(city)s",
    "DELETE FROM environment_roadsegment WHERE city_id = %(city)s",
]

_NOTE_VECTOR_SQL = """
UPDATE environment_note n SET search_vector =
    setweight(to_tsvector('english', n.title), 'A')
    || setweight(to_tsvector('english', n."desc"), 'B')
    || setweight(to_tsvector('english', replace(n.tag_list, ',', ' ')), 'B')
    || setweight(to_tsvector('english', coalesce(c.txt, '')), 'C')
FROM (
    SELECT n2.id AS nid, string_agg(c2.content, ' ' ORDER BY c2.id) AS txt
    FROM environment_note n2 LEFT JOIN environment_comment c2 ON c2.note_id = n2.id
    WHERE n2.city_id = %(city)s GROUP BY n2.id
) c
WHERE n.id = c.nid
"""


def _id_map(sql: str, city_id: int) -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(sql, {"city": city_id})
        return dict(cursor.fetchall())


def _linestring(coords: Sequence[tuple[float, float]]) -> str:
    return "SRID=4326;LINESTRING(" + ", ".join(f"{lon!r} {lat!r}" for lon, lat in coords) + ")"


def _place_rows(city_id, places, ratings, corpus, valid_hours):
    for p in places:
        rating, cost = ratings.get(p.place_id, (None, None))
        memory = corpus.memories.get(p.place_id)
        tag = "; ".join(t for t in (p.tag, memory.social_tags if memory else "") if t)
        long_mem, short_mem = (memory.long_mem, memory.short_mem) if memory else ("", "")
        yield (
            city_id,
            p.place_id,
            p.osm_type,
            p.osm_id,
            p.name,
            p.place_type,
            p.top_type,
            p.address,
            p.opentime_week,
            valid_hours(p.opentime_week),
            rating,
            cost,
            True,
            tag,
            p.alias,
            long_mem,
            short_mem,
            fold(" | ".join((p.name, p.alias, p.place_type))),
            fold(" | ".join((p.name, p.alias, tag))),
            fold(" | ".join((long_mem, short_mem))),
            _json(p.osm_tags),
            f"SRID=4326;POINT({p.lon!r} {p.lat!r})",
        )


def _json(value) -> str:
    import json

    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _road_rows(city_id, roads: Sequence[RoadRecord]):
    for r in roads:
        yield (
            city_id,
            r.gid,
            r.name,
            r.highway,
            "{" + ",".join(map(str, r.node_ids)) + "}",
            _linestring(r.coords),
            0.0,
            r.walk,
            r.cycle_forward,
            r.cycle_backward,
            r.drive_forward,
            r.drive_backward,
            r.drive_speed_mps,
            r.tunnel,
        )


def city_load(
    *,
    city: City,
    places: Sequence[PlaceRecord],
    roads: Sequence[RoadRecord],
    ratings: dict[str, tuple[float | None, int | None]],
    corpus: Corpus,
) -> dict[str, int]:
    """Replace ``city``'s rows with these records (atomic). Returns row counts."""
    from environment.tools.rows import forget_place_rows
    from kernel.opening import hours_are_valid

    forget_place_rows()
    with transaction.atomic():
        city.save()
        with connection.cursor() as cursor:
            for sql in _DELETE_CITY_SQL:
                cursor.execute(sql, {"city": city.id})
        copy_rows(
            "environment_place",
            [
                "city_id",
                "place_id",
                "osm_type",
                "osm_id",
                "name",
                "place_type",
                "top_type",
                "address",
                "opentime_week",
                "opening_hours_valid",
                "rating",
                "cost",
                "rating_cost_synthetic",
                "tag",
                "alias",
                "long_mem",
                "short_mem",
                "name_text",
                "tag_text",
                "mem_text",
                "osm_tags",
                "location",
            ],
            _place_rows(city.id, places, ratings, corpus, hours_are_valid),
        )
        copy_rows(
            "environment_roadsegment",
            [
                "city_id",
                "gid",
                "name",
                "highway",
                "node_ids",
                "geometry",
                "length_m",
                "walk",
                "cycle_forward",
                "cycle_backward",
                "drive_forward",
                "drive_backward",
                "drive_speed_mps",
                "tunnel",
            ],
            _road_rows(city.id, roads),
        )
        place_pk = _id_map("SELECT place_id, id FROM environment_place WHERE city_id = %(city)s", city.id)
        copy_rows(
            "environment_note",
            [
                "city_id",
                "note_id",
                "place_id",
                "kind",
                "title",
                "desc",
                "time",
                "liked_count",
                "collected_count",
                "comment_count",
                "share_count",
                "tag_list",
            ],
            (
                (
                    city.id,
                    n.note_id,
                    place_pk.get(n.place_id) if n.place_id else None,
                    n.kind,
                    n.title,
                    n.desc,
                    n.time,
                    n.liked_count,
                    n.collected_count,
                    n.comment_count,
                    n.share_count,
                    n.tag_list,
                )
                for n in corpus.notes
            ),
        )
        note_pk = _id_map("SELECT note_id, id FROM environment_note WHERE city_id = %(city)s", city.id)
        copy_rows(
            "environment_note_mentioned_places",
            ["note_id", "place_id"],
            ((note_pk[n.note_id], place_pk[p]) for n in corpus.notes for p in n.mentioned_place_ids),
        )
        copy_rows(
            "environment_comment",
            ["note_id", "comment_id", "time", "content", "like_count"],
            ((note_pk[c.note_id], c.comment_id, c.time, c.content, c.like_count) for c in corpus.comments),
        )
        comment_pk = _id_map(
            "SELECT c.comment_id, c.id FROM environment_comment c JOIN environment_note n ON n.id = c.note_id "
            "WHERE n.city_id = %(city)s",
            city.id,
        )
        copy_rows(
            "environment_evidencelabel",
            ["note_id", "comment_id", "place_id", "kind", "key", "label", "stance", "credited_place_id"]
            + ["valid_from", "valid_until", "text"],
            (
                (
                    note_pk[e.note_id],
                    comment_pk[e.comment_id] if e.comment_id else None,
                    place_pk[e.place_id],
                    e.kind,
                    e.key,
                    e.label,
                    e.stance,
                    place_pk[e.credited_place_id] if e.credited_place_id else None,
                    e.valid_from,
                    e.valid_until,
                    e.text,
                )
                for e in corpus.labels
            ),
        )
        copy_rows(
            "environment_socialfact",
            ["place_id", "kind", "key", "label", "valid_from", "valid_until", "note_ids"],
            (
                (
                    place_pk[f.place_id],
                    f.kind,
                    f.key,
                    f.label,
                    f.valid_from,
                    f.valid_until,
                    "{" + ",".join(f.note_ids) + "}",
                )
                for f in corpus.facts
            ),
        )
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE environment_roadsegment SET length_m = ST_Length(geometry::geography) WHERE city_id = %(city)s",
                {"city": city.id},
            )
            cursor.execute(_NOTE_VECTOR_SQL, {"city": city.id})
            cursor.execute(
                "ANALYZE environment_place; ANALYZE environment_note; ANALYZE environment_comment; "
                "ANALYZE environment_evidencelabel"
            )
    return {
        "places": len(places),
        "road_segments": len(roads),
        "notes": len(corpus.notes),
        "comments": len(corpus.comments),
        "facts": len(corpus.facts),
        "evidence_labels": len(corpus.labels),
    }

"""Map-domain tools: place_search, place_detail, nearby_search, sample_place (tables 7 to 9).

Matching rules (documented in docs/tools.md):
- query_name: every word of the query must occur in the place's name, alias or place_type
  (case- and accent-insensitive substring match); an empty query_name matches every place.
- place_types: a place matches when ANY entry occurs in its "Top|Sub" place_type.
- geo_tag: a place matches when ANY keyword occurs in its name, alias or tag (OSM keys plus static
  attributes distilled from posts).
- social_mem (engine only): a place matches when ANY keyword occurs in its hidden long_mem or short_mem
  (the memories distilled from posts under the evidence rule).
Order: place_search by name relevance (exact name, name prefix, name contains, other), then
rating (highest first, unrated last), name, place_id; nearby_search by distance, then place_id.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Literal

from django.db import connection
from pydantic import BaseModel, ConfigDict

from kernel.text import fold

from .context import ToolContext
from .errors import invalid
from .routes import route_between
from .rows import DETAIL_FIELDS, place_row
from .spec import tool

LIST_CAP = 20  # long result lists are cut here and say how many matched
# place_search counts matches up to here and then says "more than COUNT_CAP" (total_matched_capped),
# so a broad query costs the same in any city. Above Helsinki's 1,459 places: its counts stay exact.
COUNT_CAP = 2000
MAX_RADIUS_M = 5000.0
MAX_ROUTE_BUFFER_M = 1000.0

LIGHT_FIELDS = ("place_id", "name", "place_type", "rating", "cost")
ENGINE_FIELDS = DETAIL_FIELDS + ("long_mem", "short_mem")

QueryName = Annotated[str, "REQUIRED: Place name in local language"]
PlaceTypes = Annotated[list[str] | str | None, "POI types list"]
EnginePlaceTypes = Annotated[list[str] | str | None, "POI types list, separated by commas (,)"]
MinRating = Annotated[float | None, "Min rating (1-5)"]
MaxRating = Annotated[float | None, "Max rating (1-5)"]
MinCost = Annotated[float | None, "Min cost per capita (EUR)"]
MaxCost = Annotated[float | None, "Max cost per capita (EUR)"]
GeoTag = Annotated[
    list[str] | str | None, "Filter by tag/name keywords list in local language, matches if ANY keyword hits"
]
EngineGeoTag = Annotated[list[str] | str | None, "Filter by tag/name keywords list"]
SocialMem = Annotated[list[str] | str | None, "Filter by social insights in local language"]
NearbySocialMem = Annotated[
    list[str] | str | None, "Filter by long_mem/short_mem keywords (social media insights) in local language"
]


class RouteCenter(BaseModel):
    """A route to search along: nearby_search's center may be this instead of a place_id."""

    model_config = ConfigDict(extra="forbid")
    start: str
    end: str
    vehicle: Literal["walking", "cycling", "driving"] = "driving"


Center = Annotated[
    str | RouteCenter,
    "Center: POI place_id (str) OR Route object {'start': 'ID', 'end': 'ID', 'vehicle': 'driving'}",
]
Radius = Annotated[float, "Search radius/buffer in meters (default 100)"]


# ---------------------------------------------------------------- filters


def _keywords(value: list[str] | str | None, parameter: str) -> list[str]:
    """A keyword list from a list or a comma-separated string; empty entries are dropped."""
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else value
    words = [fold(item.strip()) for item in items if item and item.strip()]
    if not words and (value if isinstance(value, str) else items):
        raise invalid(parameter, f"{parameter} holds no keyword", "a non-empty list of keywords")
    return words


def _check_range(low: float | None, high: float | None, name: str, lo: float, hi: float | None) -> None:
    for label, value in ((f"min_{name}", low), (f"max_{name}", high)):
        if value is not None and (value < lo or (hi is not None and value > hi)):
            bound = f"between {lo:g} and {hi:g}" if hi is not None else f"at least {lo:g}"
            raise invalid(label, f"{label} must be {bound}, got {value:g}", bound)
    if low is not None and high is not None and low > high:
        raise invalid(
            f"min_{name}", f"min_{name} ({low:g}) is greater than max_{name} ({high:g})", f"min_{name} <= max_{name}"
        )


def _where(
    ctx: ToolContext,
    *,
    place_types,
    min_rating,
    max_rating,
    min_cost,
    max_cost,
    geo_tag,
    social_mem=None,
    query_name: str | None = None,
) -> tuple[list[str], list]:
    _check_range(min_rating, max_rating, "rating", 1, 5)
    _check_range(min_cost, max_cost, "cost", 0, None)
    clauses: list[str] = ["p.city_id = %s"]
    params: list = [ctx.city_id]
    for word in fold(query_name or "").split():
        clauses.append("p.name_text LIKE %s")
        params.append(f"%{_escape_like(word)}%")
    type_words = _keywords(place_types, "place_types")
    if type_words:  # the city's few distinct types that match, so an index finds their places
        clauses.append("p.place_type = ANY(%s)")
        params.append(_matching_types(ctx, type_words))
    for column, parameter, value in (
        ("p.tag_text", "geo_tag", geo_tag),
        ("p.mem_text", "social_mem", social_mem),
    ):
        words = _keywords(value, parameter)
        if words:
            clauses.append("(" + " OR ".join(f"{column} LIKE %s" for _ in words) + ")")
            params += [f"%{_escape_like(w)}%" for w in words]
    for sql, value in (
        ("p.rating >= %s", min_rating),
        ("p.rating <= %s", max_rating),
        ("p.cost >= %s", min_cost),
        ("p.cost <= %s", max_cost),
    ):
        if value is not None:
            clauses.append(sql)
            params.append(value)
    return clauses, params


_TYPES: dict[tuple[int, str], list[str]] = {}  # (city_id, city_version) -> the city's distinct place types
# (city_id, city_version, words) -> the matching types: agents ask for the same few types again and again,
# and sending the city's types as an array costs more CPU than the query itself.
_MATCHED_TYPES: dict[tuple[int, str, tuple[str, ...]], list[str]] = {}
MATCHED_TYPES_CACHE_SIZE = 4096


def _matching_types(ctx: ToolContext, words: list[str]) -> list[str]:
    """The city's place types where ANY of ``words`` occurs in lower(place_type), as PostgreSQL matches it.

    The same test as ``lower(place_type) LIKE '%word%'`` on every place, run on the distinct
    types only (170 in Helsinki), so the places are then found by index. Remembered per city
    version and words.
    """
    memo = (ctx.city_id, ctx.city_version, tuple(words))
    found = _MATCHED_TYPES.get(memo)
    if found is None:
        found = _MATCHED_TYPES[memo] = _types_like(ctx, words)
        if len(_MATCHED_TYPES) > MATCHED_TYPES_CACHE_SIZE:
            _MATCHED_TYPES.clear()
    return list(found)


def _types_like(ctx: ToolContext, words: list[str]) -> list[str]:
    key = (ctx.city_id, ctx.city_version)
    with connection.cursor() as cursor:
        if key not in _TYPES:
            cursor.execute(
                "SELECT DISTINCT place_type FROM environment_place WHERE city_id = %s ORDER BY 1", [ctx.city_id]
            )
            _TYPES[key] = [row[0] for row in cursor.fetchall()]
        likes = " OR ".join("lower(t) LIKE %s" for _ in words)
        cursor.execute(
            f"SELECT t FROM unnest(%s::text[]) t WHERE {likes}", [_TYPES[key], *(f"%{_escape_like(w)}%" for w in words)]
        )
        return [row[0] for row in cursor.fetchall()]


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _query(fields, clauses, params, order_sql, order_params=(), limit=LIST_CAP):
    """Run the search; returns (total matched, the first ``limit`` rows as dicts in ``fields`` order)."""
    cols = ", ".join(f"p.{f}" for f in fields)
    sql = (
        f"SELECT count(*) OVER (), {cols} FROM environment_place p "
        f"WHERE {' AND '.join(clauses)} ORDER BY {order_sql} LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *order_params, limit])
        rows = cursor.fetchall()
    return (rows[0][0] if rows else 0), [dict(zip(fields, row[1:])) for row in rows]


def _listing(total: int, results: list[dict], capped: bool = False, **head) -> dict:
    """The answer's head, counts and results; ``capped``: counting stopped at COUNT_CAP (a lower bound)."""
    out = dict(head)
    out.update(total_matched=total, returned=len(results), truncated=total > len(results))
    if capped:
        out.update(total_matched=COUNT_CAP, total_matched_capped=True)
    out["results"] = results
    if capped:
        out["note"] = (
            f"Showing {len(results)} of more than {COUNT_CAP} matches (counting stops there); "
            "add filters to narrow the search."
        )
    elif total > len(results):
        out["note"] = f"Showing {len(results)} of {total} matches; add filters to narrow the search."
    elif total == 0:
        out["note"] = "No place matched; relax or change the filters."
    return out


# ---------------------------------------------------------------- place_search

_RELEVANCE = (
    "CASE WHEN split_part(p.name_text, ' | ', 1) = %s THEN 0 WHEN p.name_text LIKE %s THEN 1 "
    "WHEN position(%s in split_part(p.name_text, ' | ', 1)) > 0 THEN 2 ELSE 3 END, "
    "p.rating DESC NULLS LAST, p.name, p.place_id"
)


_RATING_ORDER = "p.rating DESC NULLS LAST, p.name, p.place_id"  # served by the place_rating_order index


def _place_search(ctx, fields, query_name, **filters) -> dict:
    clauses, params = _where(ctx, query_name=query_name, **filters)
    q = fold(query_name.strip())
    if q or _has_unnamed_places(ctx):  # relevance ranks every match: one scan ranks and counts them
        order = [q, f"{_escape_like(q)}%", q]
        total, results = _query(fields, clauses, params, _RELEVANCE, order)
    else:  # an empty query ranks every named place equally (name prefix ''): the rating index gives the order
        total, results = _rated_page(fields, clauses, params)
    return _listing(total, results, capped=total > COUNT_CAP, query_name=query_name)


def _rated_page(fields, clauses, params) -> tuple[int, list[dict]]:
    """The first LIST_CAP matches by rating, and their count up to COUNT_CAP + 1, in one walk.

    The matches are read in the place_rating_order index's order and the walk stops at
    COUNT_CAP + 1 of them, so a broad search reads a bounded prefix and a narrow one reads the
    city once (not once for the page and again for the count).
    """
    cols = ", ".join(f"p.{f}" for f in fields)
    m_order = _RATING_ORDER.replace("p.", "m.")
    sql = (  # the walk keeps only ids and sort keys; the page's fields are read for its rows alone
        "WITH m AS MATERIALIZED (SELECT p.id, p.rating, p.name, p.place_id FROM environment_place p "
        f"WHERE {' AND '.join(clauses)} ORDER BY {_RATING_ORDER} LIMIT %s) "
        f"SELECT (SELECT count(*) FROM m), {cols} FROM (SELECT * FROM m ORDER BY {m_order} "
        f"LIMIT %s) m JOIN environment_place p ON p.id = m.id ORDER BY {m_order}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, COUNT_CAP + 1, LIST_CAP])
        rows = cursor.fetchall()
    return (rows[0][0] if rows else 0), [dict(zip(fields, row[1:])) for row in rows]


_UNNAMED: dict[tuple[int, str], bool] = {}


def _has_unnamed_places(ctx: ToolContext) -> bool:
    """Whether a place's folded name is empty (it would rank first for an empty query); cached per city version."""
    key = (ctx.city_id, ctx.city_version)
    if key not in _UNNAMED:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT EXISTS (SELECT 1 FROM environment_place WHERE city_id = %s "
                "AND split_part(name_text, ' | ', 1) = '')",
                [ctx.city_id],
            )
            _UNNAMED[key] = cursor.fetchone()[0]
    return _UNNAMED[key]


@tool("place_search", toolsets=("agent",))
def place_search(
    ctx: ToolContext,
    query_name: QueryName,
    place_types: PlaceTypes = None,
    min_rating: MinRating = None,
    max_rating: MaxRating = None,
    min_cost: MinCost = None,
    max_cost: MaxCost = None,
    geo_tag: GeoTag = None,
) -> dict:
    """Search places by name with lightweight POI output (place_id, name, type, rating, cost). Supports type, rating, cost, and geo-tag filtering."""  # noqa: E501
    return _place_search(
        ctx,
        LIGHT_FIELDS,
        query_name,
        place_types=place_types,
        min_rating=min_rating,
        max_rating=max_rating,
        min_cost=min_cost,
        max_cost=max_cost,
        geo_tag=geo_tag,
    )


@tool("place_search", toolsets=("engine",))
def place_search_engine(
    ctx: ToolContext,
    query_name: QueryName,
    place_types: EnginePlaceTypes = None,
    min_rating: MinRating = None,
    max_rating: MaxRating = None,
    min_cost: MinCost = None,
    max_cost: MaxCost = None,
    geo_tag: EngineGeoTag = None,
    social_mem: SocialMem = None,
) -> dict:
    """Search places by name with enhanced filters and return full POI records. Data Engine version can filter by both static geo tags and social-memory keywords."""  # noqa: E501
    return _place_search(
        ctx,
        ENGINE_FIELDS,
        query_name,
        place_types=place_types,
        min_rating=min_rating,
        max_rating=max_rating,
        min_cost=min_cost,
        max_cost=max_cost,
        geo_tag=geo_tag,
        social_mem=social_mem,
    )


# ---------------------------------------------------------------- place_detail


@tool("place_detail", toolsets=("agent",))
def place_detail(
    ctx: ToolContext,
    place_id: Annotated[str, "POI place_id (from place_search or nearby_search)"],
) -> dict:
    """Get full POI information for one place, including name, type, address, hours, rating, cost, tags, and alias."""  # noqa: E501
    return place_row(ctx, place_id.strip(), "place_id", DETAIL_FIELDS)


# ---------------------------------------------------------------- nearby_search


def _nearby(ctx, fields, center, radius_meters, **filters) -> dict:
    clauses, params = _where(ctx, **filters)
    if isinstance(center, str):
        if not radius_meters > 0 or radius_meters > MAX_RADIUS_M:
            raise invalid(
                "radius_meters",
                f"radius_meters must be > 0 and <= {MAX_RADIUS_M:g}, got {radius_meters:g}",
                f"0 < radius_meters <= {MAX_RADIUS_M:g}",
            )
        anchor = place_row(ctx, center.strip(), "center")
        shape_params = [ctx.city_id, anchor["place_id"]]
        excluded = [anchor["place_id"]]
        head = {"center": anchor, "radius_meters": radius_meters}
    else:
        if not radius_meters > 0 or radius_meters > MAX_ROUTE_BUFFER_M:
            raise invalid(
                "radius_meters",
                f"a route buffer must be > 0 and <= {MAX_ROUTE_BUFFER_M:g} m, got {radius_meters:g}",
                f"0 < radius_meters <= {MAX_ROUTE_BUFFER_M:g} for a route center",
            )
        route = route_between(
            ctx,
            center.start,
            center.end,
            vehicle=center.vehicle,
            mode="time",
            start_param="center.start",
            end_param="center.end",
        )
        excluded = [center.start.strip(), center.end.strip()]
        head = {
            "center": {
                "start": center.start.strip(),
                "end": center.end.strip(),
                "vehicle": center.vehicle,
                "total_distance_m": route.total_distance_m,
                "total_time_s": route.total_time_s,
            },
            "radius_meters": radius_meters,
        }
    clauses.append("NOT (p.place_id = ANY(%s))")
    params.append(excluded)
    if isinstance(center, str):
        total, results = _near_shape(fields, clauses, params, (_PLACE_SHAPE, shape_params), radius_meters)
    elif (scales := planar_scales(route.geometry)) is None:  # across the antimeridian or near a pole: all exact
        line = ("ST_GeomFromGeoJSON(%s)::geography", [json.dumps(route.geometry)])
        total, results = _near_shape(fields, clauses, params, line, radius_meters)
    else:
        total, results = _along_route(ctx, fields, clauses, params, route.geometry, scales, radius_meters)
    return _listing(total, results, **head)


_PLACE_SHAPE = "(SELECT location FROM environment_place WHERE city_id = %s AND place_id = %s)"


def _near_shape(fields, clauses, params, shape, radius_meters) -> tuple[int, list[dict]]:
    """The matches within ``radius_meters`` of a shape (SQL of a geography, its parameters), nearest first
    (then place_id): (count, first page).

    The index probes the box ST_DWithin(geography) would probe (``_ST_Expand``, which ST_DWithin's
    index support adds); each candidate's spheroid distance is then computed once and compared
    with the radius, which is ST_DWithin's own exact test (the spheroid distance of the closest
    points on the sphere, at most the radius). OFFSET 0 keeps PostgreSQL from inlining the
    distance into both the filter and the output.
    """
    shape_sql, shape_params = shape
    cols = ", ".join(f"p.{f}" for f in fields)
    sql = (
        f"SELECT count(*) OVER (), {', '.join(f'w.{f}' for f in fields)}, w.distance_m FROM ("
        f"SELECT {cols}, ST_Distance(p.location, {shape_sql}) AS distance_m FROM environment_place p "
        f"WHERE {' AND '.join(clauses)} AND p.location && _ST_Expand({shape_sql}, %s) OFFSET 0) w "
        "WHERE w.distance_m <= %s ORDER BY w.distance_m, w.place_id LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*shape_params, *params, *shape_params, radius_meters, radius_meters, LIST_CAP])
        rows = cursor.fetchall()
    return (rows[0][0] if rows else 0), _with_distances(fields, rows)


def _with_distances(fields, rows) -> list[dict]:
    """Rows of (count, *fields, distance) as dicts, distances rounded to decimetres."""
    results = [dict(zip([*fields, "distance_m"], row[1:])) for row in rows]
    for record in results:
        record["distance_m"] = round(record["distance_m"], 1)
    return results


# Bounds on a degree's length on the WGS84 spheroid, for the planar tests along a route: a degree
# of latitude is at least 110,574 m (at the equator); one of longitude at least 111,319 m x
# cos(latitude) (the prime vertical radius is at least the equatorial 6,378,137 m); neither is
# over 111,700 m (x cos(latitude) for longitude: the largest radius of curvature is 6,399,594 m).
_DEGREE_MIN_LAT_M, _DEGREE_MIN_LON_M, _DEGREE_MAX_M = 110_574.0, 111_319.0, 111_700.0
_PLANAR_MAX_LATITUDE = 85.0  # nearer a pole a degree of longitude shrinks too fast for one scale per route
_EARTH_MIN_RADIUS_M = 6_350_000.0


def planar_scales(geometry: dict) -> tuple[float, float, float, float] | None:
    """(metres per degree of longitude, of latitude, bound B's stretch, the bounds' margin in metres)
    for a route's planar tests, or None where they do not hold (the route crosses the antimeridian
    or comes within 5 degrees of a pole): its distances are then all computed exactly.

    The scales are no longer than a true degree anywhere within 0.05 degrees of the route, and the
    stretch is 2 % over the largest ratio of a true degree's length to its scale there. The
    margin covers how far a great-circle segment bows away from the straight line between its
    ends in longitude and latitude (about L^2 tan(latitude) / 8R for a segment L long; 3 m for
    10 km at Helsinki), taken 1.5 times and never under 20 m.
    """
    points = geometry["coordinates"]
    longitudes, latitudes = [lon for lon, _ in points], [abs(lat) for _, lat in points]
    if max(longitudes) - min(longitudes) > 180.0 or max(latitudes) > _PLANAR_MAX_LATITUDE:
        return None
    highest, lowest = max(latitudes) + 0.05, max(min(latitudes) - 0.05, 0.0)
    lon_m, lat_m = _DEGREE_MIN_LON_M * math.cos(math.radians(highest)), _DEGREE_MIN_LAT_M
    most_lon_m = _DEGREE_MAX_M * math.cos(math.radians(lowest))
    stretch = 1.02 * max(_DEGREE_MAX_M / lat_m, most_lon_m / lon_m)
    longest = max(
        math.hypot((b[0] - a[0]) * most_lon_m, (b[1] - a[1]) * _DEGREE_MAX_M) for a, b in zip(points, points[1:])
    )
    bow = longest**2 * math.tan(math.radians(highest)) / (8 * _EARTH_MIN_RADIUS_M)
    return lon_m, lat_m, stretch, max(20.0, 1.5 * bow)


def _along_route(ctx, fields, clauses, params, geometry: dict, scales, radius_meters) -> tuple[int, list[dict]]:
    """The matches within ``radius_meters`` of a route, nearest first (then place_id): (count, first page).

    The exact distance (PostGIS geography ST_Distance on the spheroid, compared with the radius
    as ST_DWithin does) costs microseconds per place, and a dense city holds thousands of
    places in a buffer, so it is computed only where it decides something. A planar distance
    (coordinates scaled to metres) is cheap and close to it, within two bounds:

      (A) planar <= 1.01 x exact + margin: the scales are no longer than a true degree (the exact
          distance is a geodesic on the spheroid), the 1 % is slack, and the margin covers a
          segment's great-circle bow (see planar_scales). So no place over ``1.01 r + margin``
          (planar) can be within r.
      (B) exact <= stretch x planar + margin: ``stretch`` is 2 % over the largest ratio of a true
          degree's length to its scale; the 2 % also covers PostGIS measuring to the point nearest
          on the sphere rather than on the spheroid (at most 0.7 %). So every place with planar
          <= (r - margin) / stretch is within r, without an exact test.

    The count is the places surely within plus the exact tests in the band between the two.
    The first page needs exact distances only up to ``far``, the largest exact distance of the
    20 planar-nearest candidates: at least 20 places (or all of them) lie within ``far``, so the
    page's places do, and by bound A they all have planar <= 1.01 far + margin (``top_m`` in the
    query). If one of those 20 is not a match, ``far`` > r and every candidate is in that set.
    Each route piece probes the planar index (place_location_geom) with its own small box, so
    only places near the line are read. tests/environment/test_bounded_tools.py checks both
    bounds and compares the answers with ST_DWithin and ST_Distance on every place.
    """
    lon_m, lat_m, stretch, margin_m = scales  # planar_scales(geometry)
    reach_m = 1.01 * radius_meters + margin_m
    sure_m = (radius_meters - margin_m) / stretch
    pieces = [_ewkt(piece) for piece in _pieces(geometry["coordinates"], 2 * reach_m, lon_m, lat_m)]
    assert clauses[0] == "p.city_id = %s", clauses  # _where's first; + 0 there: the planar index alone finds them
    where = " AND ".join(["p.city_id + 0 = %s", *clauses[1:]])
    cols = ", ".join(f"p.{f}" for f in fields)
    sql = (
        "WITH s AS MATERIALIZED (SELECT w::geometry AS geom, ST_Scale(w::geometry, %s, %s) AS scaled "
        "FROM unnest(%s::text[]) w), "
        "line AS MATERIALIZED (SELECT ST_GeomFromGeoJSON(%s)::geography AS g), "
        # the matches that may be within the radius (bound A), each with its planar distance to the route;
        # each piece's box probes the planar index
        "m AS MATERIALIZED (SELECT * FROM (SELECT p.id, p.place_id, p.location, "
        "min(ST_Distance(ST_Scale(p.location::geometry, %s, %s), s.scaled)) AS planar "
        "FROM s JOIN environment_place p ON p.location::geometry && ST_Expand(s.geom, %s, %s) "
        f"WHERE {where} GROUP BY p.id) g WHERE g.planar <= %s), "
        "k AS MATERIALIZED (SELECT 1.01 * max(ST_Distance(f.location, line.g)) + %s AS top_m "
        "FROM (SELECT location FROM m ORDER BY planar, place_id LIMIT %s) f, line), "
        # exact distances where they decide something: the first page's candidates and the band
        "e AS MATERIALIZED (SELECT m.id, m.place_id, m.planar, m.planar <= k.top_m AS top, "
        "ST_Distance(m.location, line.g) AS distance_m FROM m, k, line WHERE m.planar <= k.top_m OR m.planar > %s), "
        "total AS (SELECT (SELECT count(*) FROM m WHERE planar <= %s) "
        "+ (SELECT count(*) FROM e WHERE planar > %s AND distance_m <= %s) AS n), "
        "page AS (SELECT id, place_id, distance_m FROM e WHERE top AND distance_m <= %s "
        "ORDER BY distance_m, place_id LIMIT %s) "
        f"SELECT total.n, {cols}, page.distance_m FROM page JOIN environment_place p ON p.id = page.id, total "
        "ORDER BY page.distance_m, page.place_id"
    )
    values = [
        *(lon_m, lat_m, pieces, json.dumps(geometry)),
        *(lon_m, lat_m, reach_m / lon_m, reach_m / lat_m, ctx.city_id, *params[1:], reach_m),
        *(margin_m, LIST_CAP),
        sure_m,
        *(sure_m, sure_m, radius_meters),
        *(radius_meters, LIST_CAP),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        rows = cursor.fetchall()
    return (rows[0][0] if rows else 0), _with_distances(fields, rows)


def _pieces(points: list, length_m: float, lon_m: float, lat_m: float) -> list[list]:
    """The route cut into consecutive pieces about ``length_m`` long (sharing their end points).

    Pieces near the buffer's width keep each index probe's box small without testing the same
    places against many tiny segments.
    """
    pieces, current, run = [], [points[0]], 0.0
    for a, b in zip(points, points[1:]):
        current.append(b)
        run += math.hypot((b[0] - a[0]) * lon_m, (b[1] - a[1]) * lat_m)
        if run >= length_m:
            pieces.append(current)
            current, run = [b], 0.0
    if len(current) > 1 or not pieces:
        pieces.append(current)
    return pieces


def _ewkt(points: list) -> str:
    if len(points) == 1:
        return f"SRID=4326;POINT({points[0][0]!r} {points[0][1]!r})"
    return "SRID=4326;LINESTRING(" + ",".join(f"{x!r} {y!r}" for x, y in points) + ")"


@tool("nearby_search", toolsets=("agent",))
def nearby_search(
    ctx: ToolContext,
    center: Center,
    radius_meters: Radius = 100.0,
    place_types: PlaceTypes = None,
    min_rating: MinRating = None,
    max_rating: MaxRating = None,
    min_cost: MinCost = None,
    max_cost: MaxCost = None,
    geo_tag: GeoTag = None,
) -> dict:
    """Search nearby places around a POI or along a route buffer. Standard agent version returns a lightweight POI list with distance."""  # noqa: E501
    return _nearby(
        ctx,
        LIGHT_FIELDS,
        center,
        radius_meters,
        place_types=place_types,
        min_rating=min_rating,
        max_rating=max_rating,
        min_cost=min_cost,
        max_cost=max_cost,
        geo_tag=geo_tag,
    )


@tool("nearby_search", toolsets=("engine",))
def nearby_search_engine(
    ctx: ToolContext,
    center: Center,
    radius_meters: Annotated[float, "Search radius/buffer in meters"] = 100.0,
    place_types: EnginePlaceTypes = None,
    min_rating: MinRating = None,
    max_rating: MaxRating = None,
    min_cost: MinCost = None,
    max_cost: MaxCost = None,
    geo_tag: EngineGeoTag = None,
    social_mem: NearbySocialMem = None,
) -> dict:
    """Search nearby places around a POI or along a route buffer and return full POI records, including address, opentime_week, tag, alias, long_mem, and short_mem."""  # noqa: E501
    return _nearby(
        ctx,
        ENGINE_FIELDS,
        center,
        radius_meters,
        place_types=place_types,
        min_rating=min_rating,
        max_rating=max_rating,
        min_cost=min_cost,
        max_cost=max_cost,
        geo_tag=geo_tag,
        social_mem=social_mem,
    )


# ---------------------------------------------------------------- sample_place


@tool("sample_place", toolsets=("engine",))
def sample_place(
    ctx: ToolContext,
    num_samples: Annotated[int, "Number of random POIs to sample (typically 1-50)"] = 10,
    seed: Annotated[int, "Sampling seed; the same seed returns the same places (default 0)"] = 0,
) -> dict:
    """Randomly sample POIs from the map database for prompt initialization. Returns full POI information including memory fields."""  # noqa: E501
    if not 1 <= num_samples <= 50:
        raise invalid(
            "num_samples", f"num_samples must be between 1 and 50, got {num_samples}", "1 <= num_samples <= 50"
        )
    clauses, params = ["p.city_id = %s"], [ctx.city_id]
    total, results = _query(
        ENGINE_FIELDS, clauses, params, "md5(p.place_id || ':' || %s), p.place_id", [str(seed)], limit=num_samples
    )
    return {"num_samples": len(results), "pois": results}
